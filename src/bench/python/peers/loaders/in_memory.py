"""References that are not loaders: the whole table in memory, read in storage order (default) or
fully shuffled every epoch (buffer), bounds of what a partial shuffle can reach."""

import numpy as np
import pyarrow.parquet as pq

from peers.stream import COLUMNS
from peers.loaders import Loader, split


class InMemory(Loader):
    def __init__(self, s):
        self.y, self.x = split(pq.read_table(s.files, columns=COLUMNS))
        self.shuffle = s.config == "buffer"
        self.seed = s.seed
        self.batch_rows = s.batch_rows
        self.library = f"numpy {np.__version__}"
        self.description = (
            "the whole table in memory, a new full permutation every epoch"
            if self.shuffle
            else "the whole table in memory, in storage order"
        )

    def batches(self, epoch):
        n = self.y.shape[0]
        order = np.random.default_rng([self.seed, epoch]).permutation(n) if self.shuffle else np.arange(n)
        for start in range(0, n, self.batch_rows):
            idx = order[start : start + self.batch_rows]
            yield self.y[idx], self.x[idx]


def open_loader(settings):
    return InMemory(settings)
