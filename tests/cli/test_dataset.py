"""``wltools dataset``: NCI1K end to end in every format, the plot, and bad input as one line
with exit code 2."""

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import cli
from wltools.dataset.tu import read_tu

NCI = str(Path(__file__).resolve().parents[2] / "data" / "tu" / "NCI1K")


def _run(*args):
    return CliRunner().invoke(cli, ["dataset", *args], catch_exceptions=False)


def test_nci_json_is_consistent(tmp_path):
    out, plot = tmp_path / "m.json", tmp_path / "m.png"
    r = _run(NCI, "--tests", "1wl,spd,3wl", "--rounds", "3", "--format", "json", "--out", str(out),
             "--plot", str(plot), "--quiet")
    assert r.exit_code == 0, r.output
    rep = json.loads(out.read_text())
    tu = read_tu(NCI)
    assert rep["dataset"]["graphs"] == tu.num_graphs and rep["dataset"]["edge_labels"] == len(tu.edge_label_values)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for t in rep["tests"]:
        rounds = t["rounds"]
        assert [x["round"] for x in rounds] == [0, 1, 2, 3]
        classes = [x["classes"] for x in rounds]
        assert classes == sorted(classes) and classes[-1] <= rep["isomorphism"]["classes"]
        assert all(x["accuracy_bound"] <= rep["isomorphism"]["accuracy_bound"] for x in rounds)
        # a bound of 1 means no class mixes targets, and back
        assert all((x["conflicting_graphs"] == 0) == (x["accuracy_bound"] == 1.0) for x in rounds)
    # round 0 is the label histogram for 1wl and spd alike
    assert rep["tests"][0]["rounds"][0] == rep["tests"][1]["rounds"][0]


def test_nci_md_and_csv_agree():
    md = _run(NCI, "--tests", "1wl", "--format", "md", "--quiet").output
    rows = list(csv.DictReader(io.StringIO(_run(NCI, "--tests", "1wl", "--format", "csv", "--quiet").output)))
    tu = read_tu(NCI)
    assert md.startswith(f"# NCI1K: {tu.num_graphs:,} graphs, {tu.num_nodes:,} nodes, {tu.num_edges:,} edges\n")
    for row in rows:
        assert f"| {row['round']} | {int(row['colours']):,} | {int(row['classes']):,} |" in md


def test_node_targets(tmp_path):
    r = _run(NCI, "--tests", "1wl", "--rounds", "2", "--node-targets", "--format", "json", "--no-iso", "--quiet")
    rep = json.loads(r.output)
    bounds = [x["node_accuracy_bound"] for x in rep["tests"][0]["rounds"]]
    assert bounds == sorted(bounds) and bounds[0] < 1.0  # without labels as features, round 0 knows nothing
    assert rep["isomorphism"] is None and rep["tests"][0]["rounds"][0]["unseparated_noniso_pairs"] is None


@pytest.mark.parametrize("args, message", [
    (["nowhere/DS"], "no such file"),
    ([NCI, "--tests", "4wl"], "--tests: unknown test '4wl'"),
    ([NCI, "--node-features", "attributes"], "no NCI1K_node_attributes.txt"),
    ([NCI, "--plot", "chart.xyz"], "matplotlib cannot write a .xyz chart"),
])
def test_bad_input_is_one_line(args, message):
    r = _run(*args, "--quiet")
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], r.output


def test_bad_tu_folder_is_one_line(tmp_path):
    folder = tmp_path / "BAD"
    folder.mkdir()
    (folder / "BAD_A.txt").write_text("1, 2\n2, 1\n")
    (folder / "BAD_graph_indicator.txt").write_text("1\nx\n")
    r = _run(str(folder), "--quiet")
    assert r.exit_code == 2 and r.output.strip() == "error: BAD_graph_indicator.txt line 2: 'x' is not an integer"


def test_graph6_with_targets_file(tmp_path):
    import networkx as nx

    graphs = [nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), nx.path_graph(6)]
    g6 = tmp_path / "g.g6"
    g6.write_bytes(b"".join(nx.to_graph6_bytes(G, header=False) for G in graphs))
    (tmp_path / "y.txt").write_text("a\nb\nb\n")
    rep = json.loads(_run(str(g6), "--targets", str(tmp_path / "y.txt"), "--format", "json", "--quiet").output)
    last = rep["tests"][0]["rounds"][-1]  # 1-WL: C6 and two triangles share a class, targets a and b
    assert (last["classes"], last["conflicting_graphs"], last["accuracy_bound"]) == (2, 2, pytest.approx(2 / 3))
    (tmp_path / "short.txt").write_text("a\n")
    r = _run(str(g6), "--targets", str(tmp_path / "short.txt"), "--quiet")
    assert r.exit_code == 2 and r.output.strip() == "error: short.txt has 1 targets for 3 graphs"


def test_a_committed_dataset_by_name_in_any_case_and_an_unknown_name_lists_them():
    """``nci1k`` is the committed NCI1K (a name, not a file); an unknown name lists the committed
    datasets in one line instead of "no such file"."""
    from click.testing import CliRunner

    from cli import cli

    ok = CliRunner().invoke(cli, ["dataset", "nci1k", "--tests", "1wl", "--rounds", "1", "--quiet"])
    assert ok.exit_code == 0, ok.output
    bad = CliRunner().invoke(cli, ["dataset", "NCI1X", "--tests", "1wl"])
    assert bad.exit_code == 2 and "committed: NCI1K" in bad.output and len(bad.output.strip().splitlines()) == 1


def test_stage_lines_when_piped_and_a_legend_outside_the_axes(tmp_path, monkeypatch):
    """Off a terminal (click's runner) ``dataset`` says each stage on stderr, --quiet silences it;
    --plot keeps the legend outside the axes, one entry per test, none repeating colour and style."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import networkx as nx

    figures = []
    monkeypatch.setattr(plt, "close", lambda fig=None: figures.append(fig))
    small = tmp_path / "small.g6"  # the connected atlas graphs 20-219: seconds, where NCI1K took 12 s
    small.write_text("".join(nx.to_graph6_bytes(g, header=False).decode()
                             for g in nx.graph_atlas_g()[20:220] if nx.is_connected(g)))
    args = ["dataset", str(small), "--tests", "1wl,spd,rd,3wl", "--no-iso", "--targets", "count:cycle:4",
            "--format", "json", "--out", str(tmp_path / "r.json")]
    res = CliRunner().invoke(cli, args + ["--plot", str(tmp_path / "p.png")])
    assert res.exit_code == 0, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("wltools: dataset small.g6:")]
    assert len(lines) == 4 and "test 4 of 4" in lines[-1]
    (fig,) = figures
    ax = fig.axes[0]
    legend = ax.get_legend()
    fig.canvas.draw()
    assert legend.get_window_extent().x0 > ax.get_window_extent().x1  # outside, to the right
    styles = [(ln.get_color(), ln.get_linestyle(), ln.get_marker()) for ln in ax.get_lines() if "graphs" in ln.get_label()]
    assert len(styles) == 4 and len(set(styles)) == 4
    quiet = CliRunner().invoke(cli, args + ["--quiet"])
    assert quiet.exit_code == 0 and "wltools: dataset" not in quiet.stderr
