"""The Python params against the Java stages' own: names, docs, defaults and converters may not drift."""

import pytest
from pyspark.ml.param import Param, TypeConverters

from corgipile.ml import (
    ScheduledLasso,
    ScheduledLassoModel,
    SGDClassificationModel,
    SGDClassifier,
    SGDRegressionModel,
    SGDRegressor,
)
from corgipile.ml._params import _ScheduledLassoParams, _SGDClassifierParams, _SGDParams, _SGDRegressorParams

# The Python converter each Java param class takes values through.
CONVERTERS = {
    "IntParam": TypeConverters.toInt,
    "CheckedInt": TypeConverters.toInt,
    "LongParam": TypeConverters.toInt,
    "DoubleParam": TypeConverters.toFloat,
    "CheckedDouble": TypeConverters.toFloat,
    "BooleanParam": TypeConverters.toBoolean,
    "CheckedString": TypeConverters.toString,
    "SyncIntervalParam": TypeConverters.toString,
    "ColumnsParam": TypeConverters.toListString,
    "DoubleArrayParam": TypeConverters.toListFloat,
}


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
    return list(value) if java_param.getClass().getSimpleName() == "ColumnsParam" else value


OWN_PARAMS = {
    name
    for mixin in (_SGDParams, _SGDClassifierParams, _SGDRegressorParams, _ScheduledLassoParams)
    for name, value in vars(mixin).items()
    if isinstance(value, Param)
}

ESTIMATORS = (SGDClassifier, SGDRegressor, ScheduledLasso)
STAGES = [SGDClassifier, SGDClassificationModel, SGDRegressor, SGDRegressionModel, ScheduledLasso, ScheduledLassoModel]


@pytest.mark.parametrize("cls", STAGES, ids=lambda c: c.__name__)
def test_python_declares_every_java_param(spark, cls):
    """On the class: a model made from Java would add what is missing at run time, hiding the gap."""
    java = _java_stage(spark, cls)
    declared = {name for name in dir(cls) if isinstance(getattr(cls, name), Param)}
    assert declared == {p.name() for p in java.params()}


@pytest.mark.parametrize("cls", STAGES, ids=lambda c: c.__name__)
def test_defaults_docs_and_converters_match_java(spark, cls):
    java = _java_stage(spark, cls)
    stage = _python_stage(spark, cls)
    for java_param in java.params():
        name = java_param.name()
        param = stage.getParam(name)
        assert param.doc == java_param.doc(), name
        assert _java_default(java, java_param) == (stage.getOrDefault(param) if stage.hasDefault(param) else None), name
        java_class = java_param.getClass().getSimpleName()
        if java_class in CONVERTERS:  # MLlib's plain Param: a string column name
            assert param.typeConverter is CONVERTERS[java_class], name
        else:
            assert java_class == "Param" and param.typeConverter is TypeConverters.toString, name


@pytest.mark.parametrize("cls", STAGES, ids=lambda c: c.__name__)
def test_class_docs_begin_the_java_docs(spark, cls):
    """The docs declared on the class (shown before a stage exists) are the Java docs' first words;
    pyspark's own params (featuresCol, ...) keep pyspark's docs there."""
    java = _java_stage(spark, cls)
    for java_param in java.params():
        if java_param.name() not in OWN_PARAMS:
            continue
        assert java_param.doc().startswith(getattr(cls, java_param.name()).doc), java_param.name()


def test_set_params_reach_the_java_stage(spark):
    clf = SGDClassifier(maxIter=3, stepSize=0.5, featuresCols=["a", "b"], seed=7, family="binomial")
    java = clf._to_java()
    value = lambda name: java.getOrDefault(java.getParam(name))  # noqa: E731
    assert (value("maxIter"), value("stepSize"), value("seed"), value("family")) == (3, 0.5, 7, "binomial")
    assert list(value("featuresCols")) == ["a", "b"]
    assert java.isSet(java.getParam("stepSize")) and not java.isSet(java.getParam("regParam"))


def test_unset_step_size_stays_unset_in_java(spark):
    """Java calibrates the step when stepSize is not set: the mirrored default must not count as set."""
    estimator = SGDRegressor()  # held while its Java object is used: a collected wrapper detaches it
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
    assert lasso.getMaxIter() == 1000 and lasso.getScheduler() == "random"  # the Java default, and what was set
