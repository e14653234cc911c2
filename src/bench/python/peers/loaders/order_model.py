"""A reference that is not a loader: corgipile's order without Spark. The whole table in memory, its
row groups in a new random order every epoch, poured into buffers of --buffer-percent of the table,
each buffer shuffled and emitted whole: as the source's FillPlan pours them, the fewest buffers the
capacity allows, as even as row groups allow (here: an equal number of row groups each, which is
FillPlan's pour when, as in the bench's tables, the row groups are of one size).

It separates what corgipile's order does to a learner from what its Spark path does, and runs at
any seed or buffer in seconds: set beside corgipile's line it shows whether a gap is the order's."""

import numpy as np
import pyarrow.parquet as pq

from peers.stream import COLUMNS
from peers.loaders import Loader, split


class OrderModel(Loader):
    def __init__(self, s):
        self.y, self.x = split(pq.read_table(s.files, columns=COLUMNS))
        sizes = [meta.row_group(g).num_rows for meta in (pq.ParquetFile(f).metadata for f in s.files)
                 for g in range(meta.num_row_groups)]
        if max(sizes) > s.buffer_rows:
            raise SystemExit(f"Cannot model corgipile's order: a row group of {max(sizes)} rows is larger than"
                             f" the buffer of {s.buffer_rows}, and the model does not split row groups")
        starts = np.concatenate([[0], np.cumsum(sizes)])
        self.blocks = [np.arange(starts[i], starts[i + 1]) for i in range(len(sizes))]
        self.fills = fewest_fills(sizes, s.buffer_rows)
        self.seed = s.seed
        self.batch_rows = s.batch_rows
        self.library = f"numpy {np.__version__}"
        self.description = (f"the whole table in memory in corgipile's order: {len(sizes)} row groups shuffled,"
                            f" poured evenly into {self.fills} buffers of at most {s.buffer_rows} rows,"
                            " each shuffled and drained")

    def order(self, epoch):
        rng = np.random.default_rng([self.seed, epoch])
        blocks = rng.permutation(len(self.blocks))
        fills = np.array_split(blocks, self.fills)
        return np.concatenate([rng.permutation(np.concatenate([self.blocks[b] for b in f])) for f in fills])

    def batches(self, epoch):
        order = self.order(epoch)
        for start in range(0, order.shape[0], self.batch_rows):
            idx = order[start:start + self.batch_rows]
            yield self.y[idx], self.x[idx]


def fewest_fills(sizes, capacity):
    """Buffers of at most `capacity` rows that whole row groups of these sizes need, poured in order."""
    fills, in_fill = 0, 0
    for rows in sizes:
        if in_fill and in_fill + rows > capacity:
            fills, in_fill = fills + 1, 0
        in_fill += rows
    return fills + (1 if in_fill else 0) or 1


def open_loader(settings):
    return OrderModel(settings)
