r"""A researcher's own model on BREC: a plain PyTorch Geometric GIN.

GIN (Xu et al., "How Powerful are Graph Neural Networks?", ICLR 2019, Eq. 4.1 and the readout of
Sec. 4.2) with sum aggregation, a learnable epsilon and sum pooling of every layer, then an MLP
head to ``out_dim``:

.. math::
    h_v^{(k)} = \mathrm{ReLU}\Big(\mathrm{MLP}^{(k)}\big((1 + \epsilon^{(k)})\, h_v^{(k-1)}
                + \textstyle\sum_{u \in N(v)} h_u^{(k-1)}\big)\Big), \qquad
    h_G = \mathrm{MLP}\big(\Vert_{k=0}^{L} \textstyle\sum_{v} h_v^{(k)}\big)

BREC graphs have no node features of their own, so the model starts from ``h_v^{(0)} = 1`` for
every node and reads only ``edge_index``, ``num_nodes`` and the batch vector (never ``x``). With
constant inputs a GIN separates two graphs only if 1-WL (colour refinement) does: its bound is
``wl_bound = "1wl"``.

Run it (see examples/README.md)::

    wltools brec run --model examples/gin.py:gin --category basic --out runs/gin

Only ``torch`` and ``torch_geometric`` are imported: nothing of this toolkit.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn
from torch_geometric.nn import GINConv, global_add_pool

__all__ = ["GIN", "gin"]


def _mlp(in_dim: int, hidden: int, out_dim: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, out_dim))


class GIN(nn.Module):
    """GIN graph embedder: ``forward(batch)`` maps a PyG ``Batch`` to ``[num_graphs, out_dim]``.

    Parameters
    ----------
    hidden : int, default 64
        Width of every layer.
    layers : int, default 4
        Number of GIN layers.
    out_dim : int, default 16
        Embedding size (BREC's RPC test uses 16).
    """

    wl_bound = "1wl"  # constant node features: 1-WL bounds what a GIN can separate (Xu et al. Lemma 2)

    def __init__(self, hidden: int = 64, layers: int = 4, out_dim: int = 16) -> None:
        super().__init__()
        if layers < 1:
            raise ValueError(f"layers must be >= 1, got {layers}")
        dims = [1] + [hidden] * layers
        self.convs = nn.ModuleList(
            GINConv(_mlp(a, hidden, b), train_eps=True) for a, b in zip(dims[:-1], dims[1:])
        )
        self.head = _mlp(sum(dims), hidden, out_dim)  # on the pooled features of every layer
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Re-initialise every parameter (the convolutions' MLPs and epsilons, the head)."""
        for conv in self.convs:
            conv.reset_parameters()
        for m in self.head:
            if isinstance(m, nn.Linear):
                m.reset_parameters()

    def forward(self, batch) -> Tensor:
        n = int(batch.num_nodes)
        index = batch.batch  # [n], graph of each node
        dtype = self.head[0].weight.dtype
        h = torch.ones(n, 1, dtype=dtype, device=batch.edge_index.device)  # [n, 1], no features
        pooled = [global_add_pool(h, index, size=batch.num_graphs)]  # [B, 1]
        for conv in self.convs:
            h = torch.relu(conv(h, batch.edge_index))  # [n, hidden]
            pooled.append(global_add_pool(h, index, size=batch.num_graphs))  # [B, hidden]
        return self.head(torch.cat(pooled, dim=-1))  # [B, out_dim]


def gin(hidden: int = 64, layers: int = 4, out_dim: int = 16) -> GIN:
    """The factory the runner calls (``--model examples/gin.py:gin``, ``--set hidden=32``)."""
    return GIN(hidden=hidden, layers=layers, out_dim=out_dim)


gin.wl_bound = GIN.wl_bound
