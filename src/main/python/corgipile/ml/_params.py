"""The params of the SGD stages, as the Java interfaces SGDParams, SGDClassifierParams and
SGDRegressorParams declare them, and of ScheduledLasso and its model (Java's ScheduledLassoParams).

pyspark needs each Param declared on the class. Each doc here is the first words of the Java doc;
the whole Java doc (with the allowed values) and the default are taken from the Java object when a
stage is made (see _java.JavaMirror), so the Java classes stay their one home.
src/test/python/classic/test_params.py checks names, docs and converters against the Java stages.
"""

from typing import List

from pyspark.ml.param import Param, Params, TypeConverters


def _param(name: str, doc: str, converter) -> Param:
    return Param(Params._dummy(), name, doc, typeConverter=converter)


class _SGDParams(Params):
    """The params of both estimators and both models."""

    loss = _param("loss", "the loss to minimize", TypeConverters.toString)
    maxIter = _param("maxIter", "the maximum number of epochs", TypeConverters.toInt)
    tol = _param(
        "tol", "the relative improvement on the best epoch objective so far that counts", TypeConverters.toFloat
    )
    nIterNoChange = _param(
        "nIterNoChange",
        "with tol above 0, the epochs in a row without an improvement of tol that stop training",
        TypeConverters.toInt,
    )
    stepSize = _param("stepSize", "the initial learning rate", TypeConverters.toFloat)
    stepSchedule = _param("stepSchedule", "how the learning rate changes", TypeConverters.toString)
    decayRate = _param("decayRate", "the factor per epoch of the decay schedule", TypeConverters.toFloat)
    batchSize = _param("batchSize", "tuples per update within a partition", TypeConverters.toInt)
    regParam = _param("regParam", "the regularization strength", TypeConverters.toFloat)
    elasticNetParam = _param("elasticNetParam", "the L1 share of the regularization", TypeConverters.toFloat)
    fitIntercept = _param("fitIntercept", "whether to fit an intercept term", TypeConverters.toBoolean)
    standardization = _param(
        "standardization",
        "whether to train on the features divided by their standard deviations",
        TypeConverters.toBoolean,
    )
    averaging = _param("averaging", "whether an epoch ends on a mean of iterates", TypeConverters.toBoolean)
    weightCol = _param("weightCol", "the column of row weights", TypeConverters.toString)
    featuresCols = _param("featuresCols", "numeric columns to train on and predict from", TypeConverters.toListString)
    seed = _param("seed", "the seed of the CorgiPile order", TypeConverters.toInt)
    handleInvalid = _param(
        "handleInvalid",
        "what to do with a row whose features, label or weight is null or not finite",
        TypeConverters.toString,
    )
    syncInterval = _param("syncInterval", "how often the partition models are averaged", TypeConverters.toString)
    deltaCompression = _param(
        "deltaCompression", "how a partition's model change travels to the driver", TypeConverters.toString
    )
    errorFeedback = _param(
        "errorFeedback",
        "with int8 deltas, whether each partition adds what rounding lost in its last round to its next delta",
        TypeConverters.toBoolean,
    )
    syncStepSize = _param(
        "syncStepSize",
        "with several rounds per epoch, the driver's step on the averaged change of the partition models",
        TypeConverters.toFloat,
    )
    syncMomentum = _param(
        "syncMomentum", "with several rounds per epoch, the momentum of the driver's steps", TypeConverters.toFloat
    )

    def getLoss(self) -> str:
        return self.getOrDefault(self.loss)

    def getMaxIter(self) -> int:
        return self.getOrDefault(self.maxIter)

    def getTol(self) -> float:
        return self.getOrDefault(self.tol)

    def getNIterNoChange(self) -> int:
        return self.getOrDefault(self.nIterNoChange)

    def getStepSize(self) -> float:
        return self.getOrDefault(self.stepSize)

    def getStepSchedule(self) -> str:
        return self.getOrDefault(self.stepSchedule)

    def getDecayRate(self) -> float:
        return self.getOrDefault(self.decayRate)

    def getBatchSize(self) -> int:
        return self.getOrDefault(self.batchSize)

    def getRegParam(self) -> float:
        return self.getOrDefault(self.regParam)

    def getElasticNetParam(self) -> float:
        return self.getOrDefault(self.elasticNetParam)

    def getFitIntercept(self) -> bool:
        return self.getOrDefault(self.fitIntercept)

    def getStandardization(self) -> bool:
        return self.getOrDefault(self.standardization)

    def getAveraging(self) -> bool:
        return self.getOrDefault(self.averaging)

    def getWeightCol(self) -> str:
        return self.getOrDefault(self.weightCol)

    def getFeaturesCols(self) -> List[str]:
        return self.getOrDefault(self.featuresCols)

    def getSeed(self) -> int:
        return self.getOrDefault(self.seed)

    def getHandleInvalid(self) -> str:
        return self.getOrDefault(self.handleInvalid)

    def getSyncInterval(self) -> str:
        return self.getOrDefault(self.syncInterval)

    def getDeltaCompression(self) -> str:
        return self.getOrDefault(self.deltaCompression)

    def getErrorFeedback(self) -> bool:
        return self.getOrDefault(self.errorFeedback)

    def getSyncStepSize(self) -> float:
        return self.getOrDefault(self.syncStepSize)

    def getSyncMomentum(self) -> float:
        return self.getOrDefault(self.syncMomentum)


class _SGDClassifierParams(_SGDParams):
    """The params of SGDClassifier and SGDClassificationModel."""

    threshold = _param("threshold", "predict 1 when the probability of 1 exceeds this", TypeConverters.toFloat)
    family = _param(
        "family",
        "binomial (one margin, labels 0 and 1), multinomial (one margin per class,"
        " labels 0..K-1, logistic loss only) or auto",
        TypeConverters.toString,
    )

    def getThreshold(self) -> float:
        return self.getOrDefault(self.threshold)

    def getFamily(self) -> str:
        return self.getOrDefault(self.family)


class _SGDRegressorParams(_SGDParams):
    """The params of SGDRegressor and SGDRegressionModel."""

    epsilon = _param("epsilon", "where the huber loss turns from squared to linear", TypeConverters.toFloat)

    def getEpsilon(self) -> float:
        return self.getOrDefault(self.epsilon)


class _SGDSetters(_SGDParams):
    """The setters of the training params, shared by the two estimators as Java's SGDParamSetters."""

    def setLoss(self, value: str):
        return self._set(loss=value)

    def setMaxIter(self, value: int):
        return self._set(maxIter=value)

    def setTol(self, value: float):
        return self._set(tol=value)

    def setNIterNoChange(self, value: int):
        return self._set(nIterNoChange=value)

    def setStepSize(self, value: float):
        return self._set(stepSize=value)

    def setStepSchedule(self, value: str):
        return self._set(stepSchedule=value)

    def setDecayRate(self, value: float):
        return self._set(decayRate=value)

    def setBatchSize(self, value: int):
        return self._set(batchSize=value)

    def setRegParam(self, value: float):
        return self._set(regParam=value)

    def setElasticNetParam(self, value: float):
        return self._set(elasticNetParam=value)

    def setFitIntercept(self, value: bool):
        return self._set(fitIntercept=value)

    def setStandardization(self, value: bool):
        return self._set(standardization=value)

    def setAveraging(self, value: bool):
        return self._set(averaging=value)

    def setWeightCol(self, value: str):
        return self._set(weightCol=value)

    def setFeaturesCols(self, value: List[str]):
        return self._set(featuresCols=value)

    def setSeed(self, value: int):
        return self._set(seed=value)

    def setHandleInvalid(self, value: str):
        return self._set(handleInvalid=value)

    def setSyncInterval(self, value: str):
        return self._set(syncInterval=value)

    def setDeltaCompression(self, value: str):
        return self._set(deltaCompression=value)

    def setErrorFeedback(self, value: bool):
        return self._set(errorFeedback=value)

    def setSyncStepSize(self, value: float):
        return self._set(syncStepSize=value)

    def setSyncMomentum(self, value: float):
        return self._set(syncMomentum=value)


class _ScheduledLassoParams(Params):
    """The params of ScheduledLasso and ScheduledLassoModel, as Java's ScheduledLassoParams declares
    them (besides the Predictor's featuresCol, labelCol and predictionCol)."""

    regParam = _param("regParam", "the penalty's strength", TypeConverters.toFloat)
    elasticNetParam = _param("elasticNetParam", "the L1 share alpha of the penalty", TypeConverters.toFloat)
    scheduleSize = _param("scheduleSize", "coefficients updated together in a round", TypeConverters.toInt)
    candidateFactor = _param(
        "candidateFactor",
        "with the dependency check, candidates sampled per coefficient scheduled",
        TypeConverters.toFloat,
    )
    priorityFloor = _param("priorityFloor", "added to every coefficient's priority", TypeConverters.toFloat)
    correlationThreshold = _param(
        "correlationThreshold",
        "with the dependency check, the largest absolute"
        " correlation a candidate may have with a coefficient already scheduled in its"
        " round",
        TypeConverters.toFloat,
    )
    scheduler = _param("scheduler", "how a round's coefficients are picked", TypeConverters.toString)
    maxIter = _param("maxIter", "the most rounds", TypeConverters.toInt)
    tol = _param(
        "tol",
        "training stops when the objective changed by less than this, relative, over the last sweep",
        TypeConverters.toFloat,
    )
    refreshInterval = _param(
        "refreshInterval",
        "passes over the data between recomputing the cached residuals from the coefficients",
        TypeConverters.toInt,
    )
    fitIntercept = _param("fitIntercept", "whether to fit an intercept term", TypeConverters.toBoolean)
    standardization = _param(
        "standardization",
        "whether the penalty applies to the coefficients of the standardized features",
        TypeConverters.toBoolean,
    )
    seed = _param("seed", "the seed of the scheduler's draws", TypeConverters.toInt)

    def getRegParam(self) -> float:
        return self.getOrDefault(self.regParam)

    def getElasticNetParam(self) -> float:
        return self.getOrDefault(self.elasticNetParam)

    def getScheduleSize(self) -> int:
        return self.getOrDefault(self.scheduleSize)

    def getCandidateFactor(self) -> float:
        return self.getOrDefault(self.candidateFactor)

    def getPriorityFloor(self) -> float:
        return self.getOrDefault(self.priorityFloor)

    def getCorrelationThreshold(self) -> float:
        return self.getOrDefault(self.correlationThreshold)

    def getScheduler(self) -> str:
        return self.getOrDefault(self.scheduler)

    def getMaxIter(self) -> int:
        return self.getOrDefault(self.maxIter)

    def getTol(self) -> float:
        return self.getOrDefault(self.tol)

    def getRefreshInterval(self) -> int:
        return self.getOrDefault(self.refreshInterval)

    def getFitIntercept(self) -> bool:
        return self.getOrDefault(self.fitIntercept)

    def getStandardization(self) -> bool:
        return self.getOrDefault(self.standardization)

    def getSeed(self) -> int:
        return self.getOrDefault(self.seed)


class _ScheduledLassoSetters(_ScheduledLassoParams):
    """The setters of the training params, as Java's ScheduledLasso has them."""

    def setRegParam(self, value: float):
        return self._set(regParam=value)

    def setElasticNetParam(self, value: float):
        return self._set(elasticNetParam=value)

    def setScheduleSize(self, value: int):
        return self._set(scheduleSize=value)

    def setCandidateFactor(self, value: float):
        return self._set(candidateFactor=value)

    def setPriorityFloor(self, value: float):
        return self._set(priorityFloor=value)

    def setCorrelationThreshold(self, value: float):
        return self._set(correlationThreshold=value)

    def setScheduler(self, value: str):
        return self._set(scheduler=value)

    def setMaxIter(self, value: int):
        return self._set(maxIter=value)

    def setTol(self, value: float):
        return self._set(tol=value)

    def setRefreshInterval(self, value: int):
        return self._set(refreshInterval=value)

    def setFitIntercept(self, value: bool):
        return self._set(fitIntercept=value)

    def setStandardization(self, value: bool):
        return self._set(standardization=value)

    def setSeed(self, value: int):
        return self._set(seed=value)
