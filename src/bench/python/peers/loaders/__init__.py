"""One module per loader; each has open_loader(settings) -> Loader."""

import numpy as np

from peers.stream import FEATURES, LABEL


class Loader:
    """A loader in one configuration. `library` names it with its version, `description` says exactly
    how it was configured; both go into every CSV row."""

    library = ""
    description = ""

    def batches(self, epoch):
        """The epoch's stream as (labels, features) NumPy batches."""
        raise NotImplementedError

    def run_epoch(self, epoch, consumer):
        for y, x in self.batches(epoch):
            consumer.feed(y, x)
        return consumer

    def close(self):
        pass


def split(columns):
    """(labels, features) from a mapping of column name to 1-d array (a dict, an Arrow table or batch)."""
    return (
        np.asarray(columns[LABEL], dtype=np.float64),
        np.column_stack([np.asarray(columns[c], dtype=np.float64) for c in FEATURES]),
    )


def row_groups(files):
    """Every (file, row group index) of the table, in storage order."""
    import pyarrow.parquet as pq

    return [(path, g) for path in files for g in range(pq.ParquetFile(path).metadata.num_row_groups)]
