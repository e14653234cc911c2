"""The wrappers as a Spark Connect client: the corgipile source, a Pipeline, save and load, and
what the Connect server of Spark 4.2 does not give a client, failing in Python with the reason."""

import json
import re

import pytest
from pyspark.errors import AnalysisException, IllegalArgumentException
from pyspark.ml import Pipeline, PipelineModel
from pyspark.ml.feature import VectorAssembler
from pyspark.ml.linalg import Vectors

from corgipile.ml import (
    ConnectUnsupportedError,
    ScheduledLasso,
    ScheduledLassoModel,
    SGDClassificationModel,
    SGDClassifier,
    SGDRegressor,
)


@pytest.fixture(scope="module")
def table(spark, binary_rows, tmp_path_factory):
    """The rows as a Parquet table, read back through the corgipile source."""
    path = str(tmp_path_factory.mktemp("connect") / "table")
    spark.createDataFrame(binary_rows, ["label", "x0", "x1", "x2"]).repartition(2).write.parquet(path)
    return spark.read.format("corgipile").option("bufferSize", "10%").load(path)


def _accuracy(df) -> float:
    rows = df.select("label", "prediction").collect()
    return sum(r.label == r.prediction for r in rows) / len(rows)


@pytest.fixture(scope="module")
def pipeline_model(table):
    pipeline = Pipeline(
        stages=[VectorAssembler(inputCols=["x0", "x1", "x2"], outputCol="features"), SGDClassifier(maxIter=5, seed=3)]
    )
    return pipeline.fit(table)


def test_pipeline_fits_and_transforms_over_the_corgipile_source(table, pipeline_model):
    model = pipeline_model.stages[-1]
    assert type(model) is SGDClassificationModel
    assert _accuracy(pipeline_model.transform(table)) > 0.97
    assert (model.numFeatures, model.numClasses) == (3, 2)
    assert model.predict(Vectors.dense([3.0, 3.0, 0.0])) == 1.0
    assert model.predictProbability(Vectors.dense([-3.0, -3.0, 0.0]))[0] > 0.9


def test_feature_columns(table):
    model = SGDClassifier(featuresCols=["x0", "x1", "x2"], maxIter=5).fit(table)
    assert model.getFeaturesCols() == ["x0", "x1", "x2"]
    assert _accuracy(model.transform(table)) > 0.97


def test_save_and_load(table, pipeline_model, tmp_path):
    pipeline_model.write().overwrite().save(str(tmp_path / "pipeline"))
    loaded = PipelineModel.load(str(tmp_path / "pipeline"))
    assert [type(s) for s in loaded.stages] == [VectorAssembler, SGDClassificationModel]
    expected = pipeline_model.transform(table).select("prediction").collect()
    assert loaded.transform(table).select("prediction").collect() == expected

    model = pipeline_model.stages[-1]
    model.write().overwrite().save(str(tmp_path / "model"))
    assert SGDClassificationModel.load(str(tmp_path / "model")).numFeatures == 3

    SGDClassifier(maxIter=4, loss="hinge").save(str(tmp_path / "estimator"))
    estimator = SGDClassifier.load(str(tmp_path / "estimator"))
    assert (estimator.getMaxIter(), estimator.getLoss()) == (4, "hinge")


def test_what_the_server_does_not_give_fails_in_python(pipeline_model):
    model = pipeline_model.stages[-1]
    assert not model.hasSummary
    for what in ("coefficients", "intercept", "coefficientMatrix", "interceptVector", "summary"):
        with pytest.raises(ConnectUnsupportedError, match="in a Spark Connect session: the Connect server"):
            getattr(model, what)


@pytest.mark.parametrize("cls", [SGDClassifier, SGDRegressor, ScheduledLasso], ids=lambda c: c.__name__)
def test_the_client_knows_the_defaults_of_the_java_class_on_the_server(cls, tmp_path):
    """The defaults come with the wheel (the build's param catalog), so the client has them with no JVM:
    the same as the Java class on the server saves, and not sent to it as set."""
    estimator = cls(maxIter=3)
    assert estimator.getMaxIter() == 3
    estimator.save(str(tmp_path / "estimator"))
    (metadata,) = (tmp_path / "estimator" / "metadata").glob("part-*")
    saved = json.loads(metadata.read_text())
    assert saved["paramMap"] == {"maxIter": 3}
    unset = cls()
    assert unset.getMaxIter() == saved["defaultParamMap"]["maxIter"] != 3
    assert {p.name: unset.getOrDefault(p) for p in unset.params if unset.hasDefault(p)} == saved["defaultParamMap"]


def test_bad_param_value_fails_at_fit_with_the_java_message(table):
    """No JVM in this process to check a value as it is set: the server's check fails fit."""
    clf = SGDClassifier(stepSize=-1.0)
    with pytest.raises(
        IllegalArgumentException,
        match=re.escape(f"Cannot set param stepSize of {clf.uid} to '-1.0': allowed values are numbers > 0"),
    ):
        clf.fit(table)


def test_lasso_pipeline_fits_saves_and_loads(table, tmp_path):
    """ScheduledLasso through the server: a Pipeline with VectorAssembler over the corgipile source,
    save and load, and what the server does not give failing in Python."""
    pipeline = Pipeline(
        stages=[
            VectorAssembler(inputCols=["x0", "x1", "x2"], outputCol="features"),
            ScheduledLasso(regParam=0.01, maxIter=5, seed=3),
        ]
    )
    fitted = pipeline.fit(table)
    model = fitted.stages[-1]
    assert type(model) is ScheduledLassoModel and model.numFeatures == 3
    # A linear probability model of label 1 where x0 + 2 x1 - x2 > 0.5: far on either side, far apart.
    assert model.predict(Vectors.dense([3.0, 3.0, 0.0])) > 0.5 > model.predict(Vectors.dense([-3.0, -3.0, 0.0]))

    fitted.write().overwrite().save(str(tmp_path / "pipeline"))
    loaded = PipelineModel.load(str(tmp_path / "pipeline"))
    assert type(loaded.stages[-1]) is ScheduledLassoModel
    expected = fitted.transform(table).select("prediction").collect()
    assert loaded.transform(table).select("prediction").collect() == expected

    ScheduledLasso(scheduler="random", maxIter=4).save(str(tmp_path / "estimator"))
    estimator = ScheduledLasso.load(str(tmp_path / "estimator"))
    assert (estimator.getScheduler(), estimator.getMaxIter()) == ("random", 4)

    assert not model.hasSummary
    for what in ("coefficients", "intercept", "summary"):
        with pytest.raises(ConnectUnsupportedError, match="in a Spark Connect session: the Connect server"):
            getattr(model, what)


def test_lasso_bad_param_value_fails_at_fit_with_the_java_message(table):
    lasso = ScheduledLasso(scheduler="greedy")
    with pytest.raises(
        IllegalArgumentException,
        match=re.escape(
            f"Cannot set param scheduler of {lasso.uid} to 'greedy': allowed values are priority+dependency,"
        ),
    ):
        lasso.fit(table)


def test_first_mistakes_arrive_as_one_line(spark, tmp_path):
    """The server converts Spark's own errors and the source's by their class, as for classic sessions.
    The message is the first line; Spark's Connect server appends its stack trace after a blank line
    (spark.sql.connect.serverStacktrace.enabled), and passes option names lower-cased."""
    with pytest.raises(AnalysisException) as missing:
        spark.read.format("corgipile").load(str(tmp_path / "nope")).schema
    assert str(missing.value).splitlines()[0].startswith("[PATH_NOT_FOUND] Path does not exist: ")
    with pytest.raises(IllegalArgumentException) as typo:
        spark.read.format("corgipile").option("bufferSzie", "10%").load(str(tmp_path / "nope")).schema
    assert (
        str(typo.value)
        .splitlines()[0]
        .startswith("Cannot load corgipile table: unknown option 'bufferszie' (did you mean 'bufferSize'?); ")
    )
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "part-0.parquet").write_bytes(b"PAR1 not really PAR1")
    with pytest.raises(AnalysisException) as damaged:
        spark.read.format("corgipile").load(str(tmp_path / "bad")).schema
    assert (
        str(damaged.value)
        .splitlines()[0]
        .startswith(f"Cannot load corgipile table: cannot read file:{tmp_path}/bad/part-0.parquet: ")
    )
