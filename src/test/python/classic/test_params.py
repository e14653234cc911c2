"""The Python params are derived from the Java stages (the catalog the build writes, corgipile/ml/params.json):
here they are held to the Java stages themselves, and a param added in Java is shown to need no Python
edit."""

import inspect
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from pyspark.ml.param import Param, TypeConverters

import corgipile
from corgipile.ml import (
    ScheduledLasso,
    ScheduledLassoModel,
    SGDClassificationModel,
    SGDClassifier,
    SGDRegressionModel,
    SGDRegressor,
)
from corgipile.ml._params import CATALOG

ESTIMATORS = (SGDClassifier, SGDRegressor, ScheduledLasso)
STAGES = [SGDClassifier, SGDClassificationModel, SGDRegressor, SGDRegressionModel, ScheduledLasso, ScheduledLassoModel]


def _java_stage(spark, cls):
    return getattr(spark._jvm.io.corgipile.ml, cls.__name__)()


def _python_stage(spark, cls):
    """A Python stage as users get it: estimators made directly, models around a Java model."""
    if cls in ESTIMATORS:
        return cls()
    return cls(_java_stage(spark, cls))


def _java_default(java, java_param):
    value = java.getDefault(java_param)
    if not value.isDefined():
        return None
    value = value.get()
    return list(value) if not isinstance(value, (bool, int, float, str)) else value


def _pyspark_params(cls):
    """The params pyspark's own base classes declare on cls (featuresCol, ...), not the catalog."""
    return {
        name
        for klass in cls.__mro__
        if klass.__module__.startswith("pyspark.")
        for name, value in vars(klass).items()
        if isinstance(value, Param)
    }


def _catalog(cls):
    return {entry["name"]: entry for entry in CATALOG[cls._java_class]}


def _expected_converter(spark, java_param):
    """The converter that the Java param's public class (or its data class) asks for."""

    def is_a(name):
        return spark._jvm.java.lang.Class.forName(f"org.apache.spark.ml.param.{name}").isInstance(java_param)

    for names, converter in (
        (("IntParam", "LongParam"), TypeConverters.toInt),
        (("DoubleParam", "FloatParam"), TypeConverters.toFloat),
        (("BooleanParam",), TypeConverters.toBoolean),
        (("StringArrayParam",), TypeConverters.toListString),
        (("DoubleArrayParam",), TypeConverters.toListFloat),
    ):
        if any(is_a(name) for name in names):
            return converter
    data_class = java_param.dataClass()
    if data_class is not None and data_class.getSimpleName() == "String[]":
        return TypeConverters.toListString
    return TypeConverters.toString


@pytest.mark.parametrize("cls", STAGES, ids=lambda c: c.__name__)
def test_python_declares_every_java_param(spark, cls):
    """On the class: a model made from Java would add what is missing at run time, hiding the gap."""
    java = _java_stage(spark, cls)
    declared = {name for name in dir(cls) if isinstance(getattr(cls, name), Param)}
    assert declared == {p.name() for p in java.params()}


@pytest.mark.parametrize("cls", STAGES, ids=lambda c: c.__name__)
def test_catalog_has_every_java_param_but_pysparks_own(spark, cls):
    """A param in the Java stage that neither the catalog nor pyspark declares fails here."""
    java = {p.name() for p in _java_stage(spark, cls).params()}
    pyspark = _pyspark_params(cls)
    assert set(_catalog(cls)) == java - pyspark
    assert pyspark <= java, "a param pyspark's base class declares that the Java stage does not have"


@pytest.mark.parametrize("cls", STAGES, ids=lambda c: c.__name__)
def test_docs_converters_and_defaults_match_java(spark, cls):
    java = _java_stage(spark, cls)
    stage = _python_stage(spark, cls)
    catalog = _catalog(cls)
    for java_param in java.params():
        name = java_param.name()
        param = stage.getParam(name)
        assert _java_default(java, java_param) == (stage.getOrDefault(param) if stage.hasDefault(param) else None), name
        if name in catalog:  # pyspark's own params keep pyspark's docs and converters
            assert param.doc == java_param.doc() == getattr(cls, name).doc, name
            assert param.typeConverter is _expected_converter(spark, java_param), name


@pytest.mark.parametrize("cls", STAGES, ids=lambda c: c.__name__)
def test_getters_for_every_param_and_setters_where_java_has_them(spark, cls):
    java_methods = {m.getName() for m in _java_stage(spark, cls).getClass().getMethods() if m.getParameterCount() == 1}
    for name in _catalog(cls):
        capitalized = name[0].upper() + name[1:]
        assert callable(getattr(cls, f"get{capitalized}")), name
        assert hasattr(cls, f"set{capitalized}") == (f"set{capitalized}" in java_methods), name


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_keywords_are_the_params(cls):
    names = sorted(p for p in dir(cls) if isinstance(getattr(cls, p), Param))
    for method in (cls, cls.setParams):
        parameters = list(inspect.signature(method).parameters.values())
        assert [p.name for p in parameters if p.name != "self"] == names
        assert {p.kind for p in parameters if p.name != "self"} == {inspect.Parameter.KEYWORD_ONLY}


def test_an_unknown_keyword_fails_as_in_python():
    with pytest.raises(TypeError) as init:
        SGDClassifier(maxIterations=5)
    message = str(init.value)
    assert message.startswith(
        "SGDClassifier.__init__() got an unexpected keyword argument 'maxIterations' (did you mean 'maxIter'?);"
        " it takes the params of SGDClassifier: averaging, batchSize, "
    )
    assert "featuresCol, featuresCols, " in message and message.endswith(", tol, weightCol")
    with pytest.raises(TypeError, match=r"^ScheduledLasso.setParams\(\) got an unexpected keyword argument 'loss';"):
        ScheduledLasso().setParams(maxIter=3, loss="squared")
    with pytest.raises(TypeError, match="positional argument"):
        SGDRegressor(5)


def test_set_params_reach_the_java_stage(spark):
    clf = SGDClassifier(maxIter=3, stepSize=0.5, featuresCols=["a", "b"], seed=7, family="binomial")
    java = clf._to_java()
    value = lambda name: java.getOrDefault(java.getParam(name))  # noqa: E731
    assert (value("maxIter"), value("stepSize"), value("seed"), value("family")) == (3, 0.5, 7, "binomial")
    assert list(value("featuresCols")) == ["a", "b"]
    assert java.isSet(java.getParam("stepSize")) and not java.isSet(java.getParam("regParam"))


def test_unset_step_size_stays_unset_in_java(spark):
    """Java calibrates the step when stepSize is not set: the catalog's default must not count as set."""
    estimator = SGDRegressor()  # held while its Java object is used: a collected wrapper detaches it
    assert not estimator.isSet("stepSize") and estimator.getStepSize() == 0.01
    java = estimator._to_java()
    assert not java.isSet(java.getParam("stepSize"))


def test_threshold_and_thresholds_clear_each_other():
    clf = SGDClassifier(threshold=0.3)
    clf.setThresholds([0.4, 0.6])
    assert not clf.isSet(clf.threshold) and clf.getThresholds() == [0.4, 0.6]
    clf.setThreshold(0.2)
    assert not clf.isSet(clf.thresholds) and clf.getThreshold() == 0.2
    assert SGDClassifier(thresholds=[0.5, 0.5], threshold=0.7).isSet("thresholds") is False
    assert SGDClassifier(threshold=0.7, thresholds=[0.5, 0.5]).isSet("threshold") is False


def test_getters_and_setters(spark):
    reg = SGDRegressor().setLoss("huber").setEpsilon(2.0).setMaxIter(4).setSyncInterval("epoch")
    assert (reg.getLoss(), reg.getEpsilon(), reg.getMaxIter(), reg.getSyncInterval()) == ("huber", 2.0, 4, "epoch")
    reg.setParams(regParam=0.1, elasticNetParam=0.5)
    assert (reg.getRegParam(), reg.getElasticNetParam(), reg.getMaxIter()) == (0.1, 0.5, 4)


def test_lasso_getters_and_setters(spark):
    lasso = ScheduledLasso().setRegParam(0.5).setScheduler("random").setScheduleSize(4).setSeed(7)
    assert (lasso.getRegParam(), lasso.getScheduler(), lasso.getScheduleSize(), lasso.getSeed()) == (
        0.5,
        "random",
        4,
        7,
    )
    lasso.setParams(elasticNetParam=0.5, correlationThreshold=0.2)
    assert (lasso.getElasticNetParam(), lasso.getCorrelationThreshold(), lasso.getRegParam()) == (0.5, 0.2, 0.5)
    assert lasso.getMaxIter() == 100_000 and lasso.getScheduler() == "random"  # the Java default, and what was set


# Run in a process of its own over a copy of the installed package whose catalog has a param more, as
# the build writes it for a param added in Java (PythonParamCatalogTest shows the Java side). No JVM:
# Connect mode, where a stage needs none to be made.
NEW_PARAM_SCRIPT = """
import inspect, json
from corgipile.ml import SGDRegressionModel, SGDRegressor

reg = SGDRegressor(newRounds=5, maxIter=3)
print(json.dumps({
    "set": reg.getNewRounds(),
    "default": SGDRegressor().getNewRounds(),
    "setter": SGDRegressor().setNewRounds(7).getNewRounds(),
    "params": reg.setParams(newRounds=8).getNewRounds(),
    "doc": SGDRegressor.newRounds.doc,
    "explained": "newRounds: rounds of something new (>= 1) (default: 2, current: 8)" in reg.explainParams(),
    "keyword": "newRounds" in inspect.signature(SGDRegressor).parameters,
    "converted": SGDRegressor(newRounds=4.0).getNewRounds(),
    "model getter": SGDRegressionModel().getNewRounds(),
    "model setter": hasattr(SGDRegressionModel, "setNewRounds"),
}))
"""


def test_a_param_added_in_java_needs_no_python_edit(tmp_path):
    package = tmp_path / "corgipile"
    shutil.copytree(os.path.dirname(corgipile.__file__), package, ignore=shutil.ignore_patterns("jars"))
    catalog_path = package / "ml" / "params.json"
    catalog = json.loads(catalog_path.read_text())
    for stage, setter in (("SGDRegressor", True), ("SGDRegressionModel", False)):
        entry = {"name": "newRounds", "doc": "rounds of something new (>= 1)", "type": "int", "default": 2}
        catalog["stages"][f"io.corgipile.ml.{stage}"].append({**entry, "setter": setter})
    catalog_path.write_text(json.dumps(catalog))

    env = {**os.environ, "PYTHONPATH": str(tmp_path), "SPARK_CONNECT_MODE_ENABLED": "1"}
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(NEW_PARAM_SCRIPT)], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {
        "set": 5,
        "default": 2,
        "setter": 7,
        "params": 8,
        "doc": "rounds of something new (>= 1)",
        "explained": True,
        "keyword": True,
        "converted": 4,
        "model getter": 2,
        "model setter": False,
    }
