"""Graph Transformer with Laplacian PE (Dwivedi & Bresson, AAAI-W 2021;
../shared/papers/graph-transformer-dwivedi-bresson.txt).

One file, nanoGPT style: :class:`GraphTransformerConfig` (commented defaults), :data:`PRESETS`,
the encoding transform :class:`AddLapPE` (Sec. 2.2, Eq. 1), the layer
(:class:`GraphTransformerLayer`, Eq. 4-8, and Eq. 9-15 with edge features) and the model
(:class:`GraphTransformer`, registered as ``"graph_transformer"``).

Invariance (read before comparing runs). Laplacian eigenvectors are defined only up to sign, and
up to a rotation of the basis inside an eigenspace of dimension > 1. The PE of a relabelled graph
is therefore *not* the permuted PE of the original graph in general, and the model's embedding is
not relabelling invariant (``GraphTransformer.invariant_encodings = False``). What holds, and is
tested: the network is permutation equivariant given the PE (same eigenvectors, permuted with the
nodes, give the same embedding); with ``pos_enc="none"`` the model is invariant; with
``pos_enc="lap_abs"`` (|u|, a sign-invariant post-processing that is not in the paper) it is
invariant on graphs whose non-trivial Laplacian spectrum is simple. The paper's remedy for the sign
ambiguity is random sign flips during training (Sec. 2.2), done here in ``forward`` in training
mode.

Why not PyG's ``AddLaplacianEigenvectorPE``: it flips signs at preprocessing with the global torch
RNG (so cached encodings would depend on unrelated RNG state, and the flip would be frozen rather
than redrawn each step), uses ARPACK with a random start vector above 100 nodes, needs
``k < num_nodes`` and its ``repr`` omits ``k``. :class:`AddLapPE` computes the same quantity
(eigenvectors of the symmetric normalised Laplacian, trivial one dropped) with a dense float64
``eigh``, deterministic, zero-padded when ``n - 1 < k``.

``"brec"`` preset: the paper's benchmark setting (Sec. 3 "Model Configurations", ZINC): 10 layers,
8 heads, batch norm, sparse (neighbour) attention, LapPE with k = 8, no Q/K/V/E bias, mean readout
and the 3-layer MLP readout (d -> d/2 -> d/4 -> out); out_dim 16 for BREC. Hidden 64 is the value
that reproduces the paper's ZINC parameter count: with ZINC's inputs (28 atom types, 4 bond types,
edge features on) this file gives 589,312 parameters against 588,929 in Table 1 (the 383 extra are
the biases of our linear input maps, where the public code uses embedding tables, and the
16-dimensional output instead of 1).
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn
from torch_geometric.data import Data
from torch_geometric.transforms import BaseTransform
from torch_geometric.utils import scatter, softmax

from .embedder import GraphEmbedder
from .layers import ReadoutMLP, graph_index
from .configs import GRAPH_TRANSFORMER_PRESETS as PRESETS, GraphTransformerConfig

__all__ = [
    "GraphTransformerConfig",
    "PRESETS",
    "AddLapPE",
    "graph_transformer_transform",
    "GraphTransformerLayer",
    "GraphTransformer",
]

POS_ENCODINGS = ("lap", "lap_abs", "none")


class AddLapPE(BaseTransform):
    r"""Laplacian eigenvector PE (Dwivedi & Bresson Sec. 2.2, Eq. 1).

    .. math:: \Delta = \mathbf{I} - \mathbf{D}^{-1/2}\mathbf{A}\mathbf{D}^{-1/2}
              = \mathbf{U}^\top\mathbf{\Lambda}\mathbf{U}

    Attaches ``data[attr_name]`` ``[n, k]``: the eigenvectors of the ``k`` smallest eigenvalues
    after the first (trivial) one, in ascending order, from a dense float64 ``eigh``; columns
    beyond ``n - 1`` are zero (small graphs). Isolated nodes have :math:`\Delta_{ii} = 1`. Signs
    and bases within repeated eigenvalues are whatever LAPACK returns: deterministic for a given
    adjacency, not relabelling invariant (see the module docstring).

    Parameters
    ----------
    k : int
        Number of non-trivial eigenvectors.
    attr_name : str, default ``"lap_pe"``
    """

    def __init__(self, k: int, attr_name: str = "lap_pe") -> None:
        if int(k) < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        self.k = int(k)
        self.attr_name = attr_name

    def forward(self, data: Data) -> Data:
        n = int(data.num_nodes)
        ei = data.edge_index.cpu()
        A = torch.zeros(n, n, dtype=torch.float64)
        A[ei[0], ei[1]] = 1.0  # [n, n]
        deg = A.sum(1)
        inv_sqrt = torch.where(deg > 0, deg.clamp(min=1).rsqrt(), torch.zeros_like(deg))
        L = torch.eye(n, dtype=torch.float64) - inv_sqrt[:, None] * A * inv_sqrt[None, :]
        _, U = torch.linalg.eigh(L)  # ascending eigenvalues, U [n, n]
        pe = torch.zeros(n, self.k, dtype=torch.float64)
        m = min(self.k, n - 1)
        if m > 0:
            pe[:, :m] = U[:, 1 : m + 1]
        data[self.attr_name] = pe.to(torch.float32)  # [n, k]
        return data

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(k={self.k}, attr_name={self.attr_name!r})"


def graph_transformer_transform(config: GraphTransformerConfig) -> AddLapPE:
    """The encoding the Graph Transformer needs: :class:`AddLapPE` with ``k = config.lap_k``."""
    return AddLapPE(config.lap_k)


def _full_edges(batch_vec: Tensor, num_graphs: int) -> Tensor:
    """``[2, sum n_g (n_g - 1)]``: every ordered pair ``j -> i`` (``i != j``) inside each graph."""
    counts = torch.bincount(batch_vec, minlength=num_graphs)  # [B]
    ptr = torch.cumsum(counts, 0) - counts  # first node of each graph
    per_node = counts[batch_vec]  # [T] size of the node's graph
    dst = torch.arange(batch_vec.numel(), device=batch_vec.device).repeat_interleave(per_node)
    block_start = torch.cumsum(per_node, 0) - per_node  # [T]
    local = torch.arange(dst.numel(), device=dst.device) - block_start.repeat_interleave(per_node)
    src = ptr[batch_vec[dst]] + local
    keep = src != dst
    return torch.stack([src[keep], dst[keep]])


class GraphTransformerLayer(nn.Module):
    r"""Graph Transformer layer (Sec. 2.3).

    Without edge features (Eq. 4-8):

    .. math::
        \hat{h}_i = O_h \big\Vert_{k=1}^H \textstyle\sum_{j\in\mathcal{N}_i} w^k_{ij} V^k h_j,
        \quad w^k_{ij} = \mathrm{softmax}_j\big(\mathrm{clamp}(Q^k h_i\cdot K^k h_j/\sqrt{d_k},
        -5, 5)\big) \\
        h' = \mathrm{Norm}(h + \hat{h}), \quad h^{out} = \mathrm{Norm}(h' + W_2\,\mathrm{ReLU}(W_1 h'))

    With edge features (Eq. 9-15) the score is per channel,
    :math:`\hat{w}^k_{ij} = (Q^k h_i \odot K^k h_j/\sqrt{d_k}) \odot E^k e_{ij}` (the public
    code's reading of Eq. 12), the softmax takes the clamped channel sum, and
    :math:`\hat e_{ij} = O_e \Vert_k \hat{w}^k_{ij}` goes through its own residual, norm and FFN.

    ``edge_index [2, E]`` holds (source j, target i); the softmax is over the incoming edges of
    each target. ``h [T, d]``, ``e [E, d]`` or ``None``.
    """

    def __init__(self, config: GraphTransformerConfig, with_edges: bool) -> None:
        super().__init__()
        d, H = config.hidden, config.heads
        if d % H:
            raise ValueError(f"hidden {d} is not divisible by heads {H}")
        if config.norm not in ("batch", "layer"):
            raise ValueError(f"unknown norm {config.norm!r}; choose from batch, layer")
        self.heads, self.head_dim, self.clamp = H, d // H, config.attn_clamp
        self.with_edges = with_edges
        Norm = nn.BatchNorm1d if config.norm == "batch" else nn.LayerNorm
        self.Q, self.K, self.V = (nn.Linear(d, d, bias=config.qkv_bias) for _ in range(3))
        self.O_h = nn.Linear(d, d)
        self.norm1_h, self.norm2_h = Norm(d), Norm(d)
        self.ffn_h = self._ffn(d, config.dropout)
        if with_edges:
            self.E, self.O_e = nn.Linear(d, d, bias=config.qkv_bias), nn.Linear(d, d)
            self.norm1_e, self.norm2_e = Norm(d), Norm(d)
            self.ffn_e = self._ffn(d, config.dropout)
        self.dropout = nn.Dropout(config.dropout)

    @staticmethod
    def _ffn(d: int, dropout: float) -> nn.Sequential:
        """Eq. 7 / 14: ``W_2 ReLU(W_1 h)`` with hidden width ``2d``."""
        return nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Dropout(dropout), nn.Linear(2 * d, d))

    def reset_parameters(self) -> None:
        for m in self.modules():
            if m is not self and hasattr(m, "reset_parameters"):
                m.reset_parameters()

    def forward(self, h: Tensor, edge_index: Tensor, e: Tensor | None = None) -> tuple[Tensor, Tensor | None]:
        T, H, D = h.shape[0], self.heads, self.head_dim
        src, dst = edge_index  # j -> i
        q = self.Q(h).view(T, H, D)[dst]  # [E, H, D]
        k = self.K(h).view(T, H, D)[src]  # [E, H, D]
        v = self.V(h).view(T, H, D)[src]  # [E, H, D]
        if self.with_edges:
            w_hat = q * k / math.sqrt(D) * self.E(e).view(-1, H, D)  # Eq. 12, [E, H, D]
            score = w_hat.sum(-1)  # [E, H]
        else:
            w_hat = None
            score = (q * k).sum(-1) / math.sqrt(D)  # Eq. 5, [E, H]
        w = softmax(score.clamp(-self.clamp, self.clamp), dst, num_nodes=T)  # over j in N(i)
        agg = scatter(w.unsqueeze(-1) * v, dst, dim=0, dim_size=T, reduce="sum")  # [T, H, D]
        h = self.norm1_h(h + self.dropout(self.O_h(agg.reshape(T, H * D))))  # Eq. 4, 6
        h = self.norm2_h(h + self.dropout(self.ffn_h(h)))  # Eq. 7-8
        if self.with_edges:
            e = self.norm1_e(e + self.dropout(self.O_e(w_hat.reshape(-1, H * D))))  # Eq. 10, 13
            e = self.norm2_e(e + self.dropout(self.ffn_e(e)))  # Eq. 14-15
        return h, e


class GraphTransformer(GraphEmbedder):
    r"""Graph Transformer graph embedder (Sec. 2.3).

    Input (Eq. 2-3): :math:`h^0_i = A^0\alpha_i + a^0 + C^0\lambda_i + c^0` with
    :math:`\lambda_i` the LapPE row of node ``i`` (signs flipped at random per graph and
    eigenvector in training mode); edge features :math:`e^0_{ij} = B^0\beta_{ij} + b^0`. Then
    ``layers`` x :class:`GraphTransformerLayer`, mean (or sum) readout and an MLP to ``out_dim``.

    Input: a PyG batch with ``x``, ``edge_index``, ``lap_pe [T, k]`` (from
    :func:`graph_transformer_transform`; not needed with ``pos_enc="none"``), optionally
    ``edge_attr``. Output ``[num_graphs, out_dim]``.
    """

    invariant_encodings = False  # LapPE: sign and eigenbasis ambiguity (module docstring)

    def __init__(self, config: GraphTransformerConfig) -> None:
        super().__init__()
        self.config = c = config
        if c.pos_enc not in POS_ENCODINGS:
            raise ValueError(f"unknown pos_enc {c.pos_enc!r}; choose from {', '.join(POS_ENCODINGS)}")
        if c.readout not in ("mean", "sum"):
            raise ValueError(f"unknown readout {c.readout!r}; choose from mean, sum")
        with_edges = c.edge_dim > 0
        if with_edges and c.full_attention:
            raise ValueError("edge features need sparse attention (the paper drops them on full graphs)")
        self.node_in = nn.Linear(c.in_dim, c.hidden)  # A^0, a^0
        self.pe_in = nn.Linear(c.lap_k, c.hidden) if c.pos_enc != "none" else None  # C^0, c^0
        self.edge_in = nn.Linear(c.edge_dim, c.hidden) if with_edges else None  # B^0, b^0
        self.blocks = nn.ModuleList(GraphTransformerLayer(c, with_edges) for _ in range(c.layers))
        dims = [c.hidden, c.hidden // 2, c.hidden // 4, c.out_dim]  # MLPReadout, L = 2
        self.head = ReadoutMLP(dims)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Initialise every parameter (one place): PyTorch defaults, as in the public code."""
        for m in (self.node_in, self.pe_in, self.edge_in, *self.blocks, *self.head):
            if m is not None:
                m.reset_parameters()

    def forward(self, batch) -> Tensor:
        c = self.config
        dtype = self.node_in.weight.dtype
        b, B = graph_index(batch)
        h = self.node_in(batch.x.to(dtype))  # Eq. 2, [T, d]
        if self.pe_in is not None:
            pe = batch.lap_pe.to(dtype)  # [T, k]
            if pe.shape[-1] != c.lap_k:
                raise ValueError(f"batch.lap_pe has {pe.shape[-1]} columns, config expects {c.lap_k}")
            if c.pos_enc == "lap_abs":
                pe = pe.abs()
            elif self.training and c.sign_flip:
                sign = torch.randint(0, 2, (B, c.lap_k), device=pe.device).to(dtype) * 2 - 1  # [B, k]
                pe = pe * sign[b]
            h = h + self.pe_in(pe)  # Eq. 3
        edge_index = _full_edges(b, B) if c.full_attention else batch.edge_index
        e = None
        if self.edge_in is not None:
            e = self.edge_in(batch.edge_attr.to(dtype).view(batch.edge_index.shape[1], -1))  # [E, d]
        for block in self.blocks:
            h, e = block(h, edge_index, e)
        g = scatter(h, b, dim=0, dim_size=B, reduce=c.readout)  # [B, d]
        return self.head(g)  # [B, out_dim]
