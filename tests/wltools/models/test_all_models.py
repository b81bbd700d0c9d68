"""One parametrised test file over every registered model (timm style): the shared interface.

Covers whatever :func:`wltools.models.list_models` returns when the tests are collected, so a new
model file is tested without an edit here. Each model must declare the class attribute
``invariant_encodings`` (True when every encoding it uses is a function of the graph, so its graph
embedding is invariant to node relabelling; False e.g. for Laplacian-eigenvector PE, whose
eigenvector signs and bases depend on the labelling; that model tests its own behaviour).
"""

import networkx as nx
import pytest
import torch
from torch_geometric.data import Batch, Data

from wltools.models import create_model, create_transform, list_models, transform_key
from wltools.models.registry import _spec

MODELS = list_models()


def _data(G: nx.Graph) -> Data:
    n = G.number_of_nodes()
    e = torch.tensor(sorted(G.edges()), dtype=torch.long).reshape(-1, 2).T
    return Data(x=torch.ones(n, 1), edge_index=torch.cat([e, e.flip(0)], 1), num_nodes=n)


def _graphs() -> list[nx.Graph]:
    # different sizes (padding), an asymmetric graph, a disconnected one
    return [
        nx.lollipop_graph(4, 3),
        nx.cycle_graph(5),
        nx.disjoint_union(nx.path_graph(3), nx.cycle_graph(3)),
        nx.gnp_random_graph(8, 0.4, seed=3),
    ]


def _relabelled(G: nx.Graph, seed: int) -> nx.Graph:
    perm = torch.randperm(G.number_of_nodes(), generator=torch.Generator().manual_seed(seed))
    return nx.relabel_nodes(G, dict(enumerate(perm.tolist())))


def _batch(name: str, graphs, dtype=torch.float32, device="cpu") -> Batch:
    t = create_transform(name, "small")
    b = Batch.from_data_list([t(_data(G)) for G in graphs])
    for key in b.keys():
        if torch.is_tensor(b[key]) and b[key].is_floating_point():
            b[key] = b[key].to(dtype)
    return b.to(device)


@pytest.fixture(autouse=True)
def _one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def test_models_are_registered():
    assert "ppgt" in MODELS and MODELS == sorted(MODELS)


@pytest.mark.parametrize("name", MODELS)
def test_interface(name):
    spec = _spec(name)
    assert {"brec", "small"} <= set(spec.presets)
    torch.manual_seed(0)
    m = create_model(name, "small")
    assert isinstance(m.config, spec.config_cls)
    assert isinstance(type(m).invariant_encodings, bool), "declare invariant_encodings"
    assert m.num_parameters() == sum(p.numel() for p in m.parameters() if p.requires_grad) > 0
    assert type(m).__name__ in repr(m)
    assert transform_key(name, "small") == repr(create_transform(name, "small"))
    m.eval()
    graphs = _graphs()
    out = m(_batch(name, graphs))
    assert out.shape == (len(graphs), m.config.out_dim)
    assert torch.isfinite(out).all()
    m.train()
    m(_batch(name, graphs)).pow(2).sum().backward()  # trains end to end
    assert any(p.grad is not None and p.grad.abs().sum() > 0 for p in m.parameters())


@pytest.mark.parametrize("name", MODELS)
def test_relabelling_invariance_float64(name):
    torch.manual_seed(0)
    m = create_model(name, "small").double().eval()
    if not type(m).invariant_encodings:
        pytest.skip(f"{name}: encodings depend on the labelling (see its own tests)")
    graphs = _graphs()
    with torch.no_grad():
        ref = m(_batch(name, graphs, torch.float64))
        for seed in (1, 2):
            moved = m(_batch(name, [_relabelled(G, seed + 10 * k) for k, G in enumerate(graphs)],
                             torch.float64))
            assert torch.allclose(moved, ref, atol=1e-6, rtol=0), (moved - ref).abs().max()
    # and the embedding is not constant: the test could fail
    assert (ref[0] - ref[1]).abs().max() > 1e-6


@pytest.mark.parametrize("name", MODELS)
def test_reset_parameters_restores_determinism(name):
    m = create_model(name, "small")
    b = _batch(name, _graphs())
    torch.manual_seed(7)
    m.reset_parameters()
    state = {k: v.clone() for k, v in m.state_dict().items()}
    with torch.no_grad():
        out = m.eval()(b)
    with torch.no_grad():
        for p in m.parameters():
            p.add_(0.5)
    m.train()(b)  # moves batch-norm running statistics too
    torch.manual_seed(7)
    m.reset_parameters()
    for k, v in m.state_dict().items():
        assert torch.equal(v, state[k]), k
    with torch.no_grad():
        assert torch.equal(m.eval()(b), out)
    torch.manual_seed(8)
    m.reset_parameters()
    assert any(not torch.equal(v, state[k]) for k, v in m.state_dict().items())


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
@pytest.mark.parametrize("name", MODELS)
def test_cuda_matches_cpu(name):
    torch.manual_seed(0)
    m = create_model(name, "small").double().eval()
    graphs = _graphs()
    with torch.no_grad():
        cpu = m(_batch(name, graphs, torch.float64))
        gpu = m.cuda()(_batch(name, graphs, torch.float64, "cuda"))
    assert gpu.device.type == "cuda"
    assert torch.allclose(gpu.cpu(), cpu, atol=1e-6)
