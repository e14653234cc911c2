"""One local Spark session (py4j) for the classic suite, started with the jar under test."""

import os

import pytest
from pyspark.ml.linalg import Vectors
from pyspark.sql import SparkSession


@pytest.fixture(scope="session", autouse=True)
def spark(jar):
    """Autouse: every wrapper needs the JVM, also in tests that never touch the session."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("corgipile-python-tests")
        .config("spark.jars", jar)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def binary_df(spark, binary_rows):
    """Columns label, x0, x1, x2 and their vector features; two partitions."""
    rows = [(label, x0, x1, x2, Vectors.dense([x0, x1, x2])) for label, x0, x1, x2 in binary_rows]
    return spark.createDataFrame(rows, ["label", "x0", "x1", "x2", "features"]).repartition(2).cache()


@pytest.fixture(scope="session")
def regression_df(spark, regression_rows):
    """Columns label and features; two partitions."""
    rows = [(label, Vectors.dense([x0, x1, x2])) for label, x0, x1, x2 in regression_rows]
    return spark.createDataFrame(rows, ["label", "features"]).repartition(2).cache()
