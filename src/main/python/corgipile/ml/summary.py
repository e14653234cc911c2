"""The training summaries of the SGD models and of ScheduledLassoModel, as Python values."""

from typing import List

from pyspark.ml.linalg import Matrix, Vector
from pyspark.ml.wrapper import JavaWrapper
from pyspark.sql.utils import is_remote

from corgipile.ml._java import require_classic


class _HasTrainingSummary:
    """The summary of a model trained in this process. Not pyspark's HasTrainingSummary: in a Spark
    Connect session that one would fetch figures the server refuses to give (require_classic)."""

    @property
    def hasSummary(self) -> bool:
        """Whether summary is available: on a model just trained in a classic session, not on a loaded one."""
        return not is_remote() and self._call_java("hasSummary")

    @property
    def summary(self) -> "SGDTrainingSummary":
        """How training went; fails where hasSummary is false."""
        return SGDTrainingSummary(self._java_summary())

    def _java_summary(self):
        require_classic("the training summary")
        return self._call_java("summary")


class _HasLassoSummary(_HasTrainingSummary):
    """The summary of a ScheduledLassoModel trained in this process."""

    @property
    def summary(self) -> "ScheduledLassoSummary":
        """How training went; fails where hasSummary is false."""
        return ScheduledLassoSummary(self._java_summary())


class _JavaSummary(JavaWrapper):
    """A Java summary whose arrays are read as Python lists."""

    def _array(self, name: str) -> list:
        """A Java array of numbers (or of arrays of them) as lists, read by py4j: through _call_java,
        pyspark's pickled double[] fails to load ("array() argument 1 must be a unicode character")."""
        from py4j.java_collections import JavaArray  # not in the Spark Connect client

        return [list(x) if isinstance(x, JavaArray) else x for x in getattr(self._java_obj, name)()]

    def _floats(self, name: str) -> List[float]:
        return [float(x) for x in self._array(name)]

    def _ints(self, name: str) -> List[int]:
        return [int(x) for x in self._array(name)]


class SGDTrainingSummary(_JavaSummary):
    """How training went, epoch by epoch (Java's io.corgipile.ml.SGDTrainingSummary). Kept with the
    model in memory, not saved with it."""

    @property
    def objectiveHistory(self) -> List[float]:
        """Per epoch: the mean weighted loss of its rows, each taken before its update, plus the penalty."""
        return self._floats("objectiveHistory")

    @property
    def totalIterations(self) -> int:
        """Epochs run: maxIter, or fewer when tol stopped training."""
        return int(self._call_java("totalIterations"))

    @property
    def rowsPerEpoch(self) -> List[int]:
        return self._ints("rowsPerEpoch")

    @property
    def secondsPerEpoch(self) -> List[float]:
        """Per epoch: wall-clock seconds of its Spark jobs (one per round)."""
        return self._floats("secondsPerEpoch")

    @property
    def rowsPerSecond(self) -> List[float]:
        return self._floats("rowsPerSecond")

    @property
    def roundsPerEpoch(self) -> List[int]:
        """Per epoch: the rounds it ran, each one Spark job after which the partition models were averaged."""
        return self._ints("roundsPerEpoch")

    @property
    def secondsPerRound(self) -> List[List[float]]:
        return [[float(x) for x in epoch] for epoch in self._array("secondsPerRound")]

    @property
    def bytesToExecutorsPerEpoch(self) -> List[int]:
        return self._ints("bytesToExecutorsPerEpoch")

    @property
    def bytesFromExecutorsPerEpoch(self) -> List[int]:
        return self._ints("bytesFromExecutorsPerEpoch")

    @property
    def stepSize(self) -> float:
        """The initial step training used: stepSize when set, else the one calibration chose."""
        return float(self._call_java("stepSize"))

    @property
    def numPartitions(self) -> int:
        """The partitions training ran in: the input's, or fewer where they would hold less than
        minPartitionRows rows each."""
        return int(self._call_java("numPartitions"))

    @property
    def skippedRows(self) -> int:
        """Invalid rows left out per epoch with handleInvalid=skip."""
        return int(self._call_java("skippedRows"))

    @property
    def coefficientsHistory(self) -> List[Vector]:
        """Per epoch: the coefficients after it; fails for a multinomial model."""
        return list(self._call_java("coefficientsHistory"))

    @property
    def interceptHistory(self) -> List[float]:
        """Per epoch: the intercept after it; fails for a multinomial model."""
        return self._floats("interceptHistory")

    @property
    def coefficientMatrixHistory(self) -> List[Matrix]:
        return list(self._call_java("coefficientMatrixHistory"))

    @property
    def interceptVectorHistory(self) -> List[Vector]:
        return list(self._call_java("interceptVectorHistory"))


class ScheduledLassoSummary(_JavaSummary):
    """How training went, round by round (Java's io.corgipile.ml.ScheduledLassoSummary). Kept with
    the model in memory, not saved with it. The histories have one entry more than rounds run:
    index 0 is the state before the first round."""

    @property
    def objectiveHistory(self) -> List[float]:
        """The objective, (1/2n)|y - Xb - c|^2 plus the penalty: at index 0 of the zero coefficients
        (and the best intercept for them), at index t after round t."""
        return self._floats("objectiveHistory")

    @property
    def totalIterations(self) -> int:
        """Rounds run: maxIter, or fewer when tol stopped training."""
        return int(self._call_java("totalIterations"))

    @property
    def updatesHistory(self) -> List[int]:
        """Per round: coefficient updates so far (index 0: none), whether or not an update changed its
        coefficient."""
        return self._ints("updatesHistory")

    @property
    def rejectedPerRound(self) -> List[int]:
        """Per round (index 0: none): candidates the dependency check turned away from it; they stay
        candidates for the next rounds of the same pass over the data."""
        return self._ints("rejectedPerRound")

    @property
    def passesHistory(self) -> List[int]:
        """Per round: passes over the data so far (Spark jobs; index 0: none). With the dependency check
        a pass serves several rounds."""
        return self._ints("passesHistory")

    @property
    def secondsHistory(self) -> List[float]:
        """Seconds since training started (index 0: the pass that reads and summarizes the data), per round."""
        return self._floats("secondsHistory")

    @property
    def numRows(self) -> int:
        """The training rows."""
        return int(self._call_java("numRows"))
