"""GRIT: Graph Inductive bias Transformer (Ma et al., ICML 2023; ../shared/papers/grit.txt).

One file, nanoGPT style: :class:`GRITConfig` (commented defaults), :data:`PRESETS`,
:func:`grit_transform` (the RRWP encoding, from :mod:`wltools.models.encodings`), the attention
(:class:`GRITAttention`, Sec. 3.2 Eq. 2-3), the layer (:class:`GRITLayer`: attention, degree
scaler Eq. 5, batch norms, FFN) and the model (:class:`GRIT`, registered as ``"grit"``).

Pairs are handled densely: node tokens are a flat list ``[num_nodes, d]`` (norms need no mask),
pair tokens a padded ``[B, N, N, d]`` tensor with the valid-pair mask from
:func:`~wltools.models.encodings.dense_pair_mask`; padded entries are kept at zero. When every
graph of the batch has ``N`` nodes (always so for a BREC pair's relabelings;
:func:`~wltools.models.encodings.is_full_layout`) every mask is true: the layers then skip the
mask products and boolean gathers and use views (bit-identical values, tested).

Source of the ``"brec"`` preset: the PPGT paper reports GRIT's BREC counts (Table 1) but not the
configuration behind them, so the preset is GRIT's own ZINC configuration (grit.txt App. B.3,
Table 9: 10 layers, hidden 64, 8 heads, dropout 0, attention dropout 0.2, sum pooling, RRWP
K = 21 channels I, M, ..., M^20 (walks of up to 20 steps), linear PE encoder), with the BREC output dimension 16. The attention-logit clamp
(5) and the 3-layer graph head (d -> d/2 -> d/4 -> out) follow GRIT's public implementation
(GraphGPS-based ``san_graph`` head); they are options of the config. Check of the reading: with
ZINC's inputs (28 atom types, 4 bond types, one target) this file gives 474,113 parameters against
473,473 in Table 9 (our input maps are linear layers where the code uses embedding tables).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch_geometric.utils import scatter

from .embedder import GraphEmbedder
from .encodings import AddRRWP, PairPlan, dense_pair_mask, is_functorch_wrapped, pair_plan, to_dense_pair
from .layers import ReadoutMLP, TokenBatchNorm, degree, dense_batch, graph_index
from .configs import GRIT_PRESETS as PRESETS, GRITConfig

__all__ = ["GRITConfig", "PRESETS", "grit_transform", "signed_sqrt", "GRITAttention", "GRITLayer", "GRIT"]


def grit_transform(config: GRITConfig) -> AddRRWP:
    """The encoding GRIT needs: RRWP with ``K = config.rrwp_steps`` channels (Eq. 1)."""
    return AddRRWP(config.rrwp_channels)


def signed_sqrt(x: Tensor) -> Tensor:
    r"""The signed square root of GRIT Eq. 2: :math:`\rho(x) = \sqrt{\mathrm{ReLU}(x)} -
    \sqrt{\mathrm{ReLU}(-x)}`.

    Same values as the formula; written with a double ``where`` so that the gradient at
    ``x = 0`` is ``0`` instead of ``0 * inf = nan`` (padded pairs are exactly zero).
    """
    a = x.abs()
    nonzero = a > 0
    root = torch.where(nonzero, a, torch.ones_like(a)).sqrt()  # finite everywhere
    return torch.where(nonzero, torch.sign(x) * root, torch.zeros_like(x))


class GRITAttention(nn.Module):
    r"""GRIT's conditional-MLP attention updating node and pair representations (Sec. 3.2).

    .. math::
        \hat{\mathbf{e}}_{ij} &= \sigma\big(\rho((\mathbf{W}_Q\mathbf{x}_i + \mathbf{W}_K\mathbf{x}_j)
            \odot \mathbf{W}_{Ew}\mathbf{e}_{ij}) + \mathbf{W}_{Eb}\mathbf{e}_{ij}\big)
            \in \mathbb{R}^{d'} \\
        \alpha_{ij} &= \mathrm{Softmax}_{j \in \mathcal{V}}(\mathbf{W}_A\hat{\mathbf{e}}_{ij}) \\
        \hat{\mathbf{x}}_i &= \textstyle\sum_j \alpha_{ij}(\mathbf{W}_V\mathbf{x}_j
            + \mathbf{W}_{Ev}\hat{\mathbf{e}}_{ij})                          \qquad \text{(Eq. 2)}\\
        \mathbf{x}^{out}_i &= \textstyle\sum_h \mathbf{W}_O^h\hat{\mathbf{x}}^h_i, \quad
        \mathbf{e}^{out}_{ij} = \textstyle\sum_h \mathbf{W}_{Eo}^h\hat{\mathbf{e}}^h_{ij}
            \qquad \text{(Eq. 3)}

    with :math:`\sigma` = ReLU, :math:`\rho` = :func:`signed_sqrt`, per-head weights (the heads
    are the ``H`` slices of width ``d' = d / H``), and the softmax over all nodes of the graph
    (padding masked). Eq. 3 is the output projection of the concatenated heads.

    Shapes: ``x [B, N, d]`` (dense nodes), ``e [B, N, N, d]``, ``node_mask [B, N]`` (None: no
    padding, every node real). Returns ``(x_out [B, N, d], e_out [B, N, N, d])``.
    """

    def __init__(self, dim: int, heads: int, attn_dropout: float = 0.0, clamp: float | None = 5.0):
        super().__init__()
        if dim % heads:
            raise ValueError(f"hidden {dim} is not divisible by heads {heads}")
        self.dim, self.heads, self.head_dim = dim, heads, dim // heads
        self.clamp, self.attn_dropout = clamp, attn_dropout
        # biases as in GRIT's code ("use_bias: False" for K and V; Q and E with bias)
        self.W_Q = nn.Linear(dim, dim)
        self.W_K = nn.Linear(dim, dim, bias=False)
        self.W_E = nn.Linear(dim, 2 * dim)  # W_Ew and W_Eb stacked
        self.W_V = nn.Linear(dim, dim, bias=False)
        self.W_A = nn.Parameter(torch.empty(heads, self.head_dim))  # one [1, d'] row per head
        self.W_Ev = nn.Parameter(torch.empty(heads, self.head_dim, self.head_dim))  # per head
        self.W_O = nn.Linear(dim, dim)
        self.W_Eo = nn.Linear(dim, dim)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        for lin in (self.W_Q, self.W_K, self.W_E, self.W_V, self.W_O, self.W_Eo):
            nn.init.xavier_normal_(lin.weight)
            if lin.bias is not None:
                nn.init.zeros_(lin.bias)
        nn.init.xavier_normal_(self.W_A)
        nn.init.xavier_normal_(self.W_Ev)

    def forward(self, x: Tensor, e: Tensor, node_mask: Tensor) -> tuple[Tensor, Tensor]:
        B, N, _ = x.shape
        H, D = self.heads, self.head_dim
        q = self.W_Q(x).view(B, N, 1, H, D)  # [B, N(i), 1, H, D]
        k = self.W_K(x).view(B, 1, N, H, D)  # [B, 1, N(j), H, D]
        v = self.W_V(x).view(B, N, H, D)  # [B, N(j), H, D]
        e_w, e_b = self.W_E(e).view(B, N, N, H, 2 * D).split(D, dim=-1)  # 2 x [B, N, N, H, D]
        e_hat = F.relu(signed_sqrt((q + k) * e_w) + e_b)  # [B, N, N, H, D]
        if node_mask is not None:
            pair_mask = dense_pair_mask(node_mask)  # [B, N, N]
            e_hat = e_hat * pair_mask[..., None, None].to(e_hat.dtype)  # padding stays zero
        logits = torch.einsum("bijhd,hd->bijh", e_hat, self.W_A)  # [B, N, N, H]
        if self.clamp is not None:
            logits = logits.clamp(-self.clamp, self.clamp)
        if node_mask is not None:
            neg = torch.finfo(logits.dtype).min
            logits = logits.masked_fill(~node_mask[:, None, :, None], neg)  # mask padded keys j
        alpha = torch.softmax(logits, dim=2)  # [B, N, N, H], over j
        alpha = F.dropout(alpha, p=self.attn_dropout, training=self.training)
        x_hat = torch.einsum("bijh,bjhd->bihd", alpha, v)  # sum_j alpha W_V x_j  [B, N, H, D]
        agg_e = torch.einsum("bijh,bijhd->bihd", alpha, e_hat)  # sum_j alpha e_hat  [B, N, H, D]
        x_hat = x_hat + torch.einsum("bihd,hcd->bihc", agg_e, self.W_Ev)  # + W_Ev (.)
        x_out = self.W_O(x_hat.reshape(B, N, H * D))  # Eq. 3, [B, N, d]
        e_out = self.W_Eo(e_hat.reshape(B, N, N, H * D))  # Eq. 3, [B, N, N, d]
        return x_out, e_out


class GRITLayer(nn.Module):
    r"""One GRIT transformer layer (Sec. 3.2-3.3, Fig. 4b).

    .. math::
        \mathbf{x}' &= \mathrm{BN}(\mathbf{x} + \mathrm{DegScale}(\mathrm{Attn}(\mathbf{x},
            \mathbf{e})_x)), \quad
        \mathrm{DegScale}(\mathbf{h})_i = \mathbf{h}_i\odot\boldsymbol{\theta}_1
            + \log(1 + d_i)\,\mathbf{h}_i\odot\boldsymbol{\theta}_2 \quad \text{(Eq. 5)} \\
        \mathbf{x}'' &= \mathrm{BN}(\mathbf{x}' + \mathrm{FFN}(\mathbf{x}')), \qquad
        \mathbf{e}' = \mathrm{BN}(\mathbf{e} + \mathrm{Attn}(\mathbf{x}, \mathbf{e})_e)

    Batch norm instead of layer norm keeps the degree information (Prop. 3.3). The degree scaler
    is applied after the head combination of Eq. 3, as Sec. 3.3 states.
    """

    def __init__(self, config: GRITConfig) -> None:
        super().__init__()
        d = config.hidden
        self.config = config
        self.attn = GRITAttention(d, config.heads, config.attn_dropout, config.attn_clamp)
        self.theta = nn.Parameter(torch.empty(2, d))  # theta_1, theta_2 of Eq. 5
        self.norm1_x = TokenBatchNorm(d)
        self.norm1_e = TokenBatchNorm(d)
        hidden = int(round(config.ffn_expansion * d))
        self.ffn = nn.Sequential(
            nn.Linear(d, hidden), nn.ReLU(), nn.Dropout(config.dropout), nn.Linear(hidden, d)
        )
        self.norm2_x = TokenBatchNorm(d)
        self.dropout = nn.Dropout(config.dropout)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        self.attn.reset_parameters()
        nn.init.xavier_normal_(self.theta)  # GRIT code: xavier-normal degree coefficients
        for m in (self.norm1_x, self.norm1_e, self.norm2_x):
            m.reset_parameters()
        for m in self.ffn:
            if isinstance(m, nn.Linear):
                m.reset_parameters()

    def degree_scale(self, h: Tensor, log_deg: Tensor) -> Tensor:
        """Eq. 5: ``h * theta_1 + log(1 + d) * h * theta_2``; ``h [T, d]``, ``log_deg [T]``."""
        return h * self.theta[0] + log_deg[:, None] * h * self.theta[1]

    def forward(
        self, x: Tensor, e: Tensor, node_mask: Tensor, pair_mask: Tensor, log_deg: Tensor,
        full: bool = False,
    ) -> tuple[Tensor, Tensor]:
        # x: [T, d] flat nodes; e: [B, N, N, d] padded pairs; log_deg: [T]
        # full: no padding (T = B N), so every mask is true and the gathers are views
        B, N = node_mask.shape
        d = x.shape[-1]
        if full:
            x_dense = x.view(B, N, d)  # [B, N, d]
        else:
            x_dense = x.new_zeros(B, N, d)
            x_dense[node_mask] = x  # [B, N, d]
        x_att, e_att = self.attn(x_dense, e, None if full else node_mask)  # [B, N, d], [B, N, N, d]
        h = self.dropout(x_att.reshape(B * N, d) if full else x_att[node_mask])  # [T, d]
        if self.config.degree_scaler:
            h = self.degree_scale(h, log_deg)
        x = self.norm1_x(x + h)  # [T, d]
        x = self.norm2_x(x + self.dropout(self.ffn(x)))  # [T, d]
        if self.config.update_pairs:
            if full:
                e_new = self.norm1_e(e.reshape(-1, d) + self.dropout(e_att.reshape(-1, d)))  # [P, d]
                e = e_new.view(e.shape)  # [B, N, N, d]
            else:
                e_new = e.new_zeros(e.shape)
                e_new[pair_mask] = self.norm1_e(e[pair_mask] + self.dropout(e_att[pair_mask]))  # [P, d]
                e = e_new  # [B, N, N, d], padding zero
        return x, e


class GRIT(GraphEmbedder):
    r"""GRIT graph embedder (Sec. 3): RRWP stem, ``layers`` x :class:`GRITLayer`, pooling, MLP head.

    Stem (Sec. 3.1-3.2): :math:`\mathbf{x}_i = \mathrm{Lin}(\mathbf{x}'_i) +
    \mathrm{Lin}(\mathbf{P}_{ii})` and :math:`\mathbf{e}_{ij} = \mathrm{Lin}(\mathbf{P}_{ij})
    [+ \mathrm{Lin}(\mathbf{e}'_{ij})]` -- the linear map of the concatenations
    :math:`[\mathbf{x}'_i \| \mathbf{P}_{ii}]`, :math:`[\mathbf{e}'_{ij} \| \mathbf{P}_{ij}]`
    (``e'_ij = 0`` for non-edges), "PE encoder: linear" in Table 9.

    Input: a PyG batch with ``x [T, in_dim]``, ``edge_index``, ``rrwp [P, K]`` and ``pair_index``
    (from :func:`grit_transform`), optionally ``edge_attr [E, edge_dim]``. Output
    ``[num_graphs, out_dim]``.
    """

    invariant_encodings = True  # RRWP is a function of the graph: relabelling permutes it
    #: use views instead of masks and gathers when a batch has no padding (bit-identical outputs;
    #: False only to measure the masked path)
    full_layout: bool = True

    def __init__(self, config: GRITConfig) -> None:
        super().__init__()
        self.config = c = config
        if c.pooling not in ("sum", "mean"):
            raise ValueError(f"unknown pooling {c.pooling!r}; choose from sum, mean")
        self.node_in = nn.Linear(c.in_dim, c.hidden)
        self.node_pe = nn.Linear(c.rrwp_steps, c.hidden)  # P_ii -> R^d
        self.pair_pe = nn.Linear(c.rrwp_steps, c.hidden)  # P_ij -> R^d
        self.edge_in = nn.Linear(c.edge_dim, c.hidden, bias=False) if c.edge_dim > 0 else None
        self.blocks = nn.ModuleList(GRITLayer(c) for _ in range(c.layers))
        dims = [c.hidden // (2**k) for k in range(c.head_layers)] + [c.out_dim]
        self.head = ReadoutMLP(dims)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Initialise every parameter (one place): default PyTorch init for the stem and head,
        xavier-normal for the attention (GRIT code), ones/zeros for batch norms."""
        for lin in (self.node_in, self.node_pe, self.pair_pe, self.edge_in, *self.head):
            if lin is not None:
                lin.reset_parameters()
        for block in self.blocks:
            block.reset_parameters()

    def _plan_sources(self, batch) -> tuple:
        return (batch.rrwp, batch.pair_index, getattr(batch, "batch", None))

    def _make_plan(self, batch, rrwp: Tensor, b: Tensor, B: int, N: int) -> PairPlan:
        dedup = self.config.dedup_stem and not is_functorch_wrapped(rrwp)
        return pair_plan(rrwp if dedup else None, batch.pair_index, b, B, N,
                         self._plan_sources(batch), ("grit", self.config.dedup_stem, rrwp.dtype))

    def _plan(self, batch, rrwp: Tensor, b: Tensor, B: int, N: int) -> PairPlan:
        plan = getattr(batch, "grit_plan", None)
        if isinstance(plan, PairPlan) and plan.matches(
                self._plan_sources(batch), ("grit", self.config.dedup_stem, rrwp.dtype)):
            return plan
        return self._make_plan(batch, rrwp, b, B, N)

    def prepare_batch(self, batch):
        """Store the batch's :class:`~wltools.models.encodings.PairPlan` (layout and, with
        ``dedup_stem``, the distinct RRWP rows) as ``batch.grit_plan``, so that training steps do
        not recompute them; used only on the very tensors it was computed from (bit-identical
        outputs)."""
        b, B = graph_index(batch)
        N = int(torch.bincount(b, minlength=B).max())
        batch.grit_plan = self._make_plan(batch, batch.rrwp.to(self.node_in.weight.dtype), b, B, N)
        return batch

    def forward(self, batch) -> Tensor:
        c = self.config
        dtype = self.node_in.weight.dtype
        T = batch.num_nodes
        b, B = graph_index(batch)
        rrwp = batch.rrwp.to(dtype)  # [P, K]
        pair_index = batch.pair_index  # [2, P]
        if rrwp.shape[-1] != c.rrwp_steps:
            raise ValueError(f"batch.rrwp has {rrwp.shape[-1]} channels, config expects {c.rrwp_steps}")
        # stem: nodes get the diagonal P_ii, pairs the full P_ij (Eq. 1)
        diag = pair_index[0] == pair_index[1]  # [P]
        p_ii = rrwp.new_zeros(T, c.rrwp_steps)
        p_ii[pair_index[0, diag]] = rrwp[diag]  # [T, K]
        x = self.node_in(batch.x.to(dtype)) + self.node_pe(p_ii)  # [T, d]
        _, node_mask = dense_batch(x, b, batch_size=B)  # [B, N]
        N = node_mask.shape[1]
        plan = self._plan(batch, rrwp, b, B, N)
        full = plan.full and self.full_layout
        if plan.rows is not None:  # Lin(P_ij) on the distinct rows, gathered
            e = plan.dense(self.pair_pe(rrwp[plan.rows]))  # [B, N, N, d]
        else:
            e = to_dense_pair(self.pair_pe(rrwp), pair_index, b, B, N, full=full)  # [B, N, N, d]
        if self.edge_in is not None and getattr(batch, "edge_attr", None) is not None:
            e_obs = self.edge_in(batch.edge_attr.to(dtype).view(batch.edge_index.shape[1], -1))  # [E, d]
            e = e + to_dense_pair(e_obs, batch.edge_index, b, B, N)
        pair_mask = dense_pair_mask(node_mask)  # [B, N, N]
        deg = degree(batch.edge_index[1], T, dtype=dtype)  # in-degree = degree (undirected)
        log_deg = torch.log1p(deg)  # [T]
        for block in self.blocks:
            x, e = block(x, e, node_mask, pair_mask, log_deg, full)
        g = scatter(x, b, dim=0, dim_size=B, reduce=c.pooling)  # [B, d]
        return self.head(g)  # [B, out_dim]
