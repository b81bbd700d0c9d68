"""Inputs that carry labels (:mod:`wltools.graphs.labels`, :mod:`wltools.graphs.inputs`,
:func:`wltools.graphs.load_graph`): GraphML and node-link attributes chosen by name, PyG ``Data``,
SMILES through RDKit; bad labels give one line; unrequested attributes leave graphs unlabelled."""

import builtins
import json
import math

import networkx as nx
import pytest
import torch
from torch_geometric.data import Data

from wltools.errors import GraphFormatError, UnsupportedGraphError
from wltools.graphs import load_graph, load_graphs, permute_graph, validate_graph
from wltools.iso import is_isomorphic
from wltools.graphs.inputs import from_pyg, from_smiles
from wltools.graphs.labels import is_labelled, pair_labels
from wltools.refine import refine_pair


def _one_line(exc_info):
    text = str(exc_info.value)
    assert text and "\n" not in text
    return text


@pytest.fixture
def graphml(tmp_path):
    """A path a-b-c in GraphML with node attributes ``element`` (string) and ``charge`` (int),
    a node attribute ``label`` nobody asked for, and edge attribute ``order``."""
    G = nx.Graph()
    G.add_node("a", element="C", charge=0, label="ignored")
    G.add_node("b", element="O", charge=-1, label="ignored")
    G.add_node("c", element="C", charge=0, label="ignored")
    G.add_edge("a", "b", order=1)
    G.add_edge("b", "c", order=2)
    path = tmp_path / "mol.graphml"
    nx.write_graphml(G, path)
    return path


def test_graphml_attributes(graphml):
    G = load_graph(str(graphml), node_attr="element", edge_attr="order")
    assert dict(G.nodes(data="label")) == {0: "C", 1: "O", 2: "C"}
    assert sorted(G.edges(data="label")) == [(0, 1, 1), (1, 2, 2)]
    assert not is_labelled(load_graph(str(graphml)))  # the file's own "label" is not taken unasked
    only_nodes = load_graph(str(graphml), node_attr="charge")
    assert dict(only_nodes.nodes(data="label")) == {0: 0, 1: -1, 2: 0} and not any(
        "label" in d for *_, d in only_nodes.edges(data=True))
    with pytest.raises(GraphFormatError) as info:
        load_graph(str(graphml), node_attr="colour")
    assert _one_line(info) == f"{graphml}: no node has attribute 'colour' (node attributes: charge, element, label)"


def test_graphml_missing_on_some_nodes(tmp_path):
    G = nx.path_graph(3)
    G.nodes[0]["x"] = 1
    G.nodes[2]["x"] = 2
    path = tmp_path / "g.graphml"
    nx.write_graphml(G, path)
    with pytest.raises(GraphFormatError) as info:
        load_graph(str(path), node_attr="x")
    assert "node '1' has no attribute 'x', which 2 of the 3 nodes have" in _one_line(info)


def test_graphml_nan_label(tmp_path):
    G = nx.path_graph(2)
    nx.set_node_attributes(G, {0: 1.5, 1: math.nan}, "w")
    path = tmp_path / "g.graphml"
    nx.write_graphml(G, path)
    with pytest.raises(GraphFormatError, match="attribute 'w' of node '1' is NaN"):
        load_graph(str(path), node_attr="w")


def _node_link(tmp_path, nodes, edges, name="g.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"nodes": nodes, "edges": edges}))
    return str(path)


def test_node_link_attributes(tmp_path):
    path = _node_link(tmp_path, [{"id": "x", "f": [1, 0]}, {"id": "y", "f": [0, 1]}, {"id": "z", "f": [1, 0]}],
                      [{"source": "x", "target": "y", "t": "double"}, {"source": "y", "target": "z", "t": "single"}])
    G = load_graph(path, node_attr="f", edge_attr="t")
    assert dict(G.nodes(data="label")) == {0: (1, 0), 1: (0, 1), 2: (1, 0)}
    assert sorted(G.edges(data="label")) == [(0, 1, "double"), (1, 2, "single")]
    assert not is_labelled(load_graph(path))
    assert load_graphs(path, node_attr="f")[0].nodes[1]["label"] == (0, 1)


def test_node_link_bad_values(tmp_path):
    path = _node_link(tmp_path, [{"id": 0, "f": {"a": 1}}, {"id": 1, "f": 2}], [{"source": 0, "target": 1}])
    with pytest.raises(GraphFormatError) as info:
        load_graph(path, node_attr="f")
    assert "attribute 'f' of node 0 is a dict; labels must be numbers" in _one_line(info)
    path = _node_link(tmp_path, [{"id": 0}, {"id": 1}, {"id": 2}],
                      [{"source": 0, "target": 1, "t": 1}, {"source": 1, "target": 2}], "h.json")
    with pytest.raises(GraphFormatError, match=r"edge \(1, 2\) has no attribute 't', which 1 of the 2 edges have"):
        load_graph(path, edge_attr="t")
    with pytest.raises(GraphFormatError, match="attribute 't' of edge"):
        load_graph(_node_link(tmp_path, [{"id": 0}, {"id": 1}], [{"source": 0, "target": 1, "t": None}], "n.json"),
                   edge_attr="t")


def test_formats_without_attributes(tmp_path):
    path = tmp_path / "g.g6"
    path.write_text("Bw\n")
    with pytest.raises(GraphFormatError, match="graph6 files carry no node or edge attributes"):
        load_graph(str(path), node_attr="x")
    with pytest.raises(GraphFormatError, match="named graphs and graph6 strings carry no node or edge attributes"):
        load_graph("petersen", node_attr="x")
    with pytest.raises(GraphFormatError, match="named graphs and graph6 strings carry no"):
        load_graph("Bw", edge_attr="x")


def test_union_keeps_labels(graphml):
    G = load_graph(f"{graphml}+{graphml}", node_attr="element")
    assert [G.nodes[v]["label"] for v in G] == ["C", "O", "C"] * 2
    with pytest.raises(GraphFormatError, match="'path:3': named graphs and graph6 strings carry no"):
        load_graph(f"{graphml}+path:3", node_attr="element")
    with pytest.raises(GraphFormatError, match="node 3 has no attribute 'label', which 3 of the 6 nodes have"):
        validate_graph(nx.disjoint_union(load_graph(str(graphml), node_attr="element"), nx.path_graph(3)),
                       node_attr="label")


def test_permute_and_validate_carry_labels():
    G = nx.Graph([("b", "a", {"label": 2}), ("a", "c", {"label": 3})])
    nx.set_node_attributes(G, {"a": "A", "b": "B", "c": "C"}, "label")
    V = validate_graph(G, node_attr="label", edge_attr="label")
    assert dict(V.nodes(data="label")) == {0: "A", 1: "B", 2: "C"} and V.edges[0, 1]["label"] == 2
    assert not is_labelled(validate_graph(G))
    P = permute_graph(V, [2, 0, 1])
    assert dict(P.nodes(data="label")) == {0: "B", 1: "C", 2: "A"} and P.edges[2, 0]["label"] == 2
    assert list(P.edges) == [(0, 2), (1, 2)]


def _data(**kw):
    return Data(**kw)


def test_pyg_data():
    ei = torch.tensor([[0, 1, 1, 2], [1, 0, 2, 1]])
    d = _data(x=torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]), edge_index=ei,
              edge_attr=torch.tensor([[1], [1], [2], [2]]))
    G = from_pyg(d)
    assert dict(G.nodes(data="label")) == {0: (1.0, 0.0), 1: (0.0, 1.0), 2: (1.0, 0.0)}
    # a one-value row is that value (wltools.graphs.labels: [m, 1] edge_attr gives the labels of a 1-D one)
    assert sorted(G.edges(data="label")) == [(0, 1, 1), (1, 2, 2)]
    L = load_graph(d)  # the loader takes a Data too
    assert list(L.nodes(data="label")) == list(G.nodes(data="label")) and list(L.edges(data="label")) == list(
        G.edges(data="label"))
    H = from_pyg(_data(x=torch.tensor([1, 0, 1]), edge_index=ei, edge_attr=torch.tensor([2, 2, 1, 1])))
    assert dict(H.nodes(data="label")) == {0: 1, 1: 0, 2: 1}
    assert is_isomorphic(G, G) and not refine_pair(G, G, "1wl").distinguished
    plain = from_pyg(_data(edge_index=ei, num_nodes=3))
    assert not is_labelled(plain) and sorted(plain.edges) == [(0, 1), (1, 2)]


def test_pyg_bad_input():
    ei = torch.tensor([[0, 1], [1, 0]])
    with pytest.raises(GraphFormatError, match="edge_attr has 3 rows for 2 directed edges"):
        from_pyg(_data(edge_index=ei, edge_attr=torch.zeros(3, 1), num_nodes=2))
    with pytest.raises(GraphFormatError, match=r"edge \(0, 1\) is stored in one direction only"):
        from_pyg(_data(edge_index=torch.tensor([[0], [1]]), num_nodes=2))
    with pytest.raises(GraphFormatError, match="has edge_attr"):
        from_pyg(_data(edge_index=ei, edge_attr=torch.tensor([[1.0], [2.0]]), num_nodes=2))
    with pytest.raises(GraphFormatError, match="is NaN"):
        from_pyg(_data(x=torch.tensor([[math.nan], [1.0]]), edge_index=ei))
    with pytest.raises(UnsupportedGraphError, match="self-loop"):
        from_pyg(_data(edge_index=torch.tensor([[0, 0], [0, 1]]), num_nodes=2))


def test_pyg_x_rows_must_match_nodes():
    d = _data(x=torch.zeros(2, 1), edge_index=torch.tensor([[0, 2], [2, 0]]), num_nodes=3)
    with pytest.raises(GraphFormatError, match="x has 2 rows for 3 nodes"):
        from_pyg(d)


def test_smiles():
    pytest.importorskip("rdkit")
    dec, bcp = load_graph("smiles:C1CCC2CCCCC2C1"), load_graph("smiles:C1CCC(C1)C1CCCC1")
    assert dec.nodes[0]["label"] == ("C", 0, False, 2) and dec.edges[0, 1]["label"] == "SINGLE"
    assert [refine_pair(dec, bcp, t).distinguished for t in ("1wl", "spd")] == [False, True]
    assert not is_isomorphic(dec, bcp)
    benzene = load_graph("smiles:c1ccccc1")
    assert {x for *_, x in benzene.edges(data="label")} == {"AROMATIC"}
    kekule = load_graph("smiles:C1=CC=CC=C1")  # RDKit aromatises on sanitising: the same labels
    assert is_isomorphic(benzene, kekule)
    assert load_graph("smiles:[NH4+]").nodes[0]["label"] == ("N", 1, False, 4)
    assert not is_isomorphic(load_graph("smiles:CCO"), load_graph("smiles:COC"))
    with pytest.raises(GraphFormatError) as info:
        load_graph("smiles:C1CC(")
    assert _one_line(info) == "smiles:C1CC(: RDKit cannot parse this SMILES (malformed, or valences RDKit rejects)"
    single = load_graph("smiles:C")  # no bonds: no edge labels, still comparable with molecules
    assert pair_labels(single, dec) is not None and refine_pair(single, dec, "1wl").reason == "order"


def test_smiles_without_rdkit(monkeypatch):
    real = builtins.__import__

    def no_rdkit(name, *args, **kw):
        if name.split(".")[0] == "rdkit":
            raise ImportError(name)
        return real(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_rdkit)
    with pytest.raises(GraphFormatError) as info:
        from_smiles("CCO")
    assert _one_line(info) == 'SMILES input needs RDKit: pip install -e ".[chem]" (or pip install rdkit)'


# ------------------------------------------------------------------------------ the CLI


def _cli(*args):
    from click.testing import CliRunner

    import cli

    return CliRunner().invoke(cli.cli, list(args))


@pytest.fixture
def two_paths(tmp_path):
    """C-O-C and O-C-C as GraphML (attribute ``element``, edge attribute ``order``): the same
    graph without labels, different graphs with node labels."""
    paths = []
    for name, elements in (("coc", "COC"), ("occ", "OCC")):
        G = nx.path_graph(3)
        nx.set_node_attributes(G, dict(enumerate(elements)), "element")
        nx.set_edge_attributes(G, {(0, 1): 1, (1, 2): 1}, "order")
        path = tmp_path / f"{name}.graphml"
        nx.write_graphml(G, path)
        paths.append(str(path))
    return paths


def test_cli_node_and_edge_attributes(two_paths):
    g, h = two_paths
    plain = _cli("check", g, h, "--test", "1wl")
    assert plain.exit_code == 0 and "not distinguished" in plain.output and "isomorphic: yes" in plain.output
    labelled = _cli("check", "--node-attr", "element", "--edge-attr", "order", g, h, "--test", "1wl")
    assert labelled.exit_code == 0, labelled.output
    assert "1wl   distinguished" in labelled.output and "isomorphic: no" in labelled.output
    assert _cli("iso", g, h).output.startswith("isomorphic")
    assert _cli("iso", "--node-attr", "element", g, h).output.startswith("not isomorphic")
    doc = json.loads(_cli("check", "--node-attr", "element", g, h, "--test", "1wl", "--format", "json").output)
    assert doc["graphs"]["G"]["labels"] == "nodes" and doc["results"][0]["iteration"] == 1
    assert "labels" not in json.loads(_cli("check", g, h, "--test", "1wl", "--format", "json").output)["graphs"]["G"]
    iso = json.loads(_cli("iso", "--format", "json", "--node-attr", "element", g, h).output)
    assert iso["isomorphic"] is False and iso["canonical_graph6"] == {"G": None, "H": None}  # graph6 has no labels


def test_cli_bad_labels_one_line(two_paths):
    g, h = two_paths
    for args in (("check", "--node-attr", "colour", g, h), ("iso", "--edge-attr", "colour", g, h),
                 ("check", "--node-attr", "element", g, "petersen"), ("check", "smiles:C1CC(", "decalin"),
                 ("check", "--test", "s3", "--node-attr", "element", g, h),
                 ("iso", "--node-attr", "element", g, "path:3"), ("iso", "smiles:CCC", "path:3")):
        r = _cli(*args)
        assert r.exit_code == 2, (args, r.output)
        assert r.output.startswith("error: ") and r.output.count("\n") == 1, r.output


def test_cli_smiles():
    pytest.importorskip("rdkit")
    r = _cli("check", "smiles:C1CCC2CCCCC2C1", "smiles:C1CCC(C1)C1CCCC1", "--test", "spd")
    assert r.exit_code == 0 and "spd   distinguished" in r.output and "isomorphic: no" in r.output
