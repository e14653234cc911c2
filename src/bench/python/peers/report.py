"""summary.md and plots of a scripts/bench peers run, from its epochs.csv and failures.csv: every ratio
is against corgipile in the same run (the machines are shared, so only ratios compare)."""

import csv
import math
import statistics
import os
from collections import defaultdict
from pathlib import Path

from peers import REFERENCES

PARTIAL = "buffer"  # the configuration the goals compare: each loader's partial shuffle at the buffer


TAIL = 3  # "converged accuracy": the mean of the last epochs, as one epoch's figure swings with its last buffer
AHEAD = 1.05  # a lead below 5% is a tie: the same scan's rows/s moves by that much between runs on a shared machine


def tail_mean(accuracy):
    return sum(accuracy[-TAIL:]) / len(accuracy[-TAIL:]) if accuracy else math.nan


def warm_rate(scan):
    """A scan's rows per second once warm: the median over the second half of its epochs (the first
    ones pay for warming up: a JVM compiles through the first several epochs of a 1M-row table), as
    one epoch's figure moves with the shared machine."""
    rates = [num(r["rows_per_second"]) for r in scan[len(scan) // 2 :]]
    return statistics.median(rates) if rates else math.nan


def read(path):
    if not path.exists():
        return []
    with path.open() as f:
        return list(csv.DictReader(f))


def num(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def fmt(value, spec):
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else format(value, spec)


class Runs:
    def __init__(self, rows):
        self.by = defaultdict(list)
        self.seeds = defaultdict(list)  # per run key, its seeds in the order they ran
        for r in rows:
            key = (r["rows"], r["loader"], r["config"], r["mode"])
            self.by[key + (r["seed"],)].append(r)
            if r["seed"] not in self.seeds[key]:
                self.seeds[key].append(r["seed"])
        for v in self.by.values():
            v.sort(key=lambda r: int(r["epoch"]))

    def get(self, rows, loader, config, mode, seed=None):
        """One run's epochs: of `seed`, else of the first seed that ran."""
        seeds = self.seeds.get((rows, loader, config, mode))
        if not seeds:
            return []
        return self.by.get((rows, loader, config, mode, seed or seeds[0]), [])

    def every_seed(self, rows, loader, config, mode):
        return {
            seed: self.get(rows, loader, config, mode, seed)
            for seed in self.seeds.get((rows, loader, config, mode), [])
        }

    def tables(self):
        return sorted({k[0] for k in self.seeds}, key=int)

    def loaders(self, rows):
        order = ["corgipile", "petastorm", "ray", "tfdata", "torch", "streaming", *REFERENCES]
        present = {k[1] for k in self.seeds if k[0] == rows}
        return [name for name in order if name in present] + sorted(present - set(order))


def yes_no(value):
    return {True: "yes", False: "no", None: "?"}[value]


def line(rows, runs, loader, config):
    scan = runs.get(rows, loader, config, "scan")
    trains = runs.every_seed(rows, loader, config, "train")
    train = [r for epochs in trains.values() for r in epochs]
    s = scan[-1] if scan else {}  # a warm epoch
    same_seed = None
    if scan and trains.get(scan[0]["seed"]):
        same_seed = scan[0]["fingerprint"] == trains[scan[0]["seed"]][0]["fingerprint"]
    new_each = None
    for epochs in [scan, *trains.values()]:
        if len(epochs) > 1:
            prints = [r["fingerprint"] for r in epochs]
            new_each = (new_each is not False) and len(set(prints)) == len(prints)
    once = [r["exactly_once"] for r in scan + train]
    accuracy, tail, tail_sd, seeds = accuracy_over_seeds(trains)
    _, avg_tail, avg_sd, avg_seeds = accuracy_over_seeds(runs.every_seed(rows, loader, config, "train-average"))
    return {
        "seeds": seeds,
        "tail": tail,
        "tail_sd": tail_sd,
        "average_tail": avg_tail,
        "average_sd": avg_sd,
        "average_seeds": avg_seeds,
        "loader": loader,
        "config": config,
        "rows_per_second": warm_rate(scan),
        "peak": max([num(r["peak_pss_mib"]) for r in scan + train] or [math.nan]),
        "variance": num(s.get("chunk_variance")) if s else (num(train[0]["chunk_variance"]) if train else math.nan),
        "same_seed": same_seed,
        "new_each": new_each,
        "exactly_once": None if not once else all(o == "True" for o in once),
        "accuracy": accuracy,
        "setup": num((scan or train or [{}])[0].get("setup_seconds")),
        "library": (scan or train or [{}])[0].get("library", ""),
        "description": (scan or train or [{}])[0].get("description", ""),
    }


def accuracy_over_seeds(trains):
    """(accuracy per epoch averaged over seeds, mean over seeds of the last epochs' mean, its standard
    deviation, seeds) of one configuration's train runs, {seed: epochs}."""
    by_seed = [[num(r["test_accuracy"]) for r in epochs] for epochs in trains.values()]
    epochs = min((len(a) for a in by_seed), default=0)
    accuracy = [sum(a[e] for a in by_seed) / len(by_seed) for e in range(epochs)]
    tails = [tail_mean(a) for a in by_seed]
    return (
        accuracy,
        sum(tails) / len(tails) if tails else math.nan,
        statistics.stdev(tails) if len(tails) > 1 else math.nan,
        len(by_seed),
    )


def spread(sd, seeds):
    return f" ± {sd:.4f} ({seeds} seeds)" if seeds > 1 else ""


def write(out):
    out = Path(out)
    runs = Runs(read(out / "epochs.csv"))
    failures = read(out / "failures.csv")
    md = [
        "# Data loaders that shuffle partially, side by side",
        "",
        f"Produced by `{os.environ.get('BENCH_COMMAND', 'scripts/bench peers')}`"
        f" ({os.environ.get('BENCH_CODE', 'code version unknown')}). Every loader ran in a process of its own"
        " (with its workers) on the same label-sorted table, 2 cores; `buffer` is each loader's partial"
        " shuffle at a buffer of 10% of the table, `default` its defaults. Rows per second are the median over"
        " the second half of a scan's epochs (no learner; the first ones warm up), consumed as NumPy arrays;"
        " accuracy is of one scikit-learn"
        " `SGDClassifier(loss='log_loss')` fed the stream in mini-batches of 1024 rows (and, in the last"
        " column, the same with `average=True`, which averages its iterates); chunk variance is"
        " the variance of the share of positives across chunks of 10% of the stream (about 2.5e-6 for a"
        " uniform shuffle of 1M rows, 0.23 for this table in storage order). Peak memory is the"
        " proportional set size of the process and all its children. Ratios are against corgipile's line of"
        " the same configuration in the same run. Two lines are references, not loaders: `memory` is the"
        " table in memory, fully shuffled every epoch (`buffer`) or in storage order (`default`); `model` is"
        " it in corgipile's order, computed in NumPy without Spark (row groups shuffled, poured evenly into"
        " buffers, each shuffled and drained), so a difference between corgipile and a peer that `model`"
        " shares is the order's, not corgipile's path.",
        "",
    ]
    for rows in runs.tables():
        md += [f"## {int(rows):,} rows", ""]
        lines = [
            line(rows, runs, loader, c)
            for loader in runs.loaders(rows)
            for c in ("buffer", "default")
            if runs.get(rows, loader, c, "scan") or runs.get(rows, loader, c, "train")
        ]
        ref = {
            c: next((x for x in lines if x["loader"] == "corgipile" and x["config"] == c), None)
            for c in ("buffer", "default")
        }
        md += [
            "| loader | config | rows/s | vs corgipile | peak MiB | chunk variance | exactly once |"
            " same order for a seed | new order each epoch | accuracy by epoch (mean over seeds) |"
            " last 3 epochs' mean |"
            " vs corgipile (points) | last 3 epochs' mean, averaging learner |",
            "|---|---|---:|---:|---:|---:|---|---|---|---|---:|---:|---:|",
        ]
        for x in lines:
            r = ref[x["config"]]
            speed = x["rows_per_second"] / r["rows_per_second"] if r and r["rows_per_second"] else math.nan
            last = x["tail"]
            ref_last = r["tail"] if r else math.nan
            md.append(
                f"| {x['loader']} | {x['config']} | {fmt(x['rows_per_second'], ',.0f')} | {fmt(speed, '.2f')}x"
                f" | {fmt(x['peak'], '.0f')} | {fmt(x['variance'], '.2g')} | {yes_no(x['exactly_once'])}"
                f" | {yes_no(x['same_seed'])} | {yes_no(x['new_each'])}"
                f" | {' '.join(fmt(a, '.4f') for a in x['accuracy'])}"
                f" | {fmt(last, '.4f')}{spread(x['tail_sd'], x['seeds'])}"
                f" | {fmt(100 * (last - ref_last), '+.2f')}"
                f" | {fmt(x['average_tail'], '.4f')}{spread(x['average_sd'], x['average_seeds'])} |"
            )
        p2 = runs.get(rows, "corgipile", PARTIAL, "scan-p2")
        two_streams = warm_rate(p2) if p2 else math.nan
        md += [
            "",
            *corgipile_extra(rows, runs),
            *goals(lines, ref.get(PARTIAL), two_streams),
            "",
            "Configurations:",
            "",
        ]
        md += [f"- **{x['loader']} {x['config']}** ({x['library']}): {x['description']}" for x in lines]
        plot(out, rows, runs, lines)
        md += [
            "",
            f"![rows per second](throughput-{rows}.png)",
            "",
            f"![test accuracy by epoch](accuracy-{rows}.png)",
            "",
        ]
    if failures:
        md += [
            "## What did not install or run",
            "",
            "| rows | loader | config | mode | stage | error | log |",
            "|---|---|---|---|---|---|---|",
        ]
        md += [
            f"| {f['rows']} | {f['loader']} | {f['config']} | {f['mode']} | {f['stage']} |"
            f" {f['error'].replace('|', '/')} | {f['log']} |"
            for f in failures
        ]
    (out / "summary.md").write_text("\n".join(md) + "\n")


def corgipile_extra(rows, runs):
    """The lines only corgipile has: the order after retries, two streams, Spark's own scan, the project's
    estimator."""
    out = []
    scan = runs.get(rows, "corgipile", PARTIAL, "scan")
    retry = runs.get(rows, "corgipile", PARTIAL, "scan-retry")
    if scan and retry:
        same = [r["fingerprint"] for r in scan] == [r["fingerprint"] for r in retry]
        out.append(
            f"- corgipile {PARTIAL}, every task's first attempt failed half-way and retried by Spark: the"
            f" stream of every epoch is {'the same' if same else 'NOT the same'} as undisturbed"
            f" ({', '.join(r['fingerprint'] for r in retry)}), every row exactly once:"
            f" {yes_no(all(r['exactly_once'] == 'True' for r in retry))}."
        )
    p2 = runs.get(rows, "corgipile", PARTIAL, "scan-p2")
    if scan and p2:
        out.append(
            f"- corgipile {PARTIAL} at 2 partitions (two streams, as the project's estimators read):"
            f" {warm_rate(p2):,.0f} rows/s,"
            f" {warm_rate(p2) / warm_rate(scan):.2f}x one stream."
        )
    parquet = runs.get(rows, "corgipile", PARTIAL, "scan-parquet")
    if scan and parquet:
        out.append(
            f"- Spark's own Parquet scan of the table, no shuffle, one partition, through the same"
            f" `mapInArrow`: {warm_rate(parquet):,.0f} rows/s; corgipile's one stream is"
            f" {warm_rate(scan) / warm_rate(parquet):.2f}x of it."
        )
    est = runs.get(rows, "corgipile", "default", "estimator")
    if est:
        out.append(
            "- The project's own `SGDClassifier` (defaults, over `corgipile` at 2 partitions; a fit per"
            " maxIter): test accuracy "
            + " ".join(f"{num(r['test_accuracy']):.4f}" for r in est)
            + f", {num(est[-1]['seconds']):.1f} s for {len(est)} epochs."
        )
    return out


def goals(lines, ref, two_streams):
    if ref is None:
        return []
    peers = [
        x for x in lines if x["config"] == PARTIAL and x["loader"] != "corgipile" and x["loader"] not in REFERENCES
    ]
    out = []
    best = max(peers, key=lambda x: x["tail"] if x["accuracy"] else -1, default=None)
    if best and best["accuracy"] and ref["accuracy"]:
        gap = 100 * (best["tail"] - ref["tail"])
        out.append(
            f"- Goal, accuracy: corgipile's accuracy (mean of the last {TAIL} epochs) is {abs(gap):.2f} points"
            f" {'below' if gap > 0 else 'above'} the best peer's ({best['loader']}):"
            f" {'met' if gap <= 0.5 else 'NOT met'} (within 0.5)."
        )
    averaged = [x for x in peers if not math.isnan(x["average_tail"])]
    if averaged and not math.isnan(ref["average_tail"]):
        best = max(averaged, key=lambda x: x["average_tail"])
        gap = 100 * (best["average_tail"] - ref["average_tail"])
        out.append(
            f"- The same with the averaging learner: {abs(gap):.2f} points {'below' if gap > 0 else 'above'}"
            f" the best peer's ({best['loader']}): {'met' if gap <= 0.5 else 'NOT met'}."
        )
    measured = [x for x in peers if not math.isnan(x["rows_per_second"])]
    if measured and not math.isnan(ref["rows_per_second"]):
        text = (
            "- Goal, throughput (ahead: by a factor of " + f"{AHEAD:g} at least): corgipile's partial shuffle"
            " in one stream (what one learner reads) is " + lead(ref["rows_per_second"], measured)
        )
        if not math.isnan(two_streams):
            text += "; at 2 partitions (Spark's default parallelism on 2 cores, two streams) it is " + lead(
                two_streams, measured
            )
        out.append(text + ".")
    return out


def lead(rate, measured):
    """Whether rate is ahead of every peer's, else which it is level with and which faster than it."""
    level = [x["loader"] for x in measured if rate / AHEAD < x["rows_per_second"] < rate * AHEAD]
    faster = [x["loader"] for x in measured if x["rows_per_second"] >= rate * AHEAD]
    if not level and not faster:
        return "ahead of every peer's"
    return "NOT ahead: " + "; ".join(
        ([f"level with {', '.join(level)}"] if level else []) + ([f"behind {', '.join(faster)}"] if faster else [])
    )


def plot(out, rows, runs, lines):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    for x in lines:
        if x["accuracy"]:
            ax.plot(
                range(1, len(x["accuracy"]) + 1),
                x["accuracy"],
                marker="o",
                linestyle="-" if x["config"] == "buffer" else ":",
                label=f"{x['loader']} {x['config']}",
            )
    est = runs.get(rows, "corgipile", "default", "estimator")
    if est:
        ax.plot(
            range(1, len(est) + 1),
            [num(r["test_accuracy"]) for r in est],
            marker="s",
            color="black",
            label="corgipile SGDClassifier (project's estimator)",
        )
    ax.set_xlabel("epoch")
    ax.set_ylabel("test accuracy")
    ax.set_title(f"Label-sorted HIGGS-shaped data, {int(rows):,} rows")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / f"accuracy-{rows}.png", dpi=110)
    plt.close(fig)

    scanned = [x for x in lines if not math.isnan(x["rows_per_second"])]
    fig, ax = plt.subplots(figsize=(8, 0.4 * len(scanned) + 1.2))
    names = [f"{x['loader']} {x['config']}" for x in scanned]
    ax.barh(
        names,
        [x["rows_per_second"] for x in scanned],
        color=["tab:orange" if x["loader"] == "corgipile" else "tab:blue" for x in scanned],
    )
    ax.invert_yaxis()
    ax.set_xlabel("rows per second once warm (median of the second half of the scan's epochs), as NumPy arrays")
    ax.set_title(f"Label-sorted HIGGS-shaped data, {int(rows):,} rows, 2 cores")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / f"throughput-{rows}.png", dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    import sys

    write(sys.argv[1] if len(sys.argv) > 1 else "docs/benchmarks/results/peers")
