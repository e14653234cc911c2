"""save and load of the stages and of Pipelines holding them, from Python and across Python and Java."""

import io
import os
import sys

import pytest
from pyspark.ml import Pipeline, PipelineModel
from pyspark.ml.feature import VectorAssembler

from corgipile.ml import (
    ScheduledLasso,
    ScheduledLassoModel,
    SGDClassificationModel,
    SGDClassifier,
    SGDRegressionModel,
    SGDRegressor,
)

# Saved by the Java API at commit 4077e3f (src/test/resources; the Java tests load it too).
JAVA_SAVED_MODEL = os.path.join("src", "test", "resources", "models", "binary-classifier-4077e3f")


def _predictions(model, df):
    return [r.prediction for r in model.transform(df).select("prediction").collect()]


def test_estimator_save_and_load(tmp_path):
    clf = SGDClassifier(maxIter=7, loss="hinge", featuresCols=["x0", "x1"], threshold=0.3)
    clf.save(str(tmp_path / "clf"))
    loaded = SGDClassifier.load(str(tmp_path / "clf"))
    assert type(loaded) is SGDClassifier and loaded.uid == clf.uid
    assert (loaded.getMaxIter(), loaded.getLoss(), loaded.getFeaturesCols(), loaded.getThreshold()) == (
        7,
        "hinge",
        ["x0", "x1"],
        0.3,
    )
    assert not loaded.isSet(loaded.stepSize) and loaded.getStepSize() == 0.1

    reg = SGDRegressor(epsilon=2.5, loss="huber")
    reg.write().overwrite().save(str(tmp_path / "reg"))
    loaded = SGDRegressor.load(str(tmp_path / "reg"))
    assert (type(loaded), loaded.getEpsilon(), loaded.getLoss()) == (SGDRegressor, 2.5, "huber")


def test_model_save_and_load(tmp_path, binary_df, regression_df):
    model = SGDClassifier(maxIter=3, threshold=0.4).fit(binary_df)
    model.save(str(tmp_path / "clf"))
    loaded = SGDClassificationModel.load(str(tmp_path / "clf"))
    assert type(loaded) is SGDClassificationModel and loaded.uid == model.uid
    assert loaded.coefficients == model.coefficients and loaded.intercept == model.intercept
    assert loaded.getThreshold() == 0.4 and not loaded.hasSummary
    assert _predictions(loaded, binary_df) == _predictions(model, binary_df)

    reg_model = SGDRegressor(maxIter=2).fit(regression_df)
    reg_model.save(str(tmp_path / "reg"))
    loaded = SGDRegressionModel.load(str(tmp_path / "reg"))
    assert (type(loaded), loaded.coefficients, loaded.intercept) == (
        SGDRegressionModel,
        reg_model.coefficients,
        reg_model.intercept,
    )


def test_pipeline_with_vector_assembler_saved_and_loaded_from_python(tmp_path, binary_df):
    raw = binary_df.drop("features")
    pipeline = Pipeline(
        stages=[VectorAssembler(inputCols=["x0", "x1", "x2"], outputCol="features"), SGDClassifier(maxIter=3)]
    )
    pipeline.save(str(tmp_path / "pipeline"))
    loaded_pipeline = Pipeline.load(str(tmp_path / "pipeline"))
    assert [type(s) for s in loaded_pipeline.getStages()] == [VectorAssembler, SGDClassifier]

    model = loaded_pipeline.fit(raw)
    model.save(str(tmp_path / "model"))
    loaded = PipelineModel.load(str(tmp_path / "model"))
    assert [type(s) for s in loaded.stages] == [VectorAssembler, SGDClassificationModel]
    assert loaded.stages[1].coefficients == model.stages[1].coefficients
    assert _predictions(loaded, raw) == _predictions(model, raw)


def test_python_saved_models_load_in_java(spark, tmp_path, binary_df):
    model = SGDClassifier(maxIter=3).fit(binary_df)
    model.save(str(tmp_path / "model"))
    PipelineModel(stages=[model]).save(str(tmp_path / "pipeline"))

    jvm = spark._jvm
    java_model = jvm.io.corgipile.ml.SGDClassificationModel.load(str(tmp_path / "model"))
    assert list(java_model.coefficients().toArray()) == list(model.coefficients)
    java_stage = jvm.org.apache.spark.ml.PipelineModel.load(str(tmp_path / "pipeline")).stages()[0]
    assert java_stage.getClass().getName() == "io.corgipile.ml.SGDClassificationModel"
    assert java_stage.intercept() == model.intercept


def test_java_saved_models_load_in_python(spark, repo, tmp_path, binary_df):
    saved = SGDClassificationModel.load(os.path.join(repo, JAVA_SAVED_MODEL))
    assert saved.uid == "sgdClassifier_saved_at_4077e3f" and saved.getThreshold() == 0.4

    jvm = spark._jvm
    java_estimator = jvm.io.corgipile.ml.SGDRegressor().setMaxIter(2)
    java_model = java_estimator.fit(binary_df._jdf)
    java_model.write().save(str(tmp_path / "model"))  # py4j misses save, a default of MLWritable
    java_pipeline = jvm.org.apache.spark.ml.PipelineModel(
        "javaPipeline", [java_model]
    )  # its java.util.List constructor
    java_pipeline.write().save(str(tmp_path / "pipeline"))

    loaded = SGDRegressionModel.load(str(tmp_path / "model"))
    assert list(loaded.coefficients) == list(java_model.coefficients().toArray())
    pipeline = PipelineModel.load(str(tmp_path / "pipeline"))
    assert type(pipeline.stages[0]) is SGDRegressionModel
    assert pipeline.stages[0].intercept == java_model.intercept()


def test_stage_load_does_not_depend_on_the_module_name_pipelines_need(monkeypatch, tmp_path, binary_df):
    """Without the "io.corgipile.ml" entry, a stage still loads (through the Java class its wrapper
    names), while a pipeline load fails as the README says."""
    model = SGDClassifier(maxIter=2).fit(binary_df)
    model.save(str(tmp_path / "model"))
    PipelineModel(stages=[model]).save(str(tmp_path / "pipeline"))
    monkeypatch.delitem(sys.modules, "io.corgipile.ml")

    assert SGDClassificationModel.load(str(tmp_path / "model")).coefficients == model.coefficients
    with pytest.raises(ModuleNotFoundError, match="No module named 'io.corgipile'"):
        PipelineModel.load(str(tmp_path / "pipeline"))


def test_lasso_estimator_and_model_save_and_load(spark, tmp_path, regression_df):
    lasso = ScheduledLasso(regParam=0.2, scheduler="priority", scheduleSize=2, maxIter=5, seed=4)
    lasso.save(str(tmp_path / "lasso"))
    loaded = ScheduledLasso.load(str(tmp_path / "lasso"))
    assert type(loaded) is ScheduledLasso and loaded.uid == lasso.uid
    assert (loaded.getRegParam(), loaded.getScheduler(), loaded.getScheduleSize(), loaded.getSeed()) == (
        0.2,
        "priority",
        2,
        4,
    )
    assert not loaded.isSet(loaded.tol) and loaded.getTol() == 1e-6

    model = loaded.fit(regression_df)
    model.write().overwrite().save(str(tmp_path / "model"))
    loaded_model = ScheduledLassoModel.load(str(tmp_path / "model"))
    assert type(loaded_model) is ScheduledLassoModel and loaded_model.uid == model.uid
    assert (loaded_model.coefficients, loaded_model.intercept) == (model.coefficients, model.intercept)
    assert loaded_model.getScheduler() == "priority" and not loaded_model.hasSummary
    assert _predictions(loaded_model, regression_df) == _predictions(model, regression_df)

    java_model = spark._jvm.io.corgipile.ml.ScheduledLassoModel.load(str(tmp_path / "model"))
    assert list(java_model.coefficients().toArray()) == list(model.coefficients)
    assert java_model.intercept() == model.intercept


def test_lasso_pipeline_saved_in_java_loads_in_python(spark, tmp_path, regression_df):
    java_model = spark._jvm.io.corgipile.ml.ScheduledLasso().setMaxIter(3).fit(regression_df._jdf)
    spark._jvm.org.apache.spark.ml.PipelineModel("javaPipeline", [java_model]).write().save(str(tmp_path / "p"))
    stage = PipelineModel.load(str(tmp_path / "p")).stages[0]
    assert type(stage) is ScheduledLassoModel
    assert list(stage.coefficients) == list(java_model.coefficients().toArray())
    assert stage.intercept == java_model.intercept() and stage.getMaxIter() == 3


def test_python_io_module_is_untouched():
    """Loading pipelines finds our classes under the name "io.corgipile.ml"; the standard io stays as it was."""
    assert not hasattr(io, "corgipile") and io.StringIO("x").read() == "x"
