r"""A researcher's subgraph GNN on BREC: DS-GNN with the node-marking policy, GIN inside.

DS-GNN (Bevilacqua et al., "Equivariant Subgraph Aggregation Networks", ICLR 2022, Sec. 3 and
Eq. 3) turns a graph into a bag of subgraphs and runs one shared GNN on every subgraph
separately. With the *node-marking* policy the bag has one subgraph per node ``u``: the whole graph
with ``u`` marked. Write ``h(u, v)`` for node ``v``'s features in the subgraph of ``u``:

.. math::
    h^{(0)}(u, v) = \mathbb{1}[u = v], \qquad
    h^{(k)}(u, v) = \mathrm{ReLU}\Big(\mathrm{MLP}^{(k)}\big((1 + \epsilon^{(k)})\, h^{(k-1)}(u, v)
                    + \textstyle\sum_{w \in N(v)} h^{(k-1)}(u, w)\big)\Big)

then every subgraph is pooled over its nodes (all layers, concatenated) and passed through an MLP,
and the bag is pooled over its subgraphs (vertex-then-subgraph pooling, ESAN Eq. 3's
:math:`E_{\text{sets}}` over the subgraph readouts) before an MLP head maps it to ``out_dim``:

.. math::
    h_G = \mathrm{MLP}_{\text{head}}\Big(\textstyle\sum_{u} \mathrm{MLP}_{\text{sub}}\big(
          \Vert_{k=0}^{L} \sum_{v} h^{(k)}(u, v)\big)\Big)

(the inner MLP matters: with two plain sums the order of pooling would not.)

Its bound: the update aggregates only over ``v``'s neighbours inside the subgraph of ``u`` (Zhang
et al., "A Complete Expressiveness Hierarchy for Subgraph GNNs via Subgraph Weisfeiler-Lehman
Tests", ICML 2023, the local aggregation ``agg^L_u``), starts from node marking and pools over
``v`` first, then over ``u``: the subgraph WL test SWL(VS) of that paper, which bounds DS-GNN,
NGNN and their kind. So ``wl_bound = "swl-vs"``; SWL(VS) lies strictly between 1-WL and 3-WL.

The model reads only ``edge_index``, ``num_nodes`` and the batch vector (never ``x``), so it needs
no transform: the bag is built inside ``forward`` with tensor index arithmetic, ``n^2`` pair nodes
and ``n m`` pair edges per graph of ``n`` nodes and ``m`` edges.

Run it (see examples/README.md)::

    wltools brec run --model examples/ds_gin.py:ds_gin --category basic --out runs/ds-gin

Only ``torch`` and ``torch_geometric`` are imported: nothing of this toolkit.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn
from torch_geometric.nn import GINConv, global_add_pool

__all__ = ["DSGIN", "ds_gin", "node_marked_bag"]


def _mlp(in_dim: int, hidden: int, out_dim: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, out_dim))


def node_marked_bag(edge_index: Tensor, batch: Tensor, num_graphs: int) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """The node-marking bag of a PyG batch as one big graph of (subgraph root, node) pairs.

    Parameters
    ----------
    edge_index : Tensor ``[2, m]``
        The batch's edges (both directions), node ids ``0..N-1``.
    batch : Tensor ``[N]``
        Graph of each node; the nodes of a graph are consecutive (as PyG batches them).
    num_graphs : int
        Number of graphs in the batch.

    Returns
    -------
    root : Tensor ``[P]``
        For each pair node, its subgraph's root ``u`` (a node id of the batch).
    node : Tensor ``[P]``
        For each pair node, the node ``v`` it copies.
    pair_edges : Tensor ``[2, E]``
        The edges of every subgraph: ``(u, a) -- (u, b)`` for each edge ``(a, b)`` of ``u``'s graph.
    pair_graph : Tensor ``[P]``
        Graph of each pair node.

    With ``P = sum_g n_g^2`` and ``E = sum_g n_g m_g``.
    """
    device = batch.device
    sizes = torch.bincount(batch, minlength=num_graphs)  # [B] nodes per graph
    first = torch.cumsum(sizes, 0) - sizes  # [B] id of each graph's first node
    n_of = sizes[batch]  # [N] size of each node's graph
    # pair nodes: root u repeated n_{g(u)} times; block of u starts at block_start[u]
    root = torch.repeat_interleave(torch.arange(batch.numel(), device=device), n_of)  # [P]
    block_start = torch.cumsum(n_of, 0) - n_of  # [N]
    offset = torch.arange(root.numel(), device=device) - block_start[root]  # [P] position in block
    node = first[batch[root]] + offset  # [P]
    # pair edges: edge (a, b) of graph g copied into the subgraph of every root u of g
    src, dst = edge_index
    edge_graph = batch[src]  # [m]
    copies = sizes[edge_graph]  # [m] one copy per root of the edge's graph
    e = torch.repeat_interleave(torch.arange(src.numel(), device=device), copies)  # [E]
    e_start = torch.cumsum(copies, 0) - copies
    k = torch.arange(e.numel(), device=device) - e_start[e]  # [E] which root of the graph
    u = first[edge_graph[e]] + k  # [E] root
    base = block_start[u] - first[edge_graph[e]]  # pair id of (u, v) is base + v
    pair_edges = torch.stack([base + src[e], base + dst[e]])  # [2, E]
    return root, node, pair_edges, batch[root]


class DSGIN(nn.Module):
    """DS-GNN (node marking, GIN layers): ``forward(batch)`` maps a PyG ``Batch`` to
    ``[num_graphs, out_dim]``.

    Parameters
    ----------
    hidden : int, default 32
        Width of every layer.
    layers : int, default 4
        Number of GIN layers (shared by all subgraphs).
    out_dim : int, default 16
        Embedding size (BREC's RPC test uses 16).
    """

    wl_bound = "swl-vs"  # node marking, local aggregation, vertex-then-subgraph pooling (Zhang et al. 2023)

    def __init__(self, hidden: int = 32, layers: int = 4, out_dim: int = 16) -> None:
        super().__init__()
        if layers < 1:
            raise ValueError(f"layers must be >= 1, got {layers}")
        dims = [1] + [hidden] * layers
        self.convs = nn.ModuleList(
            GINConv(_mlp(a, hidden, b), train_eps=True) for a, b in zip(dims[:-1], dims[1:])
        )
        self.subgraph_mlp = _mlp(sum(dims), hidden, hidden)  # on each subgraph's pooled layers
        self.head = _mlp(hidden, hidden, out_dim)  # on the bag's sum
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Re-initialise every parameter (the convolutions' MLPs and epsilons, both MLPs)."""
        for conv in self.convs:
            conv.reset_parameters()
        for m in (*self.subgraph_mlp, *self.head):
            if isinstance(m, nn.Linear):
                m.reset_parameters()

    def forward(self, batch) -> Tensor:
        B = batch.num_graphs
        root, node, pair_edges, pair_graph = node_marked_bag(batch.edge_index, batch.batch, B)
        N = batch.batch.numel()
        dtype = self.head[0].weight.dtype
        h = (root == node).to(dtype).unsqueeze(-1)  # [P, 1] node marking
        pooled = [global_add_pool(h, root, size=N)]  # [N, 1] each subgraph summed over its nodes v
        for conv in self.convs:
            h = torch.relu(conv(h, pair_edges))  # [P, hidden], inside each subgraph only
            pooled.append(global_add_pool(h, root, size=N))  # [N, hidden]
        per_subgraph = self.subgraph_mlp(torch.cat(pooled, dim=-1))  # [N, hidden], one row per root u
        return self.head(global_add_pool(per_subgraph, batch.batch, size=B))  # [B, out_dim]


def ds_gin(hidden: int = 32, layers: int = 4, out_dim: int = 16) -> DSGIN:
    """Factory the runner calls once per (pair, seed): ``--model examples/ds_gin.py:ds_gin``."""
    return DSGIN(hidden=hidden, layers=layers, out_dim=out_dim)


ds_gin.wl_bound = DSGIN.wl_bound
