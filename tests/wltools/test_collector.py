"""wltools.runtime.collector: the cyclic collector paused inside, as it was after (an error and a
pause inside a pause included), and the commands that pause it leave it on."""

from __future__ import annotations

import gc

import networkx as nx
import pytest

from wltools.check import check_pair
from wltools.errors import UnknownNameError
from wltools.graphs import load_graph
from wltools.iso import canonical_forms, is_isomorphic
from wltools.runtime.collector import paused


def test_restored_after_errors_and_nesting():
    with pytest.raises(ValueError):
        with paused():
            assert not gc.isenabled()
            with paused():
                assert not gc.isenabled()
            assert not gc.isenabled()  # the inner pause leaves the outer one in force
            raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()  # off before, off after
    finally:
        gc.enable()


def test_the_paused_entry_points_leave_it_on():
    G = nx.cycle_graph(12)
    check_pair(G, G, ("1wl",))
    is_isomorphic(G, G)
    canonical_forms([G, G])
    load_graph("petersen")
    with pytest.raises(UnknownNameError):
        load_graph("no-such-graph-name")
    assert gc.isenabled()
