"""MosaicML Streaming: StreamingDataset over MDS shards, read through a torch DataLoader as Streaming's
docs show. Streaming reads only its own MDS format, so open_loader converts the table once into
<work>/mds-<rows> (the conversion is setup; a finished conversion is reused): one shard per Parquet
row group, in storage order, each row one sample of a single 'bytes' column holding the row's 29
float64 values (label, f1..f28). 'bytes' is the cheapest MDS encoding to decode (the raw sample,
no per-sample parsing); the typed encodings build a coder from their encoding string for every
sample ('ndarray:float64:29' costs about 10x more per row, 'float64' label + 'ndarray:float64:28'
features about 20x). The default collate hands a batch over as a list of byte strings, turned into
NumPy with one np.frombuffer per batch.

default: StreamingDataset(local, shuffle=False, batch_size=--batch-rows), its other defaults.
buffer: shuffle=True with the default and recommended shuffle_algo py1e, shuffle_seed=--seed,
shuffle_block_size=--buffer-percent of the table; Streaming tracks epochs itself (seeding with the
epoch), so one StreamingDataset iterated again gives the next epoch's order.
Both through DataLoader(batch_size=--batch-rows, num_workers=--cores)."""

import json
import os
import shutil
import sys
import time

import numpy as np
import pyarrow.parquet as pq

from peers.stream import COLUMNS
from peers.loaders import Loader, row_groups

COLUMN = "row"
ENCODING = "bytes"


def convert(s):
    """The table as MDS shards under s.work / f"mds-{rows}", one shard per row group in storage order;
    returns (folder, seconds spent converting, 0 when an earlier conversion was reused)."""
    from streaming import MDSWriter

    out = s.work / f"mds-{s.total_rows}"
    groups = row_groups(s.files)
    if complete(out, s.total_rows, len(groups)):
        return out, 0.0
    start = time.perf_counter()
    if out.exists():
        shutil.rmtree(out)
    for stale in s.work.glob(f"mds-{s.total_rows}.tmp-*"):  # left by a run that did not finish converting
        shutil.rmtree(stale)
    tmp = s.work / f"mds-{s.total_rows}.tmp-{os.getpid()}"
    writer = MDSWriter(out=str(tmp), columns={COLUMN: ENCODING}, size_limit=None)
    for path, g in groups:
        table = pq.ParquetFile(path).read_row_group(g, columns=COLUMNS)
        rows = np.column_stack([table.column(c).to_numpy().astype(np.float64, copy=False) for c in COLUMNS])
        rows = np.ascontiguousarray(rows)
        for row in rows:
            writer.write({COLUMN: row.tobytes()})
        # one shard per row group: close the shard here, as write() does when a shard is full
        writer.flush_shard()
        writer._reset_cache()
    writer.finish()
    if not complete(tmp, s.total_rows, len(groups)):
        raise RuntimeError(
            f"Cannot convert the table to MDS: {tmp} does not hold {s.total_rows} rows in {len(groups)} shards"
        )
    os.rename(tmp, out)
    return out, time.perf_counter() - start


def complete(folder, rows, shards):
    try:
        with open(folder / "index.json") as f:
            index = json.load(f)["shards"]
    except (OSError, ValueError, KeyError):
        return False
    return (
        len(index) == shards
        and sum(x["samples"] for x in index) == rows
        and all(x["column_names"] == [COLUMN] and x["column_encodings"] == [ENCODING] for x in index)
        and all((folder / x["raw_data"]["basename"]).is_file() for x in index)
    )


class MosaicStreaming(Loader):
    def __init__(self, s):
        import streaming
        import torch
        from streaming import StreamingDataset
        from streaming.base.util import clean_stale_shared_memory
        from torch.utils.data import DataLoader

        self.folder, seconds = convert(s)
        how = f"converted in {seconds:.1f} s" if seconds else "reused from an earlier run"
        print(f"[peers] streaming: MDS shards in {self.folder} {how}", file=sys.stderr)
        # shared memory left behind by an earlier process that did not exit cleanly
        clean_stale_shared_memory()
        self.buffer = s.config == "buffer"
        kwargs = dict(local=str(self.folder), batch_size=s.batch_rows)
        if self.buffer:
            kwargs.update(shuffle=True, shuffle_algo="py1e", shuffle_seed=s.seed, shuffle_block_size=s.buffer_rows)
        else:
            kwargs.update(shuffle=False)
        self.dataset = StreamingDataset(**kwargs)
        self.loader = DataLoader(self.dataset, batch_size=s.batch_rows, num_workers=s.cores)
        args = ", ".join(f"{k}={v!r}" for k, v in kwargs.items() if k != "local")
        self.description = (
            f"MDS: one shard per row group, one '{ENCODING}' column of the 29 float64 ({how});"
            f" StreamingDataset({args}), otherwise defaults;"
            f" DataLoader(batch_size={s.batch_rows}, num_workers={s.cores})"
        )
        self.library = f"mosaicml-streaming {streaming.__version__} (torch {torch.__version__})"

    def batches(self, epoch):
        if self.dataset.next_epoch != epoch:
            raise RuntimeError(f"Cannot read epoch {epoch}: StreamingDataset is at epoch {self.dataset.next_epoch}")
        for batch in self.loader:
            rows = np.frombuffer(b"".join(batch[COLUMN]), dtype=np.float64).reshape(-1, len(COLUMNS))
            yield rows[:, 0], rows[:, 1:]

    def close(self):
        del self.loader
        del self.dataset


def open_loader(settings):
    return MosaicStreaming(settings)
