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
}
CONFIGS = ("default", "buffer")
