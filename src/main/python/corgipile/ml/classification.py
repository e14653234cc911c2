"""pyspark wrappers of io.corgipile.ml.SGDClassifier and SGDClassificationModel."""

from typing import Any, List

from pyspark.ml.classification import (
    _JavaProbabilisticClassificationModel,
    _JavaProbabilisticClassifier,
)
from pyspark.ml.linalg import Matrix, Vector
from pyspark.ml.param import Params
from pyspark.ml.util import JavaMLReadable, JavaMLWritable

from corgipile.ml._java import JavaMirror, require_classic
from corgipile.ml._params import (
    _SGDClassificationModelParams,
    _SGDClassifierParams,
    check_keywords,
    keyword_params,
)
from corgipile.ml.summary import _HasTrainingSummary


class _SGDThresholdSetters(Params):
    """threshold and MLlib's thresholds clear each other, so the last of the two set decides, as in
    Java's SGDThresholdSetter and LogisticRegression: these setters come before the catalog's."""

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


@keyword_params
class SGDClassifier(
    JavaMirror,
    _SGDThresholdSetters,
    _JavaProbabilisticClassifier["SGDClassificationModel"],
    _SGDClassifierParams,
    JavaMLWritable,
    JavaMLReadable["SGDClassifier"],
):
    """Classification by SGD (binary on the logistic or hinge loss, or multinomial), trained epoch by
    epoch in Spark; over the ``corgipile`` source every epoch reads a new order. Every param's doc and
    default come from the Java class: ``SGDClassifier().explainParams()`` lists them.
    """

    _java_class = "io.corgipile.ml.SGDClassifier"

    def __init__(self, **params: Any):
        """Takes any param of the class by keyword, as setParams."""
        check_keywords(self, "__init__", params)
        super().__init__()
        self._java_obj = self._new_java_obj(self._java_class, self.uid)
        self.setParams(**params)

    def setParams(self, **params: Any) -> "SGDClassifier":
        """Sets the given params, any param of the class by keyword; threshold and thresholds clear
        each other, so of the two the one given last wins."""
        check_keywords(self, "setParams", params)
        thresholds = {name: params.pop(name) for name in list(params) if name in ("threshold", "thresholds")}
        self._set(**params)
        for name, value in thresholds.items():
            self.setThreshold(value) if name == "threshold" else self.setThresholds(value)
        return self

    def _create_model(self, java_model: Any) -> "SGDClassificationModel":
        return SGDClassificationModel(java_model)


class SGDClassificationModel(
    JavaMirror,
    _SGDThresholdSetters,
    _JavaProbabilisticClassificationModel[Vector],
    _SGDClassificationModelParams,
    JavaMLWritable,
    JavaMLReadable["SGDClassificationModel"],
    _HasTrainingSummary,
):
    """A linear classifier trained by SGDClassifier, as LogisticRegressionModel."""

    _java_class = "io.corgipile.ml.SGDClassificationModel"

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
