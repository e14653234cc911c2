"""CorgiPile for Apache Spark: SGD without a full data shuffle. The estimators are in corgipile.ml;
the JVM side is the jar that jar_path() returns; set_epoch() chooses the epoch a corgipile scan reads."""

from pathlib import Path

_JARS = Path(__file__).parent / "jars"


def jar_path() -> str:
    """The path of the corgipile-spark jar bundled in this package, for ``spark.jars``."""
    jars = sorted(_JARS.glob("corgipile-spark_*.jar"))
    if len(jars) != 1:
        raise FileNotFoundError(
            f"Cannot find the corgipile-spark jar: expected one in {_JARS}, found"
            f" {len(jars)}; install corgipile from a wheel built by scripts/build-wheel"
        )
    return str(jars[0])


def set_epoch(spark, epoch):
    """Sets the epoch whose order the ``corgipile`` scans of this thread's next jobs read, as a training
    loop does before each epoch's job: one DataFrame, planned once, then yields a new order every epoch.
    ``None`` returns to each scan's ``epoch`` option. The JVM's ``io.corgipile.source.ReadScope`` sets it
    (a Spark local property of the thread), so it needs a classic session: Spark Connect has none."""
    sc = spark.sparkContext
    sc._jvm.io.corgipile.source.ReadScope.setEpoch(sc._jsc.sc(), epoch)
