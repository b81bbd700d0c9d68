"""A dataset read part by part (each shard reads its own part and numbers its labels its own way)
gives the report of the whole collection read at once."""

import functools

import networkx as nx
import pytest

from wltools.dataset.analysis import analyse
from wltools.dataset.collection import from_networkx
from wltools.dataset.parts import analyse_parts
from wltools.dataset.tu import TU_DATA_DIR, read_tu
from wltools.errors import GraphFormatError


def _part(lo, hi):
    """Graphs lo..hi-1 of NCI1K, re-read through networkx: label tables hold only the values
    present in the part, so ids differ from part to part."""
    coll = read_tu(TU_DATA_DIR / "NCI1K", node_features="none")
    graphs = [coll.graph(i) for i in range(lo, hi)]
    for G in graphs:  # node labels reversed in order, so that the ids certainly differ
        for v in G:
            G.nodes[v]["atom"] = f"element-{100 - G.nodes[v]['target']}"
    return from_networkx(graphs, node_label="atom", edge_label="label", graph_target="target",
                         node_target="target")


def _rows(rep):
    return [(t["test"], t["stable_after"], t["rounds"]) for t in rep["tests"]]


@pytest.mark.parametrize("node_targets", [False, True])
def test_parts_give_the_whole_collection_report(node_targets):
    bounds = [0, 40, 41, 120, 200]  # the first 200 molecules, in four parts
    loaders = [functools.partial(_part, a, b) for a, b in zip(bounds[:-1], bounds[1:])]
    whole = analyse(_part(0, 200), ["1wl", "spd", "3wl"], iso=False, node_targets=node_targets)
    parts = analyse_parts(loaders, ["1wl", "spd", "3wl"], node_targets=node_targets)
    assert _rows(parts) == _rows(whole)
    d, tu = parts["dataset"], read_tu(TU_DATA_DIR / "NCI1K").select(range(200))
    labels = {"node_labels": len(set(tu.node_labels.tolist())), "edge_labels": len(set(tu.edge_labels.tolist()))}
    assert (d["graphs"], d["nodes"], d["edges"], d["node_labels"], d["edge_labels"]) == \
           (tu.num_graphs, tu.num_nodes, tu.num_edges, labels["node_labels"], labels["edge_labels"])


def _graphs(labels):
    G = nx.path_graph(3)
    if labels:
        nx.set_node_attributes(G, "C", "atom")
    return from_networkx([G], node_label="atom" if labels else None, targets=[0])


def test_parts_must_agree_on_having_labels():
    loaders = [functools.partial(_graphs, True), functools.partial(_graphs, False)]
    with pytest.raises(GraphFormatError, match="the parts disagree: some have node labels, others none"):
        analyse_parts(loaders, ["1wl"])
