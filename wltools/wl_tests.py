"""The WL-family tests wltools knows: their names, their labels in tables, the RRWP default.

The one definition of these constants, imported by :mod:`wltools.refine`, the CLI, the BREC runner
and the claims. Pure constants: importing this module imports nothing.

Examples
--------
>>> [TEST_LABELS[t] for t in TESTS]
['1-WL', 'SPD-WL', 'RD-WL', 'RRWP-WL', '3-WL']
>>> [TEST_LABELS[t] for t in EXTRA_TESTS]
['EPWL', 'EPWL-L']
"""

__all__ = ["TESTS", "EXTRA_TESTS", "ALL_TESTS", "TEST_LABELS", "DEFAULT_RRWP_STEPS"]

#: Test names, weakest first: 1-WL; GD-WL with shortest-path distance, resistance distance or
#: RRWP (PPGT App. E Eq. 13, GRIT Eq. 4); 3-WL as 2-FWL.
TESTS = ("1wl", "spd", "rd", "rrwp", "3wl")

#: Tests outside the default tables (the BREC theory columns are :data:`TESTS`): EPWL, eigenspace
#: projection WL over the adjacency matrix or the Laplacian ``D - A`` (Zhang, Zhao & Maron 2024;
#: Gai et al. 2025), exact through walk counts (:mod:`wltools.refine.epwl`).
EXTRA_TESTS = ("epwl", "epwl-lap")

#: Every test name :func:`wltools.refine.refine_pair` accepts.
ALL_TESTS = TESTS + EXTRA_TESTS

#: Label of each test in tables and reports.
TEST_LABELS = {"1wl": "1-WL", "spd": "SPD-WL", "rd": "RD-WL", "rrwp": "RRWP-WL", "3wl": "3-WL",
               "epwl": "EPWL", "epwl-lap": "EPWL-L"}

#: RRWP steps ``K`` (channels ``I, M, ..., M^(K-1)``, GRIT Eq. 1) of the BREC theory tables.
DEFAULT_RRWP_STEPS = 32
