"""Round three of the careless-user faults (issue 45): inputs with one meaning, estimates before
allocation, clear messages. Each test asserts the right number from an independent reference, or a
refusal: exit 2 and one ``error:`` line."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

import cli


def _run(*args: str):
    return CliRunner().invoke(cli.cli, [str(a) for a in args])


def _refused(result, *needles: str) -> str:
    """The one error line of a refusal (exit 2), holding every needle."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def _commands(group: click.Group, path=()):
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*path, name))
        else:
            yield (*path, name), cmd


_SINGLE = [(path, opt.opts[0], opt.is_flag) for path, cmd in _commands(cli.cli) for opt in cmd.params
           if isinstance(opt, click.Option) and not opt.multiple and not opt.count and opt.name != "help"]


# ---- 1. repeated options ----------------------------------------------------------------------

def test_a_repeated_root_is_refused_not_the_last_one_kept():
    """The issue's case: ``--root 0 --root 1`` counted for root 1 alone (15) and said nothing."""
    _refused(_run("hom", "cycle:4", "petersen", "--root", "0", "--root", "1"), "--root given twice", "0, then 1")
    one = _run("hom", "cycle:4", "petersen", "--root", "1")
    # by hand: Petersen is 3-regular of girth 5, so a closed 4-walk at v only goes back and forth:
    # v-a-v-b-v (3 * 3 = 9) or v-a-x-a-v with x != v (3 * 2 = 6): 15
    assert one.exit_code == 0 and one.output.strip().endswith("= 15"), one.output


@pytest.mark.parametrize("path, option, flag", _SINGLE, ids=[f"{' '.join(p)} {o}" for p, o, _ in _SINGLE])
def test_every_single_value_option_given_twice_is_refused(path, option, flag):
    """Audit of every command: an option that holds one value, given twice, is one line naming it
    (before any other check: the values need not even be valid)."""
    twice = [option, option] if flag else [option, "x", option, "y"]
    _refused(_run(*path, *twice), f"{option} given twice")


def test_repeatable_options_say_so_in_their_help():
    multiple = [(p, o) for p, cmd in _commands(cli.cli) for o in cmd.params
                if isinstance(o, click.Option) and o.multiple]
    assert multiple  # --category, --set, can-count --root
    for path, opt in multiple:
        assert "repeat" in (opt.help or "").lower(), (path, opt.opts)


def test_a_key_set_twice_is_refused():
    from cli.common import parse_set

    assert parse_set(("lr=0.1", "layers=3")) == {"lr": 0.1, "layers": 3}
    with pytest.raises(click.BadParameter, match="lr is set twice"):
        parse_set(("lr=0.1", "lr=0.2"))


# ---- 6. unclear messages ----------------------------------------------------------------------

@pytest.mark.parametrize("args", [("patterns", "--test", "foo", "--max-nodes", "3"),
                                  ("can-count", "cycle:4", "--test", "foo")])
def test_an_unknown_test_lists_the_tests_with_a_family(args):
    from wltools.hom.families import FAMILY_TESTS

    _refused(_run(*args), "unknown test 'foo'", ", ".join(FAMILY_TESTS))


def test_explain_max_nodes_without_explain_is_refused():
    _refused(_run("check", "petersen", "petersen", "--test", "1wl", "--explain-max-nodes", "3"),
             "--explain-max-nodes has no effect here", "it needs --explain")
    ok = _run("check", "petersen", "petersen", "--test", "1wl", "--explain", "--explain-max-nodes", "3")
    assert ok.exit_code == 0 and "up to 3 vertices" in ok.output, ok.output


# ---- 2. edge lists, multigraphs, infinite labels, labelled collections ------------------------

_TRIANGLE_WITH_TAIL = [(0, 1), (1, 2), (2, 0), (2, 3)]  # m = 4; degrees 2, 2, 3, 1


@pytest.mark.parametrize("separator", [" ", "\t", ",", ";", ", ", " ; "])
def test_edge_lists_with_any_separator_read_as_edges(tmp_path, separator):
    """``0,1`` used to be one token: an isolated node (hom(path:2) = 0, m = 0). hom(path:2, G) = 2m
    and hom(path:3, G) = sum of squared degrees, by hand 8 and 4 + 4 + 9 + 1 = 18."""
    path = tmp_path / "g.csv"
    path.write_text("# a comment\n" + "".join(f"{u}{separator}{v}\n" for u, v in _TRIANGLE_WITH_TAIL))
    for pattern, expected in (("path:2", 8), ("path:3", 18)):
        r = _run("hom", pattern, path)
        assert r.exit_code == 0 and r.output.strip().endswith(f"= {expected}"), r.output
    r = _run("check", path, "complete:3", "--test", "1wl", "--no-iso")
    assert r.exit_code == 0 and "n=4  m=4" in r.output, r.output


def test_a_header_line_is_refused_not_read_as_an_edge(tmp_path):
    path = tmp_path / "g.csv"
    path.write_text("source,target\n0,1\n1,2\n")
    _refused(_run("hom", "path:2", path), "line 1", "'source target'", "start it with #")
    path.write_text("# source,target\n0,1\n1,2\n")
    assert _run("hom", "path:2", path).output.strip().endswith("= 4")


def _formats(tmp_path, edges, n):
    """The same graph written in five formats (written here by hand or by networkx's writers)."""
    import json

    import networkx as nx

    G = nx.Graph(edges)
    G.add_nodes_from(range(n))
    out = {}
    out["csv"] = tmp_path / "g.csv"
    out["csv"].write_text("".join(f"{u},{v}\n" for u, v in edges))
    out["semicolon"] = tmp_path / "g.txt"
    out["semicolon"].write_text("".join(f"{u};{v}\n" for u, v in edges))
    out["g6"] = tmp_path / "g.g6"
    out["g6"].write_bytes(nx.to_graph6_bytes(G, nodes=range(n), header=False))
    out["graphml"] = tmp_path / "g.graphml"
    nx.write_graphml(G, out["graphml"])
    out["json"] = tmp_path / "g.json"
    out["json"].write_text(json.dumps(nx.node_link_data(G, edges="edges")))
    return out


def test_the_same_graph_in_five_formats_gives_one_answer(tmp_path):
    """Petersen's edges in each format: hom(cycle:5) is 10 * 12 = 120 (12 closed walks of length 5
    at each vertex: the 6 five-cycles through it, both directions), and `iso` says isomorphic to
    the named graph from every format."""
    import networkx as nx

    files = _formats(tmp_path, list(nx.petersen_graph().edges), 10)
    for name, path in files.items():
        r = _run("hom", "cycle:5", path)
        assert r.exit_code == 0 and r.output.strip().endswith("= 120"), (name, r.output)
        r = _run("iso", path, "petersen")
        assert r.exit_code == 0 and r.output.startswith("isomorphic"), (name, r.output)


_MULTI = {"csv": "0,1\n1,0\n1,2\n", "semicolon": "0;1\n1;2\n1;2\n", "loop-csv": "0,1\n1,1\n"}


@pytest.mark.parametrize("name", sorted(_MULTI))
def test_parallel_edges_and_self_loops_are_refused_in_edge_lists(tmp_path, name):
    path = tmp_path / f"{name}.txt"
    path.write_text(_MULTI[name])
    _refused(_run("hom", "path:2", path), "self-loop" if "loop" in name else "parallel edges")


@pytest.mark.parametrize("what", ["parallel", "loop"])
def test_parallel_edges_and_self_loops_are_refused_from_every_reader(tmp_path, what):
    """One rule whatever the format: sparse6 (which can hold both), GraphML, node-link JSON, an edge
    list and a PyG ``Data`` (which merged a repeated edge silently before)."""
    import json

    import networkx as nx
    import torch
    from torch_geometric.data import Data

    from wltools.errors import UnsupportedGraphError
    from wltools.graphs import load_graph

    edges = [(0, 1), (0, 1), (1, 2)] if what == "parallel" else [(0, 1), (1, 1), (1, 2)]
    needle = "parallel edges" if what == "parallel" else "self-loop"
    M = nx.MultiGraph(edges)
    (tmp_path / "g.s6").write_bytes(nx.to_sparse6_bytes(M, header=False))
    nx.write_graphml(M, tmp_path / "g.graphml")
    (tmp_path / "g.json").write_text(json.dumps(nx.node_link_data(M, edges="edges")))
    (tmp_path / "g.edges").write_text("".join(f"{u} {v}\n" for u, v in edges))
    for name in ("g.s6", "g.graphml", "g.json", "g.edges"):
        _refused(_run("hom", "path:2", tmp_path / name), needle)
    both = [(u, v) for u, v in edges] + [(v, u) for u, v in edges if u != v]
    with pytest.raises(UnsupportedGraphError, match=needle):
        load_graph(Data(edge_index=torch.tensor(both).T, num_nodes=3))


def test_infinite_labels_are_refused_by_every_loader(tmp_path):
    """A TU attribute file refused ``inf`` while GraphML, node-link JSON and PyG took it as a label."""
    import torch
    from torch_geometric.data import Data

    from wltools.dataset import open_dataset
    from wltools.errors import GraphFormatError
    from wltools.graphs import load_graph

    (tmp_path / "g.graphml").write_text(
        '<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
        '<key id="w" for="node" attr.name="w" attr.type="double"/><graph edgedefault="undirected">'
        '<node id="0"><data key="w">INF</data></node><node id="1"><data key="w">1</data></node>'
        '<edge source="0" target="1"/></graph></graphml>')
    (tmp_path / "g.json").write_text('{"nodes": [{"id": 0, "w": -Infinity}, {"id": 1, "w": 1}], '
                                     '"edges": [{"source": 0, "target": 1}]}')
    for name in ("g.graphml", "g.json"):
        _refused(_run("check", tmp_path / name, tmp_path / name, "--node-attr", "w", "--test", "1wl"), "infinite")
    data = Data(x=torch.tensor([[float("inf")], [1.0]]), edge_index=torch.tensor([[0, 1], [1, 0]]))
    with pytest.raises(GraphFormatError, match="infinite"):
        load_graph(data)
    tu = tmp_path / "DS"
    tu.mkdir()
    for key, text in {"A": "1, 2\n2, 1\n", "graph_indicator": "1\n1\n", "graph_labels": "0\n",
                      "node_attributes": "inf\n1\n"}.items():
        (tu / f"DS_{key}.txt").write_text(text)
    with pytest.raises(GraphFormatError, match="finite"):
        open_dataset(tu, node_features="attributes")


def test_a_label_free_test_named_on_a_labelled_collection_is_refused_as_check_refuses_it():
    line = _refused(_run("dataset", "NCI1K", "--tests", "s3", "--no-iso"), "test s3 is not defined on labelled graphs",
                    "--node-features none --no-edge-labels")
    assert "node and edge labels" in line
    _refused(_run("check", "smiles:CCO", "smiles:CCO", "--test", "s3"), "not defined on labelled graphs")
    bare = _run("dataset", "NCI1K", "--tests", "s3", "--no-iso", "--node-features", "none", "--no-edge-labels",
                "--rounds", "1", "--format", "json")
    assert bare.exit_code == 0, bare.output


# ---- 3. estimates before allocation -----------------------------------------------------------

def _traced(fn):
    """``(result, peak bytes)`` of ``fn()`` under tracemalloc (numpy's allocations included)."""
    import tracemalloc

    tracemalloc.start()
    try:
        out = fn()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_hom_into_a_huge_graph_builds_no_dense_matrix():
    """The issue's case was ``hom path:3 path:100000``: a 74.5 GiB dense matrix built before any
    estimate. Now it is counted by elimination over sparse tables: the answer is hom(P3, P_n) =
    sum of deg^2 = 4n - 6, and the command's own peak stays far below one n x n matrix (the graph
    itself, in networkx, is most of it). Here n = 30,000 (one float64 n x n matrix: 6.7 GiB,
    13x the peak allowed) keeps tracemalloc's slowdown of loading the path to a few seconds."""
    import time

    start = time.perf_counter()
    r, peak = _traced(lambda: _run("hom", "path:3", "path:30000", "--max-memory", "1G"))
    seconds = time.perf_counter() - start
    assert r.exit_code == 0, r.output
    assert r.output.strip().endswith("= 119994"), r.output
    assert peak < 512 * 2**20, peak  # one float64 30,000^2 matrix is 6.7 GiB
    assert seconds < 120, seconds  # loading the path dominates


def test_check_explain_is_refused_by_its_estimate_before_any_work():
    """The issue's case with --explain (two 40,000-node paths): a dense n^2 matrix per graph (11.9
    GiB) built after the tests ran, --max-memory ignored. Now refused first, one line; here at
    n = 20,000 (3 GiB per graph, still 3x --max-memory), half the graph loading under tracemalloc."""
    r, peak = _traced(lambda: _run("check", "path:20000", "path:20000", "--test", "1wl", "--explain",
                                   "--max-memory", "1G"))
    _refused(r, "--explain", "20,000 x 20,000", "--max-memory is 1 GiB")
    assert peak < 512 * 2**20, peak


@pytest.mark.parametrize("spec, roots", [("path:3", ()), ("cycle:4", ()), ("complete:4", ()), ("cycle:5", (0,)),
                                         ("path:3", (0, 1)), ("path:2+cycle:3", (0, 3)), ("path:8", ())])
@pytest.mark.parametrize("n", [40, 240])
def test_the_hom_estimate_is_an_upper_bound_of_the_measured_peak(spec, roots, n):
    """count_estimate (the method each component takes: the dense programme's peak_bytes, or the
    elimination's tables) against tracemalloc's peak of the count itself (the reference), on
    random 4-regular graphs and, for path:8, the complete graph (object arithmetic at n = 240)."""
    import networkx as nx

    from wltools.graphs import load_graph
    from wltools.hom.count import count_estimate, hom_count, hom_counts_at

    F = load_graph(spec)
    G = nx.complete_graph(n) if spec == "path:8" else nx.random_regular_graph(4, n, seed=n)
    hom_counts_at(F, G, roots) if roots else hom_count(F, G)  # plans and orders are cached: not one count's peak
    _, peak = _traced(lambda: hom_counts_at(F, G, roots) if roots else hom_count(F, G))
    estimate = count_estimate(F, G, roots)[1]
    assert peak <= estimate <= 8 * peak + 2**20, (peak, estimate)


def test_the_explain_estimate_is_an_upper_bound_of_the_search(monkeypatch):
    """require_explain's estimate against tracemalloc's peak of the --explain search it guards
    (two 3-regular graphs of 300 vertices that 3-WL does not separate: every pattern is counted)."""
    import networkx as nx

    import wltools.runtime.memory
    from wltools.check import check_pair, explain_results, require_explain

    G = nx.random_regular_graph(3, 300, seed=1)
    H = nx.random_regular_graph(3, 300, seed=2)
    c = check_pair(G, H, ("1wl",), iso=False)
    asked = []
    monkeypatch.setattr(wltools.runtime.memory, "require", lambda need, what, max_memory=None: asked.append(need))
    require_explain(("1wl",), G, H, 5, None)
    from wltools.hom.witness import graph_family_patterns
    from wltools.hom.dense import _plan

    for F in graph_family_patterns("1wl", 5):
        _plan(F, ())
    _, peak = _traced(lambda: explain_results(c, G, H, 5))
    assert len(asked) == 1 and peak <= asked[0] <= 8 * peak + 2**20, (peak, asked)


# ---- 5. damaged shipped data ------------------------------------------------------------------

def _damaged_copy(src_dir, tmp_path, name, how):
    """A copy of a data folder with file ``name`` truncated, emptied or replaced by text."""
    import shutil

    dst = tmp_path / src_dir.name
    shutil.copytree(src_dir, dst)
    data = (dst / name).read_bytes()
    (dst / name).write_bytes({"truncated": data[: len(data) // 2], "empty": b"", "text": b"hello\n"}[how])
    return dst


@pytest.mark.parametrize("how", ["truncated", "empty", "text"])
def test_damaged_brec_data_is_one_line_naming_the_file_and_the_fix(tmp_path, monkeypatch, how):
    """A truncated BREC .npy made `brec verify-data` itself end in an unpickling traceback."""
    import brec_runner.runs.dataset as brec_data

    monkeypatch.setattr(brec_data, "DATA_DIR", _damaged_copy(brec_data.DATA_DIR, tmp_path, "basic.npy", how))
    brec_data._raw_pairs.cache_clear()
    brec_data._pair.cache_clear()
    try:
        _refused(_run("brec", "verify-data", "--pairs", "0-1", "--quiet"), "BREC file", "basic.npy is damaged",
                 "git checkout -- ")
    finally:
        brec_data._raw_pairs.cache_clear()
        brec_data._pair.cache_clear()


def test_damaged_suite_and_counting_data_name_the_file_and_the_fix(tmp_path, monkeypatch):
    import wltools.counting.data as counting
    import wltools.suites.base as suites

    monkeypatch.setattr(suites, "DATA_DIR", _damaged_copy(suites.DATA_DIR, tmp_path, "sr/sr16622.g6", "truncated"))
    with pytest.raises(Exception, match=r"suite file .*sr16622.g6 is damaged .*git checkout -- "):
        suites.check_file("sr/sr16622.g6")
    monkeypatch.setattr(counting, "DATA_DIR", _damaged_copy(counting.DATA_DIR, tmp_path, "targets.npz", "empty"))
    with pytest.raises(Exception, match=r"counting data file .*targets.npz is damaged .*git checkout -- "):
        counting._path("targets.npz")


def test_the_shipped_checksums_are_those_of_the_committed_files():
    """Every BREC file passes its recorded checksum (the data as committed); the name is the
    repository path that `git checkout --` takes."""
    from brec_runner.runs.dataset import CHECKSUMS, DATA_DIR
    from wltools.runtime.shipped import check_shipped, shipped_name

    for name, digest in CHECKSUMS.items():
        check_shipped(DATA_DIR / name, digest, "BREC file")
    assert shipped_name(DATA_DIR / "basic.npy") == "data/brec/basic.npy"


# ---- 7. a worker's exception is reported ------------------------------------------------------

@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="worker processes are forked")
def test_a_failing_units_exception_and_traceback_are_reported(capsys):
    """claims.parallel dropped a unit's exception (the worker returned None). Now ``failed`` gets
    the unit, the exception, where it was raised and the worker's traceback; by default one line
    on stderr. The claims still report the error as their result."""
    from wltools.claims.parallel import verify_claims
    from wltools.claims.registry import Claim, ClaimResult

    def broken(test, ids, rrwp_steps=None):
        raise RuntimeError("no cache today")

    def check(*, pairs=None, theory_verdicts=None):
        theory_verdicts("1wl", [0, 1])
        return ClaimResult("PASS", "read", {})

    def needs(*, pairs=None, theory_verdicts=None, **_):
        return [("brec", "1wl", None, (0, 1))]

    claims = [Claim(name, "s", "src", "brec", check, inputs=("pairs",), needs=needs) for name in ("a", "b")]
    got = []
    out = verify_claims(claims, {"pairs": [0, 1], "theory_verdicts": broken}, workers=2, failed=got.append)
    assert [r.status for _, r in out] == ["ERROR", "ERROR"]
    assert len(got) == 1 and got[0].unit == ("brec", "1wl", None) and got[0].exception == "RuntimeError"
    assert got[0].message == "no cache today" and "in broken" in got[0].traceback
    assert got[0].where.endswith(f"test_inputs_round3.py:{broken.__code__.co_firstlineno + 1}")
    verify_claims(claims, {"pairs": [0, 1], "theory_verdicts": broken}, workers=2)
    err = [line for line in capsys.readouterr().err.splitlines() if "failed in its worker" in line]
    assert len(err) == 1 and "RuntimeError: no cache today" in err[0], err


def test_root_names_a_files_vertex_as_the_file_does(tmp_path):
    """An edge list with gaps (nodes 1, 5, 9, 12): --root used to count position 0..n-1 while the
    docs said "as the graph is read". Now --root 12 is the file's node 12. By hand: path:3 rooted
    at an end counts 2-step walks, sum of the neighbours' degrees: at 12 (neighbour 9, degree 3): 3;
    at 9 (neighbours 1, 5, 12 of degrees 2, 2, 1): 5; path:2 at (9, 12): the edge, 1."""
    path = tmp_path / "gaps.edges"
    path.write_text("1 5\n5 9\n9 1\n9 12\n")
    for root, expected in (("12", 3), ("9", 5), ("9,12", 1)):
        pattern = "path:2" if "," in root else "path:3"
        r = _run("hom", pattern, path, "--root", root)
        assert r.exit_code == 0 and r.output.strip().endswith(f"= {expected}"), (root, r.output)
    _refused(_run("hom", "path:3", path, "--root", "0"), "file's node names (1, 5, 9, 12)", "not 0")
    assert _run("hom", "path:3", "petersen", "--root", "4").output.strip().endswith("= 9")  # names: 0..n-1


def test_can_count_root_names_a_pattern_files_vertex_as_the_file_does(tmp_path):
    """A tailed 4-cycle 1-2-3-4-1 with tail 4-5, written with names 1..5: rooting at 5 (the tail's
    end) must be answered as rooting the same pattern, written 0..4, at its vertex 4."""
    named, numbered = tmp_path / "named.edges", tmp_path / "numbered.edges"
    named.write_text("1 2\n2 3\n3 4\n4 1\n4 5\n")
    numbered.write_text("0 1\n1 2\n2 3\n3 0\n3 4\n")
    import json

    answers = {}
    for test in ("swl-vs", "m1"):  # rooted at the tail's end: no; at the cycle vertex holding the tail: yes
        for name, number in (("5", "4"), ("4", "3")):
            a = _run("can-count", named, "--test", test, "--level", "node", "--root", name, "--format", "json")
            b = _run("can-count", numbered, "--test", test, "--level", "node", "--root", number, "--format", "json")
            assert a.exit_code == b.exit_code == 0, (a.output, b.output)
            answers[test, name] = json.loads(a.output)["can_count"]
            assert answers[test, name] == json.loads(b.output)["can_count"], (test, name)
    # the two roots must differ, or the test could not tell a name from a position: rooted at the tail's
    # end w, F - w keeps the 4-cycle (not a forest: outside SWL(VS)'s rooted family, Zhang et al. ICLR
    # 2024 Thm 3.7), so "no"; rooted at the cycle vertex holding the tail, F - w is a path and a vertex
    assert answers == {("swl-vs", "5"): False, ("swl-vs", "4"): True, ("m1", "5"): False, ("m1", "4"): True}
    _refused(_run("can-count", named, "--test", "1wl", "--level", "node", "--root", "0"),
             "not 1 distinct vertices", "1, 2, 3, 4, 5")


def test_a_dataset_plot_without_targets_is_refused_not_an_empty_chart(tmp_path):
    import networkx as nx

    g6 = tmp_path / "three.g6"
    g6.write_bytes(b"".join(nx.to_graph6_bytes(G, header=False) for G in
                            (nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), nx.path_graph(6))))
    chart = tmp_path / "p.png"
    _refused(_run("dataset", g6, "--tests", "1wl", "--plot", chart, "--quiet"), "has no targets", "--targets")
    assert not chart.exists()
    ok = _run("dataset", g6, "--tests", "1wl", "--plot", chart, "--quiet", "--targets", "count:cycle:3",
              "--task", "regression")
    assert ok.exit_code == 0 and chart.stat().st_size > 0, ok.output


# ---- 4. progress before minutes ---------------------------------------------------------------

def _small_cfi_pair():
    """BREC's CFI pair 381 (30 vertices; 3fwl separates it in a fraction of a second)."""
    from brec_runner.runs.dataset import load_pairs

    p = load_pairs(ids=[381])[0]
    return p.g, p.h


def test_a_long_3fwl_prints_its_estimate_before_the_work(monkeypatch, capsys):
    """BREC's largest CFI pair ran 8 min 43 s silently. A 3fwl round estimated above
    LONG_ROUND_SECONDS now prints memory and time first, then a line as each round ends; the small
    pair stands in for the large one by lowering the threshold (the refinement itself is the real
    one)."""
    import wltools.check as check
    import wltools.refine

    G, H = _small_cfi_pair()
    monkeypatch.setattr(check, "LONG_ROUND_SECONDS", 0.0)
    real, seen = wltools.refine.refine_pair, []

    def watched(*args, **kwargs):
        seen.append(capsys.readouterr().err)  # what was on stderr when the work started
        return real(*args, **kwargs)

    monkeypatch.setattr(wltools.refine, "refine_pair", watched)
    c = check.check_pair(G, H, ("3fwl",), iso=False, progress=True)
    assert c.results[0].distinguished
    assert seen[0].startswith("wltools: 3fwl on 30 nodes: estimated ") and " a round " in seen[0], seen
    after = capsys.readouterr().err.splitlines()  # a line a round as it ends, then the stage line (piped)
    rounds = [line for line in after if line.startswith("wltools: 3fwl on 30 nodes: round ")]
    assert len(rounds) == c.results[0].iterations and rounds[0].startswith("wltools: 3fwl on 30 nodes: round 1 done, ")
    assert after[-1].startswith("wltools: 3fwl on 30 nodes: 1 stage in ") and len(after) == len(rounds) + 1
    check.check_pair(G, H, ("3fwl",), iso=False, progress=False)
    assert capsys.readouterr().err == ""


def test_check_shows_the_stage_unless_quiet_and_small_work_stays_silent(monkeypatch, tmp_path):
    import networkx as nx

    import wltools.check as check

    G, H = _small_cfi_pair()
    paths = []
    for name, X in (("g", G), ("h", H)):
        paths.append(tmp_path / f"{name}.g6")
        paths[-1].write_bytes(nx.to_graph6_bytes(X, header=False))
    plain = _run("check", *paths, "--test", "3fwl", "--no-iso")
    assert plain.exit_code == 0 and "wltools:" not in plain.output  # 30 nodes: about 0.1 s a round
    monkeypatch.setattr(check, "LONG_ROUND_SECONDS", 0.0)
    shown = _run("check", *paths, "--test", "3fwl", "--no-iso")
    assert shown.exit_code == 0 and "wltools: 3fwl on 30 nodes: estimated" in shown.output
    quiet = _run("check", *paths, "--test", "3fwl", "--no-iso", "--quiet")
    assert quiet.exit_code == 0 and "wltools:" not in quiet.output


def test_on_a_terminal_the_stage_is_a_bar_of_elapsed_time():
    import io
    import time

    from wltools.runtime.progress import timed_stage

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    out = Terminal()
    with timed_stage("3fwl on 198 nodes", "estimated 3 GiB and about 4 min a round", 1155.0, file=out, tick=0.02):
        time.sleep(0.3)
    text = out.getvalue()
    assert text.startswith("wltools: 3fwl on 198 nodes: estimated 3 GiB")
    assert "elapsed, estimate 1155 s" in text


def test_an_edge_list_line_with_integers_after_the_ends_is_refused(tmp_path):
    """Careless-user trial: ``0 1 2`` (an adjacency list: 0-1 and 0-2) was read as the edge 0-1
    with the 2 dropped, a wrong graph; a decimal weight column stays ignored as documented."""
    adj = tmp_path / "adj.txt"
    adj.write_text("0 1 2\n1 2\n")
    _refused(_run("hom", "path:2", adj), "line 1", "integers after the edge's two ends")
    weighted = tmp_path / "w.txt"
    weighted.write_text("0 1 0.5\n1 2 1.0\n0 2 2.5\n")
    assert _run("hom", "path:2", weighted).output.strip().endswith("= 6")  # a triangle: 2m = 6


@pytest.mark.parametrize("args, option", [
    (("check", "petersen", "petersen", "--test", "1wl", "--rrwp-steps", "3"), "--rrwp-steps"),
    (("check", "petersen", "petersen", "--test", "1wl", "--no-iso", "--iso-timeout", "5"), "--iso-timeout"),
    (("check", "petersen", "petersen", "--test", "1wl", "--stereo"), "--stereo"),
    (("iso", "petersen", "petersen", "--stereo"), "--stereo"),
    (("dataset", "NCI1K", "--tests", "1wl", "--address", "1.2.3.4:6379"), "--address"),
])
def test_an_option_that_would_be_ignored_is_refused(args, option):
    """Careless-user trial: these options were accepted and had no effect (the answer silently not
    what the option asked for)."""
    _refused(_run(*args), f"{option} has no effect here")


def test_the_same_options_where_they_apply_still_work():
    r = _run("check", "cycle:6", "cycle:3+cycle:3", "--test", "rrwp", "--rrwp-steps", "3", "--no-iso")
    assert r.exit_code == 0 and "rrwp" in r.output, r.output
    r = _run("check", "petersen", "petersen", "--test", "1wl", "--iso-timeout", "5")
    assert r.exit_code == 0 and "isomorphic: yes" in r.output, r.output


def test_an_edited_committed_tu_dataset_is_refused_not_read(tmp_path, monkeypatch):
    """Careless-user trial: one node label of data/tu/NCI1K edited (a carbon made a nitrogen) was
    read as given, every bound computed on the wrong molecule. Now the committed files are checked
    against their README's SHA-256 first."""
    import re
    import shutil

    import wltools.dataset.tu as tu

    readme = (tu.TU_DATA_DIR / "README.md").read_text()
    for rel, digest in tu.CHECKSUMS.items():
        assert re.search(rf"`{re.escape(rel.split('/')[-1])}`\s*\|[^\n]*`{digest}`", readme), rel
    copy = tmp_path / "tu"
    shutil.copytree(tu.TU_DATA_DIR, copy)
    labels = copy / "NCI1K" / "NCI1K_node_labels.txt"
    lines = labels.read_text().splitlines()
    lines[0] = str(int(lines[0]) + 1)
    labels.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(tu, "TU_DATA_DIR", copy)
    _refused(_run("dataset", "NCI1K", "--tests", "1wl", "--no-iso", "--quiet"),
             "TU data file", "NCI1K_node_labels.txt is damaged", "git checkout -- ")


def test_a_long_hom_count_prints_its_estimate_first(monkeypatch):
    """cycle:4 into a 2,500-vertex graph ran 34 s with no word; a count estimated above
    LONG_COUNT_SECONDS prints memory and time first (the threshold lowered here so that Petersen,
    15 closed 4-walks at each of 10 vertices = 150, stands in)."""
    import cli.hom

    plain = _run("hom", "cycle:4", "petersen")
    assert plain.output.strip() == "hom(cycle:4, petersen) = 150"
    monkeypatch.setattr(cli.hom, "LONG_COUNT_SECONDS", 0.0)
    shown = _run("hom", "cycle:4", "petersen").output.splitlines()
    assert shown[0].startswith("wltools: hom(cycle:4, petersen): estimated ") and shown[-1].endswith("= 150")
    quiet = _run("hom", "cycle:4", "petersen", "--quiet")
    assert quiet.output.strip() == "hom(cycle:4, petersen) = 150"


def test_the_hom_time_estimate_is_the_plans_work():
    """estimated_seconds is the plan's multiply-adds (n^|bag| per bag) times SECONDS_PER_OP: a
    4-cycle's optimal decomposition has two bags of 3, so about 2 n^3, an edge's one bag of 2, n^2
    (hand counts; the decomposition's smaller bags add lower powers of n, under 2% at n = 100)."""
    import networkx as nx

    from wltools.hom.dense import SECONDS_PER_OP, estimated_seconds

    assert estimated_seconds(nx.cycle_graph(4), 100) == pytest.approx(2 * 100**3 * SECONDS_PER_OP, rel=0.02)
    assert estimated_seconds(nx.path_graph(2), 100) == pytest.approx(100**2 * SECONDS_PER_OP, rel=0.02)


def test_a_file_index_that_is_no_index_says_so(tmp_path):
    """Careless-user trial: ``three.g6:-1`` said "no such file", though the file is there."""
    import networkx as nx

    g6 = tmp_path / "three.g6"
    g6.write_bytes(b"".join(nx.to_graph6_bytes(nx.path_graph(k), header=False) for k in (2, 3, 4)))
    _refused(_run("hom", "path:2", f"{g6}:-1"), "'-1' is not a graph index", "0-based")
    _refused(_run("hom", "path:2", f"{g6}:5"), "holds 3 graphs", "(0..2)")
    assert _run("hom", "path:2", f"{g6}:2").output.strip().endswith("= 6")  # path on 4 vertices: 2m = 6


@pytest.mark.parametrize("args, needle", [
    (("hom", "path:3", "petersen", "--max-memory", "abc"), "Invalid value for '--max-memory'"),
    (("hom", "path:3"), "Missing argument 'G'"),
    (("check", "petersen", "petersen", "--bogus"), "No such option '--bogus'"),
    (("patterns", "--test", "1wl"), "Missing option '--max-nodes'"),
    (("nope",), "No such command 'nope'"),
    (("brec", "nope"), "No such command 'nope'"),
])
def test_usage_errors_are_one_line_naming_the_help(args, needle):
    """Careless-user trial: click's usage errors took four lines (usage, hint, blank, message)."""
    _refused(_run(*args), needle, "--help lists the")
