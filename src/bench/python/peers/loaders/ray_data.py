"""Ray Data: read_parquet, then iter_batches as NumPy. buffer: the partial shuffle Ray's docs give for
training ingest: files shuffled (FileShuffleConfig), blocks in random order (randomize_block_order)
and a local shuffle buffer of --buffer-percent of the table in iter_batches; seeds that change with
every execution (reseed_after_execution), so every epoch is a new order. default: none of them."""

import ray

from peers.stream import COLUMNS
from peers.loaders import Loader, split


class RayData(Loader):
    def __init__(self, s):
        ray.init(num_cpus=s.cores, include_dashboard=False, log_to_driver=False)
        self.batch_rows = s.batch_rows
        self.buffer = s.config == "buffer"
        self.seed = s.seed
        self.buffer_rows = s.buffer_rows
        if self.buffer:
            ds = ray.data.read_parquet(
                s.files, columns=COLUMNS, shuffle=ray.data.FileShuffleConfig(seed=s.seed, reseed_after_execution=True)
            )
            self.ds = ds.randomize_block_order(seed=ray.data.RandomSeedConfig(seed=s.seed, reseed_after_execution=True))
            self.description = (
                f"read_parquet(shuffle=FileShuffleConfig(seed={s.seed}, reseed_after_execution=True))"
                f".randomize_block_order(seed=RandomSeedConfig({s.seed}, reseed_after_execution=True))"
                f".iter_batches(batch_size={s.batch_rows}, batch_format='numpy',"
                f" local_shuffle_buffer_size={s.buffer_rows}, local_shuffle_seed={s.seed}); num_cpus={s.cores}"
            )
        else:
            self.ds = ray.data.read_parquet(s.files, columns=COLUMNS)
            self.description = (
                f"read_parquet().iter_batches(batch_size={s.batch_rows}, batch_format='numpy'); num_cpus={s.cores}"
            )
        self.library = f"ray[data] {ray.__version__}"

    def batches(self, epoch):
        kwargs = {"local_shuffle_buffer_size": self.buffer_rows, "local_shuffle_seed": self.seed} if self.buffer else {}
        for batch in self.ds.iter_batches(batch_size=self.batch_rows, batch_format="numpy", **kwargs):
            yield split(batch)

    def close(self):
        ray.shutdown()


def open_loader(settings):
    return RayData(settings)
