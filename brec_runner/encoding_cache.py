"""Disk cache of positional encodings, so no model recomputes them per pair, seed or epoch.

:func:`encoded_graphs` turns networkx graphs into PyG ``Data`` (:func:`brec_runner.dataset.to_pyg`)
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
rename: a kill mid-write leaves no partial entry) and read with ``allow_pickle=False`` (no pickle,
so caches survive torch upgrades). Tensors keep their dtype; ``int``/``float``/``bool`` attributes
are stored as 0-d arrays. Location: ``$WLTOOLS_CACHE`` or ``~/.cache/wltools``, under
``encodings/<sha256 of (format version, cache_key, repr(transform), transform code)>/``, so the key
changes whenever the transform's ``repr`` or the source of its class changes.

An entry cannot lie: it stores its own key (setting and graph digest) and a sha256 of its arrays.
An entry that is unreadable, truncated, holds another key (a swapped or renamed file) or fails its
checksum is never used: it is recomputed and rewritten, with one warning line on stderr.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Iterable

import networkx as nx
import numpy as np

from wltools.graphs import permute_graph
from wltools.iso import canonical_order

__all__ = [
    "EQUIVARIANT_TRANSFORMS",
    "cache_root",
    "setting_dir",
    "is_equivariant",
    "graph_digest",
    "encoded_graphs",
]

_FORMAT = "wltools-encodings-v2"

#: Class names of transforms known to be permutation-equivariant (``wltools.models.encodings``).
EQUIVARIANT_TRANSFORMS = frozenset({"AddRRWP", "AddSPD", "AddResistanceDistance"})


def cache_root() -> Path:
    """``$WLTOOLS_CACHE`` or ``~/.cache/wltools``."""
    env = os.environ.get("WLTOOLS_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "wltools"


def _transform_code(transform) -> str:
    """sha256 of the source files of ``transform``'s class (and of a ``Compose``'s members)."""
    import inspect

    h = hashlib.sha256()
    parts = list(getattr(transform, "transforms", None) or []) if type(transform).__name__ == "Compose" else []
    for obj in [transform, *parts]:
        try:
            path = inspect.getsourcefile(type(obj))
            h.update(Path(path).read_bytes() if path else repr(type(obj)).encode())
        except (OSError, TypeError):
            h.update(repr(type(obj)).encode())
    return h.hexdigest()


def setting_dir(cache_key: str, transform) -> Path:
    """The folder of one encoding setting (changes with ``cache_key``, ``repr(transform)`` and the
    source of the transform's class)."""
    text = f"{_FORMAT}\0{cache_key}\0{transform!r}\0{_transform_code(transform)}"
    h = hashlib.sha256(text.encode()).hexdigest()[:24]
    return cache_root() / "encodings" / h


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
    import torch

    arrays: dict[str, np.ndarray] = {}
    for key, value in data.to_dict().items():
        if isinstance(value, torch.Tensor):
            arrays[f"t:{key}"] = value.detach().cpu().numpy()
        elif isinstance(value, (bool, int, float)):
            arrays[f"s:{key}"] = np.asarray(value)
        else:
            return False  # not storable without pickle: compute every time
    arrays["m:key"] = np.asarray(entry_key)
    arrays["m:sha256"] = np.asarray(_arrays_digest(arrays))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz.tmp")
    except OSError:
        return False  # an unwritable cache is no cache: compute every time
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, **arrays)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError:
        return False
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return True


def _load(path: Path, entry_key: str):
    """``(data, None)`` for a sound entry of ``entry_key``, else ``(None, why)``."""
    import torch
    from torch_geometric.data import Data

    try:
        with np.load(path, allow_pickle=False) as z:
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


def _warn(path: Path, why: str) -> None:
    print(f"wltools: warning: encoding cache entry {path} {why}; recomputing it", file=sys.stderr)


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
        Nodes 0..n-1 (as from :mod:`brec_runner.dataset`).
    transform : callable or None
        A PyG transform (``wltools.models.create_transform(...)``); ``None`` gives plain
        :func:`~brec_runner.dataset.to_pyg` output.
    cache_key : str or None
        Names the setting, e.g. ``wltools.models.transform_key(name, preset)``; combined with
        ``repr(transform)``. ``None`` (or ``use_cache=False``) disables the disk cache.
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
    from .dataset import to_pyg

    graphs = list(graphs)
    counts = {"computed": 0, "disk_hits": 0, "memory_hits": 0, "rejected": 0}
    if transform is None:
        return [to_pyg(G) for G in graphs]
    caching = use_cache and cache_key is not None
    folder = setting_dir(cache_key, transform) if caching else None
    equi = is_equivariant(transform) if equivariant is None else equivariant
    memo: dict[str, object] = {}

    def compute(H: nx.Graph, digest: str):
        if digest in memo:
            counts["memory_hits"] += 1
            return memo[digest]
        data = None
        path = folder / f"{digest}.npz" if folder is not None else None
        entry_key = f"{folder.name}/{digest}" if folder is not None else ""
        if path is not None and path.exists():
            data, why = _load(path, entry_key)
            if data is not None:
                counts["disk_hits"] += 1
            else:
                counts["rejected"] += 1
                _warn(path, why)
        if data is None:
            data = transform(to_pyg(H))
            counts["computed"] += 1
            if path is not None:
                _save(path, data, entry_key)
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
