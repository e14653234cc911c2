"""pyspark wrappers of io.corgipile.ml.SGDRegressor, ScheduledLasso and their models."""

from typing import Any

from pyspark.ml.linalg import Vector
from pyspark.ml.regression import _JavaRegressionModel, _JavaRegressor
from pyspark.ml.util import JavaMLReadable, JavaMLWritable

from corgipile.ml._java import JavaMirror, require_classic
from corgipile.ml._params import (
    _ScheduledLassoModelParams,
    _ScheduledLassoParams,
    _SGDRegressionModelParams,
    _SGDRegressorParams,
    check_keywords,
    keyword_params,
)
from corgipile.ml.summary import _HasLassoSummary, _HasTrainingSummary


@keyword_params
class SGDRegressor(
    JavaMirror,
    _JavaRegressor["SGDRegressionModel"],
    _SGDRegressorParams,
    JavaMLWritable,
    JavaMLReadable["SGDRegressor"],
):
    """Linear regression by SGD on the squared or huber loss, trained epoch by epoch in Spark; over
    the ``corgipile`` source every epoch reads a new order. Every param's doc and default come from
    the Java class: ``SGDRegressor().explainParams()`` lists them.
    """

    _java_class = "io.corgipile.ml.SGDRegressor"

    def __init__(self, **params: Any):
        """Takes any param of the class by keyword, as setParams."""
        check_keywords(self, "__init__", params)
        super().__init__()
        self._java_obj = self._new_java_obj(self._java_class, self.uid)
        self.setParams(**params)

    def setParams(self, **params: Any) -> "SGDRegressor":
        """Sets the given params, any param of the class by keyword."""
        check_keywords(self, "setParams", params)
        return self._set(**params)

    def _create_model(self, java_model: Any) -> "SGDRegressionModel":
        return SGDRegressionModel(java_model)


class SGDRegressionModel(
    JavaMirror,
    _JavaRegressionModel[Vector],
    _SGDRegressionModelParams,
    JavaMLWritable,
    JavaMLReadable["SGDRegressionModel"],
    _HasTrainingSummary,
):
    """A linear regression model trained by SGDRegressor: prediction = w.x + b."""

    _java_class = "io.corgipile.ml.SGDRegressionModel"

    @property
    def coefficients(self) -> Vector:
        """The weights w of w.x + b."""
        require_classic("coefficients")
        return self._call_java("coefficients")

    @property
    def intercept(self) -> float:
        """The intercept b of w.x + b."""
        require_classic("intercept")
        return self._call_java("intercept")


@keyword_params
class ScheduledLasso(
    JavaMirror,
    _JavaRegressor["ScheduledLassoModel"],
    _ScheduledLassoParams,
    JavaMLWritable,
    JavaMLReadable["ScheduledLasso"],
):
    """Least squares with an L1 penalty (and optionally L2: the elastic net) by scheduled parallel
    coordinate descent, after STRADS: each round updates ``scheduleSize`` coefficients at once, drawn
    by priority and, with the default scheduler, none two of them on strongly correlated features.
    For the lasso it minimizes the objective of MLlib's LinearRegression at the same regParam.
    Features are a vector column (VectorAssembler makes one). Every param's doc and default come from
    the Java class: ``ScheduledLasso().explainParams()`` lists them.
    """

    _java_class = "io.corgipile.ml.ScheduledLasso"

    def __init__(self, **params: Any):
        """Takes any param of the class by keyword, as setParams."""
        check_keywords(self, "__init__", params)
        super().__init__()
        self._java_obj = self._new_java_obj(self._java_class, self.uid)
        self.setParams(**params)

    def setParams(self, **params: Any) -> "ScheduledLasso":
        """Sets the given params, any param of the class by keyword."""
        check_keywords(self, "setParams", params)
        return self._set(**params)

    def _create_model(self, java_model: Any) -> "ScheduledLassoModel":
        return ScheduledLassoModel(java_model)


class ScheduledLassoModel(
    JavaMirror,
    _JavaRegressionModel[Vector],
    _ScheduledLassoModelParams,
    JavaMLWritable,
    JavaMLReadable["ScheduledLassoModel"],
    _HasLassoSummary,
):
    """A linear regression model trained by ScheduledLasso: prediction = w.x + b."""

    _java_class = "io.corgipile.ml.ScheduledLassoModel"

    @property
    def coefficients(self) -> Vector:
        """The weights w of w.x + b, in the features' original scale."""
        require_classic("coefficients")
        return self._call_java("coefficients")

    @property
    def intercept(self) -> float:
        """The intercept b of w.x + b; 0 without fitIntercept."""
        require_classic("intercept")
        return self._call_java("intercept")
