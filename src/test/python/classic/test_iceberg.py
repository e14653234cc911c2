"""format("corgipile") on an Iceberg table written by pyiceberg (iceberg_tables), read by its
metadata file: every snapshot reads as pyiceberg reads it, in every shuffle mode, a fit trains on a
snapshot's rows, and the errors arrive through pyspark's conversion."""

import iceberg_tables
import table_reads
import pytest
from pyspark.errors import AnalysisException

from corgipile.ml import SGDClassifier

MODES = table_reads.MODES


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return iceberg_tables.write(str(tmp_path_factory.mktemp("iceberg")))


def _read(spark, path: str, mode: str, snapshot_id: int = None):
    return table_reads.read(spark, path, mode, "snapshot-id", snapshot_id)


@pytest.mark.parametrize("mode", MODES)
def test_every_snapshot_reads_as_pyiceberg_reads_it(spark, table, mode):
    ids = iceberg_tables.snapshot_ids(table)
    for snapshot_id, what in zip(ids, iceberg_tables.SNAPSHOTS):
        read = iceberg_tables.rows(_read(spark, table.metadata_location, mode, snapshot_id))
        assert read == iceberg_tables.as_pyiceberg_reads(table, snapshot_id), (
            f"snapshot {snapshot_id} ({what}) in mode {mode}"
        )


def test_the_current_snapshot_is_read_without_an_option(spark, table):
    read = iceberg_tables.rows(_read(spark, table.metadata_location, "corgipile"))
    assert read == iceberg_tables.as_pyiceberg_reads(table, table.current_snapshot().snapshot_id)


def test_a_tag_reads_its_snapshot(spark, table):
    tagged = table.snapshot_by_name(iceberg_tables.TAG).snapshot_id
    read = table_reads.read(spark, table.metadata_location, "corgipile", "tag", iceberg_tables.TAG)
    assert iceberg_tables.rows(read) == iceberg_tables.as_pyiceberg_reads(table, tagged)


def test_a_fit_trains_on_the_live_rows_of_a_snapshot(spark, table):
    after_delete = iceberg_tables.snapshot_ids(table)[2]
    read = _read(spark, table.metadata_location, "corgipile", after_delete)
    model = SGDClassifier(featuresCols=["x"], maxIter=2, tol=0.0, seed=5).fit(read)
    live = len(iceberg_tables.as_pyiceberg_reads(table, after_delete))
    assert live == 600 - 50
    assert set(model.summary.rowsPerEpoch) == {live}


def test_a_snapshot_the_table_lacks_is_one_line_naming_the_table(spark, table):
    with pytest.raises(AnalysisException) as error:
        _read(spark, table.metadata_location, "none", 12345).schema
    assert str(error.value).splitlines()[0] == (
        f"Cannot read Iceberg table {table.metadata_location} at snapshot-id=12345:"
        " the table has no snapshot of that id"
    )


def test_the_folder_of_a_catalogs_table_names_its_metadata_files(spark, table):
    folder = table.location().removeprefix("file://")
    with pytest.raises(AnalysisException) as error:
        _read(spark, folder, "none").schema
    first = str(error.value).splitlines()[0]
    assert first.startswith(f"Cannot read Iceberg table {folder}: its metadata folder has no version-hint.text")
    assert first.endswith(".metadata.json)")
