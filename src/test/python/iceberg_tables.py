"""An Iceberg table written by pyiceberg (in a SQL catalog, as Python users without a JVM write
them), a second writer beside the JVM tests' Iceberg Java writers, and what pyiceberg reads of each
of its snapshots; for both suites. The catalog keeps the current metadata file, so the table is read
by its metadata file (metadata_location), as a user of such a catalog does."""

import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.types import StringType

# the tag pyiceberg puts on the snapshot after the delete, once every snapshot is written
TAG = "cleaned"

# snapshot, in commit order: what pyiceberg did
SNAPSHOTS = [
    "append",
    "append",
    "delete of id < 100 with label 1",
    "append after x was renamed feature and a column note added",
    "overwrite of the rows with part a: its delete",
    "overwrite of the rows with part a: its append",
]


def _rows(first: int, last: int, note: bool = False, feature: str = "x") -> pa.Table:
    ids = list(range(first, last))
    columns = {
        "id": pa.array(ids, pa.int64()),
        feature: pa.array([i * 0.5 for i in ids], pa.float64()),
        "label": pa.array([i % 2 for i in ids], pa.int32()),
        "part": pa.array([("a", "b", "c", None)[i % 4] for i in ids], pa.string()),
    }
    if note:
        columns["note"] = pa.array([f"n{i}" for i in ids], pa.string())
    return pa.table(columns)


def write(warehouse: str):
    """Writes the table's snapshots (SNAPSHOTS) in a catalog under warehouse; returns the table."""
    catalog = SqlCatalog("tests", uri=f"sqlite:///{warehouse}/catalog.db", warehouse=f"file://{warehouse}")
    catalog.create_namespace("db")
    table = catalog.create_table("db.events", schema=_rows(0, 1).schema)
    table.append(_rows(0, 400))
    table.append(_rows(400, 600))
    table.delete("id < 100 and label = 1")
    with table.update_schema() as update:
        update.rename_column("x", "feature")
        update.add_column("note", StringType())
    table.append(_rows(600, 700, note=True, feature="feature"))
    table.overwrite(_rows(700, 800, note=True, feature="feature").filter(pa.compute.field("part") == "a"), "part = 'a'")
    table.manage_snapshots().create_tag(snapshot_ids(table)[2], TAG).commit()
    table = catalog.load_table("db.events")
    assert len(snapshot_ids(table)) == len(SNAPSHOTS)
    return table


def snapshot_ids(table) -> list:
    """The table's snapshots in commit order."""
    return [entry.snapshot_id for entry in table.history()]


def as_pyiceberg_reads(table, snapshot_id: int) -> list:
    """The snapshot's rows as pyiceberg reads them, comparable with rows."""
    arrow = table.scan(snapshot_id=snapshot_id).to_arrow()
    return sorted(tuple(sorted(r.items())) for r in arrow.to_pylist())


def rows(df) -> list:
    """A DataFrame's rows, comparable with as_pyiceberg_reads."""
    return sorted(tuple(sorted(r.asDict().items())) for r in df.collect())
