"""pyspark.ml wrappers of the estimators in io.corgipile.ml, the CorgiPile SGD ones and
ScheduledLasso (the jar must be on the session's classpath: see corgipile.jar_path())."""

import sys

from corgipile.ml._java import ConnectUnsupportedError
from corgipile.ml.classification import SGDClassificationModel, SGDClassifier
from corgipile.ml.regression import ScheduledLasso, ScheduledLassoModel, SGDRegressionModel, SGDRegressor
from corgipile.ml.summary import ScheduledLassoSummary, SGDTrainingSummary

__all__ = [
    "SGDClassifier",
    "SGDClassificationModel",
    "SGDRegressor",
    "SGDRegressionModel",
    "SGDTrainingSummary",
    "ScheduledLasso",
    "ScheduledLassoModel",
    "ScheduledLassoSummary",
    "ConnectUnsupportedError",
]

# A saved Pipeline or PipelineModel names its stages by Java class, and pyspark imports the module
# "io.corgipile.ml" for ours (its class-name mapping only rewrites org.apache.spark). "io" is
# Python's standard module and no package, so that name is registered here as this module; nothing
# of the real io module changes.
sys.modules.setdefault("io.corgipile.ml", sys.modules[__name__])
