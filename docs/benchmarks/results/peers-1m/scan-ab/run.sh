#!/usr/bin/env bash
# The scan A/B of README "Beside the Python data loaders": three rounds, each a warm scan of corgipile's one
# stream with blockSize=auto (parts of 2,500 rows), with blockSize=rowGroup (set through a spark-defaults.conf,
# as the harness has no flag for it), and Spark's own Parquet scan, after scripts/bench peers --rows 1m wrote
# the table and the environment. Appends to scan-{auto,rowgroup,parquet}-1000000.csv here, or in the
# folder given as the first argument. What one scan measures is the harness's (see its SCAN_EPOCHS).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(cd "${1:-$here}" && pwd)"
cd "$here/../../.."
T=target/bench-data/peers-higgs-1000000; export CORGIPILE_JAR=$PWD/target/corgipile-spark_2.13-0.1.0-SNAPSHOT.jar
conf=$(mktemp -d); echo "spark.datasource.corgipile.blockSize rowGroup" > "$conf/spark-defaults.conf"
for round in 1 2 3; do
  for v in auto rowGroup parquet; do
    args=(--loader corgipile --config buffer --mode scan --train $T/train-sorted-by-label --test $T/test
          --out "$out/scan-$(echo $v | tr A-Z a-z)-1000000.csv")
    [ $v = parquet ] && args+=(--parquet)
    if [ $v = rowGroup ]; then export SPARK_CONF_DIR=$conf; else unset SPARK_CONF_DIR; fi
    PYTHONPATH=src/bench/python:src/main/python .venv-peers/corgipile/bin/python -W ignore -m peers.harness "${args[@]}"
  done
done
