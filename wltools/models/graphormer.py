r"""Graphormer (Ying et al., NeurIPS 2021; ../shared/papers/graphormer.txt).

One file, nanoGPT style: :class:`GraphormerConfig` (commented defaults), :data:`PRESETS`,
:func:`graphormer_transform` (the SPD encoding from :mod:`wltools.models.encodings`), the pre-LN
layer (:class:`GraphormerLayer`, Eq. 8-9) and the model (:class:`Graphormer`, registered as
``"graphormer"``) with centrality encoding (Eq. 5), the SPD spatial bias per head (Eq. 6) and the
virtual node [VNode] with its own learnable spatial bias (Sec. 3.2).

The ``"brec"`` preset is the BREC benchmark's own Graphormer run (12 layers, hidden 80, 8 heads,
FFN 80) with its dropouts: residual/FFN dropout 0, attention dropout 0.1 (the reference script's
settings, docs/protocol.md difference 14; Graphormer's Table 7 has 0.1 for both). Attention is the shared fast path
:func:`wltools.models.layers.dense_attention` (``torch.nn.functional.scaled_dot_product_attention``
with the spatial bias as float mask; ``kind="sdp"``); tests check it against an explicit softmax.

Edge encoding (Sec. 3.1.3, Eq. 7) when ``edge_dim > 0``: the transform adds
:class:`AddShortestPathEdges` (the edges of one shortest path per pair, reconstructed from
:func:`wltools.distances.spd_float`), and the model adds
:math:`c_{ij} = \frac{1}{N}\sum_{n=1}^{N} x_{e_n} (w^E_n)^\top` per head to the bias, over the
first ``N = min(SPD, max_hops)`` edges (the public code's ``multi_hop_max_dist``). BREC graphs have
no edge features, so the BREC preset does not use it.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn
from torch_geometric.data import Data
from torch_geometric.transforms import BaseTransform, Compose

from .embedder import GraphEmbedder
from .encodings import AddSPD, to_dense_pair
from .layers import degree, dense_attention, dense_batch, graph_index
from .configs import GRAPHORMER_PRESETS as PRESETS, GraphormerConfig

__all__ = ["GraphormerConfig", "PRESETS", "AddShortestPathEdges", "graphormer_transform", "GraphormerLayer",
           "Graphormer"]


class AddShortestPathEdges(BaseTransform):
    r"""The edges of one shortest path per ordered pair, for Graphormer's edge encoding
    (Sec. 3.1.3).

    For every pair ``(i, j)`` at distance ``d >= 1`` the path ``i = u_0, u_1, ..., u_d = j`` takes
    at each step the smallest-numbered neighbour one step closer to ``j`` (distances from
    :func:`wltools.distances.spd_float`); its first ``min(d, max_hops)`` edges are stored, one
    column per edge, as

    ``data.sp_step_index`` : LongTensor ``[2, L]``
        the edge ``(u_{n-1}, u_n)``;
    ``data.sp_pair_index`` : LongTensor ``[2, L]``
        the pair ``(i, j)`` it belongs to;
    ``data.sp_hop`` : LongTensor ``[L]``
        ``n - 1`` (0-based position on the path).

    Both ``*_index`` attributes are offset by PyG batching like ``edge_index``.

    Parameters
    ----------
    max_hops : int
    """

    def __init__(self, max_hops: int) -> None:
        if int(max_hops) < 1:
            raise ValueError(f"max_hops must be >= 1, got {max_hops}")
        self.max_hops = int(max_hops)

    def forward(self, data: Data) -> Data:
        from ..distances import spd_float  # the one definition of SPD

        n = int(data.num_nodes)
        ei = data.edge_index.cpu()
        spd = spd_float(ei, n).long()  # [n, n], -1 unreachable
        adj = torch.zeros(n, n, dtype=torch.bool)
        adj[ei[0], ei[1]] = True
        i, j = torch.nonzero(spd > 0, as_tuple=True)  # pairs with a path of >= 1 edge, [P']
        cur, steps, pairs, hops = i.clone(), [], [], []
        for hop in range(self.max_hops):
            active = spd[i, j] > hop  # path still has an edge at this position
            if not active.any():
                break
            a_cur, a_j = cur[active], j[active]
            closer = adj[a_cur] & (spd[:, a_j].T == (spd[a_cur, a_j] - 1)[:, None])  # [A, n]
            nxt = closer.int().argmax(1)  # smallest-numbered neighbour one step closer to j
            steps.append(torch.stack([a_cur, nxt]))
            pairs.append(torch.stack([i[active], a_j]))
            hops.append(torch.full((int(active.sum()),), hop, dtype=torch.long))
            cur = cur.clone()
            cur[active] = nxt
        empty = torch.zeros(2, 0, dtype=torch.long)
        data.sp_step_index = torch.cat(steps, 1) if steps else empty  # [2, L]
        data.sp_pair_index = torch.cat(pairs, 1) if pairs else empty  # [2, L]
        data.sp_hop = torch.cat(hops) if hops else torch.zeros(0, dtype=torch.long)  # [L]
        return data

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(max_hops={self.max_hops})"


def graphormer_transform(config: GraphormerConfig):
    """The encodings Graphormer needs: shortest-path distances clamped at ``config.max_dist``
    (:class:`~wltools.models.encodings.AddSPD`), plus :class:`AddShortestPathEdges` when the
    edge encoding is on (``edge_dim > 0``)."""
    if config.edge_dim > 0:
        return Compose([AddSPD(config.max_dist), AddShortestPathEdges(config.max_hops)])
    return AddSPD(config.max_dist)


class GraphormerLayer(nn.Module):
    r"""Pre-LN Graphormer layer (Sec. 3.2, Eq. 8-9).

    .. math::
        \mathbf{h}' = \mathrm{MHA}(\mathrm{LN}(\mathbf{h})) + \mathbf{h}, \qquad
        \mathbf{h}'' = \mathrm{FFN}(\mathrm{LN}(\mathbf{h}')) + \mathbf{h}'

    with :math:`A_{ij} = (\mathbf{h}_i W_Q)(\mathbf{h}_j W_K)^\top/\sqrt{d_h} + b_{\phi(v_i,v_j)}`
    (Eq. 6), the bias given per head. Shapes: ``h [B, N, d]``, ``bias [B, H, N, N]``,
    ``mask [B, N]``.
    """

    def __init__(self, config: GraphormerConfig) -> None:
        super().__init__()
        d, self.heads = config.hidden, config.heads
        if d % self.heads:
            raise ValueError(f"hidden {d} is not divisible by heads {self.heads}")
        self.attn_dropout = config.attn_dropout
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.ffn = nn.Sequential(nn.Linear(d, config.ffn_dim), nn.GELU(), nn.Dropout(config.dropout),
                                 nn.Linear(config.ffn_dim, d))
        self.dropout = nn.Dropout(config.dropout)

    def reset_parameters(self) -> None:
        for m in (self.ln1, self.ln2):
            m.reset_parameters()
        for lin in (self.qkv, self.out, self.ffn[0], self.ffn[3]):
            nn.init.xavier_uniform_(lin.weight)  # Graphormer code: xavier-uniform projections
            nn.init.zeros_(lin.bias)

    def forward(self, h: Tensor, bias: Tensor, mask: Tensor) -> Tensor:
        B, N, d = h.shape
        H = self.heads
        q, k, v = self.qkv(self.ln1(h)).view(B, N, 3, H, d // H).permute(2, 0, 3, 1, 4)  # 3x[B,H,N,dh]
        p = self.attn_dropout if self.training else 0.0
        a = dense_attention(q, k, v, bias=bias, key_padding_mask=mask, kind="sdp", dropout_p=p)
        h = h + self.dropout(self.out(a.transpose(1, 2).reshape(B, N, d)))  # Eq. 8, [B, N, d]
        return h + self.dropout(self.ffn(self.ln2(h)))  # Eq. 9, [B, N, d]


class Graphormer(GraphEmbedder):
    r"""Graphormer graph embedder (Sec. 3).

    Input (Eq. 5): :math:`\mathbf{h}^{(0)}_i = \mathrm{Lin}(\mathbf{x}_i) + \mathbf{z}_{\deg(v_i)}`
    (undirected graphs: in- and out-degree unified into one centrality table); the [VNode] token
    :math:`\mathbf{h}_{VN}` is prepended. Attention bias per head (Eq. 6, Sec. 3.2):
    :math:`b_{\phi(v_i, v_j)}` from a learnable table indexed by the shortest-path distance
    (unreachable pairs: their own entry, the paper's :math:`\phi = -1`), and one distinct learnable
    scalar :math:`t` for every pair involving [VNode]; the bias is shared across layers. After the
    pre-LN layers and a final LN, the graph representation is the [VNode] state, mapped to
    ``out_dim`` by Graphormer's head (Linear, GELU, LN, Linear).

    Input: a PyG batch with ``x``, ``edge_index``, ``spd [P]`` and ``pair_index`` (from
    :func:`graphormer_transform`). Output ``[num_graphs, out_dim]``.
    """

    invariant_encodings = True  # degree and SPD are functions of the graph

    def __init__(self, config: GraphormerConfig) -> None:
        super().__init__()
        self.config = c = config
        self.node_in = nn.Linear(c.in_dim, c.hidden)
        self.centrality = nn.Embedding(c.max_degree + 1, c.hidden)  # z_deg, Eq. 5
        self.vnode = nn.Parameter(torch.empty(1, 1, c.hidden))  # [VNode] token
        self.spatial = nn.Embedding(c.max_dist + 2, c.heads)  # b_phi per head, Eq. 6
        self.vnode_bias = nn.Parameter(torch.empty(c.heads))  # t: [VNode] spatial bias
        # w^E_n per head, Eq. 7: [max_hops, edge_dim, heads]
        self.edge_weight = (
            nn.Parameter(torch.empty(c.max_hops, c.edge_dim, c.heads)) if c.edge_dim > 0 else None
        )
        self.blocks = nn.ModuleList(GraphormerLayer(c) for _ in range(c.layers))
        self.final_ln = nn.LayerNorm(c.hidden)
        self.head = nn.Sequential(nn.Linear(c.hidden, c.hidden), nn.GELU(), nn.LayerNorm(c.hidden),
                                  nn.Linear(c.hidden, c.out_dim))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Initialise every parameter (one place): embeddings N(0, 0.02) as in Graphormer's code
        (spatial and [VNode] biases N(0, ``bias_init_std``)), xavier-uniform projections, default
        LN and head."""
        nn.init.normal_(self.centrality.weight, std=0.02)
        nn.init.normal_(self.spatial.weight, std=self.config.bias_init_std)
        nn.init.normal_(self.vnode, std=0.02)
        nn.init.normal_(self.vnode_bias, std=self.config.bias_init_std)
        if self.edge_weight is not None:
            nn.init.normal_(self.edge_weight, std=0.02)
        self.node_in.reset_parameters()
        for block in self.blocks:
            block.reset_parameters()
        self.final_ln.reset_parameters()
        for m in self.head:
            if hasattr(m, "reset_parameters"):
                m.reset_parameters()

    def attention_bias(self, spd: Tensor, node_mask: Tensor) -> Tensor:
        """The per-head bias ``[B, H, 1 + N, 1 + N]`` (index 0 = [VNode]) from dense SPD indices
        ``spd [B, N, N]`` (values ``0 .. max_dist + 1``)."""
        B, N = node_mask.shape
        H = self.config.heads
        bias = self.vnode_bias.view(1, H, 1, 1).expand(B, H, N + 1, N + 1).clone()  # t everywhere
        bias[:, :, 1:, 1:] = self.spatial(spd).permute(0, 3, 1, 2)  # b_phi(vi, vj)
        return bias  # [B, H, N+1, N+1]

    def edge_encoding(self, batch, b: Tensor, B: int, N: int, spd: Tensor) -> Tensor:
        r"""Eq. 7: :math:`c_{ij} = \frac{1}{N_{ij}}\sum_{n \le N_{ij}} x_{e_n}(w^E_n)^\top` per head,
        ``[B, N, N, H]``, with ``N_ij = min(SPD_ij, max_hops)``; zero for ``i = j`` and
        unreachable pairs. ``spd`` is the dense ``[B, N, N]`` index table."""
        c = self.config
        dtype = self.edge_weight.dtype
        T = b.numel()
        ea = batch.edge_attr.to(dtype).view(batch.edge_index.shape[1], -1)  # [E, dE]
        keys = batch.edge_index[0] * T + batch.edge_index[1]  # [E]
        order = torch.argsort(keys)
        step = batch.sp_step_index  # [2, L]
        pos = torch.searchsorted(keys[order], step[0] * T + step[1])  # [L]
        x_e = ea[order[pos]]  # feature of each path edge, [L, dE]
        contrib = torch.einsum("le,leh->lh", x_e, self.edge_weight[batch.sp_hop])  # [L, H]
        i, j = batch.sp_pair_index  # [L] global ids
        ptr = torch.cumsum(torch.bincount(b, minlength=B), 0)
        g = b[i]
        start = ptr[g] - torch.bincount(b, minlength=B)[g]
        out = contrib.new_zeros(B, N, N, c.heads)
        out.index_put_((g, i - start, j - start), contrib, accumulate=True)  # sum over the path
        n_edges = spd.clamp(min=1, max=c.max_hops).to(dtype)  # [B, N, N]
        return out / n_edges.unsqueeze(-1)  # [B, N, N, H]

    def forward(self, batch) -> Tensor:
        c = self.config
        dtype = self.node_in.weight.dtype
        T = batch.num_nodes
        b, B = graph_index(batch)
        deg = degree(batch.edge_index[1], T, dtype=torch.long).clamp(max=c.max_degree)  # [T]
        x = self.node_in(batch.x.to(dtype)) + self.centrality(deg)  # Eq. 5, [T, d]
        h, node_mask = dense_batch(x, b, batch_size=B)  # [B, N, d], [B, N]
        N = h.shape[1]
        spd = batch.spd.long()  # [P]; raw -1 (unreachable) also maps to max_dist + 1
        spd = torch.where(spd < 0, c.max_dist + 1, spd.clamp(max=c.max_dist + 1))
        spd = to_dense_pair(spd, batch.pair_index, b, B, N, fill_value=c.max_dist + 1)  # [B, N, N]
        bias = self.attention_bias(spd, node_mask).to(dtype)  # [B, H, N+1, N+1]
        if self.edge_weight is not None:
            bias[:, :, 1:, 1:] += self.edge_encoding(batch, b, B, N, spd).permute(0, 3, 1, 2)
        h = torch.cat([self.vnode.to(dtype).expand(B, 1, -1), h], dim=1)  # [B, 1+N, d]
        mask = torch.cat([node_mask.new_ones(B, 1), node_mask], dim=1)  # [B, 1+N]
        for block in self.blocks:
            h = block(h, bias, mask)
        g = self.final_ln(h[:, 0])  # [VNode] state, [B, d]
        return self.head(g)  # [B, out_dim]
