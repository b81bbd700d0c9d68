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
"""

from __future__ import annotations

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
    """
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
