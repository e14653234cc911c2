"""Which order would close issue 16's 1M gap? The `model` reference's order and variants of it, each fed
to the bench's learner (scikit-learn's SGDClassifier, mini-batches of 1024, 5 epochs), all in NumPy over
the label-sorted table in memory: seconds a seed, so an order can be judged before any Java is written.

  drain      corgipile today: row groups shuffled, poured evenly into the fewest buffers, each shuffled
             and drained whole (the `model` loader's order)
  subK       the same with each row group cut into K blocks of consecutive rows (a row range of a row
             group: more, smaller blocks in every buffer)
  rolling    the row groups shuffled, streamed through a buffer that emits a random slot and refills it
             (tf.data's shuffle over a block-shuffled stream)
  halfF      the buffer shuffled, the share F of it emitted, refilled with whole row groups, again

Usage (the corgipile environment of scripts/bench peers):
  PYTHONPATH=src/bench/python .venv-peers/corgipile/bin/python -m peers.order_variants \\
      --table target/bench-data/peers-higgs-1000000 --variant sub4 --seeds 42,43,44,45,46,47,48
Prints each seed's test accuracy per epoch and the mean of the last 3 epochs (mean ± sd over seeds)."""

import argparse

import numpy as np
import pyarrow.parquet as pq

from peers.harness import learner, table_files, test_set
from peers.loaders import split
from peers.stream import COLUMNS, Consumer


def blocks(sizes, pieces):
    starts = np.concatenate([[0], np.cumsum(sizes)])
    return [part for i in range(len(sizes)) for part in np.array_split(np.arange(starts[i], starts[i + 1]), pieces)]


def drain(rng, parts, fills):
    order = rng.permutation(len(parts))
    return np.concatenate(
        [rng.permutation(np.concatenate([parts[b] for b in f])) for f in np.array_split(order, fills)]
    )


def rolling(rng, parts, capacity):
    stream = np.concatenate([parts[b] for b in rng.permutation(len(parts))])
    buffer = stream[:capacity].copy()
    out = np.empty(stream.shape[0], np.int64)
    for i, slot in enumerate(rng.integers(0, capacity, size=stream.shape[0] - capacity)):
        out[i] = buffer[slot]
        buffer[slot] = stream[capacity + i]
    out[stream.shape[0] - capacity :] = rng.permutation(buffer)
    return out


def partial_drain(rng, parts, capacity, share):
    todo = list(rng.permutation(len(parts)))
    out, buffer = [], np.zeros(0, np.int64)
    while todo or buffer.shape[0]:
        while todo and buffer.shape[0] + parts[todo[0]].shape[0] <= capacity:
            buffer = np.concatenate([buffer, parts[todo.pop(0)]])
        buffer = rng.permutation(buffer)
        if not todo:
            out.append(buffer)
            break
        emitted = int(buffer.shape[0] * share)
        out.append(buffer[:emitted])
        buffer = buffer[emitted:]
    return np.concatenate(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--table", required=True, help="a scripts/bench peers table (train-sorted-by-label/, test/)")
    p.add_argument("--variant", required=True, help="drain, subK (K >= 1), rolling or halfF (0 < F < 1)")
    p.add_argument("--seeds", default="42,43,44")
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--buffer-percent", type=float, default=10.0)
    args = p.parse_args(argv)
    files = table_files(f"{args.table}/train-sorted-by-label")
    y, x = split(pq.read_table(files, columns=COLUMNS))
    sizes = [
        m.row_group(g).num_rows for m in (pq.ParquetFile(f).metadata for f in files) for g in range(m.num_row_groups)
    ]
    capacity = int(y.shape[0] * args.buffer_percent / 100)
    fills = int(np.ceil(y.shape[0] / capacity))
    v = args.variant
    if v == "drain" or v.startswith("sub"):
        parts = blocks(sizes, int(v[3:]) if v.startswith("sub") else 1)

        def order_of(rng):
            return drain(rng, parts, fills)
    elif v == "rolling":
        parts = blocks(sizes, 1)

        def order_of(rng):
            return rolling(rng, parts, capacity)
    elif v.startswith("half"):
        parts = blocks(sizes, 1)

        def order_of(rng):
            return partial_drain(rng, parts, capacity, float(v[4:]))
    else:
        p.error(f"Cannot use variant '{v}': allowed values are drain, subK, rolling, halfF")
    test_y, test_x = test_set(f"{args.table}/test")
    mean, scale = test_x.mean(axis=0), test_x.std(axis=0)
    finals = []
    for seed in (int(s) for s in args.seeds.split(",")):
        consumer = Consumer(1024, learner(seed), mean, scale)
        accuracy = []
        for epoch in range(args.epochs):
            order = order_of(np.random.default_rng([seed, epoch]))
            consumer.start_epoch()
            for start in range(0, order.shape[0], 1024):
                rows = order[start : start + 1024]
                consumer.feed(y[rows], x[rows])
            consumer.finish_epoch()
            accuracy.append(float((consumer.learner.predict((test_x - mean) / scale) == test_y).mean()))
        finals.append(np.mean(accuracy[-3:]))
        print(v, seed, " ".join(f"{a:.4f}" for a in accuracy), f"last 3: {finals[-1]:.4f}", flush=True)
    sd = np.std(finals, ddof=1) if len(finals) > 1 else 0.0
    print(f"{v}: {np.mean(finals):.4f} ± {sd:.4f} over {len(finals)} seeds")


if __name__ == "__main__":
    main()
