"""The hierarchy of the tests, computed: certified pairs that separate one test from another.

:func:`~wltools.hierarchy.separate.separate` finds the smallest non-isomorphic pair that a test B
distinguishes and a test A does not, and returns it with a certificate that re-checks every claim
(A's verdict run to stability, B's round and witness, a pattern with different homomorphism counts
from two independent counters, non-isomorphism from canonical forms). The pairs come from Fürer
graphs (:mod:`wltools.hierarchy.furer`), the graph atlas, and pair sets a caller passes in.
:func:`~wltools.hierarchy.table.hierarchy` places every ordered pair of a list of tests from that
evidence in one sweep, and draws the Hasse diagram.
"""

from .furer import furer_graph, furer_pair, furer_size
from .separate import Certificate, NotFound, separate, verify_certificate
from .table import Hierarchy, draw_hasse, hierarchy

__all__ = ["furer_graph", "furer_pair", "furer_size", "separate", "Certificate", "NotFound",
           "verify_certificate", "hierarchy", "Hierarchy", "draw_hasse"]
