"""Petastorm: make_batch_reader over the plain Parquet folder (Spark's files, no Petastorm metadata), a
new reader per epoch (num_epochs=1), stopped and joined when the epoch ends.

default: make_batch_reader with its own defaults: a thread pool of 10 workers (reader_pool_type='thread',
workers_count=10, results_queue_size=50), shuffle_row_groups=True with seed=None (so the row groups come
in an order drawn from NumPy's global generator: a new order every epoch, not reproducible across
processes), shuffle_rows=False, shuffle_row_drop_partitions=1; iterated directly, each item a namedtuple
of one row group's column arrays, no shuffling queue.

buffer: Petastorm's documented partial shuffle for PyTorch: make_batch_reader(shuffle_row_groups=True,
seed=seed + epoch, workers_count=--cores, num_epochs=1) fed to
petastorm.pytorch.BatchedDataLoader(batch_size=--batch-rows, shuffling_queue_capacity=--buffer-percent
of the table), whose BatchedRandomShufflingBuffer shuffles rows (not whole reader batches). The reader's
seed permutes the row groups (ConcurrentVentilator, np.random.default_rng(seed)) and, being set, is
meant to make the thread pool hand results back in ventilation order (uber/petastorm#810), but with two
workers a race still swaps neighbouring row groups at times (seen in 1 of 3 runs); the buffer draws
its permutations with torch.randperm from torch's global generator, which BatchedDataLoader takes no
seed for, so torch.manual_seed(seed + epoch) is called before every epoch. Petastorm 0.13.1 treats a
seed of 0 as no seed (ventilator and thread pool), so seed + epoch must not be 0.
"""

import os

import petastorm
import torch
from petastorm import make_batch_reader
from petastorm.pytorch import BatchedDataLoader

from peers.stream import COLUMNS
from peers.loaders import Loader, split


class PetastormReader(Loader):
    def __init__(self, s):
        self.url = "file://" + os.path.abspath(s.train)  # file:// + a relative path makes its first folder a host
        self.buffer = s.config == "buffer"
        self.seed = s.seed
        self.cores = s.cores
        self.batch_rows = s.batch_rows
        self.buffer_rows = s.buffer_rows
        self.library = f"petastorm {petastorm.__version__} (torch {torch.__version__})"
        if self.buffer:
            self.description = (
                f"a new make_batch_reader('{self.url}', shuffle_row_groups=True,"
                f" seed={s.seed}+epoch, workers_count={s.cores}, num_epochs=1) per epoch,"
                f" in BatchedDataLoader(batch_size={s.batch_rows},"
                f" shuffling_queue_capacity={s.buffer_rows}); torch.manual_seed({s.seed}+epoch)"
                f" before each epoch"
            )
        else:
            self.description = (
                f"a new make_batch_reader('{self.url}', num_epochs=1) per epoch, defaults"
                f" otherwise (thread pool, workers_count=10, shuffle_row_groups=True,"
                f" seed=None, shuffle_rows=False), iterated directly, no shuffling queue"
            )

    def batches(self, epoch):
        if self.buffer:
            seed = self.seed + epoch
            if seed == 0:
                raise ValueError("Cannot seed Petastorm with 0 (it means no seed): pick another --seed")
            reader = make_batch_reader(
                self.url, shuffle_row_groups=True, seed=seed, workers_count=self.cores, num_epochs=1
            )
        else:
            reader = make_batch_reader(self.url, num_epochs=1)
        try:
            if self.buffer:
                torch.manual_seed(seed)
                loader = BatchedDataLoader(
                    reader, batch_size=self.batch_rows, shuffling_queue_capacity=self.buffer_rows
                )
                for batch in loader:
                    yield split({c: batch[c].numpy() for c in COLUMNS})
            else:
                for row_group in reader:
                    yield split(row_group._asdict())
        finally:
            reader.stop()
            reader.join()


def open_loader(settings):
    return PetastormReader(settings)
