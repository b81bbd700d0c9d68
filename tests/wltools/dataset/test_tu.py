"""Reading TU folders: the committed NCI1K (checksums, the README's counts and code tables, and
the graphs recomputed from RDKit's SMILES), every kind of bad
folder as one error line, and the other loaders (networkx, graph6, PyG) giving the same
collection as the TU reader."""

import hashlib
import importlib.util
import re
import shutil
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from wltools.dataset.analysis import analyse
from wltools.dataset import load_collection
from wltools.dataset.collection import from_graph6, from_networkx, from_pyg
from wltools.dataset.tu import read_tu
from wltools.errors import GraphFormatError, UnsupportedGraphError, WLToolsError

NCI = Path(__file__).resolve().parents[3] / "data" / "tu" / "NCI1K"
README = (NCI.parent / "README.md").read_text()


def _num(text: str) -> int:
    return int(text.replace(",", ""))


def _readme_counts() -> dict:
    """The counts the README documents (its **Counts.** paragraph and code tables)."""
    m = re.search(r"\*\*Counts\.\*\* ([\d,]+) graphs, ([\d,]+) nodes, ([\d,]+) edges; graph labels: ([\d,]+) graphs "
                  r"`0`, ([\d,]+) graphs `1`;\s+(\d+) to (\d+) nodes per graph; (\d+) element codes, (\d+) bond codes\. "
                  r"(\d+) of the ([\d,]+) SMILES lines", README)
    assert m, "the README's Counts paragraph changed its form"
    g, n, e, y0, y1, lo, hi, ne, nb, skipped, read = (_num(x) for x in m.groups())
    elements = {int(c): (sym, _num(k)) for c, sym, k in re.findall(r"^\| (\d+) \| ([A-Z][a-z]?) \| \d+ \| ([\d,]+) \|$",
                                                                 README, re.M)}
    bonds = {int(c): (b, _num(k)) for c, b, k in re.findall(r"^\| (\d+) \| (single|double|triple|aromatic) \| ([\d,]+) \|$",
                                                           README, re.M)}
    rdkit = re.search(r"read here from RDKit\s+(\S+),", README).group(1)
    return {"graphs": g, "nodes": n, "edges": e, "targets": [y0, y1], "sizes": (lo, hi), "n_elements": ne,
            "n_bonds": nb, "skipped": skipped, "read": read, "elements": elements, "bonds": bonds, "rdkit": rdkit}


def test_nci_files_match_the_readme_checksums():
    rows = re.findall(r"\| `([^`]+)` \| ([\d,]+) \| `([0-9a-f]{64})` \|", README)
    assert sorted(name for name, _, _ in rows) == sorted(p.name for p in NCI.iterdir())  # every file, no other
    for name, size, digest in rows:
        data = (NCI / name).read_bytes()
        assert len(data) == _num(size) and hashlib.sha256(data).hexdigest() == digest


def test_nci_counts_and_labels_are_the_readmes():
    doc, coll = _readme_counts(), read_tu(NCI)
    assert (coll.num_graphs, coll.num_nodes, coll.num_edges) == (doc["graphs"], doc["nodes"], doc["edges"])
    assert doc["graphs"] == doc["read"] - doc["skipped"]
    assert coll.target_values == [0, 1] and np.bincount(coll.graph_targets).tolist() == doc["targets"]
    assert (int(coll.sizes.min()), int(coll.sizes.max())) == doc["sizes"]
    # the code tables: codes 0..k-1, and the atoms / bonds of each code as the files have them
    assert coll.node_label_values == list(range(doc["n_elements"])) == sorted(doc["elements"])
    assert coll.edge_label_values == list(range(doc["n_bonds"])) == sorted(doc["bonds"])
    assert np.bincount(coll.node_labels).tolist() == [doc["elements"][c][1] for c in sorted(doc["elements"])]
    elab = [int(x) for x in (NCI / "NCI1K_edge_labels.txt").read_text().split()]
    assert [elab.count(c) for c in sorted(doc["bonds"])] == [2 * doc["bonds"][c][1] for c in sorted(doc["bonds"])]
    # the first molecule: its nodes from the indicator, its edges from DS_A.txt with their bond labels
    G = coll.graph(0)
    n0 = (NCI / "NCI1K_graph_indicator.txt").read_text().split().count("1")
    lines = (NCI / "NCI1K_A.txt").read_text().splitlines()
    first = [(int(a) - 1, int(b) - 1, lab) for (a, b), lab in zip((ln.split(",") for ln in lines), elab)
             if int(a) <= n0 and int(b) <= n0]
    assert G.number_of_nodes() == n0 and G.number_of_edges() * 2 == len(first)
    assert all(G.edges[u, v]["label"] == lab for u, v, lab in first)


def _rdkit_as_documented():
    """RDKit, when it is the version the folder was derived with (aromaticity perception and
    parsing may change between versions)."""
    rdkit = pytest.importorskip("rdkit")
    from rdkit import rdBase

    if rdBase.rdkitVersion != _readme_counts()["rdkit"]:
        pytest.skip(f"RDKit {rdBase.rdkitVersion} is not the documented {_readme_counts()['rdkit']}")
    return rdkit


def test_nci_recomputed_from_the_smiles_with_rdkit():
    """Every graph, label and target recomputed from RDKit's files here, without make_nci.py:
    the atoms (element symbols through the README's code table) and bonds of each molecule in
    RDKit's order, and the TPSA-above-median rule."""
    _rdkit_as_documented()
    from rdkit import Chem, RDConfig, RDLogger

    RDLogger.DisableLog("rdApp.*")
    doc, coll = _readme_counts(), read_tu(NCI)
    folder = Path(RDConfig.RDDataDir) / "NCI"
    smiles = [ln.split("\t")[0] for ln in (folder / "first_5K.smi").read_text().splitlines()][:doc["read"]]
    tpsa = [float(ln.rsplit(",", 1)[1]) for ln in (folder / "first_5k.tpsa.csv").read_text().splitlines()
            if not ln.startswith("#")][:doc["read"]]
    mols = [Chem.MolFromSmiles(s) for s in smiles]
    assert all(m is not None for m in mols) and doc["skipped"] == 0
    assert (len(mols), sum(m.GetNumAtoms() for m in mols), sum(m.GetNumBonds() for m in mols)) == \
           (coll.num_graphs, coll.num_nodes, coll.num_edges)
    symbol = {c: sym for c, (sym, _) in doc["elements"].items()}
    bond = {c: b.upper() for c, (b, _) in doc["bonds"].items()}
    for i, m in enumerate(mols):
        G = coll.graph(i)
        assert [symbol[G.nodes[v]["label"]] for v in range(G.number_of_nodes())] == [a.GetSymbol() for a in m.GetAtoms()]
        assert {(u, v): bond[lab] for u, v, lab in G.edges(data="label")} == \
               {tuple(sorted((b.GetBeginAtomIdx(), b.GetEndAtomIdx()))): str(b.GetBondType()) for b in m.GetBonds()}
    median = float(np.median(tpsa))
    assert [coll.target_values[t] for t in coll.graph_targets] == [int(t > median) for t in tpsa]


def test_make_nci_regenerates_the_committed_bytes():
    _rdkit_as_documented()
    spec = importlib.util.spec_from_file_location("make_nci", NCI.parent / "make_nci.py")
    make_nci = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_nci)
    files, summary = make_nci.build(_readme_counts()["read"])
    assert sorted(files) == sorted(p.name for p in NCI.iterdir())
    assert all((NCI / name).read_bytes() == data for name, data in files.items())
    assert summary["skipped"] == {"unparsable": [], "other_bond_type": []}


def _write(folder: Path, files: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / f"DS_{name}.txt").write_text(text)
    return folder


_GOOD = {"A": "1, 2\n2, 1\n2, 3\n3, 2\n4, 5\n5, 4\n", "graph_indicator": "1\n1\n1\n2\n2\n",
         "graph_labels": "0\n1\n", "node_labels": "0\n1\n0\n1\n1\n", "edge_labels": "0\n0\n1\n1\n0\n0\n"}


def test_small_folder_reads_both_directions_and_labels(tmp_path):
    coll = read_tu(_write(tmp_path / "DS", _GOOD))
    assert coll.num_graphs == 2 and coll.sizes.tolist() == [3, 2] and coll.num_edges == 3
    G = coll.graph(0)
    assert sorted(G.edges(data="label")) == [(0, 1, 0), (1, 2, 1)]
    assert [G.nodes[v]["label"] for v in G] == [0, 1, 0]
    one_way = dict(_GOOD, A="1, 2\n2, 3\n4, 5\n", edge_labels="0\n1\n0\n")
    assert sorted(read_tu(_write(tmp_path / "one", one_way)).graph(0).edges(data="label")) == [(0, 1, 0), (1, 2, 1)]


@pytest.mark.parametrize("change, error, message", [
    ({"A": ""}, GraphFormatError, "DS_A.txt is empty"),
    ({"A": "1, 2\n2, x\n"}, GraphFormatError, "DS_A.txt line 2: 'x' is not an integer"),
    ({"A": "1, 2, 3\n"}, GraphFormatError, "DS_A.txt line 1: expected 2 comma-separated value(s)"),
    ({"A": "1, 9\n"}, GraphFormatError, "DS_A.txt line 1: node id out of 1..5"),
    ({"A": "1, 4\n"}, GraphFormatError, "DS_A.txt line 1: edge between graphs 1 and 2"),
    ({"A": "1, 1\n"}, UnsupportedGraphError, "DS_A.txt line 1: self-loop at node 1"),
    ({"A": "1, 2\n1, 2\n"}, UnsupportedGraphError, "DS_A.txt line 2: edge [1, 2] listed twice"),
    ({"graph_indicator": "1\n1\n2\n1\n2\n"}, GraphFormatError, "line 4: graph ids must be non-decreasing"),
    ({"graph_indicator": "1\n1\n1\n3\n3\n"}, GraphFormatError, "graph 2 has no nodes"),
    ({"graph_indicator": "0\n1\n1\n2\n2\n"}, GraphFormatError, "graph id 0 (ids start at 1)"),
    ({"graph_labels": "0\n"}, GraphFormatError, "DS_graph_labels.txt has 1 lines for 2 graphs"),
    ({"node_labels": "0\n1\n"}, GraphFormatError, "DS_node_labels.txt has 2 lines for 5 nodes"),
    ({"node_labels": "0\nC\n0\n1\n1\n"}, GraphFormatError, "DS_node_labels.txt line 2: 'C' is not an integer"),
    ({"edge_labels": "0\n"}, GraphFormatError, "DS_edge_labels.txt has 1 lines, DS_A.txt 6"),
    ({"edge_labels": "0\n1\n1\n1\n0\n0\n"}, GraphFormatError, "edge labels: line 2 gives edge [2, 1] label 1"),
    ({"node_labels": "0\n\n0\n1\n1\n"}, GraphFormatError, "DS_node_labels.txt line 2 is empty"),
])
def test_bad_folders_give_one_line(tmp_path, change, error, message):
    files = dict(_GOOD, **change)
    if "A" in change:  # edge labels follow the lines of DS_A.txt
        del files["edge_labels"]
    folder = _write(tmp_path / "DS", files)
    with pytest.raises(error) as exc:
        read_tu(folder)
    assert message in str(exc.value) and "\n" not in str(exc.value)


def test_missing_files_and_attributes(tmp_path):
    with pytest.raises(GraphFormatError, match="no such TU dataset folder"):
        read_tu(tmp_path / "nothing")
    folder = _write(tmp_path / "DS", {k: v for k, v in _GOOD.items() if k != "graph_indicator"})
    with pytest.raises(GraphFormatError, match="missing DS_graph_indicator.txt"):
        read_tu(folder)
    with pytest.raises(GraphFormatError, match="no DS_node_attributes.txt"):
        read_tu(_write(tmp_path / "B", _GOOD), node_features="attributes")
    bad = dict(_GOOD, node_attributes="0.5, 1\n0.5, 1\nnan, 2\n1, 1\n1, 1\n")
    with pytest.raises(GraphFormatError, match="line 3: 'nan' is not a finite number"):
        read_tu(_write(tmp_path / "C", bad), node_features="attributes")


def test_node_attributes_become_tuple_labels(tmp_path):
    files = dict(_GOOD, node_attributes="0.5, 1\n0.5, 1\n2, 2\n1, 1\n1, 1\n")
    coll = read_tu(_write(tmp_path / "DS", files), node_features="attributes")
    assert coll.node_label_values == [(0.5, 1.0), (1.0, 1.0), (2.0, 2.0)]
    assert coll.node_labels.tolist() == [0, 0, 2, 1, 1]
    both = read_tu(tmp_path / "DS", node_features="both")
    assert both.node_label_values[0] == (0.0, 0.5, 1.0)


def test_networkx_loader_errors():
    G = nx.path_graph(2)
    with pytest.raises(GraphFormatError, match="graph 0 node 0 has no attribute 'atom'"):
        from_networkx([G], node_label="atom")
    G.nodes[0]["atom"], G.nodes[1]["atom"] = {"x": 1}, "C"
    with pytest.raises(GraphFormatError, match="graph 0 node 0: the label is a dict"):
        from_networkx([G], node_label="atom")
    with pytest.raises(GraphFormatError, match="3 targets for 1 graphs"):
        from_networkx([G], targets=[0, 1, 2])
    with pytest.raises(UnsupportedGraphError, match="graph 0 has 1 self-loop"):
        from_networkx([nx.Graph([(0, 0)])])
    with pytest.raises(GraphFormatError, match="the collection is empty"):
        from_networkx([])
    with pytest.raises(WLToolsError, match="expected a TU folder"):
        load_collection([1, 2])


def _nci_graphs():
    coll = read_tu(NCI)
    return coll, [coll.graph(i) for i in range(coll.num_graphs)]


def _rounds(rep):
    return [(t["test"], t["stable_after"], t["rounds"]) for t in rep["tests"]]


def test_networkx_and_pyg_loaders_give_the_tu_report():
    import torch
    from torch_geometric.data import Data

    coll, graphs = _nci_graphs()
    tu = _rounds(analyse(coll, ["1wl"], iso=False))
    nxc = from_networkx(graphs, node_label="label", edge_label="label", graph_target="target", name="NCI1K")
    assert _rounds(analyse(nxc, ["1wl"], iso=False)) == tu
    data = []
    for G in graphs:
        e = np.array([(u, v) for u, v in G.edges] + [(v, u) for u, v in G.edges]).T
        data.append(Data(edge_index=torch.tensor(e), num_nodes=G.number_of_nodes(),
                         x=torch.nn.functional.one_hot(torch.tensor([G.nodes[v]["label"] for v in G]),
                                                           len(coll.node_label_values)).float(),
                         edge_attr=torch.tensor([G.edges[u, v]["label"] for u, v in G.edges] * 2)[:, None],
                         y=torch.tensor([G.graph["target"]])))
    pyg = from_pyg(data, name="NCI1K")
    assert pyg.num_edges == coll.num_edges and len(pyg.node_label_values) == len(coll.node_label_values)
    assert _rounds(analyse(pyg, ["1wl"], iso=False)) == tu


def test_graph6_file(tmp_path):
    graphs = [nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), nx.path_graph(4)]
    path = tmp_path / "g.g6"
    path.write_bytes(b"".join(nx.to_graph6_bytes(G, header=False) for G in graphs))
    coll = from_graph6(path, targets=[0, 1, 1])
    rep = analyse(coll, ["1wl", "spd"])
    assert [t["rounds"][-1]["classes"] for t in rep["tests"]] == [2, 3]
    assert rep["tests"][0]["rounds"][-1]["accuracy_bound"] == pytest.approx(2 / 3)
    empty = tmp_path / "empty.g6"
    empty.write_text("")
    with pytest.raises(GraphFormatError, match="is empty"):
        from_graph6(empty)


def test_a_pyg_tudataset_object_gives_the_tu_report(tmp_path):
    """PyG's own TUDataset, processed from the committed raw files (nothing is downloaded): x and
    edge_attr are one-hot rows, y the class index; the report equals the TU reader's."""
    from torch_geometric.datasets import TUDataset

    raw = tmp_path / "NCI1K" / "raw"
    raw.mkdir(parents=True)
    for f in NCI.glob("NCI1K_*.txt"):
        shutil.copy(f, raw / f.name)
    coll, tu = from_pyg(TUDataset(str(tmp_path), "NCI1K")), read_tu(NCI)
    assert coll.name == "NCI1K"
    assert (coll.num_graphs, coll.num_nodes, coll.num_edges) == (tu.num_graphs, tu.num_nodes, tu.num_edges)
    assert len(coll.node_label_values) == len(tu.node_label_values) and len(coll.edge_label_values) == len(tu.edge_label_values)
    assert _rounds(analyse(coll, ["1wl", "spd"], iso=False)) == _rounds(analyse(tu, ["1wl", "spd"], iso=False))
