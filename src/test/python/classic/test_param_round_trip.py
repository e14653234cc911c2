"""Every param of the estimators, set from Python to a value other than its default, reaches the Java
stage with that value and comes back from it (pyspark's _to_java and _from_java, as save, load and
Pipelines use them)."""

import pytest

from corgipile.ml import ScheduledLasso, SGDClassifier, SGDRegressor

# A valid value other than the default for every param; the test fails when a param is missing here,
# so a new Java param cannot go untested.
SHARED = {
    "averaging": False,
    "batchSize": 8,
    "decayRate": 0.5,
    "deltaCompression": "int8",
    "elasticNetParam": 0.25,
    "errorFeedback": False,
    "featuresCol": "vec",
    "featuresCols": ["a", "b"],
    "fitIntercept": False,
    "handleInvalid": "skip",
    "labelCol": "y",
    "maxIter": 7,
    "nIterNoChange": 2,
    "predictionCol": "p",
    "regParam": 0.125,
    "seed": 11,
    "standardization": False,
    "stepSchedule": "constant",
    "stepSize": 0.375,
    "syncInterval": "epoch",
    "syncMomentum": 0.5,
    "syncStepSize": 0.75,
    "tol": 0.001,
    "weightCol": "w",
}
VALUES = {
    SGDClassifier: {
        **SHARED,
        "family": "binomial",
        "loss": "hinge",
        "probabilityCol": "prob",
        "rawPredictionCol": "raw",
        "threshold": 0.25,
    },
    SGDRegressor: {**SHARED, "epsilon": 2.5, "loss": "huber"},
    ScheduledLasso: {
        "candidateFactor": 3.0,
        "correlationThreshold": 0.5,
        "elasticNetParam": 0.25,
        "featuresCol": "vec",
        "fitIntercept": False,
        "labelCol": "y",
        "maxIter": 7,
        "predictionCol": "p",
        "priorityFloor": 0.01,
        "refreshInterval": 3,
        "regParam": 0.125,
        "scheduleSize": 4,
        "scheduler": "random",
        "seed": 11,
        "standardization": False,
        "tol": 0.001,
    },
}


def _java_value(java, name):
    value = java.getOrDefault(java.getParam(name))
    return list(value) if name == "featuresCols" else value


@pytest.mark.parametrize("cls", list(VALUES), ids=lambda c: c.__name__)
def test_every_param_round_trips_through_the_java_stage(spark, cls):
    values = VALUES[cls]
    estimator = cls()
    assert sorted(p.name for p in estimator.params if p.name != "thresholds") == sorted(values)
    for name, value in values.items():
        assert estimator.getOrDefault(name) != value, f"{name}: pick a value other than the default"
    estimator.setParams(**values)

    java = estimator._to_java()
    for name, value in values.items():
        assert _java_value(java, name) == value, name

    back = cls._from_java(java)
    assert type(back) is cls
    for name, value in values.items():
        assert back.getOrDefault(name) == value, name


def test_thresholds_round_trip(spark):
    """thresholds clears threshold (as in Java), so it goes on its own."""
    # Held while its Java object is used: a pyspark wrapper detaches its Java object from py4j when
    # collected, and a temporary one is collected whenever Python's cycle collector runs (a flake).
    estimator = SGDClassifier(thresholds=[0.3, 0.7])
    java = estimator._to_java()
    assert list(_java_value(java, "thresholds")) == [0.3, 0.7]
    assert SGDClassifier._from_java(java).getThresholds() == [0.3, 0.7]
