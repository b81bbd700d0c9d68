"""Pair-wise positional encodings as PyTorch Geometric transforms (RRWP, SPD, resistance distance).

Every distance comes from :mod:`wltools.distances` (its float forms ``rrwp_float``, ``spd_float``,
``resistance_float``): this module only lays the values out so that PyG batching works. The
transforms are computed once per graph (and cached on disk by the BREC runner under their
``repr``), never per forward pass.

Layout (shared by every model in :mod:`wltools.models`)
-------------------------------------------------------
For a graph with ``n`` nodes, a transform attaches

``data.pair_index`` : LongTensor ``[2, n*n]``
    All ordered node pairs, **row-major**: column ``p = i*n + j`` holds ``(i, j)`` (diagonal
    included). The name ends in ``index``, so :class:`~torch_geometric.data.Batch` offsets it by
    the number of nodes of the preceding graphs and concatenates along the last dimension, exactly
    like ``edge_index``. After batching, column ``p`` still holds the *global* node ids ``(i, j)``
    of one pair of the same graph; pairs of graph ``g`` are a contiguous block of
    ``n_g * n_g`` columns, in graph order.
``data.rrwp`` : FloatTensor ``[n*n, K]`` (:class:`AddRRWP`)
    Row ``p`` is the RRWP vector of pair ``pair_index[:, p]``:
    ``[I, M, M^2, ..., M^(K-1)]_{ij}`` with ``M = D^-1 A`` (GRIT Eq. 1, PPGT Sec. 3.3).
    Channel 0 is the identity.
``data.spd`` : LongTensor ``[n*n]`` (:class:`AddSPD`)
    Shortest-path distance of pair ``p``. With ``max_dist=None``: the raw distance, ``-1`` for
    unreachable pairs. With an integer ``max_dist``: ``min(d, max_dist)`` for reachable pairs and
    ``max_dist + 1`` for unreachable ones, so values lie in ``0 .. max_dist + 1`` and index an
    embedding table of ``max_dist + 2`` rows (Graphormer Sec. 3.1.2).
``data.rd`` : FloatTensor ``[n*n]`` (:class:`AddResistanceDistance`)
    Effective resistance of pair ``p``; ``inf`` across components unless ``inf_value`` is given
    (then that finite value).

Several transforms may be applied to the same ``Data`` (chain them with
:class:`torch_geometric.transforms.Compose`); they share one ``pair_index``.

To use the values in a dense all-pairs model, :func:`to_dense_pair` scatters a pair attribute of
a batch into ``[B, N_max, N_max, ...]`` aligned with :func:`wltools.models.layers.dense_batch`
(PyG's ``to_dense_batch`` layout: same ``B`` and ``N_max``, same node order), and
:func:`dense_pair_mask` gives the valid-pair mask.

Two data-only shortcuts (computed once per batch by :func:`pair_plan`, stored by a model's
``prepare_batch``):

- *full layout* (:func:`is_full_layout`): when every graph of a batch has ``N`` nodes (a BREC
  pair's relabelings always do) and ``pair_index`` is the layout above, the pair list *is* the
  row-major ``[B, N, N]`` array, so scattering is a ``view`` and every node and pair mask is true;
- *distinct rows* (:func:`unique_rows`): a batch of relabelings repeats few distinct encoding
  rows (a CFI batch of 16 graphs of 198 nodes: 203 distinct RRWP rows among 627,264 pairs), so a
  per-pair encoder that works row by row can run on the distinct rows and be gathered.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor
from torch_geometric.data import Data
from torch_geometric.transforms import BaseTransform

__all__ = [
    "full_pair_index",
    "AddRRWP",
    "AddSPD",
    "AddResistanceDistance",
    "to_dense_pair",
    "dense_pair_mask",
    "is_full_layout",
    "unique_rows",
    "PairPlan",
    "pair_plan",
    "is_functorch_wrapped",
]


def _num_nodes(data: Data) -> int:
    n = data.num_nodes
    if n is None:  # pragma: no cover - PyG always infers it for our Data objects
        raise ValueError("Data object without num_nodes")
    return int(n)


def full_pair_index(num_nodes: int, device: torch.device | None = None) -> Tensor:
    """All ordered pairs ``(i, j)`` of ``num_nodes`` nodes, row-major: ``[2, n*n]``.

    Examples
    --------
    >>> full_pair_index(2).tolist()
    [[0, 0, 1, 1], [0, 1, 0, 1]]
    """
    ar = torch.arange(num_nodes, device=device)
    return torch.stack(
        [ar.repeat_interleave(num_nodes), ar.repeat(num_nodes)], dim=0
    )  # [2, n*n]


def _attach_pair_index(data: Data, n: int) -> None:
    pair_index = full_pair_index(n)
    existing = getattr(data, "pair_index", None)
    if existing is not None and not torch.equal(existing.cpu(), pair_index):
        raise ValueError("data.pair_index exists but is not the full row-major pair index")
    data.pair_index = pair_index


class AddRRWP(BaseTransform):
    r"""Relative random-walk probabilities (GRIT Sec. 3.1 Eq. 1; PPGT Sec. 3.3).

    .. math::
        \mathbf{p}_{ij} = [\mathbf{I}, \mathbf{M}, \mathbf{M}^2, \dots,
        \mathbf{M}^{K-1}]_{[i,j]} \in \mathbb{R}^K, \qquad \mathbf{M} = \mathbf{D}^{-1}\mathbf{A}

    Attaches ``data.rrwp`` ``[n*n, K]`` and ``data.pair_index`` (layout in the module docstring).
    Values come from :func:`wltools.distances.rrwp_float` (isolated nodes: zero rows beyond the
    identity).

    Parameters
    ----------
    walk_length : int
        ``K``, the number of channels including the identity (PPGT's BREC setting: 33 = identity
        plus 32 steps).
    attr_name : str, default ``"rrwp"``
    dtype : torch.dtype, default ``torch.float32``
    """

    def __init__(
        self, walk_length: int, attr_name: str = "rrwp", dtype: torch.dtype = torch.float32
    ) -> None:
        if int(walk_length) < 1:
            raise ValueError(f"walk_length must be >= 1, got {walk_length}")
        self.walk_length = int(walk_length)
        self.attr_name = attr_name
        self.dtype = dtype

    def forward(self, data: Data) -> Data:
        from ..distances import rrwp_float  # lazy: one definition of RRWP lives there

        n = _num_nodes(data)
        rrwp = rrwp_float(data.edge_index.cpu(), n, self.walk_length, dtype=self.dtype)  # [n, n, K]
        data[self.attr_name] = rrwp.reshape(n * n, self.walk_length)  # [n*n, K], row-major
        _attach_pair_index(data, n)
        return data

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__name__}(walk_length={self.walk_length}, "
            f"attr_name={self.attr_name!r}, dtype={self.dtype})"
        )


class AddSPD(BaseTransform):
    r"""Shortest-path distances for every ordered pair (Graphormer Sec. 3.1.2 spatial encoding).

    Attaches ``data.spd`` ``[n*n]`` (long) and ``data.pair_index``; see the module docstring for
    the clamping and the unreachable value. Values come from :func:`wltools.distances.spd_float`.

    Parameters
    ----------
    max_dist : int or None, default None
        ``None``: raw distances, ``-1`` unreachable. An int: clamp to ``max_dist``, unreachable
        becomes ``max_dist + 1``.
    attr_name : str, default ``"spd"``
    """

    def __init__(self, max_dist: int | None = None, attr_name: str = "spd") -> None:
        if max_dist is not None and int(max_dist) < 1:
            raise ValueError(f"max_dist must be >= 1 or None, got {max_dist}")
        self.max_dist = None if max_dist is None else int(max_dist)
        self.attr_name = attr_name

    def forward(self, data: Data) -> Data:
        from ..distances import spd_float

        n = _num_nodes(data)
        spd = spd_float(data.edge_index.cpu(), n).reshape(n * n).long()  # [n*n], -1 unreachable
        if self.max_dist is not None:
            spd = torch.where(spd < 0, self.max_dist + 1, spd.clamp(max=self.max_dist))
        data[self.attr_name] = spd
        _attach_pair_index(data, n)
        return data

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__name__}(max_dist={self.max_dist}, attr_name={self.attr_name!r})"
        )


class AddResistanceDistance(BaseTransform):
    r"""Effective resistance for every ordered pair (the RD of GD-WL, Zhang et al. 2023).

    Attaches ``data.rd`` ``[n*n]`` and ``data.pair_index``. Values come from
    :func:`wltools.distances.resistance_float` (``inf`` across components).

    Parameters
    ----------
    inf_value : float or None, default None
        Replace the ``inf`` of pairs in different components by this finite value.
    attr_name : str, default ``"rd"``
    dtype : torch.dtype, default ``torch.float32``
        Storage dtype (the values are computed in float64 and cast).
    """

    def __init__(
        self,
        inf_value: float | None = None,
        attr_name: str = "rd",
        dtype: torch.dtype = torch.float32,
    ) -> None:
        self.inf_value = None if inf_value is None else float(inf_value)
        self.attr_name = attr_name
        self.dtype = dtype

    def forward(self, data: Data) -> Data:
        from ..distances import resistance_float

        n = _num_nodes(data)
        rd = resistance_float(data.edge_index.cpu(), n, dtype=torch.float64).reshape(n * n)
        if self.inf_value is not None:
            rd = torch.where(torch.isinf(rd), torch.full_like(rd, self.inf_value), rd)
        data[self.attr_name] = rd.to(self.dtype)  # [n*n]
        _attach_pair_index(data, n)
        return data

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__name__}(inf_value={self.inf_value}, "
            f"attr_name={self.attr_name!r}, dtype={self.dtype})"
        )


def _dense_coords(pair_index: Tensor, batch: Tensor, num_graphs: int) -> tuple[Tensor, ...]:
    counts = torch.bincount(batch, minlength=num_graphs)  # [B]
    ptr = torch.zeros(num_graphs + 1, dtype=torch.long, device=batch.device)
    ptr[1:] = torch.cumsum(counts, 0)
    g = batch[pair_index[0]]  # [P] graph of each pair
    li = pair_index[0] - ptr[g]  # [P] local row
    lj = pair_index[1] - ptr[g]  # [P] local column
    return g, li, lj, counts


def to_dense_pair(
    value: Tensor,
    pair_index: Tensor,
    batch: Tensor,
    num_graphs: int | None = None,
    max_num_nodes: int | None = None,
    fill_value: float = 0.0,
    full: bool = False,
) -> Tensor:
    """Scatter a pair attribute ``[P, *F]`` of a batch into ``[B, N_max, N_max, *F]``.

    Aligned with :func:`~wltools.models.layers.dense_batch` on the same ``batch``: entry
    ``[g, a, b]`` is the pair (local node ``a``, local node ``b``) of graph ``g``; padding entries
    hold ``fill_value``.

    Parameters
    ----------
    value : Tensor ``[P, *F]``
        A pair attribute such as ``batch.rrwp``.
    pair_index : LongTensor ``[2, P]``
        ``batch.pair_index`` (global node ids).
    batch : LongTensor ``[num_nodes]``
        ``batch.batch``.
    num_graphs, max_num_nodes : int, optional
        Inferred from ``batch`` when omitted.
    full : bool, default False
        The caller has checked :func:`is_full_layout`: the result is ``value.view(B, N, N, *F)``
        (same values as the scatter, no copy).
    """
    if full:
        return value.view((num_graphs, max_num_nodes, max_num_nodes) + tuple(value.shape[1:]))
    if num_graphs is None:
        num_graphs = int(batch.max()) + 1 if batch.numel() else 0
    g, li, lj, counts = _dense_coords(pair_index, batch, num_graphs)
    if max_num_nodes is None:
        max_num_nodes = int(counts.max()) if counts.numel() else 0
    out = value.new_full((num_graphs, max_num_nodes, max_num_nodes, *value.shape[1:]), fill_value)
    out[g, li, lj] = value  # [B, N, N, *F]
    return out


def dense_pair_mask(node_mask: Tensor) -> Tensor:
    """``[B, N, N]`` bool mask of real pairs from the ``[B, N]`` node mask of
    :func:`~wltools.models.layers.dense_batch`."""
    return node_mask.unsqueeze(2) & node_mask.unsqueeze(1)  # [B, N, N]


def is_functorch_wrapped(t: Tensor) -> bool:
    """True for a tensor wrapped by a :mod:`torch.func` transform (e.g. batched by ``vmap``): its
    values may differ per vmapped unit, so data-dependent shortcuts (unique rows, layout checks)
    must not be computed from it. False where the check is unavailable."""
    try:
        from torch._C._functorch import is_functorch_wrapped_tensor
    except ImportError:  # pragma: no cover - every torch with torch.func has it
        return False
    return bool(is_functorch_wrapped_tensor(t))


def is_full_layout(pair_index: Tensor, num_nodes: int, num_graphs: int, max_num_nodes: int) -> bool:
    """Whether the pair list of a batch is exactly the row-major ``[B, N, N]`` array.

    True iff every graph has ``N = max_num_nodes`` nodes (``num_nodes == B * N``) and column
    ``p = (g * N + i) * N + j`` of ``pair_index`` holds the global ids ``(g N + i, g N + j)``
    (what :func:`full_pair_index` plus PyG batching give). Then :func:`to_dense_pair` is a view,
    :func:`~wltools.models.layers.dense_batch` is a view, and no entry is padding. One pass over
    ``pair_index`` (checked, not assumed: a hand-made pair list in another order gets the scatter).

    Examples
    --------
    >>> is_full_layout(full_pair_index(3), 3, 1, 3)
    True
    >>> is_full_layout(full_pair_index(3).flip(1), 3, 1, 3)
    False
    """
    B, N = int(num_graphs), int(max_num_nodes)
    P = pair_index.shape[-1]
    if num_nodes != B * N or P != B * N * N or pair_index.dim() != 2:
        return False
    if is_functorch_wrapped(pair_index):
        return False
    ar = torch.arange(P, device=pair_index.device)
    row = ar // N  # global id of i
    col = ar - row * N + (ar // (N * N)) * N  # global id of j
    return bool(torch.equal(pair_index[0], row) and torch.equal(pair_index[1], col))


_INT_OF_SIZE = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def _first_of_group(inverse: Tensor, num_groups: int) -> Tensor:
    """``[U]``: the smallest position of each group of ``inverse [P]``."""
    P = inverse.numel()
    pos = torch.arange(P, device=inverse.device)
    return torch.full((num_groups,), P, dtype=torch.long, device=inverse.device).scatter_reduce(
        0, inverse, pos, reduce="amin")


def _groups(keys: Tensor, order: Tensor) -> tuple[Tensor, int]:
    """``(inverse [P], U)`` for rows already sorted by ``order`` with sorted keys ``keys``
    (``[P]`` or ``[P, C]``): equal consecutive keys form one group, numbered in sorted order."""
    P = order.numel()
    new = torch.ones(P, dtype=torch.bool, device=order.device)  # [P] a group starts here
    diff = keys[1:] != keys[:-1]
    new[1:] = diff if diff.dim() == 1 else diff.any(1)
    gid = torch.cumsum(new.to(torch.long), 0) - 1  # [P] group of each sorted row
    inverse = torch.empty_like(gid).scatter(0, order, gid)  # [P] group of each row
    return inverse, int(gid[-1]) + 1


def _hash_weights(num: int, device) -> Tensor:
    """``[num]`` fixed int64 multipliers in ``[1, 2^25)`` (a multiplicative sequence, no RNG, so
    that it also runs inside ``vmap``); any values keep :func:`unique_rows` exact."""
    c = torch.arange(1, num + 1, dtype=torch.int64, device=device)
    return (c * 2654435761 + 40503) % (2**25 - 1) + 1


def unique_rows(x: Tensor) -> tuple[Tensor, Tensor]:
    """The distinct rows of ``x [P, ...]``, exactly: ``(rows [U], inverse [P])`` with
    ``x[rows][inverse]`` equal to ``x`` value for value.

    ``rows[u]`` is the first position of the ``u``-th distinct row; the order of the distinct rows
    is deterministic (by a hash of their bits). Fast path: one int64 hash per row of the raw bits,
    a stable sort of the hashes, then an exact check that every row equals the representative of
    its hash class; on failure (a hash collision) an exact lexicographic sort of the rows' bits.
    Rows are compared bitwise: rows that differ only in the sign of a zero are kept apart, equal
    NaN payloads are one row. Sorts, scans and scatters only (no ``torch.unique``), so it also runs
    inside ``torch.func.vmap`` on tensors that are not batched (data shared by every unit).

    Examples
    --------
    >>> x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [1.0, 2.0]])
    >>> rows, inverse = unique_rows(x)
    >>> torch.equal(x[rows][inverse], x), len(rows)
    (True, 2)
    """
    P = x.shape[0]
    if x.numel() == 0:
        empty = torch.zeros(0, dtype=torch.long, device=x.device)
        return (empty, empty) if P == 0 else (empty.new_zeros(1), empty.new_zeros(P))
    flat = x.reshape(P, -1)
    bits = flat.contiguous().view(_INT_OF_SIZE[flat.element_size()]) if flat.is_floating_point() else flat
    bits = bits.to(torch.int64)  # [P, C]
    C = bits.shape[1]
    h = (bits * _hash_weights(C, x.device)).sum(1)  # [P] (int64 arithmetic; overflow only costs the fast path)
    hs, order = torch.sort(h, stable=True)
    inverse, U = _groups(hs, order)
    rows = _first_of_group(inverse, U)
    if not bool((bits[rows][inverse] == bits).all()):  # a collision: exact lexicographic sort
        order = torch.arange(P, device=x.device)
        for c in reversed(range(C)):  # stable sorts, last column first
            order = order[torch.sort(bits[order, c], stable=True).indices]
        inverse, U = _groups(bits[order], order)
        rows = _first_of_group(inverse, U)
    return rows, inverse


@dataclass(frozen=True, eq=False)
class PairPlan:
    """Data-only index tensors of one batch's pair list (see :func:`pair_plan`).

    Attributes
    ----------
    sources : tuple
        The tensors it was computed from; :meth:`matches` checks identity, so a plan stored on a
        batch is never applied to other data (e.g. the per-unit tensors under ``vmap``).
    key : tuple
        The settings it was computed under (what the caller deduplicated, dtype, ...).
    num_graphs, max_num_nodes : int
    full : bool
        :func:`is_full_layout`.
    rows : LongTensor ``[U]`` or None
        Position of one pair per distinct encoding row (:func:`unique_rows`); None = no dedup.
    index : LongTensor ``[B, N, N]`` or None
        Distinct-row index of every dense entry; padding entries hold ``U`` (a zero row the
        caller appends). None = no dedup.
    values : Tensor ``[U, ...]`` or None
        The distinct rows themselves (``values[rows]``), so a forward need not rebuild the
        per-pair tensor.
    node_rows : LongTensor ``[num_nodes]`` or None
        Distinct-row index of each node's diagonal pair ``(v, v)``.
    """

    sources: tuple
    key: tuple
    num_graphs: int
    max_num_nodes: int
    full: bool
    rows: Tensor | None = None
    index: Tensor | None = None
    values: Tensor | None = None
    node_rows: Tensor | None = None

    def matches(self, sources: tuple, key: tuple) -> bool:
        return self.key == key and len(sources) == len(self.sources) and all(
            a is b for a, b in zip(sources, self.sources))

    def dense(self, values: Tensor) -> Tensor:
        """Distinct-row values ``[U, *F]`` to the dense ``[B, N, N, *F]`` (padding zero)."""
        B, N = self.num_graphs, self.max_num_nodes
        if not self.full:
            values = torch.cat([values, values.new_zeros((1,) + values.shape[1:])])  # [U + 1, *F]
        out = values.index_select(0, self.index.reshape(-1))  # [B*N*N, *F]
        return out.view((B, N, N) + values.shape[1:])


def pair_plan(
    values: Tensor | None,
    pair_index: Tensor,
    batch: Tensor,
    num_graphs: int,
    max_num_nodes: int,
    sources: tuple = (),
    key: tuple = (),
) -> PairPlan:
    """The :class:`PairPlan` of a batch: its layout, and with ``values [P, ...]`` (the pair
    encoding a row-wise encoder reads) the distinct rows and their dense index.

    Examples
    --------
    >>> pi = full_pair_index(2)
    >>> plan = pair_plan(torch.tensor([[1.0], [0.0], [0.0], [1.0]]), pi, torch.zeros(2, dtype=torch.long), 1, 2)
    >>> plan.full, plan.rows.tolist(), plan.index.tolist()
    (True, [1, 0], [[[1, 0], [0, 1]]])
    """
    B, N = int(num_graphs), int(max_num_nodes)
    full = is_full_layout(pair_index, batch.numel(), B, N)
    rows = index = distinct = node_rows = None
    if values is not None:
        rows, inverse = unique_rows(values)
        distinct = values[rows]  # [U, ...]
        if full:
            index = inverse.view(B, N, N)
        else:
            index = to_dense_pair(inverse, pair_index, batch, B, N, fill_value=rows.numel())
        diag = pair_index[0] == pair_index[1]  # [P]
        node_rows = torch.zeros(batch.numel(), dtype=torch.long, device=batch.device).scatter(
            0, pair_index[0][diag], inverse[diag])  # [num_nodes]
    return PairPlan(tuple(sources), tuple(key), B, N, full, rows, index, distinct, node_rows)
