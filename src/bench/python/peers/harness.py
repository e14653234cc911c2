"""One loader, one configuration, one process: reads the label-sorted table for a number of epochs
and writes a CSV row per epoch (scripts/bench peers runs it once per loader and configuration, each
in the loader's own virtual environment).

Every loader hands the same Consumer (peers/stream.py) mini-batches of (label, features) as NumPy arrays, so only the
order differs between them. The Consumer cuts the stream into batches of --batch-rows rows; in
--mode train it feeds each to one scikit-learn SGDClassifier.partial_fit, so the learner and its
batches are identical whatever the loader, and keeps the labels and f1 of every row to judge the
order: its fingerprint (SHA-256 of f1 in stream order), whether it holds every row of the table
exactly once, and the shuffle-quality figure of scripts/bench.
"""

import argparse
import csv
import hashlib
import importlib
import os
import sys
import threading
import time
import traceback
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from peers import CONFIGS, LOADERS, run_name
from peers.stream import COLUMNS, FEATURES, LABEL, Consumer

FIELDS = [
    "loader",
    "config",
    "mode",
    "seed",
    "rows",
    "epoch",
    "seconds",
    "rows_per_second",
    "setup_seconds",
    "fingerprint",
    "exactly_once",
    "chunk_variance",
    "test_accuracy",
    "peak_pss_mib",
    "cores",
    "library",
    "description",
]


class Settings:
    """What every loader is asked for: the table, the seed, and the buffer of the partial shuffle."""

    def __init__(self, args, files, total_rows):
        self.train = args.train
        self.files = files
        self.total_rows = total_rows
        self.seed = args.seed
        self.config = args.config
        self.buffer_percent = args.buffer_percent
        self.buffer_rows = max(1, int(total_rows * args.buffer_percent / 100))
        self.partitions = args.partitions
        self.fail_once = args.fail_once
        self.parquet = args.parquet
        self.batch_rows = args.batch_rows
        self.cores = args.cores
        self.work = Path(args.work)


# A scan reads this many epochs: the first ones pay for warming up (JIT, worker pools, caches; a JVM
# reading the 1M table spent about a second of compiler CPU in each of its epochs 1 to 3, which take
# under two seconds); the report gives the median rows/s of the second half, as one epoch's
# figure moves with the shared machine, and they show whether epochs differ.
SCAN_EPOCHS = 8


class PeakMemory:
    """Peak proportional set size (PSS) of this process and all its descendants, sampled every 500 ms:
    PSS splits shared pages among the processes that map them, so worker pools and shared-memory
    object stores are counted once. A sample costs about 15 ms of CPU (all of /proc, a JVM's smaps),
    hence every 500 ms, not more often."""

    def __init__(self):
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def reset(self):
        self.peak = 0

    def _run(self):
        while not self._stop.wait(0.5):
            self.peak = max(self.peak, tree_pss(os.getpid()))

    def stop(self):
        self._stop.set()
        self._thread.join()
        return self.peak


def tree_pss(root):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, ()))
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
        except OSError:
            pass
    return total


def table_files(train):
    files = sorted(str(p) for p in Path(train).glob("*.parquet"))
    if not files:
        raise SystemExit(f"Cannot read the training table: no *.parquet file in {train}")
    return files


def reference(files):
    """The table's f1 values sorted: a stream holds every row exactly once if its sorted f1 is equal."""
    rows = 0
    parts = []
    for path in files:
        meta = pq.ParquetFile(path).metadata
        rows += meta.num_rows
        parts.append(pq.read_table(path, columns=["f1"]).column(0).to_numpy())
    return np.sort(np.concatenate(parts)), rows


def chunk_variance(labels, percent):
    """Variance of the share of positives across chunks of `percent` % of the stream (ShuffleQuality.java)."""
    n = labels.shape[0]
    chunk = max(1, int(np.ceil(n * percent / 100)))
    shares = [labels[s : s + chunk].mean() for s in range(0, n - chunk + 1, chunk)]
    return float(np.var(shares)) if shares else float("nan")


def test_set(test_dir):
    table = pq.read_table(test_dir, columns=COLUMNS)
    y = table.column(LABEL).to_numpy()
    x = np.column_stack([table.column(c).to_numpy() for c in FEATURES])
    return y, x


def learner(seed, average=False):
    from sklearn.linear_model import SGDClassifier

    # logistic loss, sklearn's defaults otherwise (average: the mean of the iterates, ASGD); the same
    # for every loader
    return SGDClassifier(loss="log_loss", random_state=seed, average=average)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--loader", choices=sorted(LOADERS))
    p.add_argument(
        "--config",
        choices=CONFIGS,
        default="buffer",
        help="buffer: the loader's partial shuffle at --buffer-percent; default: its defaults",
    )
    p.add_argument(
        "--mode",
        choices=("scan", "train", "estimator"),
        default="scan",
        help="scan: four epochs, no learner (throughput); train: --epochs epochs into the learner;"
        " estimator (corgipile only): the project's SGDClassifier with its defaults instead",
    )
    p.add_argument("--train", help="the label-sorted training table (a folder of Parquet files)")
    p.add_argument("--test", help="the test table")
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--buffer-percent", type=float, default=10.0)
    p.add_argument("--batch-rows", type=int, default=1024)
    p.add_argument("--cores", type=int, default=2)
    p.add_argument(
        "--partitions",
        type=int,
        default=1,
        help="corgipile only: streams read in parallel (scan mode; training needs one)",
    )
    p.add_argument(
        "--average", action="store_true", help="train: the learner averages its iterates (SGDClassifier(average=True))"
    )
    p.add_argument(
        "--fail-once",
        action="store_true",
        help="corgipile only: the first attempt of each task fails half-way, Spark retries it",
    )
    p.add_argument(
        "--parquet",
        action="store_true",
        help="corgipile only: Spark's own Parquet scan of the table instead of the corgipile"
        " source, through the same mapInArrow: the ceiling of that path into Python",
    )
    p.add_argument("--work", default="target/peers-work", help="scratch space (converted shards, spill)")
    p.add_argument("--out", help="CSV to append rows to")
    args = p.parse_args(argv)
    for name in ("loader", "train", "test", "out"):
        if getattr(args, name) is None:
            p.error(f"--{name} is required")
    run = run_name(args.mode, args.partitions, args.fail_once, args.average, args.parquet)

    files = table_files(args.train)
    sorted_f1, total_rows = reference(files)
    settings = Settings(args, files, total_rows)
    settings.work.mkdir(parents=True, exist_ok=True)
    test_y, test_x = test_set(args.test)
    mean, scale = test_x.mean(axis=0), test_x.std(axis=0)
    model = learner(args.seed, args.average) if args.mode == "train" else None
    consumer = Consumer(args.batch_rows, model, mean, scale)
    memory = PeakMemory()

    module = importlib.import_module(f"peers.loaders.{LOADERS[args.loader][0]}")
    out = Path(args.out)
    new = not out.exists()
    with out.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            w.writeheader()
        if args.mode == "estimator":
            if not hasattr(module, "estimator_epochs"):
                raise SystemExit(f"Cannot run --mode estimator with --loader {args.loader}: only corgipile has one")
            for epoch, (seconds, accuracy, library, description) in enumerate(
                module.estimator_epochs(settings, args.test, args.epochs, memory)
            ):
                w.writerow(
                    {
                        "loader": args.loader,
                        "config": args.config,
                        "mode": run,
                        "seed": args.seed,
                        "rows": total_rows,
                        "epoch": epoch,
                        "seconds": f"{seconds:.3f}",
                        "rows_per_second": f"{total_rows * (epoch + 1) / seconds:.0f}",
                        "test_accuracy": f"{accuracy:.5f}",
                        "peak_pss_mib": f"{memory.peak / 2**20:.0f}",
                        "cores": args.cores,
                        "library": library,
                        "description": description,
                    }
                )
                f.flush()
                print(
                    f"[peers] estimator maxIter={epoch + 1}: {seconds:.1f} s, accuracy {accuracy:.4f}", file=sys.stderr
                )
            memory.stop()
            return 0
        t0 = time.perf_counter()
        loader = module.open_loader(settings)
        setup = time.perf_counter() - t0
        epochs = SCAN_EPOCHS if args.mode == "scan" else args.epochs
        for epoch in range(epochs):
            memory.reset()
            consumer.start_epoch()
            start = time.perf_counter()
            consumer = loader.run_epoch(epoch, consumer)
            labels, f1 = consumer.finish_epoch()
            seconds = time.perf_counter() - start
            accuracy = float("nan")
            if model is not None:
                model = consumer.learner
                accuracy = float((model.predict((test_x - mean) / scale) == test_y).mean())
            w.writerow(
                {
                    "loader": args.loader,
                    "config": args.config,
                    "mode": run,
                    "seed": args.seed,
                    "rows": total_rows,
                    "epoch": epoch,
                    "seconds": f"{seconds:.3f}",
                    "rows_per_second": f"{labels.shape[0] / seconds:.0f}",
                    "setup_seconds": f"{setup:.3f}",
                    "fingerprint": hashlib.sha256(f1.tobytes()).hexdigest()[:16],
                    "exactly_once": bool(f1.shape[0] == sorted_f1.shape[0] and np.array_equal(np.sort(f1), sorted_f1)),
                    "chunk_variance": f"{chunk_variance(labels, args.buffer_percent):.6g}",
                    "test_accuracy": f"{accuracy:.5f}",
                    "peak_pss_mib": f"{memory.peak / 2**20:.0f}",
                    "cores": args.cores,
                    "library": loader.library,
                    "description": loader.description,
                }
            )
            f.flush()
            print(
                f"[peers] {args.loader}/{args.config} {args.mode} epoch {epoch}: {labels.shape[0]:,} rows in"
                f" {seconds:.1f} s, accuracy {accuracy:.4f}",
                file=sys.stderr,
            )
    loader.close()
    memory.stop()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SystemExit:
        raise
    except BaseException:
        traceback.print_exc()
        sys.exit(1)
