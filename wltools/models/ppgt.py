"""PPGT: Powerful Plain Graph Transformer (Plain Transformers Can be Powerful Graph Learners).

Paper: ../shared/papers/ppgt-plain-transformers-powerful-graph-learners.txt. Implemented:

- simplified L2 (sL2) attention with relative bias theta and the URPE factor phi (Sec. 3.2,
  Eq. 4-5), through ``scaled_dot_product_attention`` with a float mask
  (:func:`wltools.models.layers.dense_attention`; readable reference beside it);
- AdaRMSN (Sec. 3.1, Eq. 3), pre-norm backbone with a final norm (Sec. 3.3, Eq. 7), and AdaRMSN
  also on the stem output before the backbone (the authors' BREC configuration);
- RRWP positional encoding (Sec. 3.3) with the sinusoidal enhancement SPE (Sec. 3.4, Eq. 9) in a
  PE stem of an MLP, FFN blocks and a final norm (Eq. 8, 10);
- log-degree and log-order node attributes, reciprocal degrees and order as extra pair
  channels (App. C.3);
- sum pooling and an MLP head (Sec. 3.3), here with output batch norm (BREC configuration);
- initialisation (App. C.2): truncated normal (std 0.02) for backbone and head linears,
  Kaiming uniform (a = 0 hidden, a = 1 output / standalone) for the stems.

Data flow (shapes): node tokens are kept as a list ``[num_nodes, D]``; pair tokens as the pair
list ``[num_pairs, D]`` of :mod:`wltools.models.encodings`; each attention layer maps the pair
tokens to per-head theta / phi ``[num_pairs, H]`` and scatters them densely to ``[B, H, N, N]``.
Edge attributes (``e'_ij`` of Eq. 8) are not used: BREC graphs have none, and Eq. 8 then sets the
term to zero.

Distinct rows (``dedup_stem``, on by default). The PE stem and theta / phi act on each pair's row
``p'_ij`` alone, and a batch of relabelings repeats few distinct rows (a CFI batch of 16 graphs of
198 nodes: 203 among 627,264), so the stem and theta / phi run on the distinct rows
(:func:`~wltools.models.encodings.unique_rows`, exact) and are gathered into the dense
``[B, N, N, H]`` bias: the same values up to float summation order (tested), the stem costing
``U / P`` of its plain FLOPs. Not used when the stem's rows interact: a batch-norm stem
(``norm="batchnorm"``), or stem dropout in training.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn
from torch_geometric.nn import global_add_pool, global_mean_pool

from .embedder import GraphEmbedder
from .encodings import AddRRWP, PairPlan, is_functorch_wrapped, pair_plan, to_dense_pair
from .layers import (
    FeedForward,
    MLP,
    degree,
    dense_attention,
    dense_batch,
    graph_index,
    kaiming_init_,
    make_norm,
    trunc_normal_init_,
)
from .configs import PPGT_PRESETS as PRESETS, PPGTConfig

__all__ = [
    "PPGTConfig",
    "PRESETS",
    "ppgt_transform",
    "sinusoidal_pe",
    "PPGTAttention",
    "PPGTBlock",
    "PPGTPEStem",
    "PPGT",
]


def ppgt_transform(config: PPGTConfig) -> AddRRWP:
    """The encoding PPGT needs: RRWP with ``rrwp_steps + 1`` channels (identity included)."""
    return AddRRWP(config.rrwp_channels)


def sinusoidal_pe(p: Tensor, num_bases: int) -> Tensor:
    r"""SPE of PPGT Eq. 9 applied to every channel and concatenated.

    .. math:: \mathrm{SPE}(p) = [p, \sin(2^0\pi p), \cos(2^0\pi p), \dots,
              \sin(2^{S-1}\pi p), \cos(2^{S-1}\pi p)]

    Parameters
    ----------
    p : Tensor ``[..., C]``
    num_bases : int
        ``S``; 0 returns ``p`` unchanged.

    Returns
    -------
    Tensor ``[..., C * (1 + 2S)]`` (per channel: the value, then sin/cos pairs by base).
    """
    if num_bases == 0:
        return p
    freqs = math.pi * 2.0 ** torch.arange(num_bases, device=p.device, dtype=p.dtype)  # [S]
    ang = p.unsqueeze(-1) * freqs  # [..., C, S]
    sc = torch.stack([ang.sin(), ang.cos()], dim=-1).flatten(-2)  # [..., C, 2S]
    return torch.cat([p.unsqueeze(-1), sc], dim=-1).flatten(-2)  # [..., C*(1+2S)]


class PPGTPEStem(nn.Module):
    r"""PE stem (PPGT Eq. 10): :math:`\mathbf{p}^0_{ij} = \mathrm{Norm}\circ\mathrm{FFN}\circ
    \dots\circ\mathrm{FFN}(\mathrm{MLP}(\mathrm{SPE}(\mathbf{p}'_{ij})))` on the pair list."""

    def __init__(self, config: PPGTConfig) -> None:
        super().__init__()
        c = config
        self.num_bases = c.spe_bases
        self.mlp = MLP(c.pair_channels * (1 + 2 * c.spe_bases), c.pe_hidden, c.dim, 2, c.activation)
        self.ffns = nn.ModuleList(
            FeedForward(c.dim, c.pe_ffn_expansion, c.norm, c.activation, c.dropout)
            for _ in range(c.pe_ffn)
        )
        self.norm = make_norm(c.norm, c.dim)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        self.mlp.kaiming_init_()
        for ffn in self.ffns:
            ffn.norm.reset_parameters()
            ffn.mlp.kaiming_init_()
        self.norm.reset_parameters()

    def forward(self, p: Tensor, spe: Tensor | None = None) -> Tensor:
        """``p [P, C]`` pair features; ``spe``, if given, is ``sinusoidal_pe(p)`` computed before."""
        h = self.mlp(sinusoidal_pe(p, self.num_bases) if spe is None else spe)  # [P, D]
        for ffn in self.ffns:
            h = ffn(h)  # [P, D]
        return self.norm(h)  # [P, D]


class PPGTAttention(nn.Module):
    r"""Multi-head sL2 / SDP attention with relative PE (PPGT Eq. 5):
    :math:`\alpha_{ij} = \phi(\mathbf{p}_{ij})\,\mathrm{Softmax}_j(\mathbf{q}_i^\top\mathbf{k}_j/
    \sqrt D - \|\mathbf{k}_j\|^2/(2\sqrt D) + \theta(\mathbf{p}_{ij}))`, theta and phi linear per
    head; D is the head width."""

    def __init__(self, config: PPGTConfig) -> None:
        super().__init__()
        c = config
        self.num_heads, self.kind, self.attn_dropout = c.num_heads, c.attention, c.attn_dropout
        self.l2_form = c.sl2_form
        self.qkv = nn.Linear(c.dim, 3 * c.dim)
        self.out = nn.Linear(c.dim, c.dim)
        self.theta = nn.Linear(c.dim, c.num_heads)
        self.phi = nn.Linear(c.dim, c.num_heads) if c.urpe else None

    def reset_parameters(self) -> None:
        trunc_normal_init_(self)

    def forward(self, h: Tensor, pairs: Tensor, batch: Tensor, B: int, N: int, densify,
                full: bool = False) -> Tensor:
        """``h [n, D]`` nodes; ``pairs [R, D]`` pair tokens (all pairs, or the distinct rows);
        ``densify`` maps ``[R, H]`` to the dense ``[B, N, N, H]``; ``full``: every graph has ``N``
        nodes (no padding, no masks)."""
        if full:
            hd, mask = h.view(B, N, -1), None  # [B, N, D]
        else:
            hd, mask = dense_batch(h, batch, batch_size=B, max_num_nodes=N)  # [B, N, D], [B, N]
        H = self.num_heads
        q, k, v = (
            self.qkv(hd).view(B, N, 3, H, -1).permute(2, 0, 3, 1, 4).unbind(0)
        )  # 3 x [B, H, N, Dh]
        theta = densify(self.theta(pairs)).permute(0, 3, 1, 2)  # [B, H, N, N]
        urpe = None
        if self.phi is not None:
            urpe = densify(self.phi(pairs)).permute(0, 3, 1, 2)  # [B, H, N, N]
        o = dense_attention(
            q, k, v, theta, mask, self.kind, urpe,
            dropout_p=self.attn_dropout if self.training else 0.0, l2_form=self.l2_form,
        )  # [B, H, N, Dh]
        o = o.transpose(1, 2).reshape(B, N, -1)  # [B, N, D]
        return self.out(o.reshape(B * N, -1) if full else o[mask])  # [num_nodes, D]


class PPGTBlock(nn.Module):
    r"""Pre-norm block (PPGT Eq. 7): :math:`\hat X = X + \mathrm{MSA}(\mathrm{Norm}(X), P)`,
    :math:`X' = \hat X + \mathrm{MLP}(\mathrm{Norm}(\hat X))`."""

    def __init__(self, config: PPGTConfig) -> None:
        super().__init__()
        c = config
        self.norm = make_norm(c.norm, c.dim)
        self.attn = PPGTAttention(c)
        self.dropout = nn.Dropout(c.dropout)
        self.ffn = FeedForward(c.dim, c.ffn_expansion, c.norm, c.activation, c.dropout)

    def reset_parameters(self) -> None:
        self.norm.reset_parameters()
        self.attn.reset_parameters()
        self.ffn.norm.reset_parameters()
        trunc_normal_init_(self.ffn.mlp)

    def forward(self, x: Tensor, pairs: Tensor, batch: Tensor, B: int, N: int, densify,
                full: bool = False):
        x = x + self.dropout(self.attn(self.norm(x), pairs, batch, B, N, densify, full))  # [n, D]
        return self.ffn(x)  # [n, D]


class PPGT(GraphEmbedder):
    """Powerful Plain Graph Transformer (PPGT Sec. 3.3) returning graph embeddings.

    Input: a PyG ``Data``/``Batch`` with ``x [num_nodes, in_dim]``, ``edge_index``, and the
    :class:`~wltools.models.encodings.AddRRWP` attributes ``rrwp [num_pairs, rrwp_steps + 1]``
    and ``pair_index``. Output: ``[num_graphs, out_dim]``.

    Every input is relabelling-invariant (RRWP, degrees, order), so the embedding is invariant
    to node relabelling (``invariant_encodings = True``).
    """

    invariant_encodings = True
    #: use views instead of masks and gathers when a batch has no padding (bit-identical outputs;
    #: False only to measure the masked path)
    full_layout: bool = True
    #: :meth:`prepare_batch` stores the SPE of a batch's pair features up to this size
    prepare_max_bytes: int = 256 * 2**20

    def __init__(self, config: PPGTConfig) -> None:
        super().__init__()
        config.validate()
        self.config = c = config
        node_in = c.in_dim + (2 if c.inject_degree else 0)
        self.node_fc = nn.Linear(node_in, c.dim)  # FC(x'_i) of Eq. 8
        self.diag_fc = nn.Linear(c.pair_channels, c.dim)  # FC(p'_ii) of Eq. 8
        self.pe_stem = PPGTPEStem(c)
        self.norm_in = make_norm(c.norm, c.dim)
        self.blocks = nn.ModuleList(PPGTBlock(c) for _ in range(c.num_layers))
        self.norm_out = make_norm(c.norm, c.dim)  # Y = Norm(X^L), Eq. 7
        self.head = MLP(c.dim, c.dim, c.out_dim, c.head_layers, c.activation)
        self.head_norm = nn.BatchNorm1d(c.out_dim) if c.head_batchnorm else None
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Fresh parameters with the PPGT App. C.2 initialisation (uses the global RNG)."""
        kaiming_init_(self.node_fc, a=1.0)
        kaiming_init_(self.diag_fc, a=1.0)
        self.pe_stem.reset_parameters()
        self.norm_in.reset_parameters()
        for block in self.blocks:
            block.reset_parameters()
        self.norm_out.reset_parameters()
        trunc_normal_init_(self.head)
        if self.head_norm is not None:
            self.head_norm.reset_parameters()

    def _node_inputs(self, data) -> tuple:
        """``(x', deg, order, batch, counts, B)``: node features with the App. C.3 attributes."""
        dtype = self.node_fc.weight.dtype
        n_total = int(data.num_nodes)
        batch, B = graph_index(data)
        x = data.x.to(dtype).reshape(n_total, -1)  # [n, in_dim]
        counts = torch.bincount(batch, minlength=B)  # [B]
        deg = order = None
        if self.config.inject_degree:  # App. C.3
            deg = degree(data.edge_index[0], n_total, dtype=dtype)  # [n]
            order = counts.to(dtype)[batch]  # [n] graph order of each node's graph
            x = torch.cat([x, deg.log1p()[:, None], order.log()[:, None]], dim=-1)  # [n, in+2]
        return x, deg, order, batch, counts, B

    def _pair_inputs(self, data, deg: Tensor | None, order: Tensor | None) -> Tensor:
        """``p' [P, C]``: RRWP plus, with App. C.3, ``1/deg_i, 1/deg_j, 1/n``."""
        p = data.rrwp.to(self.node_fc.weight.dtype)  # [P, K]
        if self.config.inject_degree:
            rdeg = 1.0 / deg.clamp(min=1.0)  # [n] (isolated nodes: 1)
            i, j = data.pair_index
            p = torch.cat(
                [p, rdeg[i, None], rdeg[j, None], (1.0 / order)[i, None]], dim=-1
            )  # [P, K+3]
        return p

    def _inputs(self, data) -> tuple[Tensor, ...]:
        x, deg, order, batch, counts, B = self._node_inputs(data)
        return x, self._pair_inputs(data, deg, order), batch, data.pair_index, counts, B

    def _dedup_active(self) -> bool:
        """Whether this forward may run the stem on distinct rows: ``dedup_stem`` on, a row-wise
        stem (no batch norm), and no stem dropout drawing per-pair masks."""
        c = self.config
        return c.dedup_stem and c.norm != "batchnorm" and not (self.training and c.dropout > 0)

    def _plan_sources(self, data) -> tuple:
        return (data.rrwp, data.edge_index, data.pair_index, getattr(data, "batch", None))

    def _plan_key(self, data) -> tuple:
        return ("ppgt", self.config.dedup_stem, self.config.inject_degree, self.node_fc.weight.dtype,
                tuple(data.rrwp.shape))

    def _make_plan(self, data, p: Tensor, batch: Tensor, pair_index: Tensor, B: int, N: int) -> PairPlan:
        """Layout and (with ``dedup_stem``) distinct rows of ``p'``; no distinct rows for per-unit
        data under ``vmap`` (they could differ per unit)."""
        dedup = self.config.dedup_stem and not is_functorch_wrapped(p)
        return pair_plan(p if dedup else None, pair_index, batch, B, N,
                         self._plan_sources(data), self._plan_key(data))

    def prepare_batch(self, data):
        """Store the batch's :class:`~wltools.models.encodings.PairPlan` (layout, distinct rows of
        ``p'``) as ``data.ppgt_plan``, and without ``dedup_stem`` ``SPE(p')`` (Eq. 9) as
        ``data.ppgt_spe``: data-only tensors ``forward`` would otherwise recompute every step.

        The plan is used only by a forward on the very tensors it was computed from. ``ppgt_spe``
        is skipped when SPE is off or the tensor would exceed ``prepare_max_bytes`` (CFI-sized
        batches; with ``dedup_stem`` SPE is computed on the few distinct rows and costs nothing).
        Outputs are bit-identical to an unprepared batch (same code on the same tensors).
        """
        x, p, batch, pair_index, counts, B = self._inputs(data)
        data.ppgt_plan = self._make_plan(data, p, batch, pair_index, B, int(counts.max()))
        c = self.config
        if c.spe_bases == 0 or (c.dedup_stem and c.norm != "batchnorm" and c.dropout == 0):
            return data  # SPE runs on the distinct rows in training: nothing worth storing
        if p.shape[0] * self._spe_width(p) * p.element_size() <= self.prepare_max_bytes:
            data.ppgt_spe = sinusoidal_pe(p, self.config.spe_bases)  # [P, C (1 + 2S)]
        return data

    def _spe_width(self, p: Tensor) -> int:
        return p.shape[1] * (1 + 2 * self.config.spe_bases)

    def _prepared_spe(self, data, p: Tensor) -> Tensor | None:
        """The stored SPE if it is this model's (shape and dtype), else None (compute it)."""
        spe = getattr(data, "ppgt_spe", None)
        if spe is None or self.config.spe_bases == 0 or spe.shape != (p.shape[0], self._spe_width(p)) \
                or spe.dtype != p.dtype:
            return None
        return spe

    def _stored_plan(self, data) -> PairPlan | None:
        plan = getattr(data, "ppgt_plan", None)
        if isinstance(plan, PairPlan) and plan.matches(self._plan_sources(data), self._plan_key(data)):
            return plan
        return None

    def forward(self, data) -> Tensor:
        x, deg, order, batch, counts, B = self._node_inputs(data)
        N = int(counts.max())
        pair_index = data.pair_index  # [2, P]
        plan = self._stored_plan(data)
        dedup = self._dedup_active()
        p = None  # p' [P, C] is built only when a per-pair path needs it
        if plan is None or plan.values is None or not dedup:
            p = self._pair_inputs(data, deg, order)  # [P, C]
            if plan is None:
                plan = self._make_plan(data, p, batch, pair_index, B, N)
        full = plan.full and self.full_layout
        if plan.values is not None and dedup:
            p_diag = plan.values[plan.node_rows]  # [n, C] p'_ii
        else:
            diag = pair_index[0] == pair_index[1]  # [P]
            p_diag = p.new_zeros(x.shape[0], p.shape[1])
            p_diag[pair_index[0][diag]] = p[diag]  # [n, C] p'_ii
        h = self.node_fc(x) + self.diag_fc(p_diag)  # [n, D] Eq. 8
        if plan.values is not None and dedup:
            pairs = self.pe_stem(plan.values)  # [U, D] Eq. 10 on the distinct rows
            densify = plan.dense  # [U, H] -> [B, N, N, H]
        else:
            pairs = self.pe_stem(p, self._prepared_spe(data, p))  # [P, D] Eq. 10

            def densify(v: Tensor) -> Tensor:  # [P, H] -> [B, N, N, H]
                return to_dense_pair(v, pair_index, batch, B, N, full=full)
        h = self.norm_in(h)
        for block in self.blocks:
            h = block(h, pairs, batch, B, N, densify, full)  # [n, D]
        h = self.norm_out(h)
        pool = global_add_pool if self.config.pooling == "sum" else global_mean_pool
        g = pool(h, batch, size=B)  # [B, D]
        out = self.head(g)  # [B, out_dim]
        if self.head_norm is not None:
            out = self.head_norm(out)
        return out
