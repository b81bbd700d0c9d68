"""One labelled graph through every input path gives the same labels, ids and verdicts
(wltools.graphs.labels, the one label encoder; issue 31 item 2), and NaN / None are refused on every path.

The graphs are written by hand in each format (PyG ``Data`` with float32 ``x``, GraphML text with a
``double`` key, node-link JSON text, a TU folder of text files) from one table of decimal texts, and
read back through the public loaders. The reference is the same graph built directly in networkx
with the Python floats of those texts: every loader must give exactly those values (a float32
``0.1`` is the label ``0.1``), the same joint ids, and the verdicts of the reference pair.
"""

from __future__ import annotations

import json
import math

import networkx as nx
import numpy as np
import pytest
import torch
from click.testing import CliRunner
from torch_geometric.data import Data

from cli import cli
from wltools.dataset import analyse, from_networkx, from_pyg, read_tu
from wltools.dataset.iso_labelled import isomorphism_classes
from wltools.errors import GraphFormatError
from wltools.graphs import load_graph
from wltools.graphs.labels import pair_labels
from wltools.refine import refine_pair

# Two graphs on the same 6-cycle with a chord; node labels are decimals that float32 cannot hold
# exactly (0.1, 0.2, 0.7) and one integral value; edge labels are integers (bond types). H has the
# same label multisets as G, placed so that 1-WL needs rounds to separate them.
EDGES = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 3)]
G_NODES = ["0.1", "0.2", "0.1", "0.7", "1", "0.2"]
H_NODES = ["0.1", "0.2", "0.2", "0.7", "1", "0.1"]
G_BONDS = [1, 2, 1, 1, 2, 1, 3]
H_BONDS = [1, 2, 1, 1, 2, 1, 3]
FORMATS = ("reference", "pyg", "graphml", "json", "tu")


def _reference(nodes, bonds) -> nx.Graph:
    G = nx.Graph()
    G.add_nodes_from((v, {"label": float(t)}) for v, t in enumerate(nodes))
    G.add_edges_from((u, v, {"label": b}) for (u, v), b in zip(EDGES, bonds))
    return G


def _pyg(nodes, bonds) -> Data:
    both = EDGES + [(v, u) for u, v in EDGES]
    return Data(x=torch.tensor([[float(t)] for t in nodes], dtype=torch.float32),
                edge_index=torch.tensor(both).T.contiguous(),
                edge_attr=torch.tensor([[b] for b in bonds * 2], dtype=torch.int64))


def _graphml(path, nodes, bonds):
    body = "".join(f'<node id="n{v}"><data key="x">{t}</data></node>' for v, t in enumerate(nodes))
    body += "".join(f'<edge source="n{u}" target="n{v}"><data key="bond">{b}</data></edge>'
                    for (u, v), b in zip(EDGES, bonds))
    path.write_text('<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
                    '<key id="x" for="node" attr.name="x" attr.type="double"/>'
                    '<key id="bond" for="edge" attr.name="bond" attr.type="int"/>'
                    f'<graph edgedefault="undirected">{body}</graph></graphml>')
    return path


def _json(path, nodes, bonds):  # the decimal texts written as JSON numbers, by hand
    node_text = ", ".join(f'{{"id": {v}, "x": {t}}}' for v, t in enumerate(nodes))
    edge_text = ", ".join(f'{{"source": {u}, "target": {v}, "bond": {b}}}' for (u, v), b in zip(EDGES, bonds))
    path.write_text(f'{{"directed": false, "multigraph": false, "nodes": [{node_text}], "links": [{edge_text}]}}')
    return path


def _tu(folder, graphs, name="DS"):
    """A TU folder of ``graphs`` (``(node texts, bonds)``): node attributes as the decimal texts."""
    folder.mkdir(exist_ok=True)
    A, ind, attrs, elab, offset = [], [], [], [], 0
    for g, (nodes, bonds) in enumerate(graphs):
        for (u, v), b in zip(EDGES, bonds):
            A += [f"{u + offset + 1}, {v + offset + 1}", f"{v + offset + 1}, {u + offset + 1}"]
            elab += [str(b), str(b)]
        ind += [str(g + 1)] * len(nodes)
        attrs += list(nodes)
        offset += len(nodes)
    for kind, lines in (("A", A), ("graph_indicator", ind), ("node_attributes", attrs), ("edge_labels", elab),
                        ("graph_labels", [str(g % 2) for g in range(len(graphs))])):
        (folder / f"{name}_{kind}.txt").write_text("\n".join(lines) + "\n")
    return folder


def _load(fmt, tmp_path, nodes, bonds, tag) -> nx.Graph:
    """The graph through the public loader of ``fmt`` (nodes 0..n-1, labels as attribute "label")."""
    if fmt == "reference":
        return _reference(nodes, bonds)
    if fmt == "pyg":
        return load_graph(_pyg(nodes, bonds))
    if fmt == "graphml":
        return load_graph(str(_graphml(tmp_path / f"{tag}.graphml", nodes, bonds)), node_attr="x", edge_attr="bond")
    if fmt == "json":
        return load_graph(str(_json(tmp_path / f"{tag}.json", nodes, bonds)), node_attr="x", edge_attr="bond")
    return read_tu(_tu(tmp_path / f"tu_{tag}", [(nodes, bonds)]), node_features="attributes").graph(0)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_loader_reads_the_decimal_texts_as_their_numbers(tmp_path, fmt):
    G = _load(fmt, tmp_path, G_NODES, G_BONDS, "g")
    assert dict(G.nodes(data="label")) == {v: float(t) for v, t in enumerate(G_NODES)}  # float32 0.1 is 0.1
    assert {frozenset((u, v)): b for u, v, b in G.edges(data="label")} == {
        frozenset(e): b for e, b in zip(EDGES, G_BONDS)}


@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
def test_same_ids_and_verdicts_across_formats(tmp_path, fa, fb):
    Ga, Gb = _load(fa, tmp_path, G_NODES, G_BONDS, "ga"), _load(fb, tmp_path, G_NODES, G_BONDS, "gb")
    Hb = _load(fb, tmp_path, H_NODES, H_BONDS, "hb")
    p = pair_labels(Ga, Gb)
    assert len(p.node_values) == 4 and len(p.edge_values) == 3  # 0.1, 0.2, 0.7, 1 / bonds 1, 2, 3
    assert p.node[0].tolist() == p.node[1].tolist() and p.edge[0].tolist() == p.edge[1].tolist()
    ref_G, ref_H = _reference(G_NODES, G_BONDS), _reference(H_NODES, H_BONDS)
    for test in ("1wl", "spd"):
        same = refine_pair(Ga, Gb, test)
        assert not same.distinguished and same.iteration is None, (test, same.witness)
        want = refine_pair(ref_G, ref_H, test)
        got = refine_pair(Ga, Hb, test)
        assert (got.distinguished, got.reason, got.iteration, got.class_sizes) == (
            want.distinguished, want.reason, want.iteration, want.class_sizes), test
    assert refine_pair(ref_G, ref_H, "1wl").iteration >= 1  # the labels alone do not separate the pair


def test_one_table_and_one_class_in_collections(tmp_path):
    """Every collection loader gives the same label tables and ids; a mixed collection of the copies
    of G from every format puts them in one isomorphism class and one colour class at every round."""
    pairs = [(G_NODES, G_BONDS), (H_NODES, H_BONDS)]
    tu = read_tu(_tu(tmp_path / "both", pairs), node_features="attributes")
    pyg = from_pyg([_pyg(*p) for p in pairs])
    loaded = {fmt: [_load(fmt, tmp_path, *p, f"{fmt}{i}") for i, p in enumerate(pairs)] for fmt in FORMATS}
    nxc = {fmt: from_networkx(gs, node_label="label", edge_label="label") for fmt, gs in loaded.items()}
    for coll in (pyg, *nxc.values()):
        assert coll.node_label_values == tu.node_label_values == [0.1, 0.2, 0.7, 1.0]
        assert coll.edge_label_values == tu.edge_label_values == [1, 2, 3]
        assert coll.node_labels.tolist() == tu.node_labels.tolist()
        assert sorted(coll.edge_labels.tolist()) == sorted(tu.edge_labels.tolist())
    mixed = from_networkx([loaded[f][0] for f in FORMATS] + [loaded["pyg"][1]], node_label="label",
                          edge_label="label", targets=[0] * len(FORMATS) + [1])
    iso = isomorphism_classes(mixed).tolist()
    assert len(set(iso[:-1])) == 1 and iso[-1] != iso[0]
    rep = analyse(mixed, ["1wl"])
    assert rep["isomorphism"]["classes"] == 2
    assert [r["classes"] for r in rep["tests"][0]["rounds"]][0] == 1  # same label multisets: one class at 0
    assert rep["tests"][0]["rounds"][-1]["classes"] == 2 and rep["tests"][0]["rounds"][-1]["accuracy_bound"] == 1.0


def test_wltools_dataset_reads_equal_numbers_written_differently_as_one_label(tmp_path):
    """``wltools dataset``: a TU folder whose copies of G write 0.1 as 0.1, 0.10 and 1e-1 (and 1 as
    1.0) has the label table of G (4 values) and the copies in one class."""
    spelled = [["0.10", "0.2", "1e-1", "0.70", "1.0", "2e-1"], ["1e-1", "0.20", "0.1", "7e-1", "1", "0.2"]]
    folder = _tu(tmp_path / "DS", [(G_NODES, G_BONDS), *[(s, G_BONDS) for s in spelled], (H_NODES, H_BONDS)])
    res = CliRunner().invoke(cli, ["dataset", str(folder), "--node-features", "attributes", "--format", "json",
                                   "--quiet"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    assert rep["dataset"]["node_labels"] == 4 and rep["dataset"]["edge_labels"] == 3
    assert rep["isomorphism"]["classes"] == 2
    assert rep["tests"][0]["rounds"][-1]["classes"] == 2


# --- NaN and None: refused on every path with one line ---

def _nan_graph(value):
    G = _reference(G_NODES, G_BONDS)
    G.nodes[2]["label"] = value
    return G


@pytest.mark.parametrize("value, what", [(math.nan, "NaN"), (None, "missing")])
def test_pairs_and_networkx_collections_refuse_nan_and_none(value, what):
    with pytest.raises(GraphFormatError, match=f"node 2 is {what}"):
        refine_pair(_nan_graph(value), _reference(G_NODES, G_BONDS), "1wl")
    with pytest.raises(GraphFormatError, match=f"graph 1 node 2: the label is {what}"):
        from_networkx([_reference(G_NODES, G_BONDS), _nan_graph(value)], node_label="label")
    E = _reference(G_NODES, G_BONDS)
    E.edges[3, 4]["label"] = value
    with pytest.raises(GraphFormatError, match=f"graph 0 edge \\(3, 4\\): the label is {what}"):
        from_networkx([E], edge_label="label")


def test_pyg_refuses_nan_in_pairs_and_collections():
    d = _pyg(G_NODES, G_BONDS)
    d.x[2, 0] = float("nan")
    with pytest.raises(GraphFormatError, match="node 2 is NaN"):
        load_graph(d)
    with pytest.raises(GraphFormatError, match=r"graph 1 node 2 \(x\): the label is NaN"):
        from_pyg([_pyg(G_NODES, G_BONDS), d])
    e = _pyg(G_NODES, G_BONDS)
    e.edge_attr = e.edge_attr.float()
    e.edge_attr[3, 0] = float("nan")  # edge (3, 4)
    with pytest.raises(GraphFormatError, match=r"graph 0 edge \(3, 4\) \(edge_attr\): the label is NaN"):
        from_pyg([e])


def _one_error_line(res):
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and "Traceback" not in res.output, res.output
    return lines[0]


@pytest.mark.parametrize("fmt, bad", [("graphml", "NaN"), ("json", "NaN"), ("json", "null")])
def test_check_refuses_nan_and_none_in_files(tmp_path, fmt, bad):
    nodes = list(G_NODES)
    nodes[2] = bad
    write = _graphml if fmt == "graphml" else _json
    g = write(tmp_path / f"g.{fmt}", nodes, G_BONDS)
    h = write(tmp_path / f"h.{fmt}", G_NODES, G_BONDS)
    res = CliRunner().invoke(cli, ["check", str(g), str(h), "--node-attr", "x", "--edge-attr", "bond"])
    line = _one_error_line(res)
    node = "node 'n2'" if fmt == "graphml" else "node 2"  # the file's own node id
    assert "g." + fmt in line and node in line and ("NaN" in line if bad == "NaN" else "None" in line), line


@pytest.mark.parametrize("kind, bad", [("node_attributes", "nan"), ("node_attributes", "NaN"),
                                       ("edge_labels", "nan")])
def test_wltools_dataset_refuses_nan_in_tu_files(tmp_path, kind, bad):
    folder = _tu(tmp_path / "DS", [(G_NODES, G_BONDS)])
    path = folder / f"DS_{kind}.txt"
    lines = path.read_text().splitlines()
    lines[2] = bad
    path.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(cli, ["dataset", str(folder), "--node-features", "attributes", "--quiet"])
    line = _one_error_line(res)
    assert f"DS_{kind}.txt line 3" in line


def test_encode_rows_keeps_each_block_at_its_own_precision():
    """A PyG dataset mixing float32 and float64 features: float32 0.1 and float64 0.1 are one label
    (concatenating first would widen float32 0.1 to 0.10000000149011612, a second label)."""
    a, b = _pyg(G_NODES, G_BONDS), _pyg(G_NODES, G_BONDS)
    b.x = b.x.double()
    b.x[:, 0] = torch.tensor([float(t) for t in G_NODES], dtype=torch.float64)
    coll = from_pyg([a, b])
    assert coll.node_label_values == [0.1, 0.2, 0.7, 1.0]
    assert coll.node_labels[:6].tolist() == coll.node_labels[6:].tolist()
    assert np.float32(0.1).item() != 0.1  # the widening this guards against is real


# --- the rule's other cases (docs/getting-started.md, "One rule for label values") ---

def test_numbers_by_value_strings_as_strings_rows_as_tuples(tmp_path):
    """1, 1.0, True, np.int64(1) and torch's 1 are one label; the GraphML string "0.1" is not the
    number 0.1; a feature row is a tuple and a one-value row its value."""
    from wltools.graphs.labels import canonical_label, encode_labels

    ids, table = encode_labels([1, 1.0, True, np.int64(1), torch.tensor(1), np.float16(1)], str)
    assert len(table) == 1 and set(ids.tolist()) == {0}
    ids, table = encode_labels([np.float32(0.1), np.float16(0.1), 0.1, "0.1", [0.1], (0.1, 2)], str)
    assert table == [0.1, "0.1", (0.1, 2)] and ids.tolist() == [0, 0, 0, 1, 0, 2]
    bf = torch.tensor([[0.1, 2.0]], dtype=torch.bfloat16)  # numpy has no bfloat16: read as float32
    assert canonical_label(bf) == canonical_label(bf.float()) == (float(np.float32(0.10009765625).astype(str)), 2.0)
    text = _graphml(tmp_path / "s.graphml", G_NODES, G_BONDS).read_text().replace('attr.type="double"',
                                                                                   'attr.type="string"')
    (tmp_path / "s.graphml").write_text(text)
    S = load_graph(str(tmp_path / "s.graphml"), node_attr="x", edge_attr="bond")
    assert S.nodes[0]["label"] == "0.1"  # declared a string: stays the text
    assert refine_pair(S, _reference(G_NODES, G_BONDS), "1wl").iteration == 0


def test_smiles_labels_equal_the_same_molecule_as_node_link_json(tmp_path):
    """A molecule from SMILES (RDKit) and its atoms and bonds written as node-link JSON lists give
    one label table and an unseparated pair."""
    pytest.importorskip("rdkit")
    from wltools.graphs.inputs import from_smiles

    M = from_smiles("OC(=O)c1ccccc1")
    nodes = [{"id": v, "atom": list(a)} for v, a in M.nodes(data="label")]
    links = [{"source": u, "target": v, "bond": b} for u, v, b in M.edges(data="label")]
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"nodes": nodes, "links": links}))
    J = load_graph(str(path), node_attr="atom", edge_attr="bond")
    p = pair_labels(M, J)
    assert p.node[0].tolist() == p.node[1].tolist() and p.edge[0].tolist() == p.edge[1].tolist()
    assert not refine_pair(M, J, "1wl").distinguished


def test_pyg_collection_with_an_edgeless_graph():
    """A graph without edges has an empty ``[0, d]`` edge_attr; it joins the table of the others."""
    lone = Data(x=torch.tensor([[0.1]]), edge_index=torch.zeros((2, 0), dtype=torch.long),
                edge_attr=torch.zeros((0, 1), dtype=torch.int64), num_nodes=1)
    coll = from_pyg([lone, _pyg(G_NODES, G_BONDS)])
    assert coll.node_label_values == [0.1, 0.2, 0.7, 1.0] and coll.edge_label_values == [1, 2, 3]
    assert coll.graph(0).number_of_edges() == 0 and coll.graph(0).nodes[0]["label"] == 0.1
