"""CorgiPile for Apache Spark: SGD without a full data shuffle. The estimators are in corgipile.ml;
the JVM side is the jar that jar_path() returns."""

from pathlib import Path

_JARS = Path(__file__).parent / "jars"


def jar_path() -> str:
    """The path of the corgipile-spark jar bundled in this package, for ``spark.jars``."""
    jars = sorted(_JARS.glob("corgipile-spark_*.jar"))
    if len(jars) != 1:
        raise FileNotFoundError(f"Cannot find the corgipile-spark jar: expected one in {_JARS}, found"
                                f" {len(jars)}; install corgipile from a wheel built by scripts/build-wheel")
    return str(jars[0])
