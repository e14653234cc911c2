"""Errors raised in the JVM reach Python as pyspark exceptions carrying the Java message."""

import re

import pytest
from pyspark.errors import IllegalArgumentException

from corgipile.ml import ScheduledLasso, SGDClassifier, SGDRegressor


def test_bad_param_value_fails_when_set_with_the_java_message():
    clf = SGDClassifier()
    with pytest.raises(IllegalArgumentException) as error:
        clf.setStepSize(-1)
    assert str(error.value).startswith(
        f"Cannot set param stepSize of {clf.uid} to '-1.0': allowed values are numbers > 0")
    assert not clf.isSet(clf.stepSize)  # the bad value was not kept


def test_bad_param_value_in_the_constructor():
    with pytest.raises(IllegalArgumentException,
                       match=re.escape("to 'cubic': allowed values are squared, huber")):
        SGDRegressor(loss="cubic")


def test_unknown_shuffle_mode_of_the_source(spark, tmp_path, binary_df):
    binary_df.select("label", "x0").write.parquet(str(tmp_path / "table"))
    with pytest.raises(IllegalArgumentException,
                       match=re.escape("Cannot set option shuffle to 'sideways': allowed values are ")):
        spark.read.format("corgipile").option("shuffle", "sideways").load(str(tmp_path / "table")).count()


def _one_line(error) -> str:
    text = str(error.value)
    assert "\n" not in text, text[:2000]
    return text


def test_a_misspelled_option_names_the_option_meant(spark, tmp_path, binary_df):
    binary_df.select("label", "x0").write.parquet(str(tmp_path / "table"))
    with pytest.raises(IllegalArgumentException) as error:
        spark.read.format("corgipile").option("bufferSzie", "10%").load(str(tmp_path / "table"))
    assert _one_line(error).startswith(
        "Cannot load corgipile table: unknown option 'bufferSzie' (did you mean 'bufferSize'?); ")


def test_training_error_message(spark):
    """An error of fit itself (hinge is binary) comes back with its message, not a py4j trace."""
    df = spark.createDataFrame([(0.0, 1.0), (2.0, 2.0)], ["label", "x"])
    clf = SGDClassifier(loss="hinge", family="multinomial", featuresCols=["x"])
    with pytest.raises(IllegalArgumentException, match=re.escape(
            "Cannot train SGDClassifier: loss 'hinge' is binary (labels 0 and 1), so family 'multinomial'")):
        clf.fit(df)


def test_lasso_bad_param_values_name_what_is_allowed():
    with pytest.raises(IllegalArgumentException, match=re.escape(
            "to 'greedy': allowed values are priority+dependency, priority, random")):
        ScheduledLasso(scheduler="greedy")
    lasso = ScheduledLasso()
    with pytest.raises(IllegalArgumentException) as error:
        lasso.setElasticNetParam(1.5)
    assert str(error.value).startswith(
        f"Cannot set param elasticNetParam of {lasso.uid} to '1.5': allowed values are numbers in [0, 1]")
    assert not lasso.isSet(lasso.elasticNetParam)


def test_lasso_training_error_message(spark):
    """A row the lasso cannot use fails fit with the Java message naming the column."""
    from pyspark.ml.linalg import Vectors, VectorUDT
    from pyspark.sql.types import DoubleType, StructField, StructType

    schema = StructType([StructField("y", DoubleType()), StructField("v", VectorUDT())])
    df = spark.createDataFrame([(1.0, Vectors.dense([1.0])), (None, Vectors.dense([2.0]))], schema)
    with pytest.raises(IllegalArgumentException, match=re.escape(
            "Cannot train ScheduledLasso: a row has a null label in column 'y'")):
        ScheduledLasso(labelCol="y", featuresCol="v", maxIter=2).fit(df)
