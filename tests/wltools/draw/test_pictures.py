"""Pictures that show the graph (wltools.draw.figure): labels written on nodes and edges (element
symbols and bond orders for molecules), every drawable test drawing the labelled pairs it refines,
planar graphs drawn without crossing edges, and drawings of huge graphs refused before any work.

Assertions are on what is drawn (the text artists and edge segments of the axes), never on pixels."""

import random

import networkx as nx
import pytest

from wltools.draw import DRAWABLE_TESTS, pair_colouring
from wltools.draw.figure import (DRAW_MAX_NODES, caption_lines, check_draw_size, crossing_edges, draw_pair,
                                 label_texts, layout)
from wltools.errors import ResourceLimitError, UnsupportedGraphError
from wltools.graphs import load_graph
from wltools.refine import refine_pair


def _texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


def _segments(ax) -> list:
    """The straight edge segments drawn on ``ax`` (networkx draws undirected edges as one LineCollection)."""
    from matplotlib.collections import LineCollection

    lines = [c for c in ax.collections if isinstance(c, LineCollection)]
    return [tuple(map(tuple, s)) for c in lines for s in c.get_segments()]


def _cross(s, t) -> bool:
    """Whether two segments without a common end cross (an independent orientation test)."""
    (a, b), (c, d) = s, t
    if {a, b} & {c, d}:
        return False

    def orient(p, q, r):
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return int(v > 1e-12) - int(v < -1e-12)

    return orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0


def _crossings(segments) -> int:
    return sum(_cross(s, t) for i, s in enumerate(segments) for t in segments[i + 1:])


# --- labels drawn ---


def _molecule(atoms, bonds):
    """A graph labelled as wltools.graphs.inputs.from_smiles labels one (no RDKit needed)."""
    G = nx.Graph(molecule=True)
    G.add_nodes_from((v, {"label": a}) for v, a in enumerate(atoms))
    G.add_edges_from((u, v, {"label": b}) for u, v, b in bonds)
    return G


def test_a_molecule_shows_element_symbols_and_bond_orders():
    # acetic acid CC(=O)O and methyl formate COC=O: equal order and size, different bonds
    acid = _molecule([("C", 0, False, 3), ("C", 0, False, 0), ("O", 0, False, 0), ("O", 0, False, 1)],
                     [(0, 1, "SINGLE"), (1, 2, "DOUBLE"), (1, 3, "SINGLE")])
    ester = _molecule([("C", 0, False, 3), ("O", 0, False, 0), ("C", 0, False, 1), ("O", -1, False, 0)],
                      [(0, 1, "SINGLE"), (1, 2, "SINGLE"), (2, 3, "TRIPLE")])
    fig = draw_pair(acid, ester, "1wl")
    g, h = (_texts(ax) for ax in fig.axes)
    assert sorted(t for t in g if t.isalpha()) == ["C", "C", "O", "O"] and {"O-", "C", "O"} <= set(h)
    for ax, X, order in zip(fig.axes, (acid, ester), ("2", "3")):  # the bond orders sit at their bonds' midpoints
        pos = layout(X)
        at = [t.get_position() for t in ax.texts if t.get_text() == order]
        mid = {b: [(pos[u] + pos[v]) / 2 for u, v, c in X.edges(data="label") if c == b] for b in ("SINGLE", "DOUBLE", "TRIPLE")}
        multiple = mid["DOUBLE"] + mid["TRIPLE"]
        assert len(multiple) == 1 and any(abs(x - multiple[0][0]) + abs(y - multiple[0][1]) < 1e-3 for x, y in at)
        assert not any(abs(x - m[0]) + abs(y - m[1]) < 1e-3 for x, y in at for m in mid["SINGLE"])
    caption = "\n".join(caption_lines(pair_colouring(acid, ester, "1wl")))
    assert "element symbols in the atoms, bond orders on the bonds" in caption


def test_smiles_molecules_are_drawn_with_their_atoms():
    pytest.importorskip("rdkit")
    fig = draw_pair(load_graph("smiles:OC(=O)c1ccccc1"), load_graph("smiles:O=Cc1ccccc1O"), "1wl")
    texts = _texts(fig.axes[0])  # benzoic acid: 7 C, 2 O, six aromatic bonds, one double
    assert texts.count("C") == 7 and texts.count("O") == 2 and texts.count("1.5") == 6 and "2" in texts


def test_label_values_are_written_and_an_edge_labelled_pair_is_captioned_as_such():
    G, H = nx.cycle_graph(4), nx.cycle_graph(4)
    nx.set_edge_attributes(G, {e: "ab"[i % 2] for i, e in enumerate(G.edges)}, "label")
    nx.set_edge_attributes(H, {e: ("a" * 30, "b")[i < 2] for i, e in enumerate(H.edges)}, "label")
    caption = caption_lines(pair_colouring(G, H, "1wl"))
    assert any(line.startswith("labels: edges carry labels (the nodes none)") for line in caption)
    assert caption[-1] == "node colour: its colour"  # the nodes carry no label
    fig = draw_pair(G, H, "1wl")
    g, h = _texts(fig.axes[0]), _texts(fig.axes[1])
    assert g.count("a") == 2 and g.count("b") == 2
    assert h.count("aaaaa...") == 2 and h.count("b") == 2 and "a" * 30 not in h  # shortened
    P = nx.path_graph(3)
    nx.set_node_attributes(P, {0: "x", 1: 7, 2: (1, 2)}, "label")
    assert label_texts(P) == ({0: "x", 1: "7", 2: "(1, 2)"}, {})
    caption = caption_lines(pair_colouring(P, P, "1wl"))
    assert caption[-1] == "node colour: its colour (refined from the node labels)"


def _labelled_pairs(count: int, seed: int):
    rng = random.Random(seed)
    for k in range(count):
        n = rng.randint(4, 6)
        m = rng.randint(n - 1, 2 * n - 2)
        pair = [nx.gnm_random_graph(n, m, seed=rng.randrange(10**6)) for _ in range(2)]
        for X in pair:
            nx.set_node_attributes(X, {v: rng.choice("CN") for v in X}, "label")
            if k % 2:
                nx.set_edge_attributes(X, {e: rng.choice((1, 2)) for e in X.edges}, "label")
        yield pair


@pytest.mark.parametrize("test", DRAWABLE_TESTS + ("n1",))
def test_every_drawable_test_draws_the_labelled_pairs_it_refines(test):
    """A test that refines labelled pairs draws them (its replay agrees with refine_pair, else
    pair_colouring raises); one that refuses labels (BREC's baselines, EPWL on edge labels) is
    refused with refine_pair's own line."""
    drawn = 0
    for G, H in _labelled_pairs(4, seed=len(test)):
        try:
            r = refine_pair(G, H, test)
        except UnsupportedGraphError as exc:
            with pytest.raises(UnsupportedGraphError) as info:
                pair_colouring(G, H, test)
            assert str(info.value) == str(exc)
            continue
        pc = pair_colouring(G, H, test, result=r)
        assert (pc.distinguished, pc.first_diff, pc.rounds) == (r.distinguished, r.iteration, r.iterations)
        drawn += 1
    baseline = test in ("s3", "s4", "n1", "n2")
    assert drawn == (0 if baseline else 2 if test.startswith("epwl") else 4)


# --- planar graphs drawn planar ---


def test_decalin_is_drawn_without_crossing_edges():
    G, H = load_graph("decalin"), load_graph("bicyclopentyl")
    kk = nx.kamada_kawai_layout(G)  # what was drawn before: one crossing
    assert _crossings([(tuple(kk[u]), tuple(kk[v])) for u, v in G.edges]) == 1
    fig = draw_pair(G, H, "spd")
    for ax, X in zip(fig.axes, (G, H)):
        segments = _segments(ax)
        assert len(segments) == X.number_of_edges() and _crossings(segments) == 0


def test_planar_graphs_are_laid_out_planar_and_the_crossing_count_is_right():
    rng = random.Random(3)
    graphs = [nx.complete_graph(4), nx.grid_2d_graph(9, 8), nx.Graph(nx.triangular_lattice_graph(2, 4))]
    for X in graphs:
        X = nx.convert_node_labels_to_integers(X)
        pos = layout(X)
        segments = [(tuple(pos[u]), tuple(pos[v])) for u, v in X.edges]
        assert _crossings(segments) == crossing_edges(X, pos) == 0, X
    for _ in range(5):  # the vectorised count equals the pairwise one on random straight-line drawings
        X = nx.gnm_random_graph(9, 14, seed=rng.randrange(100))
        pos = {v: (rng.random(), rng.random()) for v in X}
        assert crossing_edges(X, pos) == _crossings([(pos[u], pos[v]) for u, v in X.edges])


# --- size guard ---


def test_huge_graphs_are_refused_before_drawing(tmp_path):
    from click.testing import CliRunner

    import cli

    big = f"path:{DRAW_MAX_NODES + 1}"
    out = tmp_path / "big.png"
    r = CliRunner().invoke(cli.cli, ["check", big, big, "--draw", str(out)])
    assert r.exit_code == 2 and not out.exists()
    assert r.stderr.splitlines() == [f"error: cannot draw {big} ({DRAW_MAX_NODES + 1:,} nodes): drawings are limited "
                                     f"to {DRAW_MAX_NODES:,} nodes per graph (the layout takes minutes beyond: 143 s for "
                                     "a 2,000-node pair that checks in 7 s); drop --draw"]
    with pytest.raises(ResourceLimitError):
        draw_pair(nx.path_graph(3), nx.path_graph(DRAW_MAX_NODES + 1), "1wl")
    check_draw_size(nx.path_graph(DRAW_MAX_NODES), nx.path_graph(DRAW_MAX_NODES))  # the limit itself is drawn


def test_explain_and_draw_puts_the_witness_pattern_beside_the_pair(tmp_path):
    """check --explain --draw: the homomorphism witness (the triangle, for C6 against 2C3 under
    3-WL) is drawn in a third panel with its counts; without a witness the panel says why."""
    import networkx as nx

    from wltools.check import check_pair, explain_results
    from wltools.draw.colourings import pair_colouring
    from wltools.draw.figure import _witness_pattern, draw_colouring, draw_results

    G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    c = check_pair(G, H, ("1wl", "3wl"))
    explain_results(c, G, H, 4)
    F, text = _witness_pattern(c.explanations, "3wl")
    assert nx.is_isomorphic(F, nx.complete_graph(3)) and "triangle" in text and "12 into H" in text
    fig = draw_colouring(pair_colouring(G, H, "3wl"), pattern=(F, text))
    third = fig.axes[2]
    from matplotlib.collections import PathCollection

    nodes = sum(len(col.get_offsets()) for col in third.collections if isinstance(col, PathCollection))
    assert len(fig.axes) == 3 and nodes == 3
    assert draw_results(G, H, c.results, tmp_path / "p.png", explanations=c.explanations) == "3wl"
    c_same = check_pair(G, G, ("3wl",))
    explain_results(c_same, G, G, 4)
    none, why = _witness_pattern(c_same.explanations, "3wl")
    assert none is None and "equal counts" in why
