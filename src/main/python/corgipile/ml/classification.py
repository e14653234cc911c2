"""pyspark wrappers of io.corgipile.ml.SGDClassifier and SGDClassificationModel."""

from typing import Any, List, Optional

from pyspark import keyword_only
from pyspark.ml.classification import (
    _JavaProbabilisticClassificationModel,
    _JavaProbabilisticClassifier,
)
from pyspark.ml.linalg import Matrix, Vector
from pyspark.ml.util import JavaMLReadable, JavaMLWritable

from corgipile.ml._java import JavaMirror, require_classic
from corgipile.ml._params import _SGDClassifierParams, _SGDSetters
from corgipile.ml.summary import _HasTrainingSummary


class _SGDThresholdSetters(_SGDClassifierParams):
    """threshold and MLlib's thresholds clear each other, so the last of the two set decides, as in
    Java's SGDThresholdSetter and LogisticRegression."""

    def setThreshold(self, value: float):
        self._set(threshold=value)
        return self._clear_if_set(self.thresholds)

    def setThresholds(self, value: List[float]):
        self._set(thresholds=value)
        return self._clear_if_set(self.threshold)

    def _clear_if_set(self, param):
        if self.isSet(param):
            self.clear(param)
        return self


class SGDClassifier(
    JavaMirror,
    _SGDThresholdSetters,
    _JavaProbabilisticClassifier["SGDClassificationModel"],
    _SGDClassifierParams,
    _SGDSetters,
    JavaMLWritable,
    JavaMLReadable["SGDClassifier"],
):
    """Classification by SGD (binary on the logistic or hinge loss, or multinomial), trained epoch by
    epoch in Spark; over the ``corgipile`` source every epoch reads a new order. Every param's doc and
    default come from the Java class: ``SGDClassifier().explainParams()`` lists them.
    """

    _java_class = "io.corgipile.ml.SGDClassifier"

    @keyword_only
    def __init__(
        self,
        *,
        featuresCol: Optional[str] = None,
        labelCol: Optional[str] = None,
        predictionCol: Optional[str] = None,
        rawPredictionCol: Optional[str] = None,
        probabilityCol: Optional[str] = None,
        thresholds: Optional[List[float]] = None,
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
        threshold: Optional[float] = None,
        family: Optional[str] = None,
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
        rawPredictionCol: Optional[str] = None,
        probabilityCol: Optional[str] = None,
        thresholds: Optional[List[float]] = None,
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
        threshold: Optional[float] = None,
        family: Optional[str] = None,
    ) -> "SGDClassifier":
        """Sets the given params; threshold and thresholds clear each other, so of the two the one
        given last wins."""
        kwargs = dict(self._input_kwargs)
        thresholds = {name: kwargs.pop(name) for name in list(kwargs) if name in ("threshold", "thresholds")}
        self._set(**kwargs)
        for name, value in thresholds.items():
            self.setThreshold(value) if name == "threshold" else self.setThresholds(value)
        return self

    def setFamily(self, value: str) -> "SGDClassifier":
        return self._set(family=value)

    def _create_model(self, java_model: Any) -> "SGDClassificationModel":
        return SGDClassificationModel(java_model)


class SGDClassificationModel(
    JavaMirror,
    _SGDThresholdSetters,
    _JavaProbabilisticClassificationModel[Vector],
    _SGDClassifierParams,
    JavaMLWritable,
    JavaMLReadable["SGDClassificationModel"],
    _HasTrainingSummary,
):
    """A linear classifier trained by SGDClassifier, as LogisticRegressionModel."""

    _java_class = "io.corgipile.ml.SGDClassificationModel"

    def __init__(self, java_model: Any = None):
        super().__init__(java_model)
        self._mirror_java()

    def setFeaturesCols(self, value: List[str]) -> "SGDClassificationModel":
        return self._set(featuresCols=value)

    @property
    def coefficients(self) -> Vector:
        """The weights w of w.x + b; a multinomial model has coefficientMatrix instead."""
        require_classic("coefficients")
        return self._call_java("coefficients")

    @property
    def intercept(self) -> float:
        """The intercept b of w.x + b; a multinomial model has interceptVector instead."""
        require_classic("intercept")
        return self._call_java("intercept")

    @property
    def coefficientMatrix(self) -> Matrix:
        """One row of coefficients per class (multinomial), or one row (binary)."""
        require_classic("coefficientMatrix")
        return self._call_java("coefficientMatrix")

    @property
    def interceptVector(self) -> Vector:
        """One intercept per row of coefficientMatrix."""
        require_classic("interceptVector")
        return self._call_java("interceptVector")

    @property
    def isMultinomial(self) -> bool:
        require_classic("isMultinomial")
        return self._call_java("isMultinomial")
