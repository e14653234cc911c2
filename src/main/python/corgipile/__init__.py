"""CorgiPile for Apache Spark: SGD without a full data shuffle. The estimators are in corgipile.ml;
the JVM side is the jar that jar_path() returns; table_packages() names the libraries that Delta and
Iceberg tables need beside it; set_epoch() chooses the epoch a corgipile scan reads."""

import zipfile
from pathlib import Path

_JARS = Path(__file__).parent / "jars"

# Where the jar keeps the table format libraries' coordinates, the pom's (its TablePlanners reads them).
_LIBRARIES = "io/corgipile/table/libraries.properties"


def jar_path() -> str:
    """The path of the corgipile-spark jar bundled in this package, for ``spark.jars``."""
    jars = sorted(_JARS.glob("corgipile-spark_*.jar"))
    if len(jars) != 1:
        raise FileNotFoundError(
            f"Cannot find the corgipile-spark jar: expected one in {_JARS}, found"
            f" {len(jars)}; install corgipile from a wheel built by scripts/build-wheel"
        )
    return str(jars[0])


def table_packages(*formats: str) -> str:
    """The Maven coordinates of the libraries that reading tables of ``formats`` needs ("delta": Delta
    Kernel; "iceberg": Iceberg's Java API), the versions the bundled jar reads through, comma-separated
    for ``spark.jars.packages``, which Spark resolves from Maven Central before the first session."""
    with zipfile.ZipFile(jar_path()) as jar:
        text = jar.read(_LIBRARIES).decode("utf-8").replace("\\\n", "")
    known = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.endswith(".packages") and not key.startswith("#"):
            known[key[: -len(".packages")]] = value
    unknown = [f for f in formats if f not in known]
    if unknown or not formats:
        raise ValueError(
            f"Cannot name the packages of {', '.join(map(repr, unknown)) or 'no format'}: the formats are"
            f" {', '.join(sorted(known))}"
        )
    return ",".join(known[f] for f in formats)


def set_epoch(spark, epoch):
    """Sets the epoch whose order the ``corgipile`` scans of this thread's next jobs read, as a training
    loop does before each epoch's job: one DataFrame, planned once, then yields a new order every epoch.
    ``None`` returns to each scan's ``epoch`` option. The JVM's ``io.corgipile.source.ReadScope`` sets it
    (a Spark local property of the thread), so it needs a classic session: Spark Connect has none."""
    sc = spark.sparkContext
    sc._jvm.io.corgipile.source.ReadScope.setEpoch(sc._jsc.sc(), epoch)
