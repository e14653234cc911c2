"""The wrappers in MLlib's model selection from Python: CrossValidator over a ParamGridBuilder grid of a
wrapper's params picks a model, which is the Python model class, and saves and loads with its validator."""

from pyspark.ml import Pipeline
from pyspark.ml.evaluation import BinaryClassificationEvaluator, RegressionEvaluator
from pyspark.ml.feature import VectorAssembler
from pyspark.ml.tuning import CrossValidator, CrossValidatorModel, ParamGridBuilder

from corgipile.ml import ScheduledLasso, ScheduledLassoModel, SGDClassificationModel, SGDClassifier


def test_cross_validator_over_a_python_param_grid(binary_df, tmp_path):
    classifier = SGDClassifier(featuresCols=["x0", "x1", "x2"], maxIter=3, seed=5)
    grid = (
        ParamGridBuilder()
        .addGrid(classifier.regParam, [0.0, 0.5])
        .addGrid(classifier.loss, ["logistic", "hinge"])
        .build()
    )
    validator = CrossValidator(
        estimator=Pipeline(stages=[classifier]),
        estimatorParamMaps=grid,
        evaluator=BinaryClassificationEvaluator(),
        numFolds=2,
        seed=3,
    )
    data = binary_df.drop("features")
    fitted = validator.fit(data)

    assert len(fitted.avgMetrics) == 4
    best = fitted.bestModel.stages[-1]
    assert isinstance(best, SGDClassificationModel)
    # Strong L2 pressure cannot win on separable data: the best model is unregularized.
    assert best.getRegParam() == 0.0
    assert max(fitted.avgMetrics) > 0.99

    path = str(tmp_path / "cv")
    fitted.write().overwrite().save(path)
    loaded = CrossValidatorModel.load(path)
    assert isinstance(loaded.bestModel.stages[-1], SGDClassificationModel)
    assert loaded.avgMetrics == fitted.avgMetrics
    before = fitted.transform(data).select("prediction").collect()
    assert loaded.transform(data).select("prediction").collect() == before


def test_lasso_in_a_pipeline_with_vector_assembler_under_cross_validator(spark, regression_rows, tmp_path):
    data = spark.createDataFrame(regression_rows, ["label", "x0", "x1", "x2"]).repartition(2).cache()
    lasso = ScheduledLasso(maxIter=5, seed=5)
    pipeline = Pipeline(stages=[VectorAssembler(inputCols=["x0", "x1", "x2"], outputCol="features"), lasso])
    grid = ParamGridBuilder().addGrid(lasso.regParam, [0.0, 1.0]).build()
    validator = CrossValidator(
        estimator=pipeline, estimatorParamMaps=grid, evaluator=RegressionEvaluator(), numFolds=2, seed=3
    )
    fitted = validator.fit(data)

    assert len(fitted.avgMetrics) == 2
    best = fitted.bestModel.stages[-1]
    assert isinstance(best, ScheduledLassoModel)
    # On nearly noiseless data any shrinkage costs: the unpenalized fit wins, by far.
    assert best.getRegParam() == 0.0
    assert fitted.avgMetrics[0] < 0.05 < fitted.avgMetrics[1]
    assert [round(c, 1) for c in best.coefficients] == [3.0, -2.0, 0.5]

    fitted.write().overwrite().save(str(tmp_path / "cv"))
    loaded = CrossValidatorModel.load(str(tmp_path / "cv"))
    assert isinstance(loaded.bestModel.stages[-1], ScheduledLassoModel)
    before = fitted.transform(data).select("prediction").collect()
    assert loaded.transform(data).select("prediction").collect() == before
