"""corgipile.set_epoch: the epoch a corgipile scan of the thread's next jobs reads, as a training loop
sets it, through the JVM's ReadScope."""

import pytest
from pyspark.errors import IllegalArgumentException

import corgipile


@pytest.fixture
def table(spark, tmp_path):
    path = str(tmp_path / "table")
    spark.range(0, 2000, 1, 4).withColumnRenamed("id", "x").write.option("parquet.block.size", 4096).parquet(path)
    return path


def _order(df):
    return [r.x for r in df.collect()]


def test_set_epoch_reads_that_epochs_order_and_none_returns_to_the_option(spark, table):
    df = spark.read.format("corgipile").option("partitions", "1").load(table)
    epoch1 = _order(spark.read.format("corgipile").option("partitions", "1").option("epoch", "1").load(table))
    first = _order(df)
    try:
        corgipile.set_epoch(spark, 1)
        assert _order(df) == epoch1
    finally:
        corgipile.set_epoch(spark, None)
    assert _order(df) == first
    assert first != epoch1
    assert sorted(first) == sorted(epoch1) == list(range(2000))


def test_a_negative_epoch_fails_with_the_java_message(spark):
    with pytest.raises(IllegalArgumentException, match="Cannot read epoch -1: epochs count from 0"):
        corgipile.set_epoch(spark, -1)
