"""SGFormer as a graph embedder (Wu et al., "SGFormer: Simplifying and Empowering Transformers for
Large-Graph Representations"; ../shared/papers/sgformer.txt, Sec. 4).

One file, nanoGPT style: :class:`SGFormerConfig` (commented defaults), :data:`PRESETS`, the
identity encoding transform (SGFormer uses no positional encoding, Sec. 4.2), the simple global
attention (:func:`simple_global_attention`, Eq. 22-26, linear cost) and the model
(:class:`SGFormer`, registered as ``"sgformer"``): shared input MLP, one global-attention layer,
a GCN branch, the mix of Eq. 21 and a graph readout (pooling + MLP to ``out_dim``).

Why not PyG's ``SGFormerAttention``: it L2-normalises every query/key *row*, where Eq. 25 divides
by the Frobenius norm of the whole ``Q`` / ``K`` of the graph; in a padded batch it counts the
padding in ``N`` and in ``K^T 1`` (a graph's output changes with the graphs batched beside it);
and it builds its all-ones vector in float32. :func:`simple_global_attention` follows Eq. 25-26
per graph with scatter sums, no padding. PyG's ``SGFormer`` model ends in a node-level
``log_softmax`` classifier, so it is not reused either.

Expressivity: every part is a 1-WL-bounded function of the node features (a GCN, plus global
attention that sees each node's own state and graph-wide sums), so two 1-WL-indistinguishable
graphs with identical features get identical embeddings -- tested.

``"brec"`` preset: the paper publishes no BREC or graph-level configuration; the preset takes the
single attention layer with one head (Sec. 4.1), alpha = 0.5 and hidden 64 from the paper's search
space (Sec. 5.1: alpha in {0.5, 0.8}, hidden in {32, 64, 128, 256}), a 2-layer GCN branch ("shallow
(e.g., 1-3) propagation layers", Sec. 4.1), batch norm and residual links as in the public code,
mean pooling and a 2-layer MLP head; out_dim 16.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch_geometric.data import Data
from torch_geometric.nn import GCNConv
from torch_geometric.transforms import BaseTransform
from torch_geometric.utils import scatter

from .embedder import GraphEmbedder
from .layers import ReadoutMLP, graph_index
from .configs import SGFORMER_PRESETS as PRESETS, SGFormerConfig

__all__ = ["SGFormerConfig", "PRESETS", "NoEncoding", "sgformer_transform", "simple_global_attention",
           "simple_global_attention_reference",
           "SGFormer"]


class NoEncoding(BaseTransform):
    """Identity transform: SGFormer needs no encoding (Sec. 4.2: "does not require any of
    positional embeddings ... or pre-processing"). Returns ``data`` unchanged."""

    def forward(self, data: Data) -> Data:
        return data

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


def sgformer_transform(config: SGFormerConfig) -> NoEncoding:
    """SGFormer's transform: none (see :class:`NoEncoding`)."""
    return NoEncoding()


def simple_global_attention(q: Tensor, k: Tensor, v: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
    r"""SGFormer's simple global attention, per graph, in linear cost (Sec. 4.1, Eq. 22-26).

    .. math::
        \tilde{Q} = \frac{Q}{\|Q\|_F}, \quad \tilde{K} = \frac{K}{\|K\|_F}, \quad
        D = \mathrm{diag}\Big(\mathbf{1} + \tfrac{1}{N}\tilde{Q}(\tilde{K}^\top\mathbf{1})\Big),
        \quad Z = D^{-1}\Big[V + \tfrac{1}{N}\tilde{Q}(\tilde{K}^\top V)\Big]

    equal to :math:`\mathrm{diag}^{-1}(C\mathbf{1})\,C\,V` with
    :math:`C = I + \tfrac{1}{N}\tilde{Q}\tilde{K}^\top` (Eq. 23-24), without forming ``C``.
    ``N``, the norms and the sums are per graph (``batch``). The denominator is positive for
    ``N > 1`` (:math:`|\tilde{q}_u^\top\tilde{K}^\top\mathbf{1}| \le \sqrt{N} < N`); for a
    one-node graph it is ``1 + cos(q, k)``, zero only if ``q = -c k``.

    Parameters
    ----------
    q, k, v : Tensor ``[T, H, D]`` (nodes of all graphs, H heads)
    batch : LongTensor ``[T]``
    num_graphs : int

    Returns
    -------
    Tensor ``[T, H, D]``
    """
    def graph_sum(t: Tensor) -> Tensor:  # per-graph sum over nodes, [T, ...] -> [B, ...]
        # index_add with the 1-D node-to-graph index: PyG's scatter first broadcasts the index to
        # the full shape of t, which torch.func.vmap (multi-pair mode) materialises for every unit
        return t.new_zeros(num_graphs, *t.shape[1:]).index_add(0, batch, t)

    n = torch.bincount(batch, minlength=num_graphs).to(q.dtype)[batch].view(-1, 1, 1)  # [T,1,1] N
    q_fro = graph_sum(q.pow(2).sum(-1)).sqrt()  # [B, H]
    k_fro = graph_sum(k.pow(2).sum(-1)).sqrt()  # [B, H]
    q = q / q_fro[batch].unsqueeze(-1)  # Q~, [T, H, D]
    k = k / k_fro[batch].unsqueeze(-1)  # K~, [T, H, D]
    outer = k.unsqueeze(-1) * v.unsqueeze(-2)  # k_u v_u^T, [T, H, D, Dv]
    ktv = graph_sum(outer)  # K~^T V, [B, H, D, Dv]
    k_sum = graph_sum(k)  # K~^T 1, [B, H, D]
    num = v + torch.einsum("thd,thde->the", q, ktv[batch]) / n  # [T, H, Dv]
    den = 1 + (q * k_sum[batch]).sum(-1, keepdim=True) / n  # [T, H, 1]
    return num / den


def simple_global_attention_reference(q: Tensor, k: Tensor, v: Tensor) -> Tensor:
    """Readable quadratic reference for one graph (Eq. 23-24): ``softmax``-free row-normalised
    ``C = I + Q~ K~^T / N`` applied to ``V``; ``q, k, v [N, H, D]``."""
    N = q.shape[0]
    q = q / q.pow(2).sum((0, 2), keepdim=True).sqrt()
    k = k / k.pow(2).sum((0, 2), keepdim=True).sqrt()
    C = torch.eye(N, dtype=q.dtype).unsqueeze(0) + torch.einsum("ihd,jhd->hij", q, k) / N  # [H, N, N]
    C = C / C.sum(-1, keepdim=True)
    return torch.einsum("hij,jhd->ihd", C, v)


class SGFormer(GraphEmbedder):
    r"""SGFormer graph embedder (Sec. 4.1, Eq. 21; Algorithm 1 with a graph-level readout).

    .. math::
        Z^{(0)} = f_I(X), \qquad
        Z_{out} = (1 - \alpha)\,\mathrm{AN}(Z^{(0)}) + \alpha\,\mathrm{GN}(Z^{(0)}, A)

    ``f_I``: Linear (+ BN) + ReLU. AN: one :func:`simple_global_attention` layer with
    ``f_Q, f_K, f_V`` linear (Eq. 22), heads averaged, residual mean with its input and BN as in
    the public code. GN: ``gnn_layers`` GCN layers (Kipf & Welling, PyG ``GCNConv``) with BN,
    ReLU and residuals. Readout: ``pooling`` over nodes, then an MLP to ``out_dim``.

    Input: a PyG batch with ``x`` and ``edge_index``. Output ``[num_graphs, out_dim]``.
    """

    invariant_encodings = True  # no encodings at all

    def __init__(self, config: SGFormerConfig) -> None:
        super().__init__()
        self.config = c = config
        if not 0.0 <= c.alpha < 1.0:
            raise ValueError(f"alpha must lie in [0, 1), got {c.alpha}")
        if c.pooling not in ("mean", "sum"):
            raise ValueError(f"unknown pooling {c.pooling!r}; choose from mean, sum")
        d = c.hidden
        self.f_in = nn.Linear(c.in_dim, d)  # f_I
        self.bn_in = nn.BatchNorm1d(d) if c.use_bn else nn.Identity()
        self.f_q, self.f_k, self.f_v = (nn.Linear(d, d * c.heads) for _ in range(3))  # Eq. 22
        self.bn_attn = nn.BatchNorm1d(d) if c.use_bn else nn.Identity()
        self.convs = nn.ModuleList(GCNConv(d, d) for _ in range(c.gnn_layers))
        self.bns = nn.ModuleList(
            (nn.BatchNorm1d(d) if c.use_bn else nn.Identity()) for _ in range(c.gnn_layers)
        )
        dims = [d] * c.head_layers + [c.out_dim]
        self.head = ReadoutMLP(dims)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Initialise every parameter (one place): PyTorch / PyG defaults."""
        for m in (self.f_in, self.bn_in, self.f_q, self.f_k, self.f_v, self.bn_attn, *self.convs, *self.bns,
                  *self.head):
            if hasattr(m, "reset_parameters"):
                m.reset_parameters()

    def forward(self, batch) -> Tensor:
        c = self.config
        dtype = self.f_in.weight.dtype
        T = batch.num_nodes
        b, B = graph_index(batch)
        drop = lambda t: F.dropout(t, c.dropout, self.training)  # noqa: E731
        z0 = drop(F.relu(self.bn_in(self.f_in(batch.x.to(dtype)))))  # Z(0) = f_I(X), [T, d]
        # AN(Z0): one simple global attention layer (Eq. 22-26)
        q, k, v = (f(z0).view(T, c.heads, c.hidden) for f in (self.f_q, self.f_k, self.f_v))  # [T, H, d]
        z_an = simple_global_attention(q, k, v, b, B).mean(1)  # heads averaged, [T, d]
        if c.residual:
            z_an = (z_an + z0) / 2
        z_an = drop(self.bn_attn(z_an))
        # GN(Z0, A): shallow GCN
        z_gn = z0
        for conv, bn in zip(self.convs, self.bns):
            out = F.relu(bn(conv(z_gn, batch.edge_index)))
            z_gn = drop(out + z_gn if c.residual else out)  # [T, d]
        z = (1 - c.alpha) * z_an + c.alpha * z_gn  # Eq. 21, [T, d]
        g = scatter(z, b, dim=0, dim_size=B, reduce=c.pooling)  # [B, d]
        return self.head(g)  # [B, out_dim]
