"""format("corgipile") on a Delta table written by delta-rs (delta_tables): every version reads as
delta-rs reads it, in every shuffle mode, a fit trains on a version's rows, and the errors arrive
through pyspark's conversion."""

import delta_tables
import table_reads
import pytest
from pyspark.errors import AnalysisException

from corgipile.ml import SGDClassifier

MODES = table_reads.MODES


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> str:
    return delta_tables.write(str(tmp_path_factory.mktemp("delta") / "events"))


def _read(spark, path: str, mode: str, version: int = None):
    return table_reads.read(spark, path, mode, "versionAsOf", version)


@pytest.mark.parametrize("mode", MODES)
def test_every_version_reads_as_delta_rs_reads_it(spark, table, mode):
    for version, what in delta_tables.VERSIONS.items():
        read = delta_tables.rows(_read(spark, table, mode, version))
        assert read == delta_tables.as_delta_rs_reads(table, version), f"version {version} ({what}) in mode {mode}"


def test_the_latest_version_is_read_without_an_option(spark, table):
    read = delta_tables.rows(_read(spark, table, "corgipile"))
    assert read == delta_tables.as_delta_rs_reads(table, delta_tables.LATEST)


def test_a_fit_trains_on_the_live_rows_of_a_version(spark, table):
    model = SGDClassifier(featuresCols=["x"], maxIter=2, tol=0.0, seed=5).fit(_read(spark, table, "corgipile", 2))
    live = len(delta_tables.as_delta_rs_reads(table, 2))
    assert live == 600 - len(range(0, 600, 7))
    assert set(model.summary.rowsPerEpoch) == {live}


def test_a_version_the_table_lacks_is_one_line_naming_the_table(spark, table):
    with pytest.raises(AnalysisException) as error:
        _read(spark, table, "none", 99).schema
    first = str(error.value).splitlines()[0]
    assert first.startswith(f"Cannot read Delta table {table} at versionAsOf=99: ")
    assert first.endswith("The latest available version is 5.")
