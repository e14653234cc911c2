"""PyTorch's usual recipe for Parquet too large to shuffle: an IterableDataset whose workers read row
groups with pyarrow and, in buffer, take them in a new random order every epoch (split among the
DataLoader's workers) and pass them through a shuffle buffer of --buffer-percent of the table (split
among the workers): every incoming row group replaces as many random rows of the buffer, which go
out, as tf.data's shuffle does row by row, vectorized. default: row groups in storage order, no buffer.
The random choices come from NumPy generators seeded with (seed, epoch, worker), so the order is the
same for a seed and new every epoch."""

import numpy as np
import pyarrow.parquet as pq
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

from peers.stream import COLUMNS
from peers.loaders import Loader, row_groups, split


class RowGroupStream(IterableDataset):
    def __init__(self, groups, seed, buffer_rows, batch_rows, shuffle):
        self.groups = groups
        self.seed = seed
        self.buffer_rows = buffer_rows
        self.batch_rows = batch_rows
        self.shuffle = shuffle
        self.epoch = 0

    def __iter__(self):
        info = get_worker_info()
        worker, workers = (info.id, info.num_workers) if info else (0, 1)
        order = np.arange(len(self.groups))
        if self.shuffle:
            order = np.random.default_rng([self.seed, self.epoch]).permutation(order)
        mine = [self.groups[i] for i in order[worker::workers]]
        rows = self._shuffled(mine, self.buffer_rows // workers, worker) if self.shuffle else map(read, mine)
        for y, x in rows:
            for start in range(0, y.shape[0], self.batch_rows):
                yield y[start : start + self.batch_rows], x[start : start + self.batch_rows]

    def _shuffled(self, groups, capacity, worker):
        rng = np.random.default_rng([self.seed, self.epoch, worker])
        buf_y, buf_x = np.empty(0), np.empty((0, len(COLUMNS) - 1))
        for y, x in map(read, groups):
            if buf_y.shape[0] < capacity:  # filling
                buf_y, buf_x = np.concatenate([buf_y, y]), np.concatenate([buf_x, x])
                continue
            slots = rng.choice(buf_y.shape[0], size=min(y.shape[0], buf_y.shape[0]), replace=False)
            yield buf_y[slots], buf_x[slots]
            buf_y[slots], buf_x[slots] = y[: slots.shape[0]], x[: slots.shape[0]]
            if y.shape[0] > slots.shape[0]:
                buf_y, buf_x = (
                    np.concatenate([buf_y, y[slots.shape[0] :]]),
                    np.concatenate([buf_x, x[slots.shape[0] :]]),
                )
        last = rng.permutation(buf_y.shape[0])
        yield buf_y[last], buf_x[last]


def read(group):
    path, index = group
    y, x = split(pq.ParquetFile(path).read_row_group(index, columns=COLUMNS))
    return y.copy(), x  # writable, as torch wants (column_stack made x a copy already)


class TorchIterable(Loader):
    def __init__(self, s):
        shuffle = s.config == "buffer"
        self.dataset = RowGroupStream(row_groups(s.files), s.seed, s.buffer_rows, s.batch_rows, shuffle)
        # batch_size=None: the workers' batches pass as they are (as tensors)
        self.loader = DataLoader(self.dataset, batch_size=None, num_workers=s.cores)
        self.library = f"torch {torch.__version__}"
        self.description = f"IterableDataset over row groups, DataLoader(batch_size=None, num_workers={s.cores});" + (
            f" row groups permuted per epoch, shuffle buffer of {s.buffer_rows} rows"
            f" ({s.buffer_rows // s.cores} per worker), seeds (seed={s.seed}, epoch, worker)"
            if shuffle
            else " row groups in storage order, no buffer"
        )

    def batches(self, epoch):
        self.dataset.epoch = epoch  # the workers get a copy of the dataset at every iteration
        for y, x in self.loader:
            yield y.numpy(), x.numpy()


def open_loader(settings):
    return TorchIterable(settings)
