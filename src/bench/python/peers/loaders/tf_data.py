"""tf.data's usual recipe for Parquet: a dataset of file names, interleave over a per-file reader (a
tf.py_function reading the file with pyarrow into one (rows, 29) float64 tensor: label then f1..f28),
unbatch to rows, then batch and prefetch. buffer: the partial shuffle the tf.data guide gives: file
names shuffled every epoch, two files read at a time (parallel interleave, deterministic), then a
per-row shuffle buffer of --buffer-percent of the table reshuffled every iteration. default: tf.data
with no shuffling: files in storage order one after the other (flat_map), no shuffle, no prefetch.

The dataset is built once and iterated once per epoch: tf.data draws every iteration's shuffle seeds
from the op seeds and tf.random.set_seed(seed), so the order is the same for a seed in any process
and new every epoch (which is why batches(epoch) must be called for epochs 0, 1, ... in turn).

A row travels as one 29-wide tensor rather than a (label, features) pair: the same rows in the same
order, but unbatch, shuffle and batch handle one component per row instead of two, which is most of
their per-row cost. py_function rather than Dataset.from_generator: the same reads, about twice as
fast per file here."""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")  # before TensorFlow loads: no start-up INFO lines

import numpy as np
import pyarrow
import pyarrow.parquet as pq
import tensorflow as tf

from peers.stream import COLUMNS
from peers.loaders import Loader


def read(path):
    """One Parquet file as a (rows, 29) float64 matrix, columns in COLUMNS order."""
    table = pq.read_table(path.numpy().decode(), columns=COLUMNS)
    return np.column_stack([np.asarray(table.column(c).to_numpy(), dtype=np.float64) for c in COLUMNS])


def file_rows(path):
    """A dataset of one element: the file's rows (the per-file reader interleave maps every name to)."""

    def load(p):
        rows = tf.py_function(read, [p], tf.float64)
        rows.set_shape([None, len(COLUMNS)])
        return rows

    return tf.data.Dataset.from_tensors(path).map(load)


class TfData(Loader):
    def __init__(self, s):
        self.buffer = s.config == "buffer"
        tf.random.set_seed(s.seed)
        files = tf.data.Dataset.from_tensor_slices(s.files)
        if self.buffer:
            ds = (
                files.shuffle(len(s.files), seed=s.seed + 1, reshuffle_each_iteration=True)
                .interleave(file_rows, cycle_length=s.cores, num_parallel_calls=s.cores, deterministic=True)
                .unbatch()
                .shuffle(s.buffer_rows, seed=s.seed, reshuffle_each_iteration=True)
                .batch(s.batch_rows)
                .prefetch(tf.data.AUTOTUNE)
            )
            self.description = (
                f"from_tensor_slices({len(s.files)} files).shuffle({len(s.files)}, seed={s.seed + 1},"
                f" reshuffle_each_iteration=True).interleave(py_function pyarrow reader, cycle_length={s.cores},"
                f" num_parallel_calls={s.cores}, deterministic=True).unbatch().shuffle({s.buffer_rows},"
                f" seed={s.seed}, reshuffle_each_iteration=True).batch({s.batch_rows}).prefetch(AUTOTUNE);"
                f" tf.random.set_seed({s.seed}); one dataset iterated once per epoch; rows as (29,) float64"
            )
        else:
            ds = files.flat_map(file_rows).unbatch().batch(s.batch_rows)
            self.description = (
                f"from_tensor_slices({len(s.files)} files).flat_map(py_function pyarrow reader)"
                f".unbatch().batch({s.batch_rows}); files in storage order, no shuffle,"
                f" no prefetch; rows as (29,) float64"
            )
        self.dataset = ds
        self.next_epoch = 0
        self.library = f"tensorflow {tf.__version__} (tf.data), pyarrow {pyarrow.__version__}"

    def batches(self, epoch):
        if epoch != self.next_epoch:
            raise ValueError(
                f"Cannot give epoch {epoch}: tf.data's orders come one iteration after another,"
                f" the next one is epoch {self.next_epoch}"
            )
        self.next_epoch += 1
        for rows in self.dataset:
            rows = rows.numpy()
            yield rows[:, 0], rows[:, 1:]


def open_loader(settings):
    return TfData(settings)
