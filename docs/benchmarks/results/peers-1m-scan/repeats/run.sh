#!/usr/bin/env bash
# Three rounds, each a scan (the harness's SCAN_EPOCHS; rows/s as peers.report.warm_rate takes them) of corgipile's
# one stream, the same with Spark's default byte bound on Arrow batches (64 MiB: a size check per row),
# the PyTorch recipe, and Spark's own Parquet scan through the same mapInArrow, one after the other,
# into repeats.csv here, or the file given as the first argument. From the repository root, after
# scripts/bench peers installed .venv-peers.
set -euo pipefail
T=target/bench-data/peers-higgs-1000000
export CORGIPILE_JAR=$PWD/target/corgipile-spark_2.13-0.1.0-SNAPSHOT.jar
out=${1:-results/peers-1m-scan/repeats/repeats.csv}
for round in 1 2 3; do
  for run in "corgipile" "corgipile bytes" "torch" "corgipile --parquet"; do
    set -- $run
    env=(); args=("$@")
    if [[ "${2:-}" == bytes ]]; then env=(PEERS_ARROW_MAX_BYTES=67108864); args=(corgipile); fi
    env "${env[@]}" PYTHONPATH=src/bench/python:src/main/python .venv-peers/$1/bin/python -m peers.harness \
      --loader "${args[@]}" --config buffer --mode scan --train $T/train-sorted-by-label --test $T/test --out "$out"
  done
done
