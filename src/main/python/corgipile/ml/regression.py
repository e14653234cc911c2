"""pyspark wrappers of io.corgipile.ml.SGDRegressor, ScheduledLasso and their models."""

from typing import Any, List, Optional

from pyspark import keyword_only
from pyspark.ml.linalg import Vector
from pyspark.ml.regression import _JavaRegressionModel, _JavaRegressor
from pyspark.ml.util import JavaMLReadable, JavaMLWritable

from corgipile.ml._java import JavaMirror, require_classic
from corgipile.ml._params import _ScheduledLassoParams, _ScheduledLassoSetters, _SGDRegressorParams, _SGDSetters
from corgipile.ml.summary import _HasLassoSummary, _HasTrainingSummary


class SGDRegressor(
    JavaMirror,
    _JavaRegressor["SGDRegressionModel"],
    _SGDRegressorParams,
    _SGDSetters,
    JavaMLWritable,
    JavaMLReadable["SGDRegressor"],
):
    """Linear regression by SGD on the squared or huber loss, trained epoch by epoch in Spark; over
    the ``corgipile`` source every epoch reads a new order. Every param's doc and default come from
    the Java class: ``SGDRegressor().explainParams()`` lists them.
    """

    _java_class = "io.corgipile.ml.SGDRegressor"

    @keyword_only
    def __init__(
        self,
        *,
        featuresCol: Optional[str] = None,
        labelCol: Optional[str] = None,
        predictionCol: Optional[str] = None,
        loss: Optional[str] = None,
        maxIter: Optional[int] = None,
        tol: Optional[float] = None,
        nIterNoChange: Optional[int] = None,
        stepSize: Optional[float] = None,
        stepSchedule: Optional[str] = None,
        decayRate: Optional[float] = None,
        batchSize: Optional[int] = None,
        regParam: Optional[float] = None,
        elasticNetParam: Optional[float] = None,
        fitIntercept: Optional[bool] = None,
        standardization: Optional[bool] = None,
        averaging: Optional[bool] = None,
        weightCol: Optional[str] = None,
        featuresCols: Optional[List[str]] = None,
        seed: Optional[int] = None,
        handleInvalid: Optional[str] = None,
        syncInterval: Optional[str] = None,
        deltaCompression: Optional[str] = None,
        errorFeedback: Optional[bool] = None,
        syncStepSize: Optional[float] = None,
        syncMomentum: Optional[float] = None,
        epsilon: Optional[float] = None,
    ):
        super().__init__()
        self._java_obj = self._new_java_obj(self._java_class, self.uid)
        self._mirror_java()
        self.setParams(**self._input_kwargs)

    @keyword_only
    def setParams(
        self,
        *,
        featuresCol: Optional[str] = None,
        labelCol: Optional[str] = None,
        predictionCol: Optional[str] = None,
        loss: Optional[str] = None,
        maxIter: Optional[int] = None,
        tol: Optional[float] = None,
        nIterNoChange: Optional[int] = None,
        stepSize: Optional[float] = None,
        stepSchedule: Optional[str] = None,
        decayRate: Optional[float] = None,
        batchSize: Optional[int] = None,
        regParam: Optional[float] = None,
        elasticNetParam: Optional[float] = None,
        fitIntercept: Optional[bool] = None,
        standardization: Optional[bool] = None,
        averaging: Optional[bool] = None,
        weightCol: Optional[str] = None,
        featuresCols: Optional[List[str]] = None,
        seed: Optional[int] = None,
        handleInvalid: Optional[str] = None,
        syncInterval: Optional[str] = None,
        deltaCompression: Optional[str] = None,
        errorFeedback: Optional[bool] = None,
        syncStepSize: Optional[float] = None,
        syncMomentum: Optional[float] = None,
        epsilon: Optional[float] = None,
    ) -> "SGDRegressor":
        """Sets the given params."""
        return self._set(**self._input_kwargs)

    def setEpsilon(self, value: float) -> "SGDRegressor":
        return self._set(epsilon=value)

    def _create_model(self, java_model: Any) -> "SGDRegressionModel":
        return SGDRegressionModel(java_model)


class SGDRegressionModel(
    JavaMirror,
    _JavaRegressionModel[Vector],
    _SGDRegressorParams,
    JavaMLWritable,
    JavaMLReadable["SGDRegressionModel"],
    _HasTrainingSummary,
):
    """A linear regression model trained by SGDRegressor: prediction = w.x + b."""

    _java_class = "io.corgipile.ml.SGDRegressionModel"

    def __init__(self, java_model: Any = None):
        super().__init__(java_model)
        self._mirror_java()

    def setFeaturesCols(self, value: List[str]) -> "SGDRegressionModel":
        return self._set(featuresCols=value)

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


class ScheduledLasso(
    JavaMirror,
    _JavaRegressor["ScheduledLassoModel"],
    _ScheduledLassoSetters,
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

    @keyword_only
    def __init__(
        self,
        *,
        featuresCol: Optional[str] = None,
        labelCol: Optional[str] = None,
        predictionCol: Optional[str] = None,
        regParam: Optional[float] = None,
        elasticNetParam: Optional[float] = None,
        scheduleSize: Optional[int] = None,
        candidateFactor: Optional[float] = None,
        priorityFloor: Optional[float] = None,
        correlationThreshold: Optional[float] = None,
        scheduler: Optional[str] = None,
        maxIter: Optional[int] = None,
        tol: Optional[float] = None,
        refreshInterval: Optional[int] = None,
        fitIntercept: Optional[bool] = None,
        standardization: Optional[bool] = None,
        seed: Optional[int] = None,
    ):
        super().__init__()
        self._java_obj = self._new_java_obj(self._java_class, self.uid)
        self._mirror_java()
        self.setParams(**self._input_kwargs)

    @keyword_only
    def setParams(
        self,
        *,
        featuresCol: Optional[str] = None,
        labelCol: Optional[str] = None,
        predictionCol: Optional[str] = None,
        regParam: Optional[float] = None,
        elasticNetParam: Optional[float] = None,
        scheduleSize: Optional[int] = None,
        candidateFactor: Optional[float] = None,
        priorityFloor: Optional[float] = None,
        correlationThreshold: Optional[float] = None,
        scheduler: Optional[str] = None,
        maxIter: Optional[int] = None,
        tol: Optional[float] = None,
        refreshInterval: Optional[int] = None,
        fitIntercept: Optional[bool] = None,
        standardization: Optional[bool] = None,
        seed: Optional[int] = None,
    ) -> "ScheduledLasso":
        """Sets the given params."""
        return self._set(**self._input_kwargs)

    def _create_model(self, java_model: Any) -> "ScheduledLassoModel":
        return ScheduledLassoModel(java_model)


class ScheduledLassoModel(
    JavaMirror,
    _JavaRegressionModel[Vector],
    _ScheduledLassoParams,
    JavaMLWritable,
    JavaMLReadable["ScheduledLassoModel"],
    _HasLassoSummary,
):
    """A linear regression model trained by ScheduledLasso: prediction = w.x + b."""

    _java_class = "io.corgipile.ml.ScheduledLassoModel"

    def __init__(self, java_model: Any = None):
        super().__init__(java_model)
        self._mirror_java()

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
