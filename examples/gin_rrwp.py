r"""A researcher's own model on BREC with this toolkit's RRWP encoding: GIN + RRWP.

The GIN of ``examples/gin.py`` fed with relative random-walk probabilities (RRWP, GRIT Sec. 3.1
Eq. 1) instead of constant inputs. The transform :class:`wltools.models.encodings.AddRRWP` with
``walk_length = K`` attaches to every graph (once, before training; the runner caches it on disk
under its ``repr``)

- ``data.pair_index`` ``[2, n*n]``: every ordered node pair ``(i, j)``, row-major (column
  ``i*n + j``), offset by PyG batching like ``edge_index``;
- ``data.rrwp`` ``[n*n, K]``: row ``i*n + j`` is
  :math:`\mathbf{p}_{ij} = [\mathbf{I}, \mathbf{M}, \dots, \mathbf{M}^{K-1}]_{ij}` with
  :math:`\mathbf{M} = \mathbf{D}^{-1}\mathbf{A}`, the probabilities that a random walk from ``i``
  is at ``j`` after ``0 .. K-1`` steps.

The model uses two slices of it:

- node features: the diagonal :math:`\mathbf{p}_{vv}` (return probabilities; channel 0 is 1), so
  no constant input is needed;
- edge features: :math:`\mathbf{p}_{vu}` on the message from neighbour ``u`` to ``v``, through
  ``GINEConv``:

.. math::
    h_v^{(k)} = \mathrm{ReLU}\Big(\mathrm{MLP}^{(k)}\big((1 + \epsilon^{(k)})\, h_v^{(k-1)}
                + \textstyle\sum_{u \in N(v)} \mathrm{ReLU}(h_u^{(k-1)}
                + W^{(k)} \mathbf{p}_{vu})\big)\Big), \qquad
    h_v^{(0)} = W^{(0)} \mathbf{p}_{vv}

then sum pooling of every layer and an MLP head to ``out_dim``. A layer aggregates, at ``v``,
pairs :math:`(\mathbf{p}_{vu}, h_u)` over the neighbours ``u`` (recognisable from channel 1,
:math:`\mathbf{M}_{vu} > 0`), a part of the multiset :math:`\{\{(\mathbf{p}_{vu}, \chi(u)) : u
\in V\}\}` that RRWP-WL (GD-WL over RRWP, GRIT Eq. 4) refines by, and it starts from
:math:`\mathbf{p}_{vv}`, which RRWP-WL sees in its first round. So RRWP-WL with the same K bounds
the model: ``wl_bound = "rrwp"``; the runner takes K from ``transform.walk_length``.

Run it (see examples/README.md)::

    wltools brec run --model examples/gin_rrwp.py:gin_rrwp --category basic --out runs/gin-rrwp

Apart from the public transform ``AddRRWP``, only ``torch`` and ``torch_geometric`` are imported.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn
from torch_geometric.nn import GINEConv, global_add_pool

from wltools.models.encodings import AddRRWP

__all__ = ["WALK_LENGTH", "transform", "rrwp_node_and_edge_features", "GINRRWP", "gin_rrwp"]

WALK_LENGTH = 16  # K: RRWP channels I, M, ..., M^15

#: The transform the runner applies to every graph before training (the factory carries it too).
transform = AddRRWP(WALK_LENGTH)


def _mlp(in_dim: int, hidden: int, out_dim: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, out_dim))


def rrwp_node_and_edge_features(batch) -> tuple[Tensor, Tensor]:
    """``(p_vv [n, K], p_vu [E, K])``: the RRWP row of every node, and of every edge ``u -> v``
    (``edge_index[:, e] = (u, v)``) read from the receiving node ``v``.

    Pairs of graph ``g`` are the block of ``n_g * n_g`` columns after the blocks of the graphs
    before it, row-major; so the pair ``(u, v)`` of graph ``g`` is column
    ``offset_g + (u - first_g) * n_g + (v - first_g)``.
    """
    index = batch.batch  # [n], graph of each node
    sizes = torch.bincount(index, minlength=batch.num_graphs)  # [B] n_g
    first = torch.cumsum(sizes, 0) - sizes  # [B] first node of each graph
    offset = torch.cumsum(sizes * sizes, 0) - sizes * sizes  # [B] first pair column of each graph

    def column(u: Tensor, v: Tensor) -> Tensor:
        g = index[u]
        return offset[g] + (u - first[g]) * sizes[g] + (v - first[g])

    nodes = torch.arange(index.numel(), device=index.device)
    src, dst = batch.edge_index  # message u -> v
    node_cols, edge_cols = column(nodes, nodes), column(dst, src)
    if not torch.equal(batch.pair_index[:, edge_cols], torch.stack([dst, src])):
        raise ValueError("batch.pair_index is not AddRRWP's row-major layout")
    return batch.rrwp[node_cols], batch.rrwp[edge_cols]


class GINRRWP(nn.Module):
    """GIN with RRWP node and edge features: ``forward(batch)`` maps a PyG ``Batch`` (with
    :data:`transform` applied to each graph) to ``[num_graphs, out_dim]``.

    Parameters
    ----------
    walk_length : int, default :data:`WALK_LENGTH`
        K, the RRWP channels the transform attaches (checked in ``forward``).
    hidden : int, default 64
    layers : int, default 4
    out_dim : int, default 16
    """

    wl_bound = "rrwp"  # with K = transform.walk_length (see the module docstring)

    def __init__(
        self, walk_length: int = WALK_LENGTH, hidden: int = 64, layers: int = 4, out_dim: int = 16
    ) -> None:
        super().__init__()
        if layers < 1:
            raise ValueError(f"layers must be >= 1, got {layers}")
        self.walk_length = walk_length
        self.node_in = nn.Linear(walk_length, hidden)  # W^(0) p_vv
        self.convs = nn.ModuleList(
            GINEConv(_mlp(hidden, hidden, hidden), train_eps=True, edge_dim=walk_length)
            for _ in range(layers)
        )
        self.head = _mlp(hidden * (layers + 1), hidden, out_dim)  # on every layer's pooled features
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Re-initialise every parameter (input map, convolutions with their edge maps, head)."""
        self.node_in.reset_parameters()
        for conv in self.convs:
            conv.reset_parameters()
        for m in self.head:
            if isinstance(m, nn.Linear):
                m.reset_parameters()

    def forward(self, batch) -> Tensor:
        if batch.rrwp.shape[-1] != self.walk_length:
            raise ValueError(f"batch.rrwp has {batch.rrwp.shape[-1]} channels, the model expects "
                             f"{self.walk_length} (apply AddRRWP({self.walk_length}))")
        dtype = self.node_in.weight.dtype
        p_node, p_edge = (t.to(dtype) for t in rrwp_node_and_edge_features(batch))  # [n, K], [E, K]
        index, B = batch.batch, batch.num_graphs
        h = self.node_in(p_node)  # [n, hidden]
        pooled = [global_add_pool(h, index, size=B)]  # [B, hidden]
        for conv in self.convs:
            h = torch.relu(conv(h, batch.edge_index, p_edge))  # [n, hidden]
            pooled.append(global_add_pool(h, index, size=B))
        return self.head(torch.cat(pooled, dim=-1))  # [B, out_dim]


def gin_rrwp(hidden: int = 64, layers: int = 4, out_dim: int = 16) -> GINRRWP:
    """The factory the runner calls (``--model examples/gin_rrwp.py:gin_rrwp``); it carries
    ``wl_bound`` and ``transform``."""
    return GINRRWP(transform.walk_length, hidden=hidden, layers=layers, out_dim=out_dim)


gin_rrwp.wl_bound = GINRRWP.wl_bound
gin_rrwp.transform = transform
