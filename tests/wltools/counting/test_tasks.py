"""Task names: the patterns they stand for (isomorphism to known graphs) and bad names."""

import networkx as nx
import pytest

from wltools.counting import ZHANG_HOM_TASKS, parse_task
from wltools.counting.tasks import HOM_PATTERNS
from wltools.errors import UnknownNameError


@pytest.mark.parametrize("name, graph", [
    ("cycle:4", nx.cycle_graph(4)), ("path:3", nx.path_graph(3)), ("star:3", nx.star_graph(3)),
    ("complete:4", nx.complete_graph(4)), ("chordal:4", nx.complete_graph(4).copy()),
    ("tailed-triangle", nx.Graph([(0, 1), (1, 2), (0, 2), (2, 3)])),
    ("hom:chordal4_1", None),
    ("hom:boat", nx.Graph([(0, 1), (0, 2), (1, 2), (1, 3), (2, 4), (3, 4), (3, 5), (4, 5)])),
])
def test_patterns(name, graph):
    """Each name is the pattern the literature means (boat: two triangles joined by a 4-cycle)."""
    F = parse_task(name).pattern
    if name == "chordal:4":
        graph.remove_edge(0, 2)  # the diamond: K4 minus an edge
    if name == "hom:chordal4_1":
        graph = parse_task("chordal:4").pattern  # Zhang et al.'s chordal4_1 is the diamond too
    assert nx.is_isomorphic(F, graph)


def test_chordal5_is_a_five_cycle_with_one_chord():
    F = parse_task("chordal:5").pattern
    assert F.number_of_edges() == 6 and sorted(len(c) for c in nx.minimum_cycle_basis(F)) == [3, 4]


def test_zhang_hom_tasks_are_eight_named_patterns():
    assert len(ZHANG_HOM_TASKS) == 8
    for name, level in ZHANG_HOM_TASKS:
        F = parse_task(name).pattern
        assert nx.is_connected(F) and parse_task(name).kind == "hom"
        if level == "edge":  # the root edge (0, 1) must be an edge of F
            assert F.has_edge(0, 1)
    for rows in HOM_PATTERNS.values():  # symmetric 0/1 matrices without loops
        assert all(rows[i][j] == rows[j][i] and not rows[i][i] for i in range(len(rows)) for j in range(len(rows)))


@pytest.mark.parametrize("bad", ["", "cycle", "cycle:2", "cycle:9", "cycle:x", "hom:nope", "petersen", "star:0",
                                 "triangle"])
def test_bad_names(bad):
    with pytest.raises(UnknownNameError):
        parse_task(bad)
