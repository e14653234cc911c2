"""scripts/bench peers' driver: installs each loader's pinned environment, runs every loader and
configuration in a process of its own (peers.harness, under the loader's environment), and records
every install or run that fails, with its error, in failures.csv; then writes the report.

The runs for a table, per loader and configuration: scan (four epochs, no learner: throughput once
warm, memory, the orders' fingerprints) and train (--epochs epochs into the shared learner; its epoch 0 is a second
process with the same seed, so comparing fingerprints tells whether the order is reproducible). For
corgipile also: scan with the first attempt of every task failing half-way (the order after a
retry), scan at 2 partitions (two streams, as Spark trains), and the project's own estimator.
"""

import argparse
import csv
import os
import subprocess
import sys
import time
from pathlib import Path

from peers import CONFIGS, LOADERS, REFERENCES, run_name

HERE = Path(__file__).resolve().parent
FAILURES = ["rows", "loader", "config", "mode", "seed", "stage", "error", "log"]


def environment(name, venvs, failures, log_dir):
    """The environment's python, installed from requirements/<name>.txt unless it holds those pins
    already; None (and a failures.csv row) if pip fails."""
    requirements = HERE / "requirements" / f"{name}.txt"
    venv = venvs / name
    python = venv / "bin" / "python"
    stamp = venv / "peers-requirements.txt"
    if python.exists() and stamp.exists() and stamp.read_bytes() == requirements.read_bytes():
        return python
    log = log_dir / f"install-{name}.log"
    print(f"[peers] installing {requirements.name} into {venv} (log {log})", file=sys.stderr)
    with log.open("w") as out:
        steps = [
            [sys.executable, "-m", "venv", "--clear", str(venv)],
            [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-deps", "-r", str(requirements)],
        ]
        for step in steps:
            if subprocess.run(step, stdout=out, stderr=subprocess.STDOUT).returncode != 0:
                failures.append({"loader": name, "stage": "install", "error": last_error(log), "log": str(log)})
                return None
    stamp.write_bytes(requirements.read_bytes())
    return python


def last_error(log):
    """The last line that says what went wrong (an exception or pip's ERROR), else the last line."""
    lines = [line.rstrip() for line in log.read_text(errors="replace").splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith("ERROR") or "Error" in line.split(":")[0] or "Exception" in line.split(":")[0]:
            return line[:500]
    return lines[-1][:500] if lines else "(no output)"


def runs(loader, config):
    """(mode, extra harness arguments) of one loader and configuration, in the order they run."""
    if loader in REFERENCES:  # no storage scan: only their learner matters
        return [] if (loader, config) == ("model", "default") else [("train", []), ("train", ["--average"])]
    out = [("scan", []), ("train", []), ("train", ["--average"])]
    if loader == "corgipile" and config == "buffer":
        out += [("scan", ["--fail-once"]), ("scan", ["--partitions", "2"]), ("scan", ["--parquet"])]
    if loader == "corgipile" and config == "default":
        out += [("estimator", [])]
    return out


def done(csv_path, rows, loader, config, run_mode, seed, epochs):
    if not csv_path.exists():
        return False
    with csv_path.open() as f:
        have = [
            r
            for r in csv.DictReader(f)
            if (r["rows"], r["loader"], r["config"], r["mode"], r["seed"])
            == (str(rows), loader, config, run_mode, str(seed))
        ]
    return len(have) >= epochs


def main(argv=None):
    p = argparse.ArgumentParser(prog="scripts/bench peers", description=__doc__)
    p.add_argument(
        "--table",
        action="append",
        required=True,
        metavar="ROWS:TRAIN:TEST",
        help="a table to run on (PeerTables prints its folders); repeat for several sizes",
    )
    p.add_argument("--loaders", default=",".join(LOADERS))
    p.add_argument("--configs", default=",".join(CONFIGS))
    p.add_argument(
        "--modes",
        default="scan,train,estimator",
        help="which of the runs to make (scan covers the retry and 2-partition scans, train the"
        " runs with the plain and the averaging learner)",
    )
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument(
        "--seeds",
        default="42",
        help="comma list: train runs once per seed (the learner's accuracy swings with the order's"
        " last buffers, so a mean over seeds says more); the other runs use the first",
    )
    p.add_argument("--buffer-percent", type=float, default=10.0)
    p.add_argument("--cores", type=int, default=2)
    p.add_argument("--out", default="docs/benchmarks/results/peers")
    p.add_argument("--venvs", default=".venv-peers")
    p.add_argument("--work", default="target/peers-work")
    p.add_argument("--run-timeout", type=int, default=4 * 3600, help="seconds before a run is stopped")
    p.add_argument("--resume", action="store_true", help="keep the runs already in the CSV")
    args = p.parse_args(argv)

    try:
        seeds = [int(x) for x in args.seeds.split(",")]
    except ValueError:
        p.error(f"Cannot use --seeds {args.seeds}: expected a comma list of whole numbers")
    loaders = args.loaders.split(",")
    configs = args.configs.split(",")
    modes = args.modes.split(",")
    for name, allowed, option in (
        (loaders, LOADERS, "--loaders"),
        (configs, CONFIGS, "--configs"),
        (modes, ("scan", "train", "estimator"), "--modes"),
    ):
        wrong = [n for n in name if n not in allowed]
        if wrong:
            p.error(f"Cannot use {option} {','.join(wrong)}: expected a comma list of {', '.join(allowed)}")
    out = Path(args.out)
    log_dir = out / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    epochs_csv = out / "epochs.csv"
    failures_csv = out / "failures.csv"
    if not args.resume:
        for f in (epochs_csv, failures_csv):
            f.unlink(missing_ok=True)
    failures = []
    pythons = {}
    # corgipile's environment also draws the report (matplotlib)
    for env in sorted({LOADERS[name][1] for name in loaders} | {"corgipile"}):
        pythons[env] = environment(env, Path(args.venvs), failures, log_dir)

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent), str(HERE.parents[2] / "main" / "python")]))
    for table in args.table:
        rows, train, test = table.split(":")
        for loader in loaders:
            python = pythons[LOADERS[loader][1]]
            for config in configs:
                for mode, extra, seed in (
                    (m, e, seed) for m, e in runs(loader, config) for seed in (seeds if m == "train" else seeds[:1])
                ):
                    if mode not in modes:
                        continue
                    partitions = int(extra[extra.index("--partitions") + 1]) if "--partitions" in extra else 1
                    run_mode = run_name(
                        mode, partitions, "--fail-once" in extra, "--average" in extra, "--parquet" in extra
                    )
                    key = {"rows": rows, "loader": loader, "config": config, "mode": run_mode, "seed": seed}
                    if python is None:
                        failures.append(dict(key, stage="run", error="not run: its environment did not install"))
                        continue
                    if args.resume and done(
                        epochs_csv, rows, loader, config, run_mode, seed, 2 if mode == "scan" else args.epochs
                    ):
                        continue
                    log = log_dir / f"{rows}-{loader}-{config}-{run_mode}-seed{seed}.log"
                    cmd = [
                        str(python),
                        "-W",
                        "ignore",
                        "-m",
                        "peers.harness",
                        "--loader",
                        loader,
                        "--config",
                        config,
                        "--mode",
                        mode,
                        "--train",
                        train,
                        "--test",
                        test,
                        "--epochs",
                        str(args.epochs),
                        "--seed",
                        str(seed),
                        "--buffer-percent",
                        str(args.buffer_percent),
                        "--cores",
                        str(args.cores),
                        "--work",
                        args.work,
                        "--out",
                        str(epochs_csv),
                    ] + extra
                    print(f"[peers] {rows} rows: {loader} {config} {run_mode} seed {seed} (log {log})", file=sys.stderr)
                    start = time.monotonic()
                    with log.open("w") as f:
                        try:
                            code = subprocess.run(
                                cmd, stdout=f, stderr=subprocess.STDOUT, env=env, timeout=args.run_timeout
                            ).returncode
                        except subprocess.TimeoutExpired:
                            code = "timeout"
                    if code != 0:
                        error = (
                            f"stopped after {args.run_timeout} s"
                            if code == "timeout"
                            else f"exit {code}: {last_error(log)}"
                        )
                        failures.append(dict(key, stage="run", error=error, log=str(log)))
                        print(f"[peers]   failed: {error}", file=sys.stderr)
                    else:
                        print(f"[peers]   {time.monotonic() - start:.0f} s", file=sys.stderr)
    with failures_csv.open("a" if args.resume else "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FAILURES)
        if f.tell() == 0:
            w.writeheader()
        w.writerows(failures)
    if pythons["corgipile"] is None:
        print("[peers] no report: the corgipile environment did not install", file=sys.stderr)
        return 1
    subprocess.run([str(pythons["corgipile"]), "-m", "peers.report", str(out)], env=env, check=True)
    print(f"[peers] wrote {out / 'summary.md'}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
