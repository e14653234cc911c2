"""Every param of the estimators, set from Python to a value other than its default, reaches the Java
stage with that value and comes back from it (pyspark's _to_java and _from_java, as save, load and
Pipelines use them)."""

import re

import pytest

from corgipile.ml import ScheduledLasso, SGDClassifier, SGDRegressor
from corgipile.ml._params import CATALOG

# A valid value other than the default for each param, picked by hand; a param missing here (one added
# in Java) gets one derived from its catalog entry (_derived_value), so it cannot go untested either.
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
    return value if isinstance(value, (bool, int, float, str)) else list(value)


def _java_accepts(java, name, value) -> bool:
    try:
        java.getParam(name).validate(value)
        return True
    except Exception:
        return False


def _derived_value(java, entry):
    """A value of the param's type other than its default that the Java param accepts; for a string,
    one of the words of its doc (a choice's doc lists what it takes)."""
    kind, default = entry["type"], entry.get("default")
    if kind.startswith("list"):
        return {"list[str]": ["a", "b"], "list[float]": [0.25, 0.75], "list[int]": [1, 2]}[kind]
    if kind == "bool":
        return not default
    if kind == "int":
        candidates = [(default or 0) + 1, 2]
    elif kind == "float":
        candidates = [(default or 0) / 2, (default or 0) * 2, 0.5, 2.0]
    else:
        candidates = re.findall(r"[\w+-]+", entry["doc"])
    for value in candidates:
        if value != default and _java_accepts(java, entry["name"], value):
            return value
    raise AssertionError(f"no value derived for param {entry['name']}: add one to VALUES")


def _values(cls, java, derived_only=False):
    """VALUES[cls], and a derived value for each param of the catalog it does not name."""
    derived = {entry["name"]: _derived_value(java, entry) for entry in CATALOG[cls._java_class]}
    if derived_only:
        return derived
    return {**{name: value for name, value in derived.items() if name not in VALUES[cls]}, **VALUES[cls]}


@pytest.mark.parametrize("cls", list(VALUES), ids=lambda c: c.__name__)
def test_every_param_round_trips_through_the_java_stage(spark, cls):
    _round_trip(cls, lambda java: _values(cls, java))


@pytest.mark.parametrize("cls", list(VALUES), ids=lambda c: c.__name__)
def test_the_derived_values_round_trip(spark, cls):
    """What a param added in Java gets, tried on every param of today's catalog."""
    _round_trip(cls, lambda java: _values(cls, java, derived_only=True), every_param=False)


def _round_trip(cls, values_of, every_param=True):
    estimator = cls()
    values = values_of(estimator._java_obj)
    if every_param:
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
