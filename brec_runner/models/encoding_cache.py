"""Disk cache of positional encodings, so no model recomputes them per pair, seed or epoch.

:func:`encoded_graphs` turns networkx graphs into PyG ``Data`` (:func:`brec_runner.runs.dataset.to_pyg`)
and applies a model's transform (``wltools.models.create_transform``), caching the result on disk.

Two cache modes:

* **Equivariant transforms** (RRWP, SPD, resistance distance: ``AddRRWP``, ``AddSPD``,
  ``AddResistanceDistance`` of ``wltools.models.encodings``, or any transform with the attribute
  ``permutation_equivariant = True``, or a ``Compose`` of only such): for a permutation
  :math:`\\pi`, :math:`E(\\pi G) = \\pi E(G)`. The transform is run once on the pynauty canonical form
  :math:`C` of the graph and the result is permuted back to the graph's labelling, so the 64
  relabelings of a BREC pair cost two transform calls and two cache files. The mapping of attributes
  is generic: ``*_index`` tensors (``[k, P]`` node tuples) have their node ids mapped and their
  columns sorted lexicographically, carrying the attributes with first dimension ``P``; attributes
  with first dimension ``n`` are node-level and are permuted. When the sizes are ambiguous (``n``
  equal to some ``P``, or two index tensors of one size) the canonical trick is not used and the
  graph is computed and cached as given. Tests check this path against recomputation.
* **Other transforms** (e.g. Laplacian eigenvectors, whose signs/basis are not equivariant): the
  transform is run on the graph as given and cached per labelled graph.

Format: one ``numpy.savez`` file per (setting, graph), written atomically (temporary file, then
rename: a kill mid-write leaves no partial entry; not fsynced, since an entry that an operating-system
crash left incomplete fails its checksum below and is recomputed, and one fsync per graph cost more
than the encoding of most BREC graphs) and read with ``allow_pickle=False`` (no pickle,
so caches survive torch upgrades). Tensors keep their dtype; ``int``/``float``/``bool`` attributes
are stored as 0-d arrays. Location: ``$WLTOOLS_CACHE`` or ``~/.cache/wltools``, under
``encodings/<sha256 of (format version, cache_key, transform digest)>/``. The transform digest
(:func:`brec_runner.models.transform_identity.transform_digest`) covers the code of the transform's
class and its whole state, not its ``repr``: PyG's ``AddRandomWalkPE(walk_length=8)`` and
``(walk_length=16)`` print the same ``repr`` but never share a folder.

An entry cannot lie: it stores its own key (setting and graph digest) and a sha256 of its arrays.
An entry that is unreadable, truncated, holds another key (a swapped or renamed file) or fails its
checksum is never used: it is recomputed and rewritten, with one warning line on stderr. Only
regular files are read (opened non-blocking and checked with ``fstat``): a FIFO, device or socket
named like an entry is a bad entry and is replaced by the rename; a directory of that name is
left alone and the entry is computed without caching.

The cache is never a reason to fail. When it cannot be used (no root: ``HOME`` unset and no
``$WLTOOLS_CACHE``; the root or a parent is a regular file; a read-only or full disk), encodings
are computed without caching, after one warning line per process and folder (:func:`cache_dir`,
:func:`cache_write_failed`). :func:`cache_root` itself raises :class:`CacheUnavailableError` (one
line) when no root can be named (both from :mod:`wltools.runtime.cache_root`, re-exported here);
:mod:`brec_runner.reports.theory` catches it and computes uncached.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Iterable

import networkx as nx
import numpy as np

from wltools.graphs import permute_graph
from wltools.iso import canonical_order
from wltools.runtime.cache_root import CacheUnavailableError, cache_root

from .transform_identity import transform_digest

__all__ = [
    "EQUIVARIANT_TRANSFORMS",
    "CacheUnavailableError",
    "cache_root",
    "cache_dir",
    "cache_write_failed",
    "setting_dir",
    "is_equivariant",
    "graph_digest",
    "encoded_graphs",
]

_FORMAT = "wltools-encodings-v3"

#: Class names of transforms known to be permutation-equivariant (``wltools.models.encodings``).
EQUIVARIANT_TRANSFORMS = frozenset({"AddRRWP", "AddSPD", "AddResistanceDistance"})

_warned: set[tuple[str, str]] = set()
_unwritable: set[str] = set()  # cache folders whose writes failed in this process: not tried again


def _warn_once(kind: str, where: str, text: str) -> None:
    if (kind, where) not in _warned:
        _warned.add((kind, where))
        print(f"wltools: warning: {text}", file=sys.stderr)


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or errno.errorcode.get(exc.errno or 0, type(exc).__name__)
    return str(exc)


def cache_dir(sub: str, what: str = "the") -> Path | None:
    """The cache folder ``cache_root() / sub``, created if missing; ``None`` when it cannot be used,
    after one warning line on stderr (once per process and folder): no cache root, the root or a
    parent is a regular file, or the folder cannot be created (read-only or full disk). A caller
    given ``None`` computes without caching.

    ``what`` names the cache in the warning (``"the encoding"``, ``"the theory verdict"``)."""
    try:
        folder = cache_root() / sub
    except CacheUnavailableError as exc:
        _warn_once("root", "", f"{exc}; computing without caching")
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not folder.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "not a directory")
    except OSError as exc:
        _warn_once("dir", str(folder), f"{what} cache folder {folder} is unusable ({_why(exc)}); "
                                       "computing without caching")
        return None
    return folder


def cache_write_failed(folder: Path, exc: OSError, what: str = "the") -> None:
    """Note that writing into the cache folder ``folder`` failed (a full or read-only disk): one
    warning line (once per process and folder); later writes there are skipped by this module, and a
    caller of :func:`cache_dir` should stop writing too."""
    _unwritable.add(str(folder))
    _warn_once("write", str(folder), f"cannot write to {what} cache folder {folder} ({_why(exc)}); "
                                     "computing without caching from now on")


def _setting_name(cache_key: str, transform) -> str:
    text = f"{_FORMAT}\0{cache_key}\0{transform_digest(transform)}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def setting_dir(cache_key: str, transform) -> Path:
    """The folder of one encoding setting: changes with ``cache_key`` and with the transform's
    identity (:func:`brec_runner.models.transform_identity.transform_digest`: the code of its class and
    its whole state, so two transforms whose ``repr`` hides a setting never share a folder).

    Raises :class:`brec_runner.models.source.ModelContractError` for a transform whose state cannot
    be captured, :class:`CacheUnavailableError` when there is no cache root."""
    return cache_root() / "encodings" / _setting_name(cache_key, transform)


def is_equivariant(transform) -> bool:
    """Whether ``transform`` may be computed on an isomorphic copy and permuted back."""
    flag = getattr(transform, "permutation_equivariant", None)
    if flag is not None:
        return bool(flag)
    inner = getattr(transform, "transforms", None)
    if type(transform).__name__ == "Compose" and inner is not None:
        return all(is_equivariant(t) for t in inner)
    return type(transform).__name__ in EQUIVARIANT_TRANSFORMS


def graph_digest(G: nx.Graph) -> str:
    """sha256 of the labelled graph (n and sorted edge list)."""
    n = G.number_of_nodes()
    edges = sorted(tuple(sorted((int(u), int(v)))) for u, v in G.edges())
    return hashlib.sha256(repr((n, edges)).encode()).hexdigest()[:32]


# ----------------------------------------------------------------------------- storage


def _arrays_digest(arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}\0{a.dtype.str}\0{a.shape}\0".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _save(path: Path, data, entry_key: str) -> bool:
    """Write one entry atomically. False when ``data`` holds something not storable without
    pickle (it is then computed every time); an ``OSError`` of the disk is raised to the caller."""
    import torch

    arrays: dict[str, np.ndarray] = {}
    for key, value in data.to_dict().items():
        if isinstance(value, torch.Tensor):
            try:
                arrays[f"t:{key}"] = value.detach().cpu().numpy()
            except (TypeError, RuntimeError):  # a dtype numpy lacks (bfloat16, ...)
                return False
        elif isinstance(value, (bool, int, float)):
            arrays[f"s:{key}"] = np.asarray(value)
        else:
            return False  # not storable without pickle: compute every time
    arrays["m:key"] = np.asarray(entry_key)
    arrays["m:sha256"] = np.asarray(_arrays_digest(arrays))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz.tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, **arrays)  # no fsync: a cache, whose checksum catches what a crash left (module docstring)
        os.replace(tmp, path)  # replaces a damaged entry, a FIFO or a device node of that name too
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass  # renamed into place (the usual case), or the disk refuses even this
    return True


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _not_regular(mode: int) -> str | None:
    """What a non-regular file is (``"a FIFO"``, ...), None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _load(path: Path, entry_key: str):
    """``(data, None)`` for a sound entry of ``entry_key``, else ``(None, why)``.

    Only a regular file is read: the entry is opened non-blocking and checked with ``fstat`` before
    a byte is read, so a FIFO (whose plain ``open`` would wait forever for a writer), a device or a
    directory of that name is a bad entry, never a hang."""
    import torch
    from torch_geometric.data import Data

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        return None, f"unreadable ({_why(exc)})"
    try:
        kind = _not_regular(os.fstat(fd).st_mode)
    except OSError as exc:
        kind = f"unexaminable ({_why(exc)})"
    if kind is not None:
        os.close(fd)
        return None, f"is {kind}, not a cache file"
    try:
        with os.fdopen(fd, "rb") as fh:  # owns fd from here
            with np.load(fh, allow_pickle=False) as z:
                items = {k: z[k] for k in z.files}
    except Exception as exc:  # noqa: BLE001 - any unreadable file (BadZipFile, EOFError, OSError, ...) is recomputed
        return None, f"unreadable ({type(exc).__name__})"
    sha = items.pop("m:sha256", None)
    key = items.get("m:key")
    if sha is None or key is None:
        return None, "no key or checksum (not written by this version)"
    if str(key) != entry_key:
        return None, "holds another entry (a swapped or renamed file)"
    if str(sha) != _arrays_digest(items):
        return None, "checksum mismatch (damaged or edited)"
    out = {}
    try:
        for name, arr in items.items():
            kind, attr = name.split(":", 1)
            if kind == "t":
                out[attr] = torch.from_numpy(arr.copy())
            elif kind == "s":
                out[attr] = arr.item()
    except (ValueError, TypeError) as exc:
        return None, f"unusable ({exc})"
    return Data(**out), None


def _warn(path: Path, why: str, then: str = "recomputing it") -> None:
    print(f"wltools: warning: encoding cache entry {path} {why}; {then}", file=sys.stderr)


# ----------------------------------------------------------------------------- permutation


def _permute_data(data, inv: np.ndarray, lab: np.ndarray):
    """``data`` computed on the canonical form, moved to the graph where node ``v`` = canonical
    ``inv[v]`` (``lab[a]`` = graph node of canonical node ``a``). ``None`` if ambiguous."""
    import torch
    from torch_geometric.data import Data

    n = len(inv)
    lab_t = torch.as_tensor(lab, dtype=torch.long)
    inv_t = torch.as_tensor(inv, dtype=torch.long)
    d = data.to_dict()
    index_keys = [
        k for k, v in d.items()
        if k.endswith("index") and isinstance(v, torch.Tensor) and v.dim() == 2 and not v.is_floating_point()
    ]
    orders: dict = {}
    out: dict = {}
    for k in index_keys:
        idx = d[k]
        P = idx.size(1)
        if P in orders or P == n:
            return None
        mapped = lab_t[idx]  # node ids in the graph's labelling
        # lexicographic column order: stable sorts from the last row to the first
        order = torch.arange(P)
        for r in range(mapped.size(0) - 1, -1, -1):
            order = order[torch.sort(mapped[r, order], stable=True).indices]
        orders[P] = order
        out[k] = mapped[:, order].contiguous()
    for k, v in d.items():
        if k in out:
            continue
        if not isinstance(v, torch.Tensor):
            out[k] = v
        elif v.dim() == 0:
            out[k] = v.clone()
        elif v.size(0) in orders:
            out[k] = v[orders[v.size(0)]].contiguous()
        elif v.size(0) == n and n > 1:
            out[k] = v[inv_t].contiguous()
        elif v.size(0) == n * n and n > 1:
            return None  # pair-level tensor without an index: layout unknown, do not guess
        else:
            out[k] = v.clone()
    return Data(**out)


# ----------------------------------------------------------------------------- public


def encoded_graphs(
    graphs: Iterable[nx.Graph],
    transform,
    cache_key: str | None,
    *,
    use_cache: bool = True,
    equivariant: bool | None = None,
    stats: dict | None = None,
) -> list:
    """PyG ``Data`` for each graph with ``transform`` applied, cached on disk.

    Parameters
    ----------
    graphs : iterable of networkx.Graph
        Nodes 0..n-1 (as from :mod:`brec_runner.runs.dataset`).
    transform : callable or None
        A PyG transform (``wltools.models.create_transform(...)``); ``None`` gives plain
        :func:`~brec_runner.runs.dataset.to_pyg` output.
    cache_key : str or None
        Names the setting, e.g. ``wltools.models.transform_key(name, preset)``; combined with the
        transform's identity (:func:`setting_dir`). ``None`` (or ``use_cache=False``) disables the
        disk cache.
    equivariant : bool, optional
        Override :func:`is_equivariant`.
    stats : dict, optional
        Filled with counts ``computed`` (transform calls), ``disk_hits``, ``memory_hits`` and
        ``rejected`` (disk entries found unsound and recomputed).

    Returns
    -------
    list of torch_geometric.data.Data
        One per graph, in order; equal to ``transform(to_pyg(G))`` (up to float rounding and the
        lexicographic order of index columns for equivariant transforms).
    """
    from ..runs.dataset import to_pyg

    graphs = list(graphs)
    counts = {"computed": 0, "disk_hits": 0, "memory_hits": 0, "rejected": 0}
    if transform is None:
        return [to_pyg(G) for G in graphs]
    caching = use_cache and cache_key is not None
    folder = None
    if caching:
        name = _setting_name(cache_key, transform)  # an uncapturable transform is refused here
        base = cache_dir("encodings", "the encoding")  # None: unusable cache, one warning, no caching
        folder = base / name if base is not None else None
    equi = is_equivariant(transform) if equivariant is None else equivariant
    memo: dict[str, object] = {}

    def compute(H: nx.Graph, digest: str):
        if digest in memo:
            counts["memory_hits"] += 1
            return memo[digest]
        data = None
        path = folder / f"{digest}.npz" if folder is not None else None
        entry_key = f"{folder.name}/{digest}" if folder is not None else ""
        keep = path is not None and str(folder) not in _unwritable
        if path is not None:
            try:
                mode = os.stat(path).st_mode  # not open(): a FIFO would block
            except (FileNotFoundError, NotADirectoryError):
                mode = None
            except OSError as exc:
                mode, keep = None, False
                counts["rejected"] += 1
                _warn(path, f"cannot be examined ({_why(exc)})", "computing it without caching")
            if mode is not None:
                data, why = _load(path, entry_key)
                if data is not None:
                    counts["disk_hits"] += 1
                elif stat.S_ISDIR(mode):  # cannot be replaced by a rename, and is not ours to delete
                    counts["rejected"] += 1
                    keep = False
                    _warn(path, why, "computing it without caching (remove it to cache this entry again)")
                else:
                    counts["rejected"] += 1
                    _warn(path, why)
        if data is None:
            data = transform(to_pyg(H))
            counts["computed"] += 1
            if keep:
                try:
                    _save(path, data, entry_key)
                except OSError as exc:  # a full or read-only disk: go on without caching
                    cache_write_failed(folder, exc, "the encoding")
        memo[digest] = data
        return data

    out = []
    for G in graphs:
        n = G.number_of_nodes()
        result = None
        if equi and n > 1:
            inv = canonical_order(G)
            C = permute_graph(G, inv)
            data_c = compute(C, "c" + graph_digest(C))
            result = _permute_data(data_c, inv, np.argsort(inv))
        if result is None:
            result = compute(G, "g" + graph_digest(G))
            result = result.clone()
        out.append(result)
    if stats is not None:
        stats.update(counts)
    return out
