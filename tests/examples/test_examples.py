"""Tests of the example models in examples/ (a researcher's GIN, GIN + RRWP, GIN over heat
kernels and a node-marking DS-GNN): shape and finiteness on BREC-style graphs, invariance to node
relabelling, reset determinism, the 1-WL bound of the GIN, that RRWP lifts it on a 1-WL-equivalent
pair, the EPWL bound of the heat-kernel GIN and the SWL(VS) bound of the DS-GNN."""

import importlib.util
from pathlib import Path

import networkx as nx
import pytest
import torch
from torch_geometric.data import Batch

from brec_runner.runs.dataset import to_pyg
from wltools.graphs import load_graph
from wltools.models.encodings import AddRRWP

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name: str):
    """The example module ``examples/NAME.py``, imported by file path (examples is no package)."""
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GIN = _load("gin")
GIN_RRWP = _load("gin_rrwp")
GIN_HEAT = _load("gin_heat")
DS_GIN = _load("ds_gin")
FACTORIES = {"gin": GIN.gin, "gin_rrwp": GIN_RRWP.gin_rrwp, "gin_heat": GIN_HEAT.gin_heat, "ds_gin": DS_GIN.ds_gin}


@pytest.fixture(autouse=True)
def _one_thread():
    """Tiny tensors: one intra-op thread is faster than several competing for shared cores."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def _two_triangles() -> nx.Graph:
    return nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))


def _graphs() -> list[nx.Graph]:
    # sizes differ, one is disconnected, one has an isolated node
    return [nx.lollipop_graph(4, 3), load_graph("decalin"), _two_triangles(),
            nx.disjoint_union(nx.path_graph(4), nx.empty_graph(1))]


def _relabel(G: nx.Graph, seed: int) -> nx.Graph:
    perm = torch.randperm(G.number_of_nodes(), generator=torch.Generator().manual_seed(seed)).tolist()
    return nx.relabel_nodes(G, dict(enumerate(perm)))


def _batch(name: str, graphs, keep_x: bool = False) -> Batch:
    """BREC graphs as the runner builds them (to_pyg, then the factory's transform), without ``x``
    unless ``keep_x``: the models must not read node features."""
    datas = []
    for G in graphs:
        d = to_pyg(G)  # nodes 0..n-1
        if not keep_x:
            del d.x
        transform = getattr(FACTORIES[name], "transform", None)
        datas.append(transform(d) if transform is not None else d)
    return Batch.from_data_list(datas)


def _model(name: str, seed: int = 0, **options):
    torch.manual_seed(seed)
    return FACTORIES[name](**options).double().eval()


def test_factories_declare_their_bound_and_transform():
    assert GIN.gin.wl_bound == "1wl" and not hasattr(GIN.gin, "transform")
    assert GIN_RRWP.gin_rrwp.wl_bound == "rrwp"
    assert GIN_RRWP.gin_rrwp.transform is GIN_RRWP.transform
    assert repr(GIN_RRWP.transform) == f"AddRRWP(walk_length={GIN_RRWP.WALK_LENGTH}, attr_name='rrwp', dtype=torch.float32)"
    assert isinstance(GIN_RRWP.transform, AddRRWP)


@pytest.mark.parametrize("name", FACTORIES)
def test_output_shape_finite_and_independent_of_x(name):
    m = _model(name)
    graphs = _graphs()
    with torch.no_grad():
        out = m(_batch(name, graphs))
        with_x = m(_batch(name, graphs, keep_x=True))
    assert out.shape == (len(graphs), 16) and out.dtype == torch.float64
    assert torch.isfinite(out).all()
    assert torch.equal(out, with_x)
    assert _model(name, out_dim=5)(_batch(name, graphs)).shape == (len(graphs), 5)


@pytest.mark.parametrize("name", FACTORIES)
def test_invariant_to_node_relabelling(name):
    m = _model(name)
    graphs = _graphs()
    with torch.no_grad():
        plain = _batch(name, graphs)
        ref = m(plain)
        for seed in (1, 2, 3):
            relabelled = _batch(name, [_relabel(G, seed + 10 * k) for k, G in enumerate(graphs)])
            assert not torch.equal(relabelled.edge_index, plain.edge_index)
            moved = m(relabelled)
            assert torch.allclose(moved, ref, atol=1e-5, rtol=0), (moved - ref).abs().max()
    assert not torch.allclose(ref[0], ref[1], atol=1e-5)  # and not constant: the test could fail


@pytest.mark.parametrize("name", FACTORIES)
def test_reset_parameters_reinitialises_every_parameter(name):
    m = FACTORIES[name]()
    torch.manual_seed(7)
    m.reset_parameters()
    state = {k: v.clone() for k, v in m.state_dict().items()}
    with torch.no_grad():
        for p in m.parameters():  # the GIN epsilons included
            p.add_(0.5)
    torch.manual_seed(7)
    m.reset_parameters()
    for k, v in m.state_dict().items():
        assert torch.equal(v, state[k]), k
    torch.manual_seed(8)
    m.reset_parameters()
    assert any(not torch.equal(v, state[k]) for k, v in m.state_dict().items())


@pytest.mark.parametrize("name", FACTORIES)
def test_every_parameter_gets_a_gradient(name):
    m = _model(name).train()
    out = m(_batch(name, _graphs()))
    out.mul(torch.randn(out.shape, generator=torch.Generator().manual_seed(0), dtype=out.dtype)).sum().backward()
    for n, p in m.named_parameters():
        assert p.grad is not None and torch.isfinite(p.grad).all() and p.grad.abs().max() > 0, n


@pytest.mark.parametrize("pair", [("cycle:6", "two_triangles"), ("decalin", "bicyclopentyl")])
def test_gin_equal_on_1wl_equivalent_graphs_rrwp_separates(pair):
    """C6 / 2 x C3 and decalin / bicyclopentyl are non-isomorphic but 1-WL-equivalent: the GIN (its
    bound is 1-WL) gives them the same embedding, up to the order of floating-point sums, for any
    parameters; GIN + RRWP does not."""
    G, H = (_two_triangles() if p == "two_triangles" else load_graph(p) for p in pair)
    assert not nx.is_isomorphic(G, H)
    for seed in (0, 1):
        with torch.no_grad():
            out = _model("gin", seed)(_batch("gin", [G, H]))
            assert torch.allclose(out[0], out[1], atol=1e-10, rtol=0)
            rrwp = _model("gin_rrwp", seed)(_batch("gin_rrwp", [G, H]))
            assert not torch.allclose(rrwp[0], rrwp[1], atol=1e-4)
    with torch.no_grad():  # a pair 1-WL tells apart gets different GIN embeddings
        out = _model("gin")(_batch("gin", [nx.cycle_graph(6), nx.path_graph(6)]))
    assert not torch.allclose(out[0], out[1], atol=1e-4)


def test_gin_rrwp_checks_the_walk_length():
    m = _model("gin_rrwp")
    d = AddRRWP(GIN_RRWP.WALK_LENGTH - 1)(to_pyg(nx.cycle_graph(5)))
    with pytest.raises(ValueError, match="channels"):
        m(Batch.from_data_list([d]))


def test_gin_rrwp_reads_the_rrwp_rows_of_nodes_and_edges():
    """Node features are the diagonal rows p_vv, the message u -> v carries p_vu (module docstring)."""
    graphs = [nx.path_graph(3), nx.cycle_graph(4)]  # the path: p_uv != p_vu on its edges
    b = _batch("gin_rrwp", graphs)
    p_node, p_edge = GIN_RRWP.rrwp_node_and_edge_features(b)
    expected_nodes, expected_edges = [], []
    for G in graphs:
        n = G.number_of_nodes()
        dense = GIN_RRWP.transform(to_pyg(G)).rrwp.view(n, n, -1)  # [n, n, K], p_ij
        expected_nodes.append(dense.diagonal().T)  # [n, K]
        u, v = to_pyg(G).edge_index  # Batch keeps each graph's edge order
        expected_edges.append(dense[v, u])  # [E, K]
    assert torch.equal(p_node, torch.cat(expected_nodes))
    assert torch.equal(p_edge, torch.cat(expected_edges))


def test_gin_heat_declares_epwl_lap_and_its_kernels_are_expm():
    """The transform's eigendecomposition path against scipy's basis-free matrix exponential."""
    import numpy as np
    from scipy.linalg import expm

    assert GIN_HEAT.gin_heat.wl_bound == "epwl-lap" and GIN_HEAT.gin_heat.transform is GIN_HEAT.transform
    G = nx.disjoint_union(nx.petersen_graph(), nx.path_graph(3))  # repeated eigenvalues, two components
    d = GIN_HEAT.transform(to_pyg(G))
    n = G.number_of_nodes()
    L = nx.laplacian_matrix(G, nodelist=range(n)).toarray().astype(float)
    heat = d.heat.double().reshape(n, n, -1)
    for c, t in enumerate(GIN_HEAT.TIMES):
        assert np.abs(heat[:, :, c].numpy() - expm(-t * L)).max() < 1e-6
    assert torch.equal(d.pair_index[:, 5 * n + 7], torch.tensor([5, 7]))
    with pytest.raises(ValueError, match="non-negative"):
        GIN_HEAT.AddHeatKernel(times=(-1.0,))


def test_gin_heat_is_bounded_by_epwl_and_goes_beyond_1wl():
    """Shrikhande / 4x4 rook's graph: cospectral strongly regular graphs that EPWL-L does not
    separate, so the heat-kernel GIN gives them equal embeddings for any parameters; decalin /
    bicyclopentyl (1-WL-equivalent, EPWL-L separates them) get different ones."""
    from wltools.refine import refine_pair

    same = (load_graph("shrikhande"), load_graph("rook4x4"))
    apart = (load_graph("decalin"), load_graph("bicyclopentyl"))
    assert not refine_pair(*same, "epwl-lap").distinguished and refine_pair(*apart, "epwl-lap").distinguished
    for seed in (0, 1):
        with torch.no_grad():
            out = _model("gin_heat", seed)(_batch("gin_heat", list(same)))
            assert torch.allclose(out[0], out[1], atol=1e-4, rtol=1e-6), (out[0] - out[1]).abs().max()
            out = _model("gin_heat", seed)(_batch("gin_heat", list(apart)))
            assert not torch.allclose(out[0], out[1], atol=1e-3)


def test_ds_gin_bag_is_one_marked_copy_of_the_graph_per_node():
    """The bag built with index arithmetic against networkx: for every root u, a copy of u's graph
    whose pair nodes (u, v) are joined exactly where v's are, and nothing across roots or graphs."""
    graphs = _graphs()
    b = _batch("ds_gin", graphs)
    root, node, pair_edges, pair_graph = DS_GIN.node_marked_bag(b.edge_index, b.batch, b.num_graphs)
    pairs = list(zip(root.tolist(), node.tolist()))
    expected_pairs, expected_edges, start = [], set(), 0
    for G in graphs:
        n = G.number_of_nodes()
        for u in range(start, start + n):
            expected_pairs += [(u, v) for v in range(start, start + n)]
            expected_edges |= {((u, start + a), (u, start + c)) for a, c in G.edges}
            expected_edges |= {((u, start + c), (u, start + a)) for a, c in G.edges}
        start += n
    assert pairs == expected_pairs
    got = {(pairs[i], pairs[j]) for i, j in pair_edges.T.tolist()}
    assert got == expected_edges and pair_edges.shape[1] == len(expected_edges)
    assert torch.equal(pair_graph, b.batch[root])


def test_ds_gin_is_bounded_by_swl_vs_and_goes_beyond_1wl():
    """Shrikhande / 4x4 rook's graph: strongly regular with equal parameters, which SWL(VS) (below
    3-WL) does not separate, so the DS-GNN gives them equal embeddings for any parameters;
    C6 / 2 x C3 and decalin / bicyclopentyl (1-WL-equivalent, SWL(VS) separates them) get different
    ones."""
    from wltools.refine import refine_pair

    same = (load_graph("shrikhande"), load_graph("rook4x4"))
    assert not refine_pair(*same, "swl-vs").distinguished
    apart = [(nx.cycle_graph(6), _two_triangles()), (load_graph("decalin"), load_graph("bicyclopentyl"))]
    for G, H in apart:
        assert refine_pair(G, H, "swl-vs").distinguished and not refine_pair(G, H, "1wl").distinguished
    assert DS_GIN.ds_gin.wl_bound == "swl-vs"
    for seed in (0, 1):
        with torch.no_grad():
            out = _model("ds_gin", seed)(_batch("ds_gin", list(same)))
            assert torch.allclose(out[0], out[1], atol=1e-9, rtol=0), (out[0] - out[1]).abs().max()
            for G, H in apart:
                out = _model("ds_gin", seed)(_batch("ds_gin", [G, H]))
                assert not torch.allclose(out[0], out[1], atol=1e-4)
