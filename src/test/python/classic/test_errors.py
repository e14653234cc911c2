"""Errors raised in the JVM reach Python as pyspark exceptions carrying the Java message, in one line:
a user's first mistakes (a missing path, a damaged file, a misspelled option) among them."""

import re

import pytest
from pyspark.errors import AnalysisException, IllegalArgumentException

from corgipile.ml import ScheduledLasso, SGDClassifier, SGDRegressor


def test_bad_param_value_fails_when_set_with_the_java_message():
    clf = SGDClassifier()
    with pytest.raises(IllegalArgumentException) as error:
        clf.setStepSize(-1)
    assert str(error.value).startswith(
        f"Cannot set param stepSize of {clf.uid} to '-1.0': allowed values are numbers > 0"
    )
    assert not clf.isSet(clf.stepSize)  # the bad value was not kept


def test_bad_param_value_in_the_constructor():
    with pytest.raises(IllegalArgumentException, match=re.escape("to 'cubic': allowed values are squared, huber")):
        SGDRegressor(loss="cubic")


def test_unknown_shuffle_mode_of_the_source(spark, tmp_path, binary_df):
    binary_df.select("label", "x0").write.parquet(str(tmp_path / "table"))
    with pytest.raises(
        IllegalArgumentException, match=re.escape("Cannot set option shuffle to 'sideways': allowed values are ")
    ):
        spark.read.format("corgipile").option("shuffle", "sideways").load(str(tmp_path / "table")).count()


def _one_line(error) -> str:
    text = str(error.value)
    assert "\n" not in text, text[:2000]
    return text


def test_a_missing_path_is_one_line_as_for_spark_own_parquet(spark, tmp_path):
    missing = str(tmp_path / "nope")
    with pytest.raises(AnalysisException) as error:
        spark.read.format("corgipile").load(missing)
    assert _one_line(error).startswith("[PATH_NOT_FOUND] Path does not exist: ")
    assert error.value.getCondition() == "PATH_NOT_FOUND"


def test_a_misspelled_option_names_the_option_meant(spark, tmp_path, binary_df):
    binary_df.select("label", "x0").write.parquet(str(tmp_path / "table"))
    with pytest.raises(IllegalArgumentException) as error:
        spark.read.format("corgipile").option("bufferSzie", "10%").load(str(tmp_path / "table"))
    assert _one_line(error).startswith(
        "Cannot load corgipile table: unknown option 'bufferSzie' (did you mean 'bufferSize'?); "
    )


def test_a_file_that_is_not_parquet_is_named_in_one_line(spark, tmp_path):
    (tmp_path / "table").mkdir()
    (tmp_path / "table" / "part-0.parquet").write_bytes(b"PAR1 not really PAR1")
    with pytest.raises(AnalysisException) as error:
        spark.read.format("corgipile").load(str(tmp_path / "table"))
    assert _one_line(error).startswith(f"Cannot load corgipile table: cannot read file:{tmp_path}/table/part-0.parquet")


def test_a_damaged_page_found_by_a_task_fails_fit_in_one_line(spark, tmp_path):
    """Spark wraps a task's error in its job's failure (a Py4JJavaError with the stack trace); fit
    reports it on the driver."""
    path = tmp_path / "table"
    spark.range(2000).selectExpr("cast(id % 2 as double) as label", "cast(id as double) as x").coalesce(1).write.option(
        "compression", "none"
    ).parquet(str(path))
    damaged = next(path.glob("*.parquet"))
    data = bytearray(damaged.read_bytes())
    data[4:10] = b"\xff" * 6  # the first page header follows the 4-byte magic
    damaged.write_bytes(bytes(data))
    (path / f".{damaged.name}.crc").unlink()  # the local file system's checksum would catch it first
    with pytest.raises(AnalysisException) as error:
        SGDClassifier(featuresCols=["x"], maxIter=2).fit(spark.read.format("corgipile").load(str(path)))
    assert re.match(
        rf"Cannot read (rows \d+ to \d+ of )?row group 0 \(offset 4, .*\) of file:{damaged}: ", _one_line(error)
    )


def test_training_error_message(spark):
    """An error of fit itself (hinge is binary) comes back with its message, not a py4j trace."""
    df = spark.createDataFrame([(0.0, 1.0), (2.0, 2.0)], ["label", "x"])
    clf = SGDClassifier(loss="hinge", family="multinomial", featuresCols=["x"])
    with pytest.raises(
        IllegalArgumentException,
        match=re.escape("Cannot train SGDClassifier: loss 'hinge' is binary (labels 0 and 1), so family 'multinomial'"),
    ):
        clf.fit(df)


def test_lasso_bad_param_values_name_what_is_allowed():
    with pytest.raises(
        IllegalArgumentException,
        match=re.escape("to 'greedy': allowed values are priority+dependency, priority, random"),
    ):
        ScheduledLasso(scheduler="greedy")
    lasso = ScheduledLasso()
    with pytest.raises(IllegalArgumentException) as error:
        lasso.setElasticNetParam(1.5)
    assert str(error.value).startswith(
        f"Cannot set param elasticNetParam of {lasso.uid} to '1.5': allowed values are numbers in [0, 1]"
    )
    assert not lasso.isSet(lasso.elasticNetParam)


def test_lasso_training_error_message(spark):
    """A row the lasso cannot use fails fit with the Java message naming the column."""
    from pyspark.ml.linalg import Vectors, VectorUDT
    from pyspark.sql.types import DoubleType, StructField, StructType

    schema = StructType([StructField("y", DoubleType()), StructField("v", VectorUDT())])
    df = spark.createDataFrame([(1.0, Vectors.dense([1.0])), (None, Vectors.dense([2.0]))], schema)
    with pytest.raises(
        IllegalArgumentException, match=re.escape("Cannot train ScheduledLasso: a row has a null label in column 'y'")
    ):
        ScheduledLasso(labelCol="y", featuresCol="v", maxIter=2).fit(df)
