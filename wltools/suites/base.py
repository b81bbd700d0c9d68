"""What every suite shares: the data folder, checksums, the pair type and the suite record.

A suite is a named set of graph pairs with a stated rule for how its pairs are formed. Its graphs
come either from a committed file under ``data/suites/`` (checked against the SHA-256 recorded
here before it is read) or from a generator. :class:`Suite` holds the description, the files,
the counts published or established elsewhere, and a ``build`` function returning
:class:`SuiteData`: all graphs, the pairs as indices into them, and the groups of graphs that must
be isomorphic copies of each other (CSL's relabelled copies).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import networkx as nx
import numpy as np

from ..graphs.pair import GraphPair, degree_summary

__all__ = [
    "DATA_DIR",
    "CHECKSUMS",
    "SuitePair",
    "SuiteData",
    "Suite",
    "data_path",
    "check_file",
    "read_graph6_file",
    "graph6_text",
    "degree_summary",
    "all_pairs",
]

#: Folder holding the committed suite files (``data/suites`` of the repository).
DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "suites"

#: SHA-256 of every committed suite file (paths relative to :data:`DATA_DIR`), as published in
#: the provenance note ``data/suites/README.md``.
CHECKSUMS: dict[str, str] = {
    "exp/exp.g6": "b7a5bc4b03e2cbdb8b638ded03b291381e3a0ae8e2aff94a997e54e91d8c77d1",
    "exp/exp_labels.csv": "d08f92d44cff1e90f1f08991d72ac3022adf346a3bcb468dcf878179f7fe7ca7",
    "exp/GRAPHSAT.txt": "16f24a5ad96400b2d53eb5cd2843fb2006e50ed67821f6c4abe5ae23100bf899",
    "exp/LICENSE-GNN-RNI": "3972dc9744f6499f0f9b2dbf76696f2ae7ad8af9b23dde66d6af86c9dfb36986",
    "cexp/GRAPHSAT.txt": "711521591cb429f774cb6864d3fc80ff20e65a1ec14c1874aad9918a3eec332a",
    "cexp/LICENSE-GNN-RNI": "3972dc9744f6499f0f9b2dbf76696f2ae7ad8af9b23dde66d6af86c9dfb36986",
    "sr/sr16622.g6": "2e258d3499c8e0f4bf1a9b98edb8bb5956bca794a0c07787d5227121044c50c1",
    "sr/sr251256.g6": "f55f86eb48cd61c3315c62341cc3a8c59289c58504edb3ab859d7ef2068b9aa4",
    "sr/sr261034.g6": "f0b4b4ad4507835703444c0f0990733e2f7cc31524cf91d04ba4a109f1fd52ac",
    "sr/sr281264.g6": "3859424c3e8facd4d3be701ff91fe38d5c43c7b7c1c0562a5d912b096a7ed2aa",
    "sr/sr291467.g6": "ea303aa60f98f01e6cc619884cd7d5716bfc00c38b7feaee080c7ff312781625",
    "sr/sr401224.g6": "b899979459e6304bfff848d112d0ac8d738c837e5e21dc6e9d310a386aee8be6",
    "sr/LICENSE-cwn": "22a6e66e25e95d805d20667b3b8c4be15e4a283ce00069d3e0d11c14ae584b91",
    "graph8c/graph8c.g6": "0002354f1ab3344a2706626a037ad15367bf23a2163aa68f552c3a169ca9a036",
    "certified/certified.g6": "0ba0fbb5df1f067ce6abb25530d08100139bca2b4d2f92bcca42723b86b24b50",
    "certified/pairs.json": "0ba8435611a80ef48941e8681c27c4368c112d2850b8e49264c3cf023b9d7f7e",
}


@dataclass(frozen=True, eq=False, repr=False)
class SuitePair(GraphPair):
    """One pair of a suite; the same fields as :class:`brec_runner.runs.dataset.BrecPair`.

    Attributes
    ----------
    id : int
        Index of the pair in its suite, ``0..len(pairs)-1``.
    category : str
        The suite's name (``"exp"``, ``"sr25"``, ...).
    subcategory : str
        A finer group where the suite has one (CEXP: ``added_edges`` / ``equal_edges``; CSL: the
        two skip lengths), otherwise the suite's name.
    g, h : networkx.Graph
        The two graphs, nodes ``0..n-1``, frozen.
    meta : dict
        ``suite``, ``source`` (file and graph indices, or the generator), ``graphs`` (the two
        indices in the suite's graph list), ``n``, ``m``, ``degrees`` (per graph), ``regularity``,
        ``graph6`` and suite-specific facts (CSL skips, EXP node types, ...).
    """


@dataclass
class SuiteData:
    """What a suite's ``build`` returns.

    Attributes
    ----------
    graphs : list of nx.Graph
        Every graph of the suite (nodes ``0..n-1``).
    pairs : list of (int, int, str, dict)
        ``(i, j, subcategory, extra meta)``: indices into ``graphs``.
    copies : list of list of int
        Groups of graph indices that must be isomorphic (relabelled copies of one class).
    sources : list of str
        Where graph ``i`` comes from (``"exp/exp.g6 line 7"``, ``"C(41, 2) copy 3"``).
    node_meta : dict
        Per-graph facts to carry into a pair's meta, by key: ``{key: list over graphs}``.
    """

    graphs: list
    pairs: list
    copies: list = field(default_factory=list)
    sources: list = field(default_factory=list)
    node_meta: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Suite:
    """A registered suite.

    Attributes
    ----------
    name, title : str
    pairs_rule : str
        How the pairs are formed and counted, in one sentence.
    source : str
        Paper and repository the graphs come from (or the generator's recipe).
    licence : str
    files : tuple of str
        Committed files read (relative to :data:`DATA_DIR`), checked against :data:`CHECKSUMS`.
    expected : dict
        ``{test: (pairs separated, where this count comes from)}``: counts published or
        established by an argument; the tests check them.
    build : callable
        ``build() -> SuiteData``.
    extra_checks : callable, optional
        ``extra_checks(data, certificates) -> list of str``: suite-specific integrity checks run
        by :func:`wltools.suites.verify_suite_data` (raise ``DataIntegrityError``; return what was
        checked, one sentence each).
    core : bool
        One of the four suites of the issue (csl, exp, sr25, graph8c); the others are extras.
    """

    name: str
    title: str
    pairs_rule: str
    source: str
    licence: str
    files: tuple
    expected: dict
    build: Callable[[], SuiteData]
    extra_checks: Callable | None = None
    core: bool = False


def data_path(rel: str) -> Path:
    """Absolute path of a committed suite file."""
    return DATA_DIR / rel


def check_file(rel: str) -> Path:
    """The path of committed file ``rel`` after checking it exists and has its recorded SHA-256.

    Raises
    ------
    DataIntegrityError
        Missing file or wrong checksum.

    Examples
    --------
    >>> check_file("sr/sr16622.g6").name
    'sr16622.g6'
    """
    from wltools.runtime.shipped import check_shipped

    return check_shipped(data_path(rel), CHECKSUMS[rel], "suite file")


def read_graph6_file(rel: str) -> list[nx.Graph]:
    """The graphs of a checked graph6 file, one per line (an optional ``>>graph6<<`` header is
    stripped), nodes ``0..n-1`` in graph6 order, read by networkx's ``from_graph6_bytes``. No
    further validation: the file's SHA-256 is the committed one (:func:`check_file`), and graph6
    encodes only simple undirected graphs on ``0..n-1`` (``verify-data`` checks each graph simple;
    through :func:`wltools.graphs.parse_graph6` graph8c's 11,117 graphs took 6.3 CPU-s, 2.2 s so).

    Examples
    --------
    >>> [G.number_of_nodes() for G in read_graph6_file("sr/sr16622.g6")]
    [16, 16]
    """
    path = check_file(rel)
    lines = [ln.strip() for ln in path.read_bytes().split(b"\n") if ln.strip()]
    if lines and lines[0].startswith(b">>graph6<<"):
        lines[0] = lines[0][len(b">>graph6<<"):]
    return [nx.from_graph6_bytes(ln) for ln in lines]


def all_pairs(k: int, sub: str) -> list[tuple[int, int, str, dict]]:
    """``(i, j, sub, {})`` for all ``0 <= i < j < k``: the pairs of a family.

    Examples
    --------
    >>> all_pairs(3, "x")
    [(0, 1, 'x', {}), (0, 2, 'x', {}), (1, 2, 'x', {})]
    """
    return [(i, j, sub, {}) for i in range(k) for j in range(i + 1, k)]


def graph6_text(G: nx.Graph) -> str:
    """``nx.to_graph6_bytes(G, header=False)`` as text without its newline (McKay's graph6: the
    order, then the upper triangle of the adjacency matrix column by column, six bits a byte plus
    63), over the nodes in ``G``'s order, as networkx numbers them; by numpy, not bit by bit in
    Python (about 9 ms for a 50-node graph in networkx).

    Examples
    --------
    >>> graph6_text(nx.path_graph(3)), nx.to_graph6_bytes(nx.path_graph(3), header=False)
    ('Bg', b'Bg\\n')
    """
    n = G.number_of_nodes()
    if n < 63:
        head = bytes([n + 63])
    elif n < 258048:
        head = bytes([126] + [(n >> s) % 64 + 63 for s in (12, 6, 0)])
    else:
        head = bytes([126, 126] + [(n >> s) % 64 + 63 for s in (30, 24, 18, 12, 6, 0)])
    at = {v: i for i, v in enumerate(G)}
    A = np.zeros((n, n), dtype=np.uint8)
    if G.number_of_edges():
        e = np.array([(at[u], at[v]) for u, v in G.edges()], dtype=np.int64)
        A[e[:, 0], e[:, 1]] = A[e[:, 1], e[:, 0]] = 1
    # bit (i, j), i < j, column by column: row j of the lower triangle, in row-major order
    bits = A[np.tril_indices(n, -1)]
    bits = np.concatenate([bits, np.zeros(-bits.size % 6, dtype=np.uint8)]).reshape(-1, 6)
    body = (bits @ np.array([32, 16, 8, 4, 2, 1], dtype=np.uint8) + 63).astype(np.uint8).tobytes()
    return (head + body).decode("ascii")
