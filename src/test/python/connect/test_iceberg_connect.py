"""An Iceberg table written by pyiceberg (iceberg_tables) read through Spark Connect: its snapshots
as pyiceberg reads them, and a snapshot it lacks as pyspark's AnalysisException, in one line."""

import iceberg_tables
import pytest
from pyspark.errors import AnalysisException


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return iceberg_tables.write(str(tmp_path_factory.mktemp("iceberg")))


def test_snapshots_read_as_pyiceberg_reads_them(spark, table):
    ids = iceberg_tables.snapshot_ids(table)
    for snapshot_id in (ids[0], ids[2], ids[-1]):
        df = spark.read.format("corgipile").option("snapshot-id", snapshot_id).load(table.metadata_location)
        assert iceberg_tables.rows(df) == iceberg_tables.as_pyiceberg_reads(table, snapshot_id), (
            f"snapshot {snapshot_id}"
        )


def test_a_snapshot_the_table_lacks_is_an_analysis_exception(spark, table):
    with pytest.raises(AnalysisException) as error:
        spark.read.format("corgipile").option("snapshot-id", 12345).load(table.metadata_location).schema
    assert (
        str(error.value)
        .splitlines()[0]
        .startswith(f"Cannot read Iceberg table {table.metadata_location} at snapshot-id=12345: ")
    )
