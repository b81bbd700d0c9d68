"""Pictures of pairs (wltools.draw): replayed colourings agree with refine_pair, drawings are
deterministic, the same class has the same colour in both graphs, the marked class and its counts."""

import networkx as nx
import numpy as np
import pytest
from matplotlib.colors import to_hex

from brec_runner.runs.dataset import load_pairs
from wltools.draw import DRAWABLE_TESTS, UnsupportedTestError, colour_rounds, pair_colouring
from wltools.draw.display import CheckTable, OptionalDependencyError, check_table, require_pandas
from wltools.draw.figure import caption_lines, draw_pair, layout, save_figure
from wltools.errors import UnsupportedGraphError, WLToolsError
from wltools.refine import refine_pair

C6 = nx.cycle_graph(6)
TWO_TRIANGLES = nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))

#: small graph pairs of equal order and size: 1-WL-equivalent, separated at round 1, at round 2, ...
SMALL = [
    (C6, TWO_TRIANGLES),
    (nx.path_graph(4), nx.star_graph(3)),
    (nx.path_graph(6), nx.Graph([(0, 1), (1, 2), (2, 3), (3, 4), (2, 5)])),
    (nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4))),
    (nx.petersen_graph(), nx.petersen_graph()),
]
#: small BREC pairs: basic, simple regular, strongly regular, extension, CFI (18, 58 nodes), distance regular (30)
BREC_IDS = [0, 60, 110, 160, 265, 262, 381]


def _check_agrees(G, H, test):
    ref = refine_pair(G, H, test)
    if ref.reason in ("order", "edges"):
        return
    rounds = colour_rounds(G, H, test)
    assert rounds.first_diff == ref.iteration, (test, rounds.first_diff, ref.iteration)
    assert rounds.rounds == ref.iterations, (test, rounds.rounds, ref.iterations)
    assert rounds.class_sizes() == tuple(map(tuple, ref.class_sizes)), test
    # node colours: ids shared by the two graphs, one per node
    for t, (ng, nh) in enumerate(rounds.nodes):
        assert len(ng) == G.number_of_nodes() and len(nh) == H.number_of_nodes()
    if rounds.element == "node":  # the compared colours are the node colours themselves
        assert all(np.array_equal(a, b) for (a, b), (c, d) in zip(rounds.nodes, rounds.compared)
                   for a, b in ((a, c), (b, d)))


@pytest.mark.parametrize("test", DRAWABLE_TESTS + ("n3",))
def test_replay_agrees_with_refine_pair_on_small_graphs(test):
    for G, H in SMALL:
        _check_agrees(G, H, test)
        _check_agrees(H, G, test)


@pytest.mark.parametrize("test", DRAWABLE_TESTS)
def test_replay_agrees_with_refine_pair_on_brec_pairs(test):
    for pair in load_pairs(ids=BREC_IDS):
        _check_agrees(pair.g, pair.h, test)


def test_rrwp_steps_are_passed_through():
    G, H = load_pairs(ids=[60])[0].g, load_pairs(ids=[60])[0].h
    for k in (1, 2, 5):
        ref = refine_pair(G, H, "rrwp", rrwp_steps=k)
        assert colour_rounds(G, H, "rrwp", rrwp_steps=k).first_diff == ref.iteration


def test_pair_tests_show_the_round_where_node_colours_differ():
    # 3-WL separates C6 / two triangles at round 1 (pair colours), the diagonal one round later
    pc = pair_colouring(C6, TWO_TRIANGLES, "3wl")
    assert pc.first_diff == 1 and pc.shown_round == 2 and pc.differing
    head = " ".join(caption_lines(pc)[:2])
    assert "first differ at round 1" in head and "differ from round 2" in head
    # node tests show the test's round itself
    for test in ("1wl", "spd", "rd", "rrwp"):
        pc = pair_colouring(nx.path_graph(4), nx.star_graph(3), test)
        assert pc.shown_round == pc.first_diff == 1


def test_differing_counts_and_not_distinguished():
    pc = pair_colouring(nx.path_graph(4), nx.star_graph(3), "1wl")
    c, a, b = pc.differing[0]
    assert (pc.colours_g.count(c), pc.colours_h.count(c)) == (a, b) and a != b
    assert f"class {c}: {a} nodes in G, {b} in H" in caption_lines(pc)[1]
    same = pair_colouring(C6, TWO_TRIANGLES, "1wl")
    assert not same.distinguished and same.differing == [] and same.shown_round == same.rounds
    assert "not distinguished" in caption_lines(same)[0]
    order = pair_colouring(nx.path_graph(3), nx.path_graph(4), "1wl")
    assert order.reason == "order" and "G has 3 nodes, H has 4" in caption_lines(order)[0]


def test_unsupported_tests_and_rounds_refused():
    for test in ("3fwl", "m1", "m2"):
        with pytest.raises(UnsupportedTestError, match="cannot draw"):
            pair_colouring(C6, TWO_TRIANGLES, test)
    assert issubclass(UnsupportedTestError, WLToolsError)
    labelled = nx.path_graph(4)
    nx.set_node_attributes(labelled, {0: "a", 1: "b", 2: "b", 3: "a"}, "label")
    other = nx.path_graph(4)
    nx.set_node_attributes(other, {0: "a", 1: "a", 2: "b", 3: "b"}, "label")
    with pytest.raises(UnsupportedGraphError, match="not defined on labelled graphs"):  # as refine_pair
        pair_colouring(labelled, other, "s3")
    with pytest.raises(ValueError, match="outside"):
        pair_colouring(C6, TWO_TRIANGLES, "spd", round=9)
    assert pair_colouring(C6, TWO_TRIANGLES, "spd", round=0).differing == []


def _node_colours(fig):
    """Face colours (hex) and outline widths of the nodes of each drawn graph."""
    out = []
    for ax in fig.axes:
        nodes = [c for c in ax.collections if hasattr(c, "get_sizes") and len(c.get_sizes())][-1]
        out.append(([to_hex(c) for c in nodes.get_facecolors()], list(nodes.get_linewidths())))
    return out


def test_same_class_same_colour_and_marked_class_outlined():
    G, H = nx.path_graph(6), nx.Graph([(0, 1), (1, 2), (2, 3), (3, 4), (2, 5)])
    pc = pair_colouring(G, H, "1wl")
    fig = draw_pair(G, H, "1wl")
    (fg, wg), (fh, wh) = _node_colours(fig)
    colour_of = {}
    for classes, faces in ((pc.colours_g, fg), (pc.colours_h, fh)):
        for c, face in zip(classes, faces):
            assert colour_of.setdefault(c, face) == face  # one colour per class, in both graphs
    assert len(set(colour_of.values())) == len(colour_of)  # and distinct classes, distinct colours
    marked = pc.differing[0][0]
    for classes, widths in ((pc.colours_g, wg), (pc.colours_h, wh)):
        assert [c == marked for c in classes] == [w == 3.0 for w in widths]


def test_drawings_are_deterministic(tmp_path):
    pair = load_pairs(ids=[60])[0]
    a, b = layout(pair.g), layout(pair.g)
    assert all(np.array_equal(a[v], b[v]) for v in a)
    big = nx.random_regular_graph(3, 62, seed=1)  # beyond Kamada-Kawai: seeded spring layout
    assert all(np.array_equal(p, q) for p, q in zip(layout(big).values(), layout(big).values()))
    for suffix in ("png", "svg"):
        p1, p2 = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
        draw_pair(pair.g, pair.h, "3wl", p1)
        draw_pair(pair.g, pair.h, "3wl", p2)
        assert p1.read_bytes() == p2.read_bytes() and p1.stat().st_size > 5000
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_user_graphs_with_any_node_names(tmp_path):
    G = nx.relabel_nodes(nx.path_graph(4), {0: "a", 1: "b", 2: "c", 3: "d"})
    pc = pair_colouring(G, nx.star_graph(3), "spd")
    assert pc.distinguished and sorted(pc.G.nodes) == [0, 1, 2, 3]
    with pytest.raises(WLToolsError, match="use a .png"):
        save_figure(draw_pair(G, nx.star_graph(3), "1wl"), tmp_path / "x.bmp")


def test_check_table_display():
    t = check_table("cycle:6", "cycle:3+cycle:3", ["1wl", "spd", "3wl"])
    assert isinstance(t, CheckTable) and len(t) == 3 and t[1].distinguished
    md = t._repr_markdown_()
    assert md.count("\n| ") == 4 and "| spd | SPD-WL | distinguished | histogram | 1 |" in md
    html = t._repr_html_()
    assert html.count("<tr>") == 4 and "<th>witness</th>" in html and "SPD multiset" in html
    assert "1wl: no" in repr(t) and "spd: yes" in repr(t)


def test_to_dataframe_without_and_with_pandas(monkeypatch):
    t = check_table("cycle:6", "cycle:3+cycle:3", ["1wl", "spd"])
    try:
        import pandas  # noqa: F401
    except ImportError:
        pandas = None
    if pandas is not None:
        df = t.to_dataframe()
        assert list(df["test"]) == ["1wl", "spd"] and list(df["verdict"])[1] == "distinguished"
    monkeypatch.setitem(__import__("sys").modules, "pandas", None)  # pandas missing: one clear error
    with pytest.raises(OptionalDependencyError, match="needs pandas, an optional dependency: pip install pandas"):
        t.to_dataframe()
    with pytest.raises(ImportError):
        require_pandas()


# --- wltools check --draw ---


def _cli(*args):
    from click.testing import CliRunner

    import cli

    return CliRunner().invoke(cli.cli, list(args))


def _one_error_line(result, needle):
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_check_draw_writes_the_picture(tmp_path):
    pair = load_pairs(ids=[60])[0]
    g6 = pair.meta["graph6"]
    out = tmp_path / "pair.png"
    result = _cli("check", g6[0], g6[1], "--test", "spd", "--draw", str(out), "--no-iso")
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"drawing: {out}" in result.stderr
    # --test all draws the weakest test that distinguishes the pair (SPD-WL here: 1-WL does not)
    both = tmp_path / "all.svg"
    assert _cli("check", g6[0], g6[1], "--draw", str(both), "--no-iso").exit_code == 0
    assert b"SPD-WL" in both.read_bytes()


def test_check_draw_refusals(tmp_path):
    _one_error_line(_cli("check", "cycle:6", "cycle:3+cycle:3", "--test", "3fwl", "--draw", str(tmp_path / "a.png")),
                    "cannot draw the colourings of 4-WL")
    _one_error_line(_cli("check", "cycle:6", "cycle:3+cycle:3", "--draw", str(tmp_path)), "is a folder")
    _one_error_line(_cli("check", "cycle:6", "cycle:3+cycle:3", "--draw", str(tmp_path / "a.jpg")), "use a .png")
    src = tmp_path / "g.svg"
    src.write_text("not a drawing yet")
    _one_error_line(_cli("check", str(src), "cycle:3", "--draw", str(src)), "would overwrite the input graph file")
    assert src.read_text() == "not a drawing yet"


def _labelled_pairs(count: int, seed: int = 0):
    """Random small pairs of equal order and size with random node and (sometimes) edge labels."""
    import random

    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(3, 8)
        m = rng.randint(n - 1, min(2 * n, n * (n - 1) // 2))
        pair = []
        for _ in range(2):
            X = nx.gnm_random_graph(n, m, seed=rng.randrange(10**6))
            nx.set_node_attributes(X, {v: rng.choice("CN") for v in X}, "label")
            pair.append(X)
        if rng.random() < 0.5:
            for X in pair:
                nx.set_edge_attributes(X, {e: rng.choice((1, 2)) for e in X.edges}, "label")
        yield pair


@pytest.mark.parametrize("test", ["1wl", "spd", "rd", "rrwp", "3wl"])
def test_labelled_replay_agrees_with_refine_pair(test):
    """Labelled pairs draw with the labelled definitions: the replay's first differing round,
    rounds and class sizes equal refine_pair's (pair_colouring raises otherwise), and labels that
    separate the graphs at round 0 show there."""
    from wltools.refine import refine_pair

    seen_round0 = 0
    for G, H in _labelled_pairs(25, seed=["1wl", "spd", "rd", "rrwp", "3wl"].index(test)):
        pc = pair_colouring(G, H, test)  # raises ReplayMismatchError if the replay disagrees
        r = refine_pair(G, H, test)
        assert (pc.distinguished, pc.first_diff, pc.rounds) == (r.distinguished, r.iteration, r.iterations)
        seen_round0 += r.iteration == 0
    assert seen_round0 > 0  # some pairs differ in their labels alone
