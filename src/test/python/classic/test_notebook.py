"""The Python walk-through (notebooks/corgipile-walkthrough-python.ipynb) runs headless on the standard
python3 kernel, as a user would run it, and shows what its text says it shows."""

import os
import re

import nbformat
from nbclient import NotebookClient

NOTEBOOK = os.path.join("notebooks", "corgipile-walkthrough-python.ipynb")


def _run(repo, tmp_path, monkeypatch):
    notebook = nbformat.read(os.path.join(repo, NOTEBOOK), as_version=4)
    # appended for the test: the kernel's sockets and its Spark's, still running after the last cell
    tests = os.path.join(repo, "src", "test", "python")
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            f"import sys; sys.path.insert(0, {tests!r}); import listening\n"
            "print('kernel sockets:', listening.describe(os.getpid()))"
        )
    )
    monkeypatch.setenv("CORGIPILE_NOTEBOOK_DIR", str(tmp_path / "work"))
    monkeypatch.setenv("SPARK_MASTER", "local[2]")
    monkeypatch.setenv("SPARK_LOCAL_IP", "127.0.0.1")
    # A failing cell raises CellExecutionError, naming the cell and its error.
    NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    return notebook


def _outputs(notebook):
    return [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]


def test_is_committed_without_outputs(repo):
    notebook = nbformat.read(os.path.join(repo, NOTEBOOK), as_version=4)
    assert notebook.metadata.kernelspec.name == "python3"
    assert [c for c in notebook.cells if c.cell_type == "code" and (c.outputs or c.execution_count)] == []


def test_runs_and_shows_corgipile_near_the_full_shuffle_and_ahead_of_storage_order(repo, tmp_path, monkeypatch):
    outputs = _outputs(_run(repo, tmp_path, monkeypatch))
    printed = "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stdout")

    def number(regex):
        match = re.search(regex, printed)
        assert match, f"the notebook printed no line matching /{regex}/; it printed:\n{printed}"
        return float(match.group(1))

    images = [o["data"]["image/png"] for o in outputs if "data" in o and "image/png" in o["data"]]
    assert len(images) == 1, "one chart: the objective per epoch"
    assert images[0].startswith("iVBORw0KGgo"), "a PNG, base64"
    storage = number(r"storage order \(shuffle=none\)\s+accuracy ([0-9.]+)")
    corgipile = number(r"corgipile \(10% buffer\)\s+accuracy ([0-9.]+)")
    full = number(r"full shuffle \(shuffled copy\)\s+accuracy ([0-9.]+)")
    # on this data the mean of the two one-label partitions' models is a fair classifier: storage
    # order ends about a point behind, not far off
    assert corgipile > storage + 0.005, (storage, corgipile)
    assert corgipile > full - 0.01, (full, corgipile)
    epoch0 = re.search(r"first ids, corgipile epoch 0: (.+)", printed).group(1)
    epoch1 = re.search(r"first ids, corgipile epoch 1: (.+)", printed).group(1)
    assert epoch0 != epoch1, "another epoch, another order"
    assert "loaded back: 0 of 20000 test predictions differ; stage class SGDClassificationModel" in printed
    # the kernel's five ZMQ sockets, py4j, the driver's RPC and block manager: all on loopback
    sockets = re.search(r"kernel sockets: (\d+) listening sockets, not on loopback: (.*)", printed)
    assert int(sockets.group(1)) >= 8 and sockets.group(2) == "[]", sockets.group(0)
