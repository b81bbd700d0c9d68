"""``wltools count``: data printed for anyone to check (against networkx's own counts), runs of a
model written outside the project, reports, and refusals as one line with exit 2."""

import csv
import io
import json

import networkx as nx
import pytest
from click.testing import CliRunner

from cli import cli
from tiny_gnn import tiny_model_file


def invoke(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_graph_level_csv_equals_networkx_triangles():
    res = invoke("count", "data", "--task", "cycle:3", "--split", "val", "--limit", "40")
    assert res.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(res.output)))
    assert len(rows) == 40 and {r["split"] for r in rows} == {"val"}
    for r in rows:
        G = nx.from_graph6_bytes(r["graph6"].encode())
        assert int(r["count"]) == sum(nx.triangles(G).values()) // 3


def test_node_and_edge_levels_equal_networkx_counts():
    res = invoke("count", "data", "--task", "cycle:3", "--level", "node", "--split", "test", "--format", "json",
                 "--limit", "30")
    graphs = json.loads(res.output)
    assert len(graphs) == 30
    for g in graphs:
        G = nx.from_graph6_bytes(g["graph6"].encode())
        assert g["counts"] == [nx.triangles(G, v) for v in range(G.number_of_nodes())]
    res = invoke("count", "data", "--task", "star:3", "--level", "edge", "--split", "train", "--limit", "10")
    rows = list(csv.DictReader(io.StringIO(res.output)))
    assert list(rows[0]) == ["index", "split", "graph6", "u", "v", "count"]
    from math import comb

    assert len({r["index"] for r in rows}) == 10
    for r in rows:  # 3-stars through edge uv: centred at u with two more leaves, or at v
        G = nx.from_graph6_bytes(r["graph6"].encode())
        u, v = int(r["u"]), int(r["v"])
        assert int(r["count"]) == comb(G.degree(u) - 1, 2) + comb(G.degree(v) - 1, 2)


@pytest.mark.parametrize("args, message", [
    (["count", "data", "--task", "triangle"], "unknown counting task 'triangle'"),
    (["count", "data", "--task", "cycle:99"], "size must be an integer in 3..8"),
    (["count", "data", "--task", "path:6"], "not precomputed"),
])
def test_bad_tasks_are_one_line(args, message):
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output


def test_hom_task_data_prints_each_graph():
    res = invoke("count", "data", "--task", "hom:chordal4_1", "--split", "val", "--limit", "5")
    assert res.exit_code == 0 and len(res.output.splitlines()) == 6


def test_run_and_report_a_model_written_outside_the_project(tmp_path):
    model = tmp_path / "outside.py"
    tiny_model_file(model)
    out = tmp_path / "run"
    res = CliRunner().invoke(cli, ["count", "run", "--model", f"{model}:tiny", "--task", "star:3", "--level",
                                   "graph,edge", "--limit", "20", "--epochs", "1", "--batch-size", "10",
                                   "--out", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    assert res.output == ""  # --quiet: nothing on stdout or stderr
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    rep = invoke("count", "report", str(out), "--format", "json")
    assert rep.exit_code == 0 and {r["level"] for r in json.loads(rep.output)["rows"]} == {"graph", "edge"}
    plot = tmp_path / "chart.png"
    assert invoke("count", "report", str(out), "--out", str(tmp_path / "r.md"), "--plot", str(plot)).exit_code == 0
    assert plot.read_bytes()[:4] == b"\x89PNG" and "| edge |" in (tmp_path / "r.md").read_text()
    res = CliRunner().invoke(cli, ["count", "report", str(out), "--out", str(out / "results.jsonl")])
    assert res.exit_code == 2 and "overwrite" in res.output


def test_run_refusals_are_one_line(tmp_path):
    for args, message in [(["--model", "nope"], "unknown model 'nope'"),
                          (["--model", "examples/gin.py:gin", "--level", "face"], "levels"),
                          (["--model", "examples/gin.py:gin", "--seeds", "1,1"], "distinct"),
                          (["--model", "examples/gin.py:gin", "--set", "hidden"], "key=value"),
                          (["--model", "examples/gin.py:gin", "--max-failures", "-1"], "x>=0")]:
        res = CliRunner().invoke(cli, ["count", "run", "--task", "cycle:3", "--out", str(tmp_path / "r"), *args])
        assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output
    res = CliRunner().invoke(cli, ["count", "report", str(tmp_path)])
    assert res.exit_code == 2 and "not a run directory" in res.output


def test_the_training_options_mean_the_same_in_every_run_command():
    """--set, --allow-code-change and --max-failures: one definition for brec, suite and count run."""
    runs = [cli.commands[group].commands["run"] for group in ("brec", "suite", "count")]
    for name in ("sets", "allow_code_change", "max_failures"):
        params = [next(p for p in run.params if p.name == name) for run in runs]
        assert len({(tuple(p.opts), p.help, p.default, p.multiple, p.is_flag, repr(p.type)) for p in params}) == 1


def test_verify_data_on_a_sample_and_its_refusals():
    """Two 10-node graphs, every task (15 subgraph, 7 homomorphism) and level against the brute force;
    a bad --jobs is one line."""
    res = invoke("count", "verify-data", "--sample", "2")
    assert res.exit_code == 0 and res.output.startswith("OK: 22 tasks x 3 levels x 2 graphs")
    for bad in (["--jobs", "0"], ["--sample", "0"]):
        res = CliRunner().invoke(cli, ["count", "verify-data", *bad])
        assert res.exit_code == 2 and "Traceback" not in res.output


def test_report_as_one_html_page(tmp_path):
    """The committed GIN run as a page: every row of the Markdown report's table, the chart
    inlined, nothing fetched."""
    run = "reports/count-runs/gin-graph"
    md = invoke("count", "report", run).output
    res = invoke("count", "report", run, "--format", "html", "--out", str(tmp_path / "r.html"))
    page = (tmp_path / "r.html").read_text()
    assert res.exit_code == 0 and page.startswith("<!DOCTYPE html>") and page.count("<img") == 1
    assert "<script" not in page and "http" not in page.split("</style>")[1]
    rows = [ln for ln in md.splitlines() if ln.startswith("| ") and not ln.startswith(("| model |", "| run |"))]
    assert len(rows) == 4  # three task rows and one run
    for cells in ([c.strip() for c in ln.strip("|").split("|")] for ln in rows):
        assert "<tr><td>" + "</td><td>".join(c.replace("`", "") for c in cells) + "</td></tr>" in page.replace(
            "<code>", "").replace("</code>", "")
