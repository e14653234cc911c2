"""A reference that is not a loader: corgipile's order without Spark. The whole table in memory, its
blocks in a new random order every epoch, poured into buffers of --buffer-percent of the table,
each buffer shuffled and emitted whole: as the source's FillPlan pours them, the fewest buffers the
capacity allows, as even as blocks allow (here: an equal number of blocks each, which is FillPlan's
pour when, as in the bench's tables, the blocks are of one size). Blocks are row groups, or their
parts as blockSize=auto cuts them (BlockSize.AUTO_BLOCKS_PER_BUFFER, BlockPlanner.cutAtPages): where
a buffer holds fewer than 64 row groups, each is cut at the first page boundary at least 1/64 of the
buffer past the last cut, leaving at least half that to the last part. Page boundaries are taken as
multiples of the pageRows the table's _COMPLETE marker records (PeerTables), which is where Spark's
writer put them in these tables.

It separates what corgipile's order does to a learner from what its Spark path does, and runs at
any seed or buffer in seconds: set beside corgipile's line it shows whether a gap is the order's."""

from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from peers.stream import COLUMNS
from peers.loaders import Loader, split


class OrderModel(Loader):
    def __init__(self, s):
        self.y, self.x = split(pq.read_table(s.files, columns=COLUMNS))
        sizes = [
            meta.row_group(g).num_rows
            for meta in (pq.ParquetFile(f).metadata for f in s.files)
            for g in range(meta.num_row_groups)
        ]
        if max(sizes) > s.buffer_rows:
            raise SystemExit(
                f"Cannot model corgipile's order: a row group of {max(sizes)} rows is larger than"
                f" the buffer of {s.buffer_rows}, and the model does not split row groups to fit it"
            )
        starts = np.concatenate([[0], np.cumsum(sizes)])
        cuts = auto_parts(sizes, page_rows(s.files), s.buffer_rows)
        self.blocks = [np.arange(starts[i] + a, starts[i] + b) for i in range(len(sizes)) for a, b in cuts[i]]
        self.fills = fewest_fills([b.shape[0] for b in self.blocks], s.buffer_rows)
        self.seed = s.seed
        self.batch_rows = s.batch_rows
        self.library = f"numpy {np.__version__}"
        self.description = (
            f"the whole table in memory in corgipile's order: {len(sizes)} row groups in"
            f" {len(self.blocks)} blocks, shuffled, poured evenly into {self.fills} buffers of at"
            f" most {s.buffer_rows} rows, each shuffled and drained"
        )

    def order(self, epoch):
        rng = np.random.default_rng([self.seed, epoch])
        blocks = rng.permutation(len(self.blocks))
        fills = np.array_split(blocks, self.fills)
        return np.concatenate([rng.permutation(np.concatenate([self.blocks[b] for b in f])) for f in fills])

    def batches(self, epoch):
        order = self.order(epoch)
        for start in range(0, order.shape[0], self.batch_rows):
            idx = order[start : start + self.batch_rows]
            yield self.y[idx], self.x[idx]


AUTO_BLOCKS_PER_BUFFER = 64


def page_rows(files):
    """The table's page size in rows from its _COMPLETE marker, or None (whole row groups)."""
    marker = Path(files[0]).parent.parent / "_COMPLETE"
    for line in marker.read_text().splitlines() if marker.exists() else []:
        if line.startswith("pageRows="):
            return int(line.split("=", 1)[1])
    return None


def auto_parts(sizes, pages, buffer_rows):
    """Each row group's parts as (first, end) row pairs, as blockSize=auto cuts them."""
    whole = [[(0, rows)] for rows in sizes]
    if pages is None or buffer_rows >= AUTO_BLOCKS_PER_BUFFER * np.mean(sizes):
        return whole
    least = max(1, buffer_rows // AUTO_BLOCKS_PER_BUFFER)
    parts = []
    for rows in sizes:
        if rows <= least:
            parts.append([(0, rows)])
            continue
        cut, start = [], 0
        for boundary in range(pages, rows, pages):
            if boundary - start >= least and rows - boundary >= (least + 1) // 2:
                cut.append((start, boundary))
                start = boundary
        parts.append(cut + [(start, rows)])
    return parts


def fewest_fills(sizes, capacity):
    """Buffers of at most `capacity` rows that whole row groups of these sizes need, poured in order."""
    fills, in_fill = 0, 0
    for rows in sizes:
        if in_fill and in_fill + rows > capacity:
            fills, in_fill = fills + 1, 0
        in_fill += rows
    return fills + (1 if in_fill else 0) or 1


def open_loader(settings):
    return OrderModel(settings)
