"""Expressivity of tests on whole datasets: equivalence classes, unseparated pairs and accuracy
upper bounds per test and round (``wltools dataset``; docs/datasets.md).

Modules, one job each: :mod:`.collection` (graphs as one disjoint union, loaders), :mod:`.tu`
(TU folders), :mod:`.refine` (the shared-table refinement of 1wl, spd and 3wl, sharded),
:mod:`.pairwise` (every other test: graphs refined against class representatives), :mod:`.ray_refine`
(shards on Ray), :mod:`.parts` (a dataset read part by part, by its shards), :mod:`.iso_labelled`
(labelled isomorphism classes), :mod:`.bounds` (statistics, the accuracy bound, the MAE floor),
:mod:`.counts` (subgraph counts as targets), :mod:`.analysis` (the report), :mod:`.report`
(JSON / Markdown / CSV / plot).

Examples
--------
>>> import networkx as nx
>>> coll = from_networkx([nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))],
...                      targets=["a", "b"])
>>> rep = analyse(coll, ["1wl", "3wl"])
>>> [t["rounds"][-1]["accuracy_bound"] for t in rep["tests"]]
[0.5, 1.0]
"""

from .analysis import analyse, load_collection, open_dataset
from .parts import analyse_parts
from .collection import GraphCollection, from_graph6, from_networkx, from_pyg
from .pairwise import pairwise_classes
from .refine import TESTS, refine_collection
from .report import plot_bounds, render
from .tu import read_tu

__all__ = ["analyse", "analyse_parts", "open_dataset", "GraphCollection", "from_graph6", "from_networkx", "from_pyg",
           "load_collection", "TESTS", "refine_collection", "pairwise_classes", "plot_bounds", "render", "read_tu"]
