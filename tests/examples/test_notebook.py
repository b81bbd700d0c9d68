"""examples/quickstart.ipynb runs top to bottom in a Jupyter kernel (nbclient) and shows its tables
as HTML: the check table, the theory table and the report."""

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "quickstart.ipynb"


def test_quickstart_notebook_executes(tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))  # the kernel inherits it
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")  # committed without outputs
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert any("<th>verdict</th>" in h and "SPD-WL" in h for h in html)  # check table
    assert any("Distinguished pairs per category" in h and "<table>" in h for h in html)  # theory table
    assert any('<section id="table">' in h and "grit" in h for h in html)  # the committed run's report
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the pair drawing
