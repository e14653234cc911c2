"""How the table tests read a Delta or Iceberg table: format("corgipile") in a shuffle mode, in two
partitions, at the snapshot a time travel option names."""

MODES = ["corgipile", "block", "window", "none"]


def read(spark, path: str, mode: str, time_travel: str, snapshot=None):
    """The table at `path` in `mode`; at `time_travel`=`snapshot` where `snapshot` is given."""
    reader = spark.read.format("corgipile").option("shuffle", mode).option("partitions", "2")
    if snapshot is not None:
        reader = reader.option(time_travel, snapshot)
    return reader.load(path)
