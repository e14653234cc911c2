"""scripts/bench peers: corgipile beside the Python data loaders that shuffle partially (harness.py)."""

# One home for the loaders: name -> (module under peers.loaders, virtual environment under
# .venv-peers with the pins of requirements/<environment>.txt). scripts/bench peers reads it.
LOADERS = {
    "corgipile": ("corgipile_spark", "corgipile"),
    "petastorm": ("petastorm_reader", "petastorm"),
    "ray": ("ray_data", "ray"),
    "tfdata": ("tf_data", "tfdata"),
    "torch": ("torch_iterable", "torch"),
    "streaming": ("mosaic_streaming", "streaming"),
    "memory": ("in_memory", "corgipile"),
    "model": ("order_model", "corgipile"),
}
# Not loaders but references for the learner: the table in memory, read in an order of their own.
REFERENCES = ("memory", "model")
CONFIGS = ("default", "buffer")


def run_name(mode, partitions, fail_once, average=False, parquet=False):
    """The CSV's mode: scan, train or estimator, with -p<N> for N streams, -retry for --fail-once,
    -average for --average and -parquet for --parquet."""
    return (
        mode
        + (f"-p{partitions}" if partitions > 1 else "")
        + ("-retry" if fail_once else "")
        + ("-average" if average else "")
        + ("-parquet" if parquet else "")
    )
