"""What every loader's stream goes into: the table's columns and the Consumer, in a module of its own
so that a loader can ship the Consumer to another process (a Spark task) and back by pickling."""

import numpy as np

LABEL = "label"
FEATURES = [f"f{i}" for i in range(1, 29)]
COLUMNS = [LABEL] + FEATURES


class Consumer:
    """Takes the stream's batches; picklable, so a loader that runs it elsewhere (a Spark task) can."""

    def __init__(self, batch_rows, learner, mean, scale):
        self.batch_rows = batch_rows
        self.learner = learner
        self.mean = mean
        self.scale = scale
        self.start_epoch()

    def start_epoch(self):
        self.labels = []
        self.f1 = []
        self.pending_y = []
        self.pending_x = []
        self.pending = 0

    def feed(self, y, x):
        """y: (n,) labels in {0, 1}; x: (n, 28) features in the order of FEATURES."""
        y = np.asarray(y, dtype=np.float64).reshape(-1)
        x = np.asarray(x, dtype=np.float64)
        if x.shape != (y.shape[0], len(FEATURES)):
            raise ValueError(
                f"Cannot take a batch: features shaped {x.shape}, expected ({y.shape[0]}, {len(FEATURES)})"
            )
        self.labels.append(y.astype(np.int8))
        self.f1.append(x[:, 0].copy())
        if self.learner is None:
            return
        self.pending_y.append(y)
        self.pending_x.append(x)
        self.pending += y.shape[0]
        if self.pending >= self.batch_rows:
            self._fit(final=False)

    def _fit(self, final):
        ys = np.concatenate(self.pending_y)
        xs = (np.concatenate(self.pending_x) - self.mean) / self.scale
        end = ys.shape[0] if final else ys.shape[0] - ys.shape[0] % self.batch_rows
        for start in range(0, end, self.batch_rows):
            self.learner.partial_fit(
                xs[start : start + self.batch_rows], ys[start : start + self.batch_rows], classes=np.array([0.0, 1.0])
            )
        self.pending_y = [ys[end:]] if end < ys.shape[0] else []
        self.pending_x = [xs[end:] * self.scale + self.mean] if end < ys.shape[0] else []
        self.pending = ys.shape[0] - end

    def finish_epoch(self):
        if self.learner is not None and self.pending:
            self._fit(final=True)
        labels = np.concatenate(self.labels) if self.labels else np.zeros(0, np.int8)
        f1 = np.concatenate(self.f1) if self.f1 else np.zeros(0)
        self.labels, self.f1 = [], []
        return labels, f1
