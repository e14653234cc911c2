"""fit and transform from Python, the same model as the Java estimator's, and the summary's figures."""

import math

from pyspark.ml.linalg import DenseVector
from pyspark.ml.regression import LinearRegression

from corgipile.ml import (
    ScheduledLasso,
    ScheduledLassoModel,
    ScheduledLassoSummary,
    SGDClassificationModel,
    SGDClassifier,
    SGDRegressionModel,
    SGDRegressor,
)


def test_classifier_separates_separable_data(binary_df):
    model = SGDClassifier(maxIter=5, seed=3).fit(binary_df)
    assert isinstance(model, SGDClassificationModel)
    assert (model.numFeatures, model.numClasses, model.isMultinomial) == (3, 2, False)
    rows = model.transform(binary_df).select("label", "prediction", "probability", "rawPrediction").collect()
    accuracy = sum(r.label == r.prediction for r in rows) / len(rows)
    assert accuracy > 0.97
    assert all(abs(sum(r.probability) - 1) < 1e-9 for r in rows)


def test_classifier_on_feature_columns(binary_df):
    """featuresCols: the raw columns, no VectorAssembler; the list travels to Java as String[]."""
    model = SGDClassifier(featuresCols=["x0", "x1", "x2"], maxIter=5).fit(binary_df.drop("features"))
    assert model.getFeaturesCols() == ["x0", "x1", "x2"]
    rows = model.transform(binary_df.drop("features")).select("label", "prediction").collect()
    assert sum(r.label == r.prediction for r in rows) / len(rows) > 0.97


def test_regressor_recovers_the_plane(regression_df):
    model = SGDRegressor(maxIter=10, seed=3).fit(regression_df)
    assert isinstance(model, SGDRegressionModel)
    assert [round(c, 1) for c in model.coefficients] == [3.0, -2.0, 0.5]
    assert abs(model.intercept - 1.0) < 0.05
    rows = model.transform(regression_df).select("label", "prediction").collect()
    rmse = math.sqrt(sum((r.label - r.prediction) ** 2 for r in rows) / len(rows))
    assert rmse < 0.05


def _java_fit(spark, java_class, df, **params):
    java = getattr(spark._jvm.io.corgipile.ml, java_class)()
    for name, value in params.items():
        java.set(java.getParam(name).w(value))  # w: the typed pair, so a seed is a Long
    return java.fit(df._jdf)


def test_classifier_equals_the_java_estimators_model_bit_for_bit(spark, binary_df):
    params = dict(maxIter=4, regParam=0.01, batchSize=4, seed=9)
    python_model = SGDClassifier(**params).fit(binary_df)
    java_model = _java_fit(spark, "SGDClassifier", binary_df, **params)
    assert list(python_model.coefficients) == list(java_model.coefficients().toArray())
    assert python_model.intercept == java_model.intercept()


def test_regressor_equals_the_java_estimators_model_bit_for_bit(spark, regression_df):
    params = dict(maxIter=3, loss="huber", epsilon=0.5, stepSize=0.05, seed=9)
    python_model = SGDRegressor(**params).fit(regression_df)
    java_model = _java_fit(spark, "SGDRegressor", regression_df, **params)
    assert list(python_model.coefficients) == list(java_model.coefficients().toArray())
    assert python_model.intercept == java_model.intercept()


def test_summary_figures_are_python_values(binary_df):
    rows = binary_df.count()
    model = SGDClassifier(maxIter=3, tol=0.0, stepSize=0.2).fit(binary_df)
    assert model.hasSummary
    summary = model.summary
    assert summary.totalIterations == 3
    history = summary.objectiveHistory
    assert len(history) == 3 and all(type(x) is float and x > 0 for x in history)
    assert history[-1] < history[0]
    assert summary.rowsPerEpoch == [rows] * 3
    assert summary.stepSize == 0.2
    assert summary.skippedRows == 0
    assert summary.numPartitions == 1  # fewer rows than minPartitionRows: one partition trains
    assert all(r >= 1 for r in summary.roundsPerEpoch)
    assert [len(r) for r in summary.secondsPerRound] == summary.roundsPerEpoch
    assert all(s > 0 for s in summary.secondsPerEpoch) and all(r > 0 for r in summary.rowsPerSecond)
    assert all(b > 0 for b in summary.bytesToExecutorsPerEpoch + summary.bytesFromExecutorsPerEpoch)
    assert summary.coefficientsHistory[-1] == model.coefficients
    assert isinstance(summary.coefficientsHistory[0], DenseVector)
    assert summary.interceptHistory[-1] == model.intercept
    assert summary.coefficientMatrixHistory[-1] == model.coefficientMatrix
    assert summary.interceptVectorHistory[-1] == model.interceptVector


def test_multinomial_model(spark):
    rows = [(float(i % 3), [float(i % 3 == k) + 0.1 * (i % 5) for k in range(3)]) for i in range(300)]
    from pyspark.ml.linalg import Vectors

    df = spark.createDataFrame([(label, Vectors.dense(x)) for label, x in rows], ["label", "features"])
    model = SGDClassifier(maxIter=5).fit(df)
    assert (model.isMultinomial, model.numClasses) == (True, 3)
    assert model.coefficientMatrix.numRows == 3 and len(model.interceptVector) == 3
    predictions = model.transform(df).select("label", "prediction").collect()
    assert sum(r.label == r.prediction for r in predictions) / len(predictions) > 0.95


def test_lasso_equals_the_java_estimators_model_bit_for_bit(spark, regression_df):
    params = dict(regParam=0.1, elasticNetParam=0.5, scheduleSize=2, maxIter=6, seed=9)
    python_model = ScheduledLasso(**params).fit(regression_df)
    assert isinstance(python_model, ScheduledLassoModel)
    java_model = _java_fit(spark, "ScheduledLasso", regression_df, **params)
    assert list(python_model.coefficients) == list(java_model.coefficients().toArray())
    assert python_model.intercept == java_model.intercept()
    assert python_model.numFeatures == 3


def test_lasso_zeroes_the_small_coefficient_as_mllibs_linear_regression(regression_df):
    """label = 3 x0 - 2 x1 + 0.5 x2 + 1 on nearly uncorrelated unit-variance features: the L1 penalty
    shrinks each coefficient by about regParam, so 0.6 zeroes the third; MLlib's LinearRegression
    minimizes the same objective (a looser solver, hence the tolerance)."""
    model = ScheduledLasso(regParam=0.6, maxIter=50).fit(regression_df)
    assert model.coefficients[2] == 0.0
    assert [round(c, 1) for c in model.coefficients] == [2.4, -1.4, 0.0]
    mllib = LinearRegression(regParam=0.6, elasticNetParam=1.0, tol=1e-9).fit(regression_df)
    assert all(abs(a - b) < 1e-3 for a, b in zip(model.coefficients, mllib.coefficients))
    assert abs(model.intercept - mllib.intercept) < 1e-3
    rows = model.transform(regression_df).select("features", "prediction").collect()
    assert all(abs(r.prediction - (r.features.dot(model.coefficients) + model.intercept)) < 1e-9 for r in rows)


def test_lasso_summary_figures_are_python_values(regression_df):
    rows = regression_df.count()
    model = ScheduledLasso(regParam=0.1, scheduleSize=2, maxIter=4, tol=0.0).fit(regression_df)
    assert model.hasSummary
    summary = model.summary
    assert isinstance(summary, ScheduledLassoSummary)
    assert summary.totalIterations == 4 and summary.numRows == rows
    history = summary.objectiveHistory
    assert len(history) == 5 and all(type(x) is float and x > 0 for x in history)
    assert history[-1] < history[0]
    # 2 updates a round, or 1 when the round takes the last candidate of a pass's 3
    updates = summary.updatesHistory
    assert updates[0] == 0 and all(type(b) is int and 1 <= b - a <= 2 for a, b in zip(updates, updates[1:]))
    passes = summary.passesHistory
    assert passes[0] == 0 and 1 <= passes[-1] <= 4 and passes == sorted(passes)
    assert len(summary.rejectedPerRound) == 5 and all(type(r) is int and r >= 0 for r in summary.rejectedPerRound)
    seconds = summary.secondsHistory
    assert len(seconds) == 5 and all(type(s) is float for s in seconds) and seconds == sorted(seconds)
