"""The one refinement kernel under every colour-refinement test.

A test is a short :class:`Declaration` (after PyTorch Geometric's ``MessagePassing``, where a layer
declares ``message`` / ``aggregate`` / ``update`` and the engine runs them):

* **what it colours and its initial colouring**: ``init``, the round-0 colours of the elements of
  G and of H (nodes ``[n]``, ordered pairs ``[n, n]``, triples ``[n, n, n]``, marked copies ...),
  ids from one table shared by the two graphs (labels enter here);
* **its aggregation**: ``aggregate(colours of G, colours of H, k)``, one round, giving the new
  joint colour ids of all elements of G then H and ``row_of(i)``, the exact key ``[old colour,
  sorted items...]`` that defines element ``i``'s new colour. The key is built from the
  neighbours the test aggregates over, with the keys it attaches to them (edge labels,
  distances, atomic types); it is turned into ids exactly by :func:`stacked_ids` (all rows at
  once) or :func:`grouped_ids` (rows block by block, bounded memory);
* **its readout** (optional): the colours whose histograms are compared (a subgraph test pools
  pair colours into subgraph colours); by default the element colours themselves;
* ``describe``: how a colour class reads in a witness.

The kernel owns the rest, once for every test (:func:`refine`):

* the **round loop** to stability (:func:`round_loop`, also the loop of a collection's
  refinement): a round that does not increase the number of colour classes leaves the
  partition unchanged (each new key holds the old colour, so partitions only get
  finer), and the loop stops there;
* **exact hashing** (:mod:`wltools.runtime.hashing`, the one routine): keys are grouped by 64-bit
  hashes only to be fast; every group is verified
  entry by entry, and a collision (:class:`~wltools.runtime.hashing.HashCollision`) redoes the
  round with other hash weights, at most :data:`TRIES` times (:func:`with_retries`);
* the **history** (:class:`History`, when asked): the colours of every element at every round,
  the compared colours, and the first round where the two graphs' histograms differ; witnesses,
  drawings (:mod:`wltools.draw.colourings`) and reports read it instead of replaying;
* **verdict-only runs** (:func:`verdict_only`): the loop stops at the first round whose compared
  histograms differ (the verdict and that round are final there: later rounds only refine the
  colourings further), without a witness text; the claims read nothing else;
* the **hooks** for limits and progress: ``progress(t, k)`` after every round, memory budgets of
  the block workspace (:data:`DEFAULT_MAX_BYTES`, :func:`block_rows`) whose peak
  :func:`wltools.refine.cost.peak_bytes` states before a run.

The pair is distinguished iff the compared histograms differ at some round ``t`` (``t = 0``: the
initial colours); the witness names the (at most three) classes whose counts differ most.

Examples
--------
Refining by degree alone: G has degrees ``1, 1, 0`` and H ``0, 0, 0``.

>>> import numpy as np
>>> deg = np.array([1, 1, 0, 0, 0, 0])
>>> def aggregate(cg, ch, k):
...     rows = np.stack([np.concatenate([cg, ch]), deg], axis=1)
...     return stacked_ids(rows)
>>> zeros = np.zeros(3, dtype=np.int64)
>>> h = History()
>>> r = refine(Declaration("degree", (zeros, zeros), aggregate, lambda t, c, *_: f"colour {c}"), history=h)
>>> r.distinguished, r.iteration, r.class_sizes, h.first_diff, len(h.colours)
(True, 1, ((2, 1), (3,)), 1, 2)
>>> r.witness
'iteration 1: colour 0: 2 in G, 0 in H; colour 1: 1 in G, 3 in H'
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from dataclasses import dataclass, field
from typing import Callable, Iterator

import numpy as np

from ..errors import ResourceLimitError
from ..runtime.memory import format_bytes
from ..runtime.hashing import SMALL_KEYS, TRIES, HashCollision, exact_ids, unique_rows, with_retries
from .engine import RefinementResult, class_sizes, no_difference_text, witness_text
from .grouping import RowGrouper

__all__ = ["Declaration", "History", "refine", "round_loop", "Aggregate", "Describe", "Readout", "with_retries", "stacked_ids", "blocked",
           "stacked", "interned_ids", "grouped_ids", "grouped_at_once", "pair_blocks", "rows_by_graph", "TRIES", "DEFAULT_MAX_BYTES",
           "BLOCK_FACTOR", "block_rows", "HashCollision", "verdict_only", "verdict_only_active", "VERDICT_ONLY_WITNESS",
           "round_progress", "grid"]

#: Default budget (bytes) of the block work arrays of a round, and separately of the store of
#: verified rows (:func:`grouped_ids`).
DEFAULT_MAX_BYTES = 256 * 2**20

#: Bytes of one element in a block of rows: the int64 items, the sorted copy numpy makes and the
#: int64 temporaries of hashing and verification.
BLOCK_FACTOR = 4 * 8

#: ``aggregate(colours of G, colours of H, k)`` -> ``(new joint ids of G then H, row_of)``.
Aggregate = Callable[[np.ndarray, np.ndarray, int], "tuple[np.ndarray, Callable[[int], np.ndarray]]"]

#: ``describe(t, colour, row, k)``: colour class ``colour`` of round ``t`` for a witness; ``row`` is
#: its key ``[old colour, items...]`` (``None`` at ``t = 0``), ``k`` the number of colours before it.
Describe = Callable[[int, int, "np.ndarray | None", int], str]

#: ``readout(colours of G, colours of H)`` (flattened) -> ``(compared ids of G, of H, item_text)``;
#: ``item_text(i)`` names compared element ``i`` (``None``: the compared elements are the coloured
#: ones, named by ``describe``).
Readout = Callable[[np.ndarray, np.ndarray], tuple]


#: Whether :func:`refine` stops at the first difference (set by :func:`verdict_only`).
_VERDICT_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("wltools_verdict_only", default=False)

#: The witness of a pair distinguished in a verdict-only run (the round is in the result).
VERDICT_ONLY_WITNESS = "iteration {t}: the colour histograms differ (verdict-only run: no witness)"


@contextlib.contextmanager
def verdict_only(on: bool = True) -> Iterator[None]:
    """Inside, :func:`refine` (every test declared on the kernel) stops at the first round whose
    compared histograms differ: the result has the same ``distinguished`` and ``iteration``,
    ``iterations`` None, no class sizes and :data:`VERDICT_ONLY_WITNESS` for a witness. A pair
    not distinguished is refined to stability as always. Tests with their own exact paths may
    use the flag too (:func:`verdict_only_active`; EPWL's shortcut). ``on=False`` restores full
    runs inside.

    Examples
    --------
    >>> import networkx as nx
    >>> from wltools.refine import refine_pair  # verdict_only below: this module's own
    >>> G, H = nx.path_graph(6), nx.star_graph(5)
    >>> full = refine_pair(G, H, "spd")
    >>> with verdict_only():
    ...     quick = refine_pair(G, H, "spd")
    >>> (quick.distinguished, quick.iteration) == (full.distinguished, full.iteration), quick.iterations
    (True, None)
    """
    token = _VERDICT_ONLY.set(bool(on))
    try:
        yield
    finally:
        _VERDICT_ONLY.reset(token)


#: The progress callback :func:`refine` calls after each round when given none (set by
#: :func:`round_progress`).
_ROUND_PROGRESS: contextvars.ContextVar[Callable[[int, int], None] | None] = contextvars.ContextVar(
    "wltools_round_progress", default=None)


@contextlib.contextmanager
def round_progress(callback: Callable[[int, int], None] | None) -> Iterator[None]:
    """Inside, :func:`refine` (every test declared on the kernel, reached through
    :func:`wltools.refine.refine_pair` or any other caller) calls ``callback(t, k)`` after each
    round ``t`` that reached ``k`` colours, unless given a ``progress`` of its own: how ``wltools
    check`` shows a long refinement's rounds.

    Examples
    --------
    >>> import networkx as nx
    >>> from wltools.refine import refine_pair
    >>> seen = []
    >>> with round_progress(lambda t, k: seen.append((t, k))):
    ...     _ = refine_pair(nx.path_graph(6), nx.path_graph(6), "spd")
    >>> seen
    [(1, 3)]
    """
    token = _ROUND_PROGRESS.set(callback)
    try:
        yield
    finally:
        _ROUND_PROGRESS.reset(token)


def verdict_only_active() -> bool:
    """Whether the caller is inside :func:`verdict_only`."""
    return _VERDICT_ONLY.get()


def block_rows(width: int, per_row: int, max_bytes: int = DEFAULT_MAX_BYTES) -> int:
    """Rows per block so that ``rows * width * BLOCK_FACTOR * per_row <= max_bytes`` (at least 1).

    ``per_row`` is the number of sorted rows one block row makes (``1`` for GD-WL, ``n`` for 3-WL).

    Examples
    --------
    >>> block_rows(500, 500, 256 * 2**20)
    33
    >>> block_rows(10, 1)
    838860
    """
    return max(1, max_bytes // (max(1, width) * max(1, per_row) * BLOCK_FACTOR))


def grouped_at_once(rows: int, width: int, max_bytes: int = DEFAULT_MAX_BYTES) -> bool:
    """Whether :func:`blocked` with ``at_once`` builds a round of ``rows`` rows of ``width``
    items (and a prefix) in one go, numbering its colours by row hash (:func:`prefixed_ids`),
    rather than block by block in order of first appearance.

    Examples
    --------
    >>> grouped_at_once(1000, 10), grouped_at_once(10**9, 10)
    (True, False)
    """
    return rows <= block_rows(width + 1, 1, max_bytes)


def stacked_ids(rows: np.ndarray) -> tuple[np.ndarray, Callable[[int], np.ndarray]]:
    """Exact ids (``0..k-1``, in an arbitrary deterministic order) of all rows of a round at once, and
    ``row_of`` (:func:`~wltools.runtime.hashing.unique_rows`: hashed, verified, exact).

    Examples
    --------
    >>> import numpy as np
    >>> ids, row_of = stacked_ids(np.array([[0, 2], [0, 1], [0, 2]]))
    >>> bool(ids[0] == ids[2] != ids[1]), row_of(1).tolist()
    (True, [0, 1])
    """
    return unique_rows(rows), rows.__getitem__


def stacked(step: Callable) -> Aggregate:
    """The aggregation whose round ``step(cg, ch, k) -> (rows of G, rows of H)`` builds all rows
    at once (int64 ``[old colour, sorted items...]``), grouped by :func:`stacked_ids`."""

    def aggregate(cg, ch, k):
        rg, rh = step(cg, ch, k)
        return stacked_ids(np.concatenate([rg, rh], axis=0))

    return aggregate


def interned_ids(keys: list) -> tuple[np.ndarray, Callable[[int], np.ndarray]]:
    """Exact ids of a round's keys (tuples of ints) by a dict, in order of first appearance, and
    ``row_of``: faster than hashing arrays on small pairs (a few dozen keys).

    Examples
    --------
    >>> ids, row_of = interned_ids([(0, 2), (0, 1), (0, 2)])
    >>> ids.tolist(), row_of(1).tolist()
    ([0, 1, 0], [0, 1])
    """
    table: dict = {}
    ids = [table.setdefault(key, len(table)) for key in keys]
    return np.array(ids, dtype=np.int64), lambda i: np.array(keys[i], dtype=np.int64)


def pair_blocks(size: int, b: int) -> Iterator[np.ndarray]:
    """Global indices of the blocks of at most ``b`` elements of G (``0..size-1``) then H
    (``size..2 size - 1``); a block never straddles the two graphs.

    Examples
    --------
    >>> [idx.tolist() for idx in pair_blocks(3, 2)]
    [[0, 1], [2], [3, 4], [5]]
    """
    for g in (0, 1):
        for lo in range(0, size, b):
            yield np.arange(g * size + lo, g * size + min(size, lo + b))


@functools.lru_cache(maxsize=8)
def grid(shape: tuple) -> tuple[np.ndarray, ...]:
    """The coordinates of all elements of ``shape`` in row-major order (``np.unravel_index`` of
    ``0..size-1``, read-only), the same arrays for every call: :func:`rows_in_range` hands them to
    ``fill`` for a graph taken whole, so a declaration that recognises them (``u is grid(shape)[0]``)
    may build those rows by slicing whole matrices rather than by gathering element by element.

    Examples
    --------
    >>> [c.tolist() for c in grid((2, 3))]
    [[0, 0, 0, 1, 1, 1], [0, 1, 2, 0, 1, 2]]
    >>> grid((2, 3))[0] is grid((2, 3))[0]
    True
    """
    coords = np.unravel_index(np.arange(int(np.prod(shape))), shape)
    for c in coords:
        c.flags.writeable = False
    return tuple(coords)


def rows_in_range(lo: int, hi: int, shape: tuple, fill: Callable) -> tuple[np.ndarray, np.ndarray]:
    """:func:`rows_by_graph` of the global indices ``lo..hi-1``: a range within one graph is
    ``fill``'s own arrays, not a copy; one spanning both is their concatenation. A graph taken
    whole gets the coordinates :func:`grid` ``(shape)`` themselves.

    Examples
    --------
    >>> import numpy as np
    >>> fill = lambda g, u, v: (u * 10 + v + 100 * g, np.stack([u, v], axis=1))
    >>> p, r = rows_in_range(3, 6, (2, 2), fill)
    >>> p.tolist(), r.tolist()
    ([11, 100, 101], [[1, 1], [0, 0], [0, 1]])
    """
    size = int(np.prod(shape))
    parts = []
    for g in (0, 1):
        a, b = max(lo, g * size), min(hi, (g + 1) * size)
        if a < b:
            whole = a == g * size and b == (g + 1) * size
            parts.append(fill(g, *(grid(shape) if whole else np.unravel_index(np.arange(a - g * size, b - g * size), shape))))
    if len(parts) == 1:
        return parts[0]
    return np.concatenate([p for p, _ in parts]), np.concatenate([r for _, r in parts])


def prefixed_ids(prefix: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, Callable[[int], np.ndarray]]:
    """:func:`stacked_ids` of the rows ``[prefix, rows...]``, without building them: the same ids
    (:func:`~wltools.runtime.hashing.unique_rows` takes the first column as the prefix).

    Examples
    --------
    >>> import numpy as np
    >>> p, r = np.array([0, 0, 0]), np.array([[2], [1], [2]])
    >>> a, row_of = prefixed_ids(p, r)
    >>> a.tolist() == stacked_ids(np.concatenate([p[:, None], r], axis=1))[0].tolist(), row_of(1).tolist()
    (True, [0, 1])
    """
    if rows.shape[1] == 0:
        return unique_rows(prefix[:, None]), lambda i: prefix[i : i + 1]
    ids = exact_ids(rows, prefix, order="hash", what="unique rows")
    return ids, lambda i: np.concatenate([prefix[i : i + 1], rows[i]])


def rows_by_graph(idx: np.ndarray, shape: tuple, width: int, fill: Callable) -> tuple[np.ndarray, np.ndarray]:
    """``(prefixes, rows [len(idx), width])`` of the elements at global indices ``idx`` (G's
    elements of ``shape`` first, then H's), filled graph by graph: ``fill(g, *coordinates)``
    returns the prefixes and sorted rows of graph ``g``'s elements at those coordinates.

    Examples
    --------
    >>> import numpy as np
    >>> fill = lambda g, u, v: (u * 10 + v + 100 * g, np.stack([u, v], axis=1))
    >>> p, r = rows_by_graph(np.array([1, 5]), (2, 2), 2, fill)
    >>> p.tolist(), r.tolist()
    ([1, 101], [[0, 1], [0, 1]])
    """
    g, rest = np.divmod(idx, int(np.prod(shape)))
    coords = np.unravel_index(rest, shape)
    out = np.empty((idx.size, width), dtype=np.int64)
    prefix = np.empty(idx.size, dtype=np.int64)
    for gg in (0, 1):
        sel = np.flatnonzero(g == gg)
        if sel.size:
            prefix[sel], out[sel] = fill(gg, *(c[sel] for c in coords))
    return prefix, out


def _few_ids(total: int, blocks: Callable[[], Iterator[tuple]]) -> np.ndarray:
    """:func:`grouped_ids`' ids of a few rows (at most :data:`~wltools.runtime.hashing.SMALL_KEYS`),
    all blocks at once, by :func:`~wltools.runtime.hashing.exact_ids` in order of first
    appearance (a dict of tuples, exact by equality): the ids :class:`RowGrouper` gives, without
    its numpy calls a block, which outweigh the work on a small graph's round."""
    parts = list(blocks())
    order = np.concatenate([idx for idx, _, _ in parts])
    ids = np.empty(total, dtype=np.int64)
    ids[order] = exact_ids(np.concatenate([r for _, _, r in parts]), np.concatenate([p for _, p, _ in parts]),
                           order="first")
    return ids


def grouped_ids(total: int, rows: Callable, blocks: Callable[[], Iterator[tuple]], max_bytes: int,
                what: str) -> tuple[np.ndarray, Callable[[int], np.ndarray]]:
    """Exact ids of the ``total`` rows of a round given block by block
    (:class:`~wltools.refine.grouping.RowGrouper`), with the retry of :func:`with_retries`.

    ``blocks()`` yields ``(global indices, prefixes, sorted rows)``; ``rows(indices)`` recomputes
    ``(prefixes, rows)`` of any indices (representatives beyond the store, ``row_of``). A block
    is dropped before the next is made, so one block is alive at a time. At most
    :data:`~wltools.runtime.hashing.SMALL_KEYS` rows (a small graph's round) are numbered by a
    dict instead (:func:`_few_ids`), the same ids.

    Examples
    --------
    >>> import numpy as np
    >>> X, P = np.array([[1, 2], [3, 4], [1, 2]]), np.zeros(3, dtype=np.int64)
    >>> def blocks():
    ...     yield np.arange(2), P[:2], X[:2]
    ...     yield np.arange(2, 3), P[2:], X[2:]
    >>> ids, row_of = grouped_ids(3, lambda idx: (P[idx], X[idx]), blocks, 2**20, "demo")
    >>> ids.tolist(), row_of(2).tolist()
    ([0, 1, 0], [0, 1, 2])
    """

    def attempt(salt):
        grouper = RowGrouper(total, rows, max_bytes, salt)
        for block in blocks():
            grouper.add(*block)
            del block
        return grouper.ids

    ids = _few_ids(total, blocks) if 0 < total <= SMALL_KEYS else with_retries(attempt, what)

    def row_of(i):
        prefix, r = rows(np.array([i]))
        return np.concatenate([prefix, r[0]])

    return ids, row_of


def blocked(rows_at: Callable, shape: tuple, width, *, slabs: Callable | None = None,
            prepare: Callable | None = None, at_once: bool = False,
            max_bytes: int = DEFAULT_MAX_BYTES, what: str = "refinement") -> Aggregate:
    """The aggregation of a test whose elements (``shape`` per graph, e.g. ``(n, n)``) each get a
    row of ``width`` sorted items (``width(k)`` when it depends on the number ``k`` of colours),
    built and grouped block by block in bounded memory (:func:`grouped_ids`): the kernel's memory
    blocking, so a declaration states only its rows.

    ``rows_at(g, C, k, *coordinates)`` gives the prefixes (``C`` at those elements) and the
    sorted rows of graph ``g``'s elements at the given coordinates (``C``: its colours, in
    ``shape``). ``slabs(g, C, k)``, optional, returns ``slab(lo, hi)``: the sorted rows of all
    elements whose first coordinate is in ``lo..hi-1`` in row-major order, built at once (faster
    than ``rows_at`` where the rows share work; blocks then follow the first coordinate). Blocks
    hold at most ``max_bytes`` of work arrays (:func:`block_rows`) and never straddle the graphs;
    colour ids come in order of first appearance over G's then H's elements in row-major order.

    ``prepare(cg, ch, k)``, optional, computes once a round what the rows of both graphs read
    (padded copies, joint ids of columns ...) and returns one value per graph, passed to
    ``rows_at`` in place of ``C``. With ``at_once``, a round whose rows with their prefixes fit
    one block is built in one go and grouped by :func:`stacked_ids` instead (ids then in
    :func:`stacked_ids`' order).

    Examples
    --------
    Degree refinement of nodes (``shape (n,)``, one item a row):

    >>> import numpy as np
    >>> deg = (np.array([1, 1, 0]), np.array([0, 0, 0]))
    >>> aggregate = blocked(lambda g, C, k, v: (C[v], deg[g][v][:, None]), (3,), 1)
    >>> ids, row_of = aggregate(np.zeros(3, np.int64), np.zeros(3, np.int64), 1)
    >>> ids.tolist(), row_of(2).tolist()
    ([0, 0, 1, 1, 1, 1], [0, 0])
    """
    size = int(np.prod(shape))
    rest = size // shape[0] if size else 1

    def aggregate(cg, ch, k):
        mats = (cg, ch) if prepare is None else prepare(cg, ch, k)
        flat = (cg.reshape(-1), ch.reshape(-1))
        w = width(k) if callable(width) else width

        def fill(g, *coords):
            return rows_at(g, mats[g], k, *coords)

        def rows(idx):
            return rows_by_graph(idx, shape, w, fill)

        if at_once and grouped_at_once(2 * size, w, max_bytes):
            prefix, r = rows_in_range(0, 2 * size, shape, fill)
            return prefixed_ids(prefix, r)

        def blocks():
            if slabs is None:
                for idx in pair_blocks(size, block_rows(w, 1, max_bytes)):
                    yield (idx, *rows_in_range(int(idx[0]), int(idx[-1]) + 1, shape, fill))
                return
            b = block_rows(w, rest, max_bytes)
            for g in (0, 1):
                slab = slabs(g, mats[g], k)
                for lo in range(0, shape[0], b):
                    a, z = lo * rest, min(shape[0], lo + b) * rest
                    yield np.arange(g * size + a, g * size + z), flat[g][a:z], slab(lo, min(shape[0], lo + b))
                del slab

        return grouped_ids(2 * size, rows, blocks, max_bytes, what)

    return aggregate


@dataclass
class Declaration:
    """One test, declared (module docstring): its name, initial colouring, aggregation,
    witness text and, optionally, readout, a bound on the rounds, and ``compare=False`` for a
    refinement to stability whose histograms its caller compares otherwise."""

    test: str
    init: tuple  # (colours of G, colours of H) at round 0: any shape, one shared table
    aggregate: Aggregate
    describe: Describe
    readout: Readout | None = None
    max_rounds: int | None = None
    compare: bool = True  # False: only refine to stability (the result then holds the rounds only)


@dataclass
class History:
    """What :func:`refine` saw, round by round (pass one to record it).

    Attributes
    ----------
    colours : list of (array, array)
        Per round ``t = 0..rounds``, the colours of the elements of G and H in their shape, ids
        from one table shared by the two graphs (renumbered ``0..k-1`` at round 0).
    compared : list of (array, array)
        Per round, the (flattened) colours whose histograms the test compares.
    first_diff : int or None
        First round at which the compared histograms differ.
    """

    colours: list = field(default_factory=list)
    compared: list = field(default_factory=list)
    first_diff: int | None = None
    every_round: bool = True  # False: keep the last round only (``colours[-1]``; ``rounds`` unknown)
    max_bytes: int | None = None  # the bound on what is kept: beyond it, ResourceLimitError (one line)
    nbytes: int = 0  # what is kept

    def _keep(self, colours: tuple, compared: tuple | None, test: str = "") -> None:
        if not self.every_round:
            self.colours.clear()
            self.compared.clear()
            self.nbytes = 0
        self.colours.append(colours)
        if compared is not None:
            self.compared.append(compared)
        self.nbytes += sum(int(a.nbytes) for a in (*colours, *(compared or ())))
        if self.max_bytes is not None and self.nbytes > self.max_bytes:
            t = len(self.colours) - 1
            self.colours.clear()
            self.compared.clear()
            raise ResourceLimitError(
                f"the colourings of {test} at every round pass {format_bytes(self.max_bytes)} at round "
                f"{t} ({sum(c.size for c in colours):,} elements a round); draw a smaller pair, "
                "or check it without drawing")

    @property
    def rounds(self) -> int:
        """Rounds until the colouring is stable."""
        return len(self.colours) - 1


def _compared(decl: Declaration, cg: np.ndarray, ch: np.ndarray, k: int):
    """The compared colours of G and H, their number bound, and the namer of compared element i."""
    if decl.readout is None:
        return cg, ch, k, None
    pg, ph, item_text = decl.readout(cg, ch)
    kk = int(max(pg.max(), ph.max())) + 1 if pg.size else 0
    return pg, ph, kk, item_text


def _first_index(colours: np.ndarray) -> Callable[[int], int]:
    """``first(c)``: the first position of colour ``c`` (a list search on small arrays, which beats
    numpy's call overhead there; a numpy scan on large ones, without a Python list of them)."""
    if colours.size <= 4096:
        return colours.tolist().index
    return lambda c: int(np.flatnonzero(colours == c)[0])


def _dense(colours: np.ndarray) -> tuple[np.ndarray, int]:
    """The colours renumbered ``0..k-1`` in sorted order (unchanged when they already are), and ``k``."""
    if not colours.size:
        return colours.astype(np.int64), 0
    top = int(colours.max()) + 1
    if colours.dtype.kind in "iu" and int(colours.min()) >= 0 and top <= 2 * colours.size:
        if np.bincount(colours, minlength=top).all():
            return colours.astype(np.int64, copy=False), top
    joint = np.unique(colours, return_inverse=True)[1].reshape(-1)
    return joint, int(joint.max()) + 1


def round_loop(k: int, propose: Callable[[int], tuple], accept: Callable[[int, object, int], None], *,
               max_rounds: int | None = None, stop: Callable[[], bool] | None = None,
               progress: Callable[[int, int], None] | None = None) -> tuple[int, bool]:
    """The round loop of every refinement, a pair's (:func:`refine`) or a collection's
    (:func:`wltools.dataset.refine.refine_collection`), with its one stopping rule.

    ``propose(k)`` builds the next round from ``k`` colours and returns ``(k_new, pending)``;
    the colouring is stable when ``k_new <= k`` (each new key holds the old colour, so a round
    that adds no class changes no class), and the loop ends there without accepting it.
    Otherwise ``accept(t, pending, k)`` makes it round ``t`` and ``progress(t, k_new)`` is
    called. The loop also ends after ``max_rounds`` rounds or when ``stop()`` says so (checked
    before each round). Returns the rounds run and whether the colouring was found stable.

    Examples
    --------
    Classes 1, 2, 4, 4: two rounds add classes, the third does not.

    >>> sizes = iter([2, 4, 4])
    >>> seen = []
    >>> round_loop(1, lambda k: (next(sizes), None), lambda t, _, k: seen.append((t, k)))
    (2, True)
    >>> seen
    [(1, 1), (2, 2)]
    """
    t = 0
    while (max_rounds is None or t < max_rounds) and not (stop is not None and stop()):
        k_new, pending = propose(k)
        if k_new <= k:
            return t, True
        t += 1
        accept(t, pending, k)
        k = k_new
        if progress is not None:
            progress(t, k)
    return t, False


def refine(decl: Declaration, *, history: History | None = None,
           progress: Callable[[int, int], None] | None = None) -> RefinementResult:
    """Refine a declared test on a pair to stability (module docstring): the verdict, the first
    round whose compared histograms differ, the rounds, the stable class sizes and a witness.

    ``history`` (a :class:`History`) is filled with every round's colours when given;
    ``progress(t, k)`` is called after each round ``t`` that reached ``k`` colours. Inside
    :func:`verdict_only` (and without a ``history``) the loop ends at the first difference.
    """
    init_g, init_h = decl.init
    shape_g, shape_h = init_g.shape, init_h.shape
    ng = init_g.size
    joint, k = _dense(np.concatenate([init_g.reshape(-1), init_h.reshape(-1)]))
    cg, ch = joint[:ng], joint[ng:]
    first_t, witness = None, ""
    until_difference = decl.compare and history is None and _VERDICT_ONLY.get()

    def check(t, row_of, k_before):
        nonlocal first_t, witness
        if (first_t is not None or not decl.compare) and (history is None or not history.every_round):
            if history is not None:
                history._keep((cg.reshape(shape_g), ch.reshape(shape_h)), None, decl.test)
            return
        pg, ph, kk, item_text = _compared(decl, cg, ch, k)
        if history is not None:
            history._keep((cg.reshape(shape_g), ch.reshape(shape_h)), (pg, ph), decl.test)
        if first_t is not None:
            return
        hg, hh = np.bincount(pg, minlength=kk), np.bincount(ph, minlength=kk)
        diff = np.flatnonzero(hg != hh)
        if not diff.size:
            return
        first_t = t
        if until_difference:
            witness = VERDICT_ONLY_WITNESS.format(t=t)
            return
        first = _first_index(np.concatenate([pg, ph]))

        def text(c):
            i = first(c)
            if item_text is not None:
                return item_text(i)
            return decl.describe(t, c, None if row_of is None else row_of(i), k_before)

        witness = witness_text(t, diff.tolist(), hg, hh, text)

    check(0, None, k)

    def propose(k):
        new, row_of = decl.aggregate(cg.reshape(shape_g), ch.reshape(shape_h), k)
        k_new = int(new.max()) + 1 if new.size else 0
        return k_new, (new, row_of, k_new)

    def accept(t, pending, k_before):
        nonlocal cg, ch, k
        new, row_of, k = pending
        cg, ch = new[:ng], new[ng:]
        check(t, row_of, k_before)

    t, _ = round_loop(k, propose, accept, max_rounds=decl.max_rounds,
                      stop=lambda: until_difference and first_t is not None,
                      progress=progress if progress is not None else _ROUND_PROGRESS.get())
    if history is not None:
        history.first_diff = first_t
    if not decl.compare:  # the caller compares: no class sizes, no witness
        return RefinementResult.from_histograms(decl.test, None, t, ((), ()), "")
    if until_difference and first_t is not None:
        return RefinementResult.from_histograms(decl.test, first_t, None, ((), ()), witness)
    if first_t is None:
        witness = no_difference_text(t, len(set(cg.tolist())))
    return RefinementResult.from_histograms(decl.test, first_t, t, (class_sizes(cg, k), class_sizes(ch, k)), witness)
