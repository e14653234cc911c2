"""The wrappers in MLlib's model selection from Python: CrossValidator over a ParamGridBuilder grid of a
wrapper's params picks a model, which is the Python model class, and saves and loads with its validator."""

from pyspark.ml import Pipeline
from pyspark.ml.evaluation import BinaryClassificationEvaluator
from pyspark.ml.tuning import CrossValidator, CrossValidatorModel, ParamGridBuilder

from corgipile.ml import SGDClassificationModel, SGDClassifier


def test_cross_validator_over_a_python_param_grid(binary_df, tmp_path):
    classifier = SGDClassifier(featuresCols=["x0", "x1", "x2"], maxIter=3, seed=5)
    grid = ParamGridBuilder().addGrid(classifier.regParam, [0.0, 0.5]).addGrid(classifier.loss,
                                                                               ["logistic", "hinge"]).build()
    validator = CrossValidator(estimator=Pipeline(stages=[classifier]), estimatorParamMaps=grid,
                               evaluator=BinaryClassificationEvaluator(), numFolds=2, seed=3)
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
