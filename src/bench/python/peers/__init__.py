"""scripts/bench peers: corgipile beside the Python data loaders that shuffle partially (harness.py)."""
