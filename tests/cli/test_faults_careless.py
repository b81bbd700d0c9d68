"""The faults a careless user still hit (issue 34 item 10), each refused in one line or made
harmless: outputs naming an input, outputs on a device, FIFO or link, a full disk under a drawing
or a chart, node-link JSON nested 100,000 deep, unusable --iso-timeout values, 10 MB labels
(docs/reliability.md, "Faults")."""

from __future__ import annotations

import errno
import json
import os

import networkx as nx
import pytest

from cli_run import one_error_line as _one_error_line  # tests/ is on sys.path (conftest)
from cli_run import run as _run


@pytest.fixture
def tu(tmp_path):
    """A TU folder of one path graph, and a graph6 file of two graphs."""
    base = tmp_path / "tu" / "BASE"
    base.mkdir(parents=True)
    (base / "BASE_A.txt").write_text("1, 2\n2, 1\n2, 3\n3, 2\n")
    (base / "BASE_graph_indicator.txt").write_text("1\n1\n1\n")
    (base / "BASE_graph_labels.txt").write_text("1\n")
    g6 = tmp_path / "two.g6"
    g6.write_bytes(nx.to_graph6_bytes(nx.petersen_graph(), header=False) + nx.to_graph6_bytes(nx.cycle_graph(5), header=False))
    return tmp_path


# ------------------------------------------------------------------ (a) outputs never replace inputs

@pytest.mark.parametrize("inp, opt, target, needle", [
    ("tu/BASE", "--out", "tu/BASE/BASE_A.txt", "would write into the input folder"),
    ("tu/BASE/BASE_A.txt", "--out", "tu/BASE/BASE_A.txt", "would overwrite the input"),
    ("tu/BASE/BASE_A.txt", "--plot", "tu/BASE/new.png", "would write into the input folder"),
    ("two.g6", "--out", "two.g6", "would overwrite the input"),
    ("two.g6", "--plot", "two.g6", "would overwrite the input"),
])
def test_dataset_outputs_never_replace_its_input(tu, monkeypatch, inp, opt, target, needle):
    monkeypatch.chdir(tu)
    before = {p: p.read_bytes() for p in tu.rglob("*") if p.is_file()}
    _one_error_line(_run("dataset", inp, opt, target, "--quiet"), needle)
    assert {p: p.read_bytes() for p in tu.rglob("*") if p.is_file()} == before


def test_an_output_hard_linked_to_an_input_is_refused(tu, monkeypatch):
    monkeypatch.chdir(tu)
    os.link("two.g6", "alias.md")
    _one_error_line(_run("dataset", "two.g6", "--out", "alias.md"), "would overwrite the input")


def test_check_draw_naming_an_input_given_as_file_index_is_refused(tu, monkeypatch):
    monkeypatch.chdir(tu)
    (tu / "graphs.png").write_bytes((tu / "two.g6").read_bytes())  # graph6 under a picture's name
    _one_error_line(_run("check", "graphs.png:1", "petersen", "--test", "1wl", "--draw", "graphs.png"),
                    "would overwrite the input")
    assert (tu / "graphs.png").read_bytes() == (tu / "two.g6").read_bytes()


@pytest.mark.parametrize("spelling", ["data/brec", "./data/brec/", "data/brec/sub"])
def test_brec_theory_never_writes_into_the_brec_data(monkeypatch, spelling):
    """``brec theory --out data/brec`` would replace BREC's own README.md (its sources, licence and
    checksums) with the tables: refused before any work, however the folder is spelled."""
    from brec_runner.runs.dataset import DATA_DIR

    monkeypatch.chdir(DATA_DIR.parent.parent)
    before = {p: p.read_bytes() for p in DATA_DIR.rglob("*") if p.is_file()}
    _one_error_line(_run("brec", "theory", "--pairs", "0", "--out", spelling, "--quiet"), "inside the project's data folder")
    assert {p: p.read_bytes() for p in DATA_DIR.rglob("*") if p.is_file()} == before


# ------------------------------------------------------------ (b) devices, FIFOs, links

@pytest.mark.parametrize("args", [
    ("suite", "theory", "sr16", "--tests", "1wl", "--out"),
    ("check", "petersen", "petersen", "--test", "1wl", "--draw"),
])
@pytest.mark.parametrize("kind", ["/dev/null", "fifo", "link-to-fifo"])
def test_outputs_on_devices_and_fifos_are_refused_and_left_alone(tmp_path, args, kind):
    if kind == "/dev/null":
        target = "/dev/null"
    else:
        os.mkfifo(tmp_path / "f.png")
        target = tmp_path / "f.png"
        if kind == "link-to-fifo":
            (tmp_path / "l.png").symlink_to(target)
            target = tmp_path / "l.png"
    drawn_as_null = args[0] == "check" and kind == "/dev/null"  # refused first for having no .png suffix
    _one_error_line(_run(*args, target), "" if drawn_as_null else "not a regular file")
    if kind != "/dev/null":
        assert os.path.exists(tmp_path / "f.png") and not (tmp_path / "f.png").is_file()  # still the FIFO
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


def test_an_output_on_a_link_writes_through_it(tmp_path):
    real = tmp_path / "real.md"
    real.write_text("old")
    (tmp_path / "link.md").symlink_to(real)
    r = _run("suite", "theory", "sr16", "--tests", "1wl", "--out", tmp_path / "link.md", "--quiet")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "link.md").is_symlink() and "1wl" in real.read_text()


# --------------------------------------------------------------------- (c) a full disk

def _full_disk(*args, **kwargs):
    path = args[-1] if not kwargs.get("path") else kwargs["path"]
    with open(path, "wb") as fh:
        fh.write(b"half a pic")
    raise OSError(errno.ENOSPC, "No space left on device", str(path))


def test_a_full_disk_under_check_draw_leaves_the_old_drawing(tmp_path, monkeypatch):
    import wltools.draw.figure

    old = tmp_path / "pair.png"
    old.write_bytes(b"the good drawing")
    monkeypatch.setattr(wltools.draw.figure, "draw_results", lambda G, H, results, path, **kw: _full_disk(path))
    _one_error_line(_run("check", "petersen", "petersen", "--test", "1wl", "--draw", old), "No space left")
    assert old.read_bytes() == b"the good drawing" and os.listdir(tmp_path) == ["pair.png"]


def test_a_full_disk_under_dataset_plot_leaves_the_old_chart(tu, monkeypatch):
    import wltools.dataset

    old = tu / "bound.png"
    old.write_bytes(b"the good chart")
    monkeypatch.setattr(wltools.dataset, "plot_bounds", lambda report, path: _full_disk(path))
    _one_error_line(_run("dataset", tu / "two.g6", "--plot", old, "--quiet", "--targets", "count:cycle:3",
                         "--task", "regression"), "No space left")  # a chart needs targets
    assert old.read_bytes() == b"the good chart" and sorted(os.listdir(tu)) == ["bound.png", "tu", "two.g6"]


# ------------------------------------------------------------- (d) JSON nested 100,000 deep

@pytest.mark.parametrize("command", ["check", "iso"])
def test_deeply_nested_json_is_one_line(tmp_path, command):
    deep = tmp_path / "deep.json"
    deep.write_text('{"nodes": ' + "[" * 100_000 + "]" * 100_000 + ', "edges": []}')
    _one_error_line(_run(command, deep, "petersen"), "nested too deeply")


# ------------------------------------------------------------------ (e) --iso-timeout values

@pytest.mark.parametrize("value", ["nan", "0", "-1", "soon"])
def test_unusable_iso_timeouts_are_refused(value):
    for command in ("check", "iso"):
        r = _run(command, "petersen", "petersen", f"--iso-timeout={value}")
        assert r.exit_code == 2 and "Traceback" not in r.output and "--iso-timeout" in r.output


def test_huge_iso_timeouts_mean_no_limit():
    """3e6 s overflowed the wait on the labelling's child processes (graphs above 256 nodes)."""
    from cli.common import IsoTimeout

    r = _run("iso", "cycle:300", "cycle:300", "--format", "json", "--iso-timeout=3e6")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["isomorphic"] is True and doc["iso_timeout"] is None
    assert [IsoTimeout().convert(v, None, None) for v in ("inf", "1e400", "none", "2.5")] == [None, None, None, 2.5]


def test_the_library_refuses_nan_and_lifts_huge_budgets():
    from wltools.check import check_pair, iso_budget
    from wltools.errors import WLToolsError

    with pytest.raises(WLToolsError, match="> 0"):
        check_pair(nx.path_graph(3), nx.path_graph(3), ("1wl",), iso_timeout=float("nan"))
    assert iso_budget(1e400) is None and iso_budget(2.5) == 2.5


# ------------------------------------------------------------------------- (f) long labels

def test_megabyte_labels_print_a_short_witness(tmp_path):
    big = "x" * 1_000_000  # 10 MB labels printed 110 MB of witness text
    for name, tail in (("g.json", ""), ("h.json", "y")):
        (tmp_path / name).write_text(json.dumps({"nodes": [{"id": 0, "c": big}, {"id": 1, "c": big + tail}],
                                                 "edges": [{"source": 0, "target": 1}]}))
    r = _run("check", tmp_path / "g.json", tmp_path / "h.json", "--node-attr", "c", "--test", "1wl")
    assert r.exit_code == 0, r.output
    assert len(r.stdout) < 2_000 and "(1000003 characters, sha256 " in r.stdout  # the two labels told apart
    assert "(1000002 characters, sha256 " in r.stdout


def test_the_missing_attribute_hint_names_the_attributes_there(tmp_path):
    g = tmp_path / "g.json"
    g.write_text(json.dumps({"nodes": [{"id": 0, "colour": "a"}, {"id": 1}],
                             "edges": [{"source": 0, "target": 1, "weight": 2}]}))
    _one_error_line(_run("check", g, g, "--node-attr", "label"), "(node attributes: colour)")
    _one_error_line(_run("check", g, g, "--edge-attr", "label"), "(edge attributes: weight)")
    g.write_text(json.dumps({"nodes": [{"id": 0}, {"id": 1}], "edges": [{"source": 0, "target": 1}]}))
    _one_error_line(_run("iso", g, g, "--node-attr", "label"), "(its nodes have no attributes)")


# ------------------------------------------------- found by the trial: a FIFO or device as input

@pytest.mark.parametrize("args", [("dataset", "{fifo}"), ("dataset", "{g6}", "--targets", "{fifo}"),
                                  ("check", "{fifo}", "petersen"), ("iso", "/dev/zero", "petersen")])
def test_a_fifo_or_device_as_input_is_one_line_never_a_hang(tu, args):
    import signal

    os.mkfifo(tu / "in.g6")
    args = [a.format(fifo=tu / "in.g6", g6=tu / "two.g6") for a in args]
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail(f"{args} hung"))
    signal.alarm(30)
    try:
        _one_error_line(_run(*args), "not a regular file")
    finally:
        signal.alarm(0)
