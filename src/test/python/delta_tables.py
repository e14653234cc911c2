"""A Delta table written by delta-rs (the deltalake package), a second writer beside the JVM tests'
delta-spark, and what delta-rs reads of each of its versions; for both suites."""

import pyarrow as pa
import pyarrow.compute as pc
from deltalake import DeltaTable, write_deltalake

# version: what delta-rs did
VERSIONS = {
    0: "write, partitioned by part",
    1: "append",
    2: "delete (files rewritten)",
    3: "update",
    4: "append with a new column (schema merged)",
    5: "overwrite of part a",
}

LATEST = max(VERSIONS)


def _rows(first: int, last: int, note: bool = False) -> pa.Table:
    ids = list(range(first, last))
    columns = {
        "id": pa.array(ids, pa.int64()),
        "x": pa.array([i * 0.5 for i in ids], pa.float64()),
        "label": pa.array([i % 2 for i in ids], pa.int32()),
        "part": pa.array([("a", "b", "c", None)[i % 4] for i in ids], pa.string()),
    }
    if note:
        columns["note"] = pa.array([f"n{i}" for i in ids], pa.string())
    return pa.table(columns)


def write(path: str) -> str:
    """Writes the table's versions (VERSIONS) at path."""
    write_deltalake(path, _rows(0, 400), partition_by=["part"])
    write_deltalake(path, _rows(400, 600), mode="append")
    DeltaTable(path).delete("id % 7 = 0")
    DeltaTable(path).update(updates={"x": "-x"}, predicate="id % 10 = 5")
    write_deltalake(path, _rows(600, 700, note=True), mode="append", schema_mode="merge")
    part_a = _rows(700, 800, note=True).filter(pc.field("part") == "a")
    write_deltalake(path, part_a, mode="overwrite", predicate="part = 'a'")
    assert DeltaTable(path).version() == LATEST
    return path


def as_delta_rs_reads(path: str, version: int) -> list:
    """The version's rows as delta-rs reads them, comparable with rows."""
    return sorted(tuple(sorted(r.items())) for r in DeltaTable(path, version=version).to_pyarrow_table().to_pylist())


def rows(df) -> list:
    """A DataFrame's rows, comparable with as_delta_rs_reads."""
    return sorted(tuple(sorted(r.asDict().items())) for r in df.collect())
