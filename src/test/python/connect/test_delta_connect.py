"""A Delta table written by delta-rs (delta_tables) read through Spark Connect: its versions as
delta-rs reads them, and a version it lacks as pyspark's AnalysisException, in one line."""

import delta_tables
import pytest
from pyspark.errors import AnalysisException


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> str:
    return delta_tables.write(str(tmp_path_factory.mktemp("delta") / "events"))


def test_versions_read_as_delta_rs_reads_them(spark, table):
    for version in (0, 2, delta_tables.LATEST):
        df = spark.read.format("corgipile").option("versionAsOf", version).load(table)
        assert delta_tables.rows(df) == delta_tables.as_delta_rs_reads(table, version), f"version {version}"


def test_a_version_the_table_lacks_is_an_analysis_exception(spark, table):
    with pytest.raises(AnalysisException) as error:
        spark.read.format("corgipile").option("versionAsOf", 99).load(table).schema
    assert str(error.value).splitlines()[0].startswith(f"Cannot read Delta table {table} at versionAsOf=99: ")
