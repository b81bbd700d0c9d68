"""The 400 BREC pairs, their categories, relabelings, reliability sets and PyG conversion.

BREC (Wang & Zhang, "Towards Better Evaluation of GNN Expressiveness with BREC Dataset", 2023/2024;
arXiv:2304.07702) is a set of 400 pairs of non-isomorphic, 1-WL-indistinguishable graphs in six
groups. The raw files are committed in ``data/brec/`` (see its README for the file layouts); this
module is the one place that knows how ids map to files and categories:

======================  =========  ======================================================
category                ids        file / subcategory
======================  =========  ======================================================
``basic``               0-59       basic.npy (consecutive)
``regular``             60-159     ``simple_regular`` 60-109 (regular.npy, rows) and
                                   ``strongly_regular`` 110-159 (str.npy, consecutive)
``extension``           160-259    extension.npy (rows)
``cfi``                 260-359    cfi.npy (rows)
``4vertex``             360-379    4vtx.npy (consecutive)
``distance_regular``    380-399    dr.npy (consecutive)
======================  =========  ======================================================

The published tables' "Regular (140)" grouping is available as ``regular140`` (ids 60-159 and
360-399). Selection names accepted by :func:`load_pairs` are the categories, the two subcategories
and ``regular140``.

The Reliable Paired Comparison protocol (BREC paper, Sec. 3 "Evaluation"; data/brec/README.md)
evaluates a model on 32 relabelings of each graph of a pair, interleaved ``G1, H1, G2, H2, ...``
with the first of each as given (:func:`relabelings`), and on a reliability set of 64 relabelings
of one graph of the pair (:func:`reliability_set`). As in the reference evaluator
(``generate_relabel``, docs/protocol.md difference 1) the labelled copies of one graph are pairwise
distinct: a draw that repeats a labelled graph already in the set is rejected and drawn again from
the same generator, so a set without repeats is exactly the plain sequence of draws.

Graphs returned by :func:`load_pairs` are frozen (``networkx.freeze``); copy before editing.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Iterable, Sequence

import networkx as nx
import numpy as np

from wltools.errors import DataIntegrityError, UnknownNameError
from wltools.runtime.shipped import check_shipped
from wltools.graphs import check_simple, permute_graph
from wltools.graphs.pair import GraphPair, degree_summary

from .protocol import Protocol

#: The published protocol: its relabelling seed and counts are the defaults here.
_PUBLISHED = Protocol()

__all__ = [
    "DATA_DIR",
    "NUM_PAIRS",
    "CATEGORIES",
    "SUBCATEGORIES",
    "GROUPS",
    "SELECTION_NAMES",
    "CATEGORY_IDS",
    "BrecPair",
    "parse_id_ranges",
    "select_ids",
    "load_pairs",
    "raw_graph6",
    "relabeling_plan",
    "relabelings",
    "reliability_plan",
    "reliability_set",
    "to_pyg",
    "verify_data",
    "RELABEL_RULE",
    "dataset_digest",
    "suite_digest",
    "pairs_of",
]

#: Version of the rule that turns (pair, seed) into relabelled copies; part of every run's settings.
RELABEL_RULE = "distinct-redraw-v2"

#: Folder holding the committed raw BREC files.
DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "brec"
NUM_PAIRS = 400

# (file, layout, first id, number of pairs, category, subcategory); layouts as in data/brec/README.md
_FILES: tuple[tuple[str, str, int, int, str, str], ...] = (
    ("basic.npy", "consecutive", 0, 60, "basic", "basic"),
    ("regular.npy", "rows", 60, 50, "regular", "simple_regular"),
    ("str.npy", "consecutive", 110, 50, "regular", "strongly_regular"),
    ("extension.npy", "rows", 160, 100, "extension", "extension"),
    ("cfi.npy", "rows", 260, 100, "cfi", "cfi"),
    ("4vtx.npy", "consecutive", 360, 20, "4vertex", "4vertex"),
    ("dr.npy", "consecutive", 380, 20, "distance_regular", "distance_regular"),
)

#: The six BREC categories in id order ("regular" = simple regular + strongly regular, as BREC's
#: own code reports it).
CATEGORIES: tuple[str, ...] = ("basic", "regular", "extension", "cfi", "4vertex", "distance_regular")
#: Subcategories of ``regular``.
SUBCATEGORIES: tuple[str, ...] = ("simple_regular", "strongly_regular")
#: Groupings of the published tables.
GROUPS: dict[str, tuple[int, ...]] = {
    "regular140": tuple(range(60, 160)) + tuple(range(360, 400)),
}


#: SHA-256 of the committed BREC files (:func:`wltools.runtime.shipped.check_shipped` before each is read).
CHECKSUMS: dict[str, str] = {
    "4vtx.npy": "a9e593c485f3fa08d3db967d7c545a4f5cf7f417f016c9a77a5c1cc646786cea",
    "basic.npy": "adef7f761b803026b515d94172399f5db72fe73859b0e489a1edfaa5874aeec2",
    "cfi.npy": "e8d56d7c0a22768da8dfdcaae800bc8dc815fb10b1bf1b52dc7893ed68c4e92f",
    "dr.npy": "11b861e1439ddee4c58fa04b523e874c25fdbb4ba867f3ac9104711cb3739d89",
    "extension.npy": "9b76b59842f997a502a83724daba033d793c5fbc9c2aa758834beb78d2309d4a",
    "regular.npy": "e9e85ff2003f50676e2a2ac7ef70b8ad919598c3042aaf8f5f6f43184bfdc663",
    "str.npy": "6de58d99b80b7ace4529d17cf8fe3d000b496b3c2a7ab7f59fe3f28f61746d6f",
}


def _category_ids() -> dict[str, tuple[int, ...]]:
    ids: dict[str, list[int]] = {}
    for _file, _layout, first, count, cat, sub in _FILES:
        ids.setdefault(cat, []).extend(range(first, first + count))
        if sub != cat:
            ids.setdefault(sub, []).extend(range(first, first + count))
    out = {name: tuple(v) for name, v in ids.items()}
    out.update(GROUPS)
    return out


#: Pair ids of every selection name (categories, subcategories, groups).
CATEGORY_IDS: dict[str, tuple[int, ...]] = _category_ids()
#: Every name :func:`load_pairs` accepts as a category.
SELECTION_NAMES: tuple[str, ...] = CATEGORIES + SUBCATEGORIES + tuple(GROUPS)


@dataclass(frozen=True, eq=False, repr=False)
class BrecPair(GraphPair):
    """One BREC pair.

    Attributes
    ----------
    id : int
        BREC pair id, 0..399.
    category, subcategory : str
        See the module docstring (``subcategory == category`` outside ``regular``).
    g, h : networkx.Graph
        The two graphs as given in the raw files (nodes 0..n-1, frozen).
    meta : dict
        Readable facts: ``n``, ``m`` (per graph, as a pair ``[G, H]``), ``degrees`` (degree summary
        per graph), ``regularity`` (e.g. ``"4-regular"``), ``source`` (file and index) and the
        ``graph6`` strings.
    """


# --------------------------------------------------------------------------------------------
# id selection


_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_id_ranges(text: str, *, max_id: int = NUM_PAIRS - 1) -> list[int]:
    """Parse ``"0-59,260-269,300"`` into a sorted list of distinct pair ids.

    Ranges are inclusive. Raises :class:`~wltools.errors.UnknownNameError` for an empty text, a
    malformed part, a reversed range or an id outside ``0..max_id``.

    Examples
    --------
    >>> parse_id_ranges("0-2, 5")
    [0, 1, 2, 5]
    """
    parts = [p for p in str(text).split(",") if p.strip()]
    if not parts:
        raise UnknownNameError(f"empty pair id range {text!r}; give ids like 0-59,260-269")
    ids: set[int] = set()
    for part in parts:
        m = _RANGE.match(part)
        if not m:
            raise UnknownNameError(f"malformed pair id range {part.strip()!r} in {text!r}; use e.g. 0-59,260")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise UnknownNameError(f"empty pair id range {part.strip()!r} (end before start)")
        if hi > max_id:
            raise UnknownNameError(f"pair id {hi} out of range in {part.strip()!r}; ids are 0-{max_id}")
        ids.update(range(lo, hi + 1))
    return sorted(ids)


def select_ids(
    categories: str | Iterable[str] | None = None,
    ids: str | Iterable[int] | None = None,
) -> list[int]:
    """Pair ids (sorted) in any of ``categories`` and (if given) among ``ids``.

    ``categories`` is a name or names from :data:`SELECTION_NAMES` (a string may hold several,
    comma-separated); ``ids`` a list of ints or a range string for :func:`parse_id_ranges`. With both,
    the intersection. Raises :class:`~wltools.errors.UnknownNameError` for an unknown name, an id out
    of range, or an empty selection.
    """
    chosen = set(range(NUM_PAIRS))
    if categories is not None:
        names = [categories] if isinstance(categories, str) else list(categories)
        names = [n.strip() for name in names for n in str(name).split(",") if n.strip()]
        if not names:
            raise UnknownNameError("empty BREC category list; choose from " + ", ".join(SELECTION_NAMES))
        in_cats: set[int] = set()
        for name in names:
            if name not in CATEGORY_IDS:
                raise UnknownNameError(
                    f"unknown BREC category {name!r}; choose from {', '.join(SELECTION_NAMES)}"
                )
            in_cats.update(CATEGORY_IDS[name])
        chosen &= in_cats
    if ids is not None:
        if isinstance(ids, str):
            id_list = parse_id_ranges(ids)
        else:
            id_list = [int(i) for i in ids]
            if not id_list:
                raise UnknownNameError("empty list of BREC pair ids")
            bad = [i for i in id_list if not 0 <= i < NUM_PAIRS]
            if bad:
                raise UnknownNameError(f"BREC pair id {bad[0]} out of range; ids are 0-{NUM_PAIRS - 1}")
        chosen &= set(id_list)
    if not chosen:
        raise UnknownNameError(f"no BREC pair matches categories={categories!r} and ids={ids!r}")
    return sorted(chosen)


# --------------------------------------------------------------------------------------------
# loading


def _parse(text: bytes, name: str) -> nx.Graph:
    from wltools.graphs import parse_graph6

    return parse_graph6(text, name=name)


@functools.lru_cache(maxsize=1)
def _raw_pairs() -> tuple[tuple[int, str, str, bytes, bytes, str], ...]:
    """(id, category, subcategory, graph6 of G, graph6 of H, source) for all 400 pairs."""
    out = []
    for fname, layout, first, count, cat, sub in _FILES:
        path = check_shipped(DATA_DIR / fname, CHECKSUMS[fname], "BREC file")  # damaged: one line and the fix
        arr = np.load(path, allow_pickle=True)  # object/str arrays of graph6 text, the committed file
        if layout == "rows":
            if arr.shape != (count, 2):
                raise DataIntegrityError(f"{fname}: shape {arr.shape}, expected {(count, 2)}")
            rows = [(arr[i, 0], arr[i, 1], f"{fname}[{i}]") for i in range(count)]
        else:
            if arr.shape != (2 * count,):
                raise DataIntegrityError(f"{fname}: shape {arr.shape}, expected {(2 * count,)}")
            rows = [(arr[2 * i], arr[2 * i + 1], f"{fname}[{2 * i}:{2 * i + 2}]") for i in range(count)]
        for k, (a, b, src) in enumerate(rows):
            a = a.encode("ascii") if isinstance(a, str) else bytes(a)
            b = b.encode("ascii") if isinstance(b, str) else bytes(b)
            out.append((first + k, cat, sub, a.strip(), b.strip(), src))
    if [r[0] for r in out] != list(range(NUM_PAIRS)):
        raise DataIntegrityError("BREC files do not cover ids 0-399 in order")
    return tuple(out)


def raw_graph6(pid: int) -> tuple[str, str]:
    """The graph6 text of BREC pair ``pid``'s G and H as shipped (``meta["graph6"]`` of its
    :class:`BrecPair`), without parsing the graphs."""
    _, _, _, a, b, _ = _raw_pairs()[pid]
    return a.decode("ascii"), b.decode("ascii")


@functools.lru_cache(maxsize=NUM_PAIRS)
def _pair(pid: int) -> BrecPair:
    _, cat, sub, a, b, src = _raw_pairs()[pid]
    g, h = _parse(a, f"BREC pair {pid} G ({src})"), _parse(b, f"BREC pair {pid} H ({src})")
    meta = {
        "id": pid,
        "category": cat,
        "subcategory": sub,
        "source": src,
        "n": [g.number_of_nodes(), h.number_of_nodes()],
        "m": [g.number_of_edges(), h.number_of_edges()],
        "degrees": [degree_summary(g), degree_summary(h)],
        "graph6": [a.decode("ascii"), b.decode("ascii")],
    }
    dg, dh = meta["degrees"]
    meta["regularity"] = dg if dg == dh else f"G {dg}; H {dh}"
    return BrecPair(pid, cat, sub, nx.freeze(g), nx.freeze(h), meta)


def load_pairs(
    categories: str | Iterable[str] | None = None,
    ids: str | Iterable[int] | None = None,
) -> list[BrecPair]:
    """The BREC pairs in id order, optionally restricted (see :func:`select_ids`).

    Examples
    --------
    >>> [p.id for p in load_pairs("4vertex", ids="0-361")]
    [360, 361]
    """
    return [_pair(i) for i in select_ids(categories, ids)]


def pairs_of(suite: str | None, ids: Iterable[int] | None = None) -> list:
    """The pairs a run evaluates: BREC's (``suite`` None, :func:`load_pairs`) or those of a suite of
    :mod:`wltools.suites` (CSL, EXP, SR25, graph8c, ...). Both have the fields the runner reads."""
    if suite is None:
        return load_pairs(ids=ids)
    from wltools.suites import suite_pairs

    return suite_pairs(suite, ids)


@functools.lru_cache(maxsize=None)
def suite_digest(suite: str, rule: str = RELABEL_RULE) -> str:
    """sha256 (16 hex) of a suite's name, its data files' checksums and the relabelling rule."""
    import hashlib

    from wltools.suites import get_suite
    from wltools.suites.base import CHECKSUMS

    s = get_suite(suite)
    h = hashlib.sha256(f"{rule}\0suite:{s.name}".encode())
    for rel in sorted(s.files):
        h.update(f"\0{rel}\0{CHECKSUMS.get(rel, '')}".encode())
    return h.hexdigest()[:16]


# --------------------------------------------------------------------------------------------
# relabelings (RPC protocol)


def _rng(seed: int, pair_id: int, stream: int) -> np.random.Generator:
    """Generator seeded from (seed, pair id, stream); stream 0 = relabelings, 1 = reliability."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), int(pair_id), int(stream)]))


def _labelled_key(edges: np.ndarray, perm: np.ndarray | None) -> bytes:
    """The labelled graph ``edges`` renamed by ``perm`` as bytes: equal keys iff equal labelled
    graphs (same nodes 0..n-1, n < 2**31). Each edge ``{a, b}`` is the one int64 ``min << 32 | max``
    (one-to-one on such edges), and the sorted codes are the sorted normalised edge list; one 1-D
    sort instead of a row sort and a lexsort (the draws of :func:`relabeling_plan` call it per draw)."""
    e = np.asarray(edges if perm is None else perm[edges], dtype=np.int64).reshape(-1, 2)
    return np.sort(np.minimum(e[:, 0], e[:, 1]) << 32 | np.maximum(e[:, 0], e[:, 1])).tobytes()


def _is_image(R: nx.Graph, image_key: bytes, n: int) -> bool:
    """Whether ``R`` is exactly the source renamed by the permutation: nodes ``0..n-1`` and the
    edge set whose :func:`_labelled_key` is ``image_key`` (the source's edges renamed). The
    permutation is then an isomorphism onto ``R``: a proof of isomorphism with its witness."""
    return list(R) == list(range(n)) and _labelled_key(_edge_array(R), None) == image_key


def _edge_array(G: nx.Graph) -> np.ndarray:
    return np.array([(int(u), int(v)) for u, v in G.edges()], dtype=np.int64).reshape(-1, 2)


def _distinct_draw(rng: np.random.Generator, n: int, edges: np.ndarray, seen: set) -> np.ndarray:
    """A uniformly random permutation whose labelled graph is not in ``seen`` (then added to it).

    Re-draws from the same generator as the reference's ``generate_relabel`` loop. Callers
    guarantee the graph has more distinct labelled copies than are asked for (every BREC graph has
    at least 105; :func:`verify_data` checks the sets), and the loop gives up after 10,000 draws
    rather than hang on a graph that has too few.
    """
    for _ in range(10_000):
        perm = rng.permutation(n)
        key = _labelled_key(edges, perm)
        if key not in seen:
            seen.add(key)
            return perm
    raise DataIntegrityError(f"could not draw a new distinct relabelling of a graph on {n} nodes "
                             f"after 10,000 tries ({len(seen)} distinct copies so far)")


def relabeling_plan(pair: BrecPair, seed: int = _PUBLISHED.relabel_seed,
                    num: int = _PUBLISHED.num_relabelings) -> list[tuple[str, np.ndarray | None]]:
    """The permutations behind :func:`relabelings`: ``[("g", p), ("h", p), ...]``, ``2 * num`` long.

    ``p`` is ``None`` for the first of each graph (as given), otherwise a uniformly random
    permutation (``numpy.random.Generator.permutation``) drawn from a generator seeded by
    ``(seed, pair.id)``, G's before H's in each couple. The ``num`` labelled copies of each graph
    are pairwise distinct, the one as given included: a draw repeating one is drawn again (module
    docstring).
    """
    if num < 1:
        raise ValueError("num must be >= 1")
    rng = _rng(seed, pair.id, 0)
    plan: list[tuple[str, np.ndarray | None]] = [("g", None), ("h", None)]
    sides = {}
    for side, G in (("g", pair.g), ("h", pair.h)):
        edges = _edge_array(G)
        sides[side] = (G.number_of_nodes(), edges, {_labelled_key(edges, None)})
    for _ in range(num - 1):
        for side in ("g", "h"):
            n, edges, seen = sides[side]
            plan.append((side, _distinct_draw(rng, n, edges, seen)))
    return plan


def reliability_plan(pair: BrecPair, seed: int = _PUBLISHED.relabel_seed,
                     num: int = _PUBLISHED.reliability_size) -> list[tuple[str, np.ndarray]]:
    """The permutations behind :func:`reliability_set`: ``num`` entries ``(side, p)``.

    One side (``"g"`` or ``"h"``) is chosen by a generator seeded by ``(seed, pair.id)`` (a stream
    separate from :func:`relabeling_plan`); every entry is a uniformly random permutation of it, the
    ``num`` labelled copies pairwise distinct (a repeat is drawn again, module docstring).
    """
    if num < 2 or num % 2:
        raise ValueError("num must be a positive even number")
    rng = _rng(seed, pair.id, 1)
    side = "g" if rng.integers(2) == 0 else "h"
    G = pair.g if side == "g" else pair.h
    n, edges, seen = G.number_of_nodes(), _edge_array(G), set()
    return [(side, _distinct_draw(rng, n, edges, seen)) for _ in range(num)]


def _apply_plan(pair: BrecPair, plan) -> list[nx.Graph]:
    out = []
    for side, perm in plan:
        src = pair.g if side == "g" else pair.h
        out.append(src if perm is None else permute_graph(src, perm))
    return out


def relabelings(pair: BrecPair, seed: int = _PUBLISHED.relabel_seed,
                num: int = _PUBLISHED.num_relabelings) -> list[nx.Graph]:
    """``num`` relabelings of each graph of the pair, interleaved ``[G1, H1, G2, H2, ...]``.

    The first of each is the graph as given; the rest are uniformly random node permutations
    (BREC paper, Sec. 3 RPC; data/brec/README.md), deterministic given ``(seed, pair.id)``.
    """
    return _apply_plan(pair, relabeling_plan(pair, seed, num))


def reliability_set(pair: BrecPair, seed: int = _PUBLISHED.relabel_seed,
                    num: int = _PUBLISHED.reliability_size) -> list[nx.Graph]:
    """The reliability set: ``num`` random relabelings of one graph of the pair (chosen at random),
    interleaved like :func:`relabelings` so that both "sides" are the same graph."""
    return _apply_plan(pair, reliability_plan(pair, seed, num))


# --------------------------------------------------------------------------------------------
# PyG


def to_pyg(G: nx.Graph):
    """``Data(x=ones[n, 1], edge_index, num_nodes)`` with both directions of every edge.

    ``edge_index`` is sorted (by source, then target), so it depends only on the labelled graph;
    self-loops are left out. The constant node feature is the one BREC's models use. The arcs are
    read and ordered by numpy, one code ``source * n + target`` each (the counting benchmark's
    5,000 graphs: about 3x faster than sorting Python tuples; tests compare the two).
    """
    import torch
    from torch_geometric.data import Data

    n = G.number_of_nodes()
    if set(G.nodes()) != set(range(n)):
        raise DataIntegrityError("to_pyg needs nodes 0..n-1")
    ends = np.fromiter(chain.from_iterable(G.edges()), dtype=np.int64, count=2 * G.number_of_edges()).reshape(-1, 2)
    u, v = ends[ends[:, 0] != ends[:, 1]].T
    code = np.unique(np.concatenate([u * n + v, v * n + u]))  # both directions, sorted, each once
    edge_index = (torch.from_numpy(np.stack([code // n, code % n])) if code.size
                  else torch.empty((2, 0), dtype=torch.long))
    return Data(x=torch.ones((n, 1), dtype=torch.float32), edge_index=edge_index, num_nodes=n)


# --------------------------------------------------------------------------------------------
# integrity


@functools.lru_cache(maxsize=None)
def dataset_digest(rule: str = RELABEL_RULE) -> str:
    """sha256 (16 hex) of the raw BREC files and the relabelling rule (this code's
    :data:`RELABEL_RULE`; ``"plain-v1"`` for runs made before copies were kept distinct): what a
    run was evaluated on.

    Part of every run's settings (:mod:`brec_runner.records.record`), so records made on other data or under
    another relabelling rule are never mixed with these.
    """
    import hashlib

    h = hashlib.sha256(rule.encode())
    for name, *_ in _FILES:
        h.update(b"\0" + name.encode() + b"\0" + (DATA_DIR / name).read_bytes())
    return h.hexdigest()[:16]


def verify_data(
    pairs: Sequence[BrecPair] | None = None,
    *,
    seed: int = _PUBLISHED.relabel_seed,
    num: int = _PUBLISHED.num_relabelings,
    reliability_num: int = _PUBLISHED.reliability_size,
    progress: bool = False,
) -> dict:
    """Prove the data sound; raise on the first failure.

    For every pair: both graphs simple and undirected; G and H non-isomorphic (different canonical
    certificates, pynauty through ``wltools.iso``); every one of the ``2 * num`` relabelings
    (``seed``) and the ``reliability_num`` reliability graphs simple and isomorphic to its source,
    proved by its permutation (:func:`_is_image`: a permutation of ``0..n-1`` that maps the
    source's edge set exactly onto the copy's is an isomorphism; a canonical certificate of each
    copy proved the same at about 2.5 times the CPU); the labelled copies
    of each graph in a set pairwise distinct. Also checks that relabelings are deterministic (a
    second draw gives the same permutations).

    Returns a summary dict (counts). Raises :class:`~wltools.errors.DataIntegrityError`.
    """
    from wltools.iso import certificate
    from wltools.runtime.progress import progress_bar

    pairs = load_pairs() if pairs is None else list(pairs)
    summary = {
        "pairs": 0,
        "graphs": 0,
        "relabelings": 0,
        "reliability_graphs": 0,
        "seed": seed,
        "per_category": {},
    }
    bar = progress_bar(pairs, desc="verify BREC", unit="pair", enabled=progress)
    for pair in bar:
        src = {"g": pair.g, "h": pair.h}
        edges = {side: _edge_array(G) for side, G in src.items()}  # once per graph, not once per copy
        cert = {}
        for side, G in src.items():
            check_simple(G, f"pair {pair.id} {side.upper()}")
            cert[side] = certificate(G)
        if cert["g"] == cert["h"]:
            raise DataIntegrityError(f"pair {pair.id} ({pair.category}): G and H are isomorphic")
        plans = (
            ("relabeling", relabeling_plan(pair, seed, num)),
            ("reliability graph", reliability_plan(pair, seed, reliability_num)),
        )
        for kind, plan in plans:
            keys: dict[tuple[str, bytes], int] = {}
            for k, (side, perm) in enumerate(plan):
                R = src[side] if perm is None else permute_graph(src[side], perm)
                what = f"pair {pair.id} {kind} {k} (of {side.upper()})"
                check_simple(R, what)
                if perm is not None and sorted(perm.tolist()) != list(range(src[side].number_of_nodes())):
                    raise DataIntegrityError(f"{what}: not a permutation")
                key = (side, _labelled_key(edges[side], perm))
                if perm is not None and not _is_image(R, key[1], src[side].number_of_nodes()):
                    raise DataIntegrityError(f"{what} is not its source renamed by its permutation (no proof that "
                                             "it is isomorphic to its source)")
                if key in keys:
                    raise DataIntegrityError(f"{what} repeats {kind} {keys[key]}: the copies are not distinct")
                keys[key] = k
        again = relabeling_plan(pair, seed, num)
        if any(
            (a[1] is None) != (b[1] is None) or (a[1] is not None and not np.array_equal(a[1], b[1]))
            for a, b in zip(again, plans[0][1])
        ):
            raise DataIntegrityError(f"pair {pair.id}: relabelings are not deterministic for seed {seed}")
        summary["pairs"] += 1
        summary["graphs"] += 2
        summary["relabelings"] += len(plans[0][1])
        summary["reliability_graphs"] += len(plans[1][1])
        summary["per_category"][pair.subcategory] = summary["per_category"].get(pair.subcategory, 0) + 1
        bar.set_postfix(ok=summary["pairs"])
    return summary
