"""Graph distances used by distance-based WL tests and by the models' positional encodings.

One definition of each distance, in an exact form (for colour refinement) and a float form (for
the models' encodings), a module each:

* :mod:`~wltools.distances.spd`: **SPD**, the shortest-path distance; ``-1`` = unreachable.
* :mod:`~wltools.distances.resistance`: **RD**, the resistance distance per connected component;
  between components the infinite symbol :data:`INF` (``inf`` as float).
* :mod:`~wltools.distances.rrwp`: **RRWP**, relative random-walk probabilities, GRIT Eq. (1).
* :mod:`~wltools.distances.encodings`: the float forms (torch tensors) for the models.
* :mod:`~wltools.distances.keys`: shared integer keys of one distance over several graphs, for
  colour refinement (only *equality* of values matters there).
* :mod:`~wltools.distances.modular`: the exact integer arithmetic behind the keys (primes,
  inverses modulo a prime, CRT / Garner lifting, exact row ids).

Every exact scheme is deterministic and proved exact (no rounding; hashing only where verified).
Importing this package does not import torch: the float forms load
:mod:`~wltools.distances.encodings` on first use.

Examples
--------
>>> import networkx as nx
>>> spd_matrix(nx.cycle_graph(4))[0].tolist()
[0, 1, 2, 1]
>>> resistance_exact(nx.cycle_graph(4))[0][2]
Fraction(1, 1)
"""

from __future__ import annotations

from .adjacency import adjacency_csr, adjacency_matrix
from .keys import DISTANCES, distance_keys
from ..runtime.hashing import unique_rows
from .resistance import INF, resistance_exact, resistance_keys, resistance_keys_and_values
from .rrwp import rrwp_exact, rrwp_keys
from .spd import spd_keys, spd_matrix

__all__ = [
    "INF",
    "DISTANCES",
    "adjacency_matrix",
    "adjacency_csr",
    "spd_keys",
    "resistance_keys_and_values",
    "spd_matrix",
    "resistance_exact",
    "rrwp_exact",
    "spd_float",
    "resistance_float",
    "rrwp_float",
    "distance_keys",
    "rrwp_keys",
    "resistance_keys",
    "unique_rows",
]

_FLOAT_FORMS = ("spd_float", "resistance_float", "rrwp_float")


def __getattr__(name: str):
    if name in _FLOAT_FORMS:
        from . import encodings

        return getattr(encodings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_FLOAT_FORMS))
