"""Tests of wltools.graphs: named graphs, every reader, relabelling, and every bad input."""

from __future__ import annotations

import json
import random

import networkx as nx
import pytest
from graphml_samples import DIRECTED_GRAPHML, EMPTY_GRAPHML, MULTI_GRAPHML

from wltools.errors import (
    DataIntegrityError,
    GraphFormatError,
    UnknownNameError,
    UnsupportedGraphError,
    WLToolsError,
)
from wltools.graphs import (
    NAMED_GRAPHS,
    check_simple,
    load_graph,
    load_graphs,
    named_graph,
    parse_graph6,
    permute_graph,
    relabel_consecutive,
    validate_graph,
)


def _random_graph(rng: random.Random, n_max: int = 14) -> nx.Graph:
    n = rng.randint(1, n_max)
    return nx.gnp_random_graph(n, rng.random(), seed=rng.randrange(2**32))


def _edges(G: nx.Graph) -> set[frozenset]:
    return {frozenset(e) for e in G.edges()}


def _srg_parameters(G: nx.Graph) -> tuple[int, int, int, int] | None:
    """(n, k, lambda, mu) when G is strongly regular, else None (computed from the definition)."""
    degrees = {d for _, d in G.degree()}
    if len(degrees) != 1:
        return None
    lam, mu = set(), set()
    nodes = list(G)
    for i, u in enumerate(nodes):
        for v in nodes[i + 1 :]:
            common = len(set(G[u]) & set(G[v]))
            (lam if G.has_edge(u, v) else mu).add(common)
    if len(lam) > 1 or len(mu) > 1:
        return None
    return (G.number_of_nodes(), degrees.pop(), lam.pop(), mu.pop())


# ----------------------------------------------------------------------------- named graphs

# name: (n, m, degree if regular else None, girth, diameter) -- textbook facts of each graph.
NAMED_FACTS = {
    "petersen": (10, 15, 3, 5, 2),
    "dodecahedral": (20, 30, 3, 5, 5),
    "desargues": (20, 30, 3, 6, 5),
    "heawood": (14, 21, 3, 6, 3),
    "cubical": (8, 12, 3, 4, 3),
    "shrikhande": (16, 48, 6, 3, 2),
    "rook4x4": (16, 48, 6, 3, 2),
    "decalin": (10, 11, None, 6, 5),
    "bicyclopentyl": (10, 11, None, 5, 5),
    "complete:5": (5, 10, 4, 3, 1),
    "cycle:7": (7, 7, 2, 7, 3),
    "path:4": (4, 3, None, float("inf"), 3),
    "triangle": (3, 3, 2, 3, 1),
    "tailed-triangle": (4, 4, None, 3, 2),
    "star:3": (4, 3, None, float("inf"), 2),
    "chordal:4": (4, 5, None, 3, 2),
}


def test_every_named_graph_has_facts():
    fixed = {k for k, v in NAMED_GRAPHS.items() if not v.sized}
    sized = {k for k, v in NAMED_GRAPHS.items() if v.sized}
    assert fixed <= set(NAMED_FACTS)
    assert sized == {name.split(":")[0] for name in NAMED_FACTS if ":" in name}


@pytest.mark.parametrize("name", sorted(NAMED_FACTS))
def test_named_graph_invariants(name):
    n, m, degree, girth, diameter = NAMED_FACTS[name]
    G = named_graph(name)
    assert type(G) is nx.Graph
    assert sorted(G.nodes) == list(range(n))
    assert G.number_of_edges() == m
    assert nx.number_of_selfloops(G) == 0
    degrees = {d for _, d in G.degree()}
    assert (degrees == {degree}) if degree is not None else len(degrees) > 1
    assert nx.girth(G) == girth
    assert nx.diameter(G) == diameter
    assert G.graph["name"] == name
    # load_graph resolves the same name to the same graph
    assert _edges(load_graph(name)) == _edges(G)


def test_shrikhande_and_rook_are_srg_16_6_2_2_and_not_isomorphic():
    S, R = named_graph("shrikhande"), named_graph("rook4x4")
    assert _srg_parameters(S) == (16, 6, 2, 2)
    assert _srg_parameters(R) == (16, 6, 2, 2)
    # The classical difference: every neighbourhood of Shrikhande's graph is a 6-cycle, every
    # neighbourhood of the rook's graph is two disjoint triangles.
    for v in S:
        local = S.subgraph(S[v])
        assert nx.is_isomorphic(local, nx.cycle_graph(6))
    for v in R:
        local = R.subgraph(R[v])
        two_triangles = nx.disjoint_union(nx.complete_graph(3), nx.complete_graph(3))
        assert nx.is_isomorphic(local, two_triangles)
    assert not nx.is_isomorphic(S, R)


def test_shrikhande_is_the_cayley_graph_on_z4_z4():
    S = named_graph("shrikhande")
    connection = {(1, 0), (3, 0), (0, 1), (0, 3), (1, 1), (3, 3)}
    for u in range(16):
        for v in range(16):
            diff = ((v // 4 - u // 4) % 4, (v % 4 - u % 4) % 4)
            assert S.has_edge(u, v) == (diff in connection)


def test_rook_is_k4_box_k4():
    assert nx.is_isomorphic(
        named_graph("rook4x4"), nx.cartesian_product(nx.complete_graph(4), nx.complete_graph(4))
    )


def test_decalin_and_bicyclopentyl():
    D, B = named_graph("decalin"), named_graph("bicyclopentyl")
    for G in (D, B):
        assert (G.number_of_nodes(), G.number_of_edges()) == (10, 11)
        # two adjacent degree-3 carbons, all others degree 2 (same degree multiset)
        hubs = [v for v, d in G.degree() if d == 3]
        assert len(hubs) == 2 and G.has_edge(*hubs)
        assert sorted(d for _, d in G.degree()) == [2] * 8 + [3] * 2
    assert sorted(len(c) for c in nx.minimum_cycle_basis(D)) == [6, 6]
    assert sorted(len(c) for c in nx.minimum_cycle_basis(B)) == [5, 5]
    assert not nx.is_isomorphic(D, B)


def test_union_two_triangles_vs_c6():
    T = load_graph("cycle:3+cycle:3")
    assert sorted(T.nodes) == list(range(6))
    assert nx.number_connected_components(T) == 2
    assert {d for _, d in T.degree()} == {2}
    assert not nx.is_isomorphic(T, load_graph("cycle:6"))
    U = load_graph(" petersen + A_ + path:1 ")
    assert (U.number_of_nodes(), U.number_of_edges()) == (13, 16)


@pytest.mark.parametrize(
    "spec, error",
    [
        ("cycle", GraphFormatError),
        ("cycle:2", GraphFormatError),
        ("cycle:x", GraphFormatError),
        ("complete:0", GraphFormatError),
        ("complete:100000", GraphFormatError),
        ("petersen:3", GraphFormatError),
        ("nosuchgraph", UnknownNameError),
        ("nosuchgraph:5", UnknownNameError),
        ("cycle:3+", GraphFormatError),
        ("cycle:3+nosuchgraph", UnknownNameError),
    ],
)
def test_bad_names(spec, error):
    with pytest.raises(error) as info:
        load_graph(spec)
    assert "\n" not in str(info.value)


# ----------------------------------------------------------------------------- graph6 / sparse6


def test_graph6_and_sparse6_round_trip():
    rng = random.Random(20240601)
    for _ in range(60):
        G = _random_graph(rng)
        g6 = nx.to_graph6_bytes(G, header=False).strip()
        s6 = nx.to_sparse6_bytes(G, header=False).strip()
        for text in (g6, g6.decode(), b">>graph6<<" + g6, s6, s6.decode(), b">>sparse6<<" + s6):
            H = parse_graph6(text)
            assert sorted(H.nodes) == list(range(G.number_of_nodes()))
            assert _edges(H) == _edges(G)
        assert _edges(load_graph(g6.decode())) == _edges(G)
        assert _edges(load_graph(s6.decode())) == _edges(G)


@pytest.mark.parametrize(
    "text, error",
    [
        ("ICZJvZsN", GraphFormatError),  # truncated (petersen-sized header, too few bits)
        ("A", GraphFormatError),
        ("", GraphFormatError),
        (">>graph6<<", GraphFormatError),
        ("A_ A_", GraphFormatError),  # two graphs
        ("é", GraphFormatError),
        (":", GraphFormatError),
        ("?", UnsupportedGraphError),  # zero nodes
        (":A_", UnsupportedGraphError),  # sparse6 with parallel edges
        ("&B?", UnsupportedGraphError),  # digraph6
    ],
)
def test_parse_graph6_bad(text, error):
    with pytest.raises(error) as info:
        parse_graph6(text)
    assert "\n" not in str(info.value)


def test_sparse6_self_loop_rejected():
    s6 = nx.to_sparse6_bytes(nx.Graph([(0, 1), (2, 2)]), header=False).strip()
    with pytest.raises(UnsupportedGraphError, match="self-loop"):
        parse_graph6(s6)


# ----------------------------------------------------------------------------- files


@pytest.fixture
def graphs3():
    rng = random.Random(7)
    return [_random_graph(rng, 9) for _ in range(3)]


def test_graph6_file_with_header_blank_lines_and_sparse6(tmp_path, graphs3):
    lines = [b">>graph6<<" + nx.to_graph6_bytes(graphs3[0], header=False).strip(), b"", b"  "]
    lines.append(nx.to_sparse6_bytes(graphs3[1], header=False).strip())
    lines.append(nx.to_graph6_bytes(graphs3[2], header=False).strip())
    for suffix in (".g6", ".s6", ".dat"):
        path = tmp_path / f"many{suffix}"
        path.write_bytes(b"\n".join(lines) + b"\n")
        got = load_graphs(path)
        assert [_edges(G) for G in got] == [_edges(G) for G in graphs3]
        # one graph from a multi-graph file: an error, unless selected by FILE:INDEX (0-based)
        with pytest.raises(GraphFormatError, match="holds 3 graphs"):
            load_graph(str(path))
        assert _edges(load_graph(f"{path}:2")) == _edges(graphs3[2])
        with pytest.raises(GraphFormatError, match="out of range"):
            load_graph(f"{path}:3")


def test_graph6_file_names_bad_line(tmp_path):
    path = tmp_path / "bad.g6"
    path.write_text("A_\nICZJvZsN\n")
    with pytest.raises(GraphFormatError, match="line 2"):
        load_graphs(path)


def test_single_graph_files_every_format(tmp_path):
    G = nx.petersen_graph()
    expected = _edges(G)
    (tmp_path / "p.g6").write_bytes(nx.to_graph6_bytes(G))
    (tmp_path / "p.s6").write_bytes(nx.to_sparse6_bytes(G))
    nx.write_graphml(G, tmp_path / "p.graphml")
    (tmp_path / "p.json").write_text(json.dumps(nx.node_link_data(G, edges="edges")))
    (tmp_path / "p_links.json").write_text(json.dumps(nx.node_link_data(G, edges="links")))
    (tmp_path / "p.edgelist").write_text(
        "# petersen\n" + "\n".join(f"{u} {v} 1.0" for u, v in G.edges()) + "\n"
    )
    for name in ("p.g6", "p.s6", "p.graphml", "p.json", "p_links.json", "p.edgelist"):
        path = tmp_path / name
        H = load_graph(str(path))
        assert _edges(H) == expected, name
        assert H.graph["name"] == str(path)
        assert _edges(load_graph(path)) == expected  # PathLike
        # the same content under a suffix that says nothing is sniffed
        other = tmp_path / (name.replace(".", "_") + ".txt")
        other.write_bytes(path.read_bytes())
        assert _edges(load_graph(str(other))) == expected, f"sniffing {name}"


def test_relabelling_is_deterministic_and_natural(tmp_path):
    # GraphML ids n0..n10 order naturally (n2 before n10), whatever the file order
    G = nx.Graph()
    G.add_nodes_from([f"n{i}" for i in (10, 3, 0, 2, 1, 4, 5, 6, 7, 8, 9)])
    G.add_edges_from((f"n{i}", f"n{i + 1}") for i in range(10))
    nx.write_graphml(G, tmp_path / "path.graphml")
    H = load_graph(str(tmp_path / "path.graphml"))
    assert _edges(H) == _edges(nx.path_graph(11))
    # edge list with integer labels in shuffled order and an isolated node on its own line
    rng = random.Random(3)
    edges = [(i, i + 1) for i in range(11)]
    rng.shuffle(edges)
    (tmp_path / "e.txt").write_text("\n".join(f"{v} {u}" for u, v in edges) + "\n20\n")
    H = load_graph(str(tmp_path / "e.txt"))
    assert _edges(H) == _edges(nx.path_graph(12))
    assert H.number_of_nodes() == 13 and H.degree(12) == 0
    # validate_graph: any node labels, always 0..n-1, sorted edges, same result twice
    K = nx.Graph([("b", "a"), ("c", "b"), (5, "a")])
    V1, V2 = validate_graph(K), validate_graph(nx.Graph(list(reversed(list(K.edges())))))
    assert list(V1.edges()) == list(V2.edges())
    assert sorted(V1.nodes) == [0, 1, 2, 3]


def _write(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return str(path)


# name, content, error, text the message must contain
BAD_FILES = [
    ("bad.g6", "ICZJvZsN\n", GraphFormatError, "malformed graph6"),
    ("directed.graphml", DIRECTED_GRAPHML, UnsupportedGraphError, "directed"),
    ("empty_graph.graphml", EMPTY_GRAPHML, UnsupportedGraphError, "no nodes"),
    ("broken.graphml", "<graphml><graph", GraphFormatError, "GraphML"),
    ("multi.graphml", MULTI_GRAPHML, UnsupportedGraphError, "parallel edges"),
    ("directed.json", json.dumps({"directed": True, "nodes": [{"id": 0}], "edges": []}),
     UnsupportedGraphError, "directed"),
    ("nonodes.json", json.dumps({"directed": False, "nodes": [], "edges": []}),
     UnsupportedGraphError, "no nodes"),
    ("broken.json", '{"nodes": [', GraphFormatError, "JSON"),
    ("notnodelink.json", "[1, 2, 3]", GraphFormatError, "node-link"),
    ("dangling.json", json.dumps({"nodes": [{"id": 0}], "edges": [{"source": 0}]}),
     GraphFormatError, "node-link"),
    ("loop.edgelist", "0 1\n1 1\n", UnsupportedGraphError, "self-loop"),
    ("multi.edgelist", "0 1\n1 2\n2 1\n", UnsupportedGraphError, "parallel edges"),
    ("empty.txt", "", GraphFormatError, "empty"),
    ("blank.g6", "\n \n", GraphFormatError, "empty"),
    ("headeronly.g6", ">>graph6<<\n", GraphFormatError, "no graph"),
    ("zero.g6", "?\n", UnsupportedGraphError, "no nodes"),
    ("digraph.d6", "&B?\n", UnsupportedGraphError, "directed"),
    ("binary.edgelist", b"\xff\xfe\x00\x01", GraphFormatError, "text"),
]


@pytest.mark.parametrize("name, content, error, needle", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_files(tmp_path, name, content, error, needle):
    path = _write(tmp_path, name, content)
    with pytest.raises(error) as info:
        load_graph(path)
    message = str(info.value)
    assert needle in message
    assert "\n" not in message
    assert name in message  # the message names the input


@pytest.mark.parametrize(
    "spec, error",
    [
        ("does/not/exist.g6", GraphFormatError),
        ("missing.graphml", GraphFormatError),
        ("no_such_graph", UnknownNameError),
        ("ICZJvZsN", GraphFormatError),
        ("", GraphFormatError),
        ("two words", GraphFormatError),
        ("A" * 5000, GraphFormatError),  # too long to be a path: still one clean error
    ],
)
def test_bad_specs(spec, error):
    with pytest.raises(error) as info:
        load_graph(spec)
    assert "\n" not in str(info.value)
    assert len(str(info.value)) < 400


def test_directory_and_unknown_format(tmp_path):
    with pytest.raises(GraphFormatError, match="directory"):
        load_graph(str(tmp_path))
    path = _write(tmp_path, "x.g6", "A_\n")
    with pytest.raises(GraphFormatError, match="format"):
        load_graphs(path, fmt="pajek")


def test_validate_graph_rejects_unsupported():
    with pytest.raises(UnsupportedGraphError, match="directed"):
        validate_graph(nx.DiGraph([(0, 1)]))
    with pytest.raises(UnsupportedGraphError, match="parallel"):
        validate_graph(nx.MultiGraph([(0, 1), (1, 0)]))
    with pytest.raises(UnsupportedGraphError, match="self-loop"):
        validate_graph(nx.Graph([(0, 0)]))
    with pytest.raises(UnsupportedGraphError, match="no nodes"):
        validate_graph(nx.Graph())
    with pytest.raises(GraphFormatError):
        validate_graph([(0, 1)])
    # a MultiGraph without parallel edges is fine
    assert _edges(validate_graph(nx.MultiGraph([(0, 1), (1, 2)]))) == _edges(nx.path_graph(3))
    # every error is a WLToolsError, so the CLI reports it in one line
    assert issubclass(UnsupportedGraphError, WLToolsError)


def test_docstring_examples_run():
    import doctest

    import wltools.graphs

    result = doctest.testmod(wltools.graphs)
    assert result.attempted > 0 and result.failed == 0


# ----------------------------------------------------------------------------- check_simple


def _looped() -> nx.Graph:
    G = nx.path_graph(3)
    G.add_edge(1, 1)
    G.add_edge(2, 2)
    return G


@pytest.mark.parametrize(
    "G, message",
    [
        (nx.DiGraph([(0, 1)]), "pair 3 G is directed"),
        (nx.MultiDiGraph([(0, 1)]), "pair 3 G is directed"),
        (nx.MultiGraph([(0, 1)]), "pair 3 G is a multigraph"),
        (_looped(), "pair 3 G has 2 self-loop(s)"),
        (nx.relabel_nodes(_looped(), {0: 5}), "pair 3 G has 2 self-loop(s)"),  # loops before labels
        (nx.Graph([(1, 2)]), "pair 3 G does not have nodes 0..n-1"),
        (nx.Graph(), "pair 3 G is empty"),
    ],
)
def test_check_simple_reports_the_first_failing_condition(G, message):
    with pytest.raises(DataIntegrityError) as info:
        check_simple(G, "pair 3 G")
    assert str(info.value) == message


def test_check_simple_accepts_simple_graphs_and_takes_an_error_type():
    for G in (nx.path_graph(1), nx.petersen_graph(), nx.empty_graph(4)):
        check_simple(G)
    with pytest.raises(UnsupportedGraphError, match="^graph is a multigraph$"):
        check_simple(nx.MultiGraph([(0, 1)]), error=UnsupportedGraphError)
    check_simple(nx.Graph(), allow_empty=True)
    with pytest.raises(DataIntegrityError, match="^graph is empty$"):
        check_simple(nx.Graph())


# ----------------------------------------------------------------------------- relabelling


def test_permute_graph_orders_nodes_and_edges():
    G = nx.Graph()
    G.add_nodes_from([3, 0, 2, 1], colour="red")
    G.add_edges_from([(3, 1), (0, 2), (2, 1)], weight=2)
    H = permute_graph(G, [3, 2, 1, 0])
    assert list(H.nodes) == [0, 1, 2, 3]
    assert [tuple(sorted(e)) for e in H.edges] == [(0, 2), (1, 2), (1, 3)]
    assert list(H.edges(data=True)) == [(0, 2, {}), (1, 2, {}), (1, 3, {})]
    assert H.nodes[0] == {} and type(H) is nx.Graph
    assert nx.utils.graphs_equal(H, nx.relabel_nodes(nx.Graph(G.edges), {0: 3, 1: 2, 2: 1, 3: 0}))
    # a mapping works like a sequence; numpy integers become ints
    M = permute_graph(G, {0: 3, 1: 2, 2: 1, 3: 0})
    assert list(M.edges) == list(H.edges)
    import numpy as np

    assert all(type(v) is int for e in permute_graph(G, np.array([3, 2, 1, 0])).edges for v in e)


def test_relabel_consecutive_is_validate_graphs_relabelling():
    G = nx.Graph([("n10", "n2"), ("n2", 7), ("a", "n10")])
    H = relabel_consecutive(G)
    # 7 first (integers), then strings in natural order: a, n2, n10
    assert list(H.nodes) == [0, 1, 2, 3]
    assert sorted(H.edges) == [(0, 2), (1, 3), (2, 3)]
    assert list(validate_graph(G).edges) == list(H.edges)
    P = nx.path_graph(4)
    assert list(relabel_consecutive(P).edges) == list(P.edges)


# ----------------------------------------------------------------------------- sizes before allocation

import time  # noqa: E402

from wltools.errors import ResourceLimitError  # noqa: E402
from wltools.graphs import load_bytes, parse_graph6  # noqa: E402


def _sparse6_header(n: int) -> bytes:
    """sparse6 with order ``n`` (formats.txt: N(n)) and one body character."""
    if n <= 62:
        head = bytes([n + 63])
    elif n <= 258047:
        head = b"~" + bytes(((n >> s) & 63) + 63 for s in (12, 6, 0))
    else:
        head = b"~~" + bytes(((n >> s) & 63) + 63 for s in (30, 24, 18, 12, 6, 0))
    return b":" + head + b"A"


def test_sparse6_header_claiming_2_30_nodes_is_refused_at_once():
    t0 = time.perf_counter()
    with pytest.raises(ResourceLimitError, match="1,073,741,824 nodes"):
        parse_graph6(_sparse6_header(2**30))
    assert time.perf_counter() - t0 < 1.0  # refused from the header: nothing built


def test_sparse6_order_over_an_explicit_budget_is_refused():
    with pytest.raises(ResourceLimitError, match="--max-memory is 1 MiB"):
        parse_graph6(_sparse6_header(100_000), max_memory=2**20)
    assert parse_graph6(":D").number_of_nodes() == 5  # five isolated nodes


def test_graph6_body_must_match_its_header():
    with pytest.raises(GraphFormatError, match="header says 63 nodes"):
        parse_graph6("~??~")
    with pytest.raises(GraphFormatError, match="cut off"):
        parse_graph6("~~??")


def test_named_graphs_and_unions_are_checked_before_they_are_built():
    with pytest.raises(ResourceLimitError, match="complete:1000"):
        load_graph("complete:1000", max_memory=50 * 2**20)
    with pytest.raises(ResourceLimitError, match="union"):
        load_graph("cycle:90000+cycle:90000", max_memory=150 * 2**20)
    assert load_graph("cycle:6", max_memory=2**20).number_of_nodes() == 6
    assert load_bytes(1000, 499_500) > 300 * 2**20


def test_files_are_checked_against_the_budget(tmp_path):
    el = _write(tmp_path, "big.edgelist", "".join(f"{i} {i + 1}\n" for i in range(2000)))
    with pytest.raises(ResourceLimitError):
        load_graph(el, max_memory=2**20)
    js = _write(tmp_path, "big.json", json.dumps({"nodes": [{"id": i} for i in range(3000)], "edges": []}))
    with pytest.raises(ResourceLimitError):
        load_graph(js, max_memory=2**20)


NODE_LINK_BAD = [
    ("unknown-target", {"nodes": [{"id": 0}, {"id": 1}], "edges": [{"source": 0, "target": 7}]},
     GraphFormatError, "target 7, which is not in 'nodes'"),
    ("unknown-source-links", {"nodes": [{"id": "a"}], "links": [{"source": "z", "target": "a"}]},
     GraphFormatError, "source \"z\""),
    ("directed-string", {"directed": "false", "nodes": [{"id": 0}], "edges": []},
     GraphFormatError, "'directed' must be true or false"),
    ("multigraph-number", {"multigraph": 0, "nodes": [{"id": 0}], "edges": []},
     GraphFormatError, "'multigraph' must be true or false"),
    ("node-without-id", {"nodes": [{"name": 0}], "edges": []}, GraphFormatError, "no 'id'"),
    ("edge-without-target", {"nodes": [{"id": 0}], "edges": [{"source": 0}]},
     GraphFormatError, "needs a 'source' and a 'target'"),
    ("no-edges-key", {"nodes": [{"id": 0}]}, GraphFormatError, "no 'edges' list"),
    ("no-nodes-key", {"edges": []}, GraphFormatError, "no 'nodes' list"),
    ("both-keys", {"nodes": [{"id": 0}], "edges": [], "links": []}, GraphFormatError, "both"),
    ("duplicate-id", {"nodes": [{"id": 0}, {"id": 0}], "edges": []}, GraphFormatError, "listed twice"),
    ("list-id", {"nodes": [{"id": [1]}], "edges": []}, GraphFormatError, "strings or numbers"),
    ("repeated-edge", {"nodes": [{"id": 0}, {"id": 1}],
                       "edges": [{"source": 0, "target": 1}, {"source": 1, "target": 0}]},
     UnsupportedGraphError, "parallel edges"),
]


@pytest.mark.parametrize("case", NODE_LINK_BAD, ids=[c[0] for c in NODE_LINK_BAD])
def test_node_link_json_is_checked(tmp_path, case):
    name, obj, error, needle = case
    path = _write(tmp_path, f"{name}.json", json.dumps(obj))
    with pytest.raises(error) as info:
        load_graph(path)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_node_link_json_good_forms(tmp_path):
    obj = {"directed": False, "multigraph": False, "graph": {},
           "nodes": [{"id": "a"}, {"id": "b"}, {"id": 3}], "links": [{"source": "a", "target": 3}]}
    G = load_graph(_write(tmp_path, "ok.json", json.dumps(obj)))
    assert (G.number_of_nodes(), G.number_of_edges()) == (3, 1)
