"""Pictures and tables of refinement results: per-round node colourings of a pair
(:mod:`wltools.draw.colourings`), side-by-side drawings (:mod:`wltools.draw.figure`) and notebook
tables of check results (:mod:`wltools.draw.display`).

Examples
--------
>>> import networkx as nx
>>> pc = pair_colouring(nx.path_graph(4), nx.star_graph(3), "1wl")
>>> pc.shown_round, pc.differing[0]
(1, (1, 2, 0))
"""

from .colourings import DRAWABLE_TESTS, PairColouring, UnsupportedTestError, colour_rounds, is_drawable, pair_colouring

__all__ = ["DRAWABLE_TESTS", "PairColouring", "UnsupportedTestError", "colour_rounds", "is_drawable", "pair_colouring"]
