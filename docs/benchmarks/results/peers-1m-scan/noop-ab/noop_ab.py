"""The JVM side alone: corgipile's one stream over the 1M peers table into Spark's `noop` sink (every
row decoded and emitted, nothing sent to Python), with blockSize=auto (parts of 2,500 rows),
blockSize=rowGroup and shuffle=none, in one session, EPOCHS epochs each, taking turns epoch by epoch
so that all three share the JVM's warming up. Writes noop-ab.csv here, or to the file given as the
first argument: variant, epoch, seconds.

  CORGIPILE_JAR=$PWD/target/corgipile-spark_2.13-0.1.0-SNAPSHOT.jar \\
    .venv-peers/corgipile/bin/python results/peers-1m-scan/noop-ab/noop_ab.py"""

import csv
import os
import sys
import time
from pathlib import Path

from pyspark.sql import SparkSession

EPOCHS = 10
TABLE = "target/bench-data/peers-higgs-1000000/train-sorted-by-label"
COLUMNS = ["label"] + [f"f{i}" for i in range(1, 29)]
VARIANTS = {"auto": {"blockSize": "auto"}, "rowGroup": {"blockSize": "rowGroup"}, "none": {"shuffle": "none"}}

spark = (SparkSession.builder.master("local[2]").config("spark.jars", os.environ["CORGIPILE_JAR"])
         .config("spark.driver.memory", "6g").config("spark.ui.enabled", "false").getOrCreate())
out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "noop-ab.csv"
with out.open("w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["variant", "epoch", "seconds"])
    for epoch in range(EPOCHS):
        for name, options in VARIANTS.items():
            reader = (spark.read.format("corgipile").option("seed", 42).option("partitions", 1)
                      .option("bufferSize", "10%").options(**options))
            start = time.perf_counter()
            reader.load(TABLE).select(*COLUMNS).write.format("noop").mode("overwrite").save()
            w.writerow([name, epoch, f"{time.perf_counter() - start:.3f}"])
            f.flush()
spark.stop()
