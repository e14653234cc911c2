"""corgipile through PySpark, as a Spark user feeds a Python learner: `spark.read.format("corgipile")` and
`mapInArrow`, whose Python worker gets the partition's stream as Arrow batches and runs the Consumer on it. One
partition (one stream, as every other loader gives) unless --partitions says more; with --parquet, Spark's own
Parquet scan instead of the corgipile source (the same path's ceiling); the epoch reaches the scan through the jar's
ReadScope, as the project's estimators set it. With --fail-once the first attempt of every task fails half-way and
Spark runs it again: the retried stream must be the same."""

import os
import pickle
import sys
import time

import numpy as np

from peers.stream import COLUMNS
from peers.loaders import Loader

# Spark's value for "no byte bound" on an Arrow batch (Int.MaxValue): it then skips the check
ARROW_UNBOUNDED_BYTES = 2**31 - 1


class CorgiPile(Loader):
    def __init__(self, s):
        import pyspark
        from pyspark.sql import SparkSession

        _python_workers()
        jar = os.environ.get("CORGIPILE_JAR")
        if not jar:
            raise SystemExit("Cannot start the corgipile loader: CORGIPILE_JAR is not set (the package jar)")
        self.partitions = s.partitions
        self.fail_once = s.fail_once
        # a task may fail once (the retry check); `local[N]` alone never retries
        self.spark = (
            SparkSession.builder.master(f"local[{s.cores},2]")
            .appName(f"peers corgipile {s.config}")
            .config("spark.jars", jar)
            .config("spark.driver.memory", os.environ.get("PEERS_SPARK_MEMORY", "6g"))
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.execution.arrow.maxRecordsPerBatch", "10000")
            # Spark 4 also caps Arrow batches at a byte size, which costs a size check of the
            # batch per row written; rows alone cut these batches (PEERS_ARROW_MAX_BYTES=67108864,
            # Spark's default, measures what the check costs)
            .config(
                "spark.sql.execution.arrow.maxBytesPerBatch",
                os.environ.get("PEERS_ARROW_MAX_BYTES", str(ARROW_UNBOUNDED_BYTES)),
            )
            .getOrCreate()
        )
        self.library = f"corgipile-spark {os.path.basename(jar)} on pyspark {pyspark.__version__}"
        if s.parquet:
            # Spark's own scan, no shuffle: what the same path into Python gives without corgipile
            self.df = self.spark.read.parquet(s.train).select(*COLUMNS).coalesce(self.partitions)
            source = f"spark.read.parquet (Spark's file order, no shuffle) coalesced to {self.partitions} partition(s)"
        else:
            reader = self.spark.read.format("corgipile").option("seed", s.seed).option("partitions", self.partitions)
            buffer = "auto (the source's default)"
            if s.config == "buffer":
                buffer = f"{s.buffer_percent:g}%"
                reader = reader.option("bufferSize", buffer)
            self.df = reader.load(s.train).select(*COLUMNS)
            source = f"spark.read.format('corgipile') seed={s.seed} partitions={self.partitions} bufferSize={buffer}"
        self.expected = s.total_rows // self.partitions
        max_bytes = self.spark.conf.get("spark.sql.execution.arrow.maxBytesPerBatch")
        self.description = (
            source
            + f"; mapInArrow batches of 10000 rows, maxBytesPerBatch={max_bytes}"
            + ("; first attempt of each task fails half-way" if self.fail_once else "")
        )

    def run_epoch(self, epoch, consumer):
        sc = self.spark.sparkContext
        # the corgipile package's set_epoch, through the jar alone: this environment has no wheel
        read_scope = sc._jvm.io.corgipile.source.ReadScope
        read_scope.setEpoch(sc._jsc.sc(), epoch)
        state = pickle.dumps(consumer)
        fail_after = self.expected // 2 if self.fail_once else None

        def consume(batches):
            import pyarrow as pa
            from pyspark import TaskContext

            c = pickle.loads(state)
            fail = fail_after is not None and TaskContext.get().attemptNumber() == 0
            seen = 0
            for b in batches:
                y = b.column(0).to_numpy()
                x = np.column_stack([b.column(i).to_numpy() for i in range(1, b.num_columns)])
                c.feed(y, x)
                seen += b.num_rows
                if fail and seen >= fail_after:
                    raise RuntimeError(f"injected failure after {seen} rows (attempt 0)")
            yield pa.RecordBatch.from_arrays([pa.array([pickle.dumps(c)], pa.binary())], ["state"])

        try:
            parts = [pickle.loads(r.state) for r in self.df.mapInArrow(consume, "state binary").collect()]
        finally:
            read_scope.setEpoch(sc._jsc.sc(), None)
        if len(parts) == 1:
            return parts[0]
        if consumer.learner is not None:
            raise SystemExit("Cannot train one learner on several partitions' streams: use --partitions 1")
        for p in parts:  # partition 0's stream, then partition 1's, ...
            consumer.labels.extend(p.labels)
            consumer.f1.extend(p.f1)
        return consumer

    def close(self):
        self.spark.stop()


def open_loader(settings):
    return CorgiPile(settings)


def _python_workers():
    """Spark's Python workers run this interpreter (its virtual environment has NumPy and the rest)."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)


def estimator_epochs(s, test, epochs, memory):
    """The project's own estimator, io.corgipile.ml.SGDClassifier with its defaults, over the corgipile
    source at Spark's default parallelism: for every k in 1..epochs a fit with maxIter=k (so each
    figure is a model trained k epochs), its seconds and its test accuracy. Not the shared learner:
    a reference for what the package itself reaches."""
    import pyspark
    from pyspark.sql import SparkSession
    from corgipile.ml.classification import SGDClassifier

    from peers.stream import FEATURES

    _python_workers()
    jar = os.environ["CORGIPILE_JAR"]
    spark = (
        SparkSession.builder.master(f"local[{s.cores}]")
        .appName("peers corgipile estimator")
        .config("spark.jars", jar)
        .config("spark.driver.memory", os.environ.get("PEERS_SPARK_MEMORY", "6g"))
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    try:
        train = spark.read.format("corgipile").option("seed", s.seed).load(s.train)
        test_df = spark.read.parquet(test).cache()
        test_df.count()
        for k in range(1, epochs + 1):
            memory.reset()
            estimator = SGDClassifier(featuresCols=FEATURES, maxIter=k, seed=s.seed)
            start = time.perf_counter()
            model = estimator.fit(train)
            seconds = time.perf_counter() - start
            accuracy = model.transform(test_df).selectExpr("avg(cast(prediction = label as double))").first()[0]
            yield (
                seconds,
                accuracy,
                f"corgipile-spark {os.path.basename(jar)} on pyspark {pyspark.__version__}",
                f"SGDClassifier(featuresCols=f1..f28, maxIter={k}, seed={s.seed}), other params default;"
                f" spark.read.format('corgipile') at Spark's default parallelism ({s.cores})",
            )
    finally:
        spark.stop()
