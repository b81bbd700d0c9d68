"""Shared building blocks of the models: graph batching helpers, norms (incl. AdaRMSN),
feed-forward blocks, MLPs and attention. (The models' base class is
:class:`~wltools.models.embedder.GraphEmbedder`.)

Every block works on a token *list* ``[..., D]`` (nodes ``[num_nodes, D]`` or pairs
``[num_pairs, D]``, no padding), so norms need no masks; only attention goes dense (padded with
:func:`dense_batch`) and takes a key-padding mask.

References: PPGT = "Plain Transformers Can be Powerful Graph Learners"
(../shared/papers/ppgt-plain-transformers-powerful-graph-learners.txt).
"""

from __future__ import annotations

import math
from typing import Callable

import torch
import torch.nn.functional as F
from torch import Tensor, nn

__all__ = [
    "graph_index",
    "dense_batch",
    "degree",
    "NORMS",
    "ACTIVATIONS",
    "RMSNorm",
    "AdaRMSNorm",
    "TokenBatchNorm",
    "make_norm",
    "make_activation",
    "MLP",
    "ReadoutMLP",
    "FeedForward",
    "l2_attention_bias",
    "l2_augment",
    "dense_attention",
    "dense_attention_reference",
    "trunc_normal_init_",
    "kaiming_init_",
]

NORMS = ("layernorm", "rmsnorm", "adarmsnorm", "batchnorm")
ACTIVATIONS = ("gelu", "relu", "silu")


def graph_index(data) -> tuple[Tensor, int]:
    """``(batch, B)``: the graph of every node ``[num_nodes]`` and the number of graphs, for a
    ``Batch`` or a single ``Data`` (all nodes in graph 0, ``B = 1``)."""
    b = getattr(data, "batch", None)
    if b is None:
        b = torch.zeros(int(data.num_nodes), dtype=torch.long, device=data.edge_index.device)
    B = int(data.num_graphs) if hasattr(data, "num_graphs") else 1
    return b, B


def degree(index: Tensor, num_nodes: int, dtype: torch.dtype | None = None) -> Tensor:
    """How often each node ``0 .. num_nodes - 1`` occurs in ``index`` (``[num_nodes]``): with
    ``edge_index[1]``, the in-degree. :func:`torch_geometric.utils.degree` written out of place
    (tested equal), so it runs under :func:`torch.func.vmap` with a batched ``index`` (edges that
    differ between the vmapped units), where PyG's ``scatter_add_`` into a fresh tensor is refused.
    """
    out = torch.zeros(num_nodes, dtype=dtype, device=index.device)
    return out.scatter_add(0, index, torch.ones(index.shape, dtype=out.dtype, device=out.device))


def dense_batch(
    x: Tensor,
    batch: Tensor | None = None,
    batch_size: int | None = None,
    max_num_nodes: int | None = None,
    fill_value: float = 0.0,
) -> tuple[Tensor, Tensor]:
    """Node list ``[T, *F]`` to padded ``[B, N_max, *F]`` and the node mask ``[B, N_max]``.

    Same arguments (as keywords) and outputs as :func:`torch_geometric.utils.to_dense_batch`
    (tested equal, values and gradients), but every write is out of place, so it runs under
    :func:`torch.func.vmap` with a batched ``x`` (PyG writes ``out[idx] = x`` into a fresh tensor,
    which vmap refuses). ``batch`` (and so the shapes) must not be batched. Nodes beyond
    ``max_num_nodes`` in a graph are dropped.
    """
    if batch is None:
        batch = torch.zeros(x.size(0), dtype=torch.long, device=x.device)
    if batch_size is None:
        batch_size = int(batch.max()) + 1 if batch.numel() else 1
    num_nodes = torch.zeros(batch_size, dtype=torch.long, device=x.device).index_add(
        0, batch, torch.ones_like(batch))  # [B]
    cum = torch.cat([num_nodes.new_zeros(1), num_nodes.cumsum(0)])  # [B + 1]
    if max_num_nodes is None:
        max_num_nodes = int(num_nodes.max()) if batch.numel() else 0
    idx = torch.arange(batch.numel(), device=x.device) - cum[batch]  # [T] local node index
    keep = idx < max_num_nodes
    flat = (batch * max_num_nodes + idx)[keep]  # [T'] row in the flattened [B * N_max]
    size = [batch_size * max_num_nodes] + list(x.size())[1:]
    out = x.new_full(size, fill_value).index_put((flat,), x[keep])  # [B * N_max, *F]
    mask = torch.zeros(batch_size * max_num_nodes, dtype=torch.bool, device=x.device).index_put(
        (flat,), torch.ones_like(flat, dtype=torch.bool))
    return (out.view([batch_size, max_num_nodes] + list(x.size())[1:]),
            mask.view(batch_size, max_num_nodes))  # [B, N_max, *F], [B, N_max]


def _rms(x: Tensor, eps: float) -> Tensor:
    r""":math:`\sqrt{\mathrm{mean}(\mathbf{x}^2) + \epsilon}` over the last dim, ``[..., 1]``."""
    return torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps)


class _GainNorm(nn.Module):
    """A norm over the last dim with per-feature parameters ``_params`` (each ``[dim]``), set by
    ``reset_parameters``; ``eps`` is added to mean squares before square roots."""

    _params: tuple[str, ...] = ()

    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps
        for name in self._params:
            setattr(self, name, nn.Parameter(torch.empty(dim)))
        self.reset_parameters()

    def extra_repr(self) -> str:
        return f"{self.dim}, eps={self.eps}"


class RMSNorm(_GainNorm):
    r"""Root-mean-square normalisation (Zhang & Sennrich 2019) with a learnable gain.

    .. math:: \mathrm{RMSN}(\mathbf{x}) = \frac{\mathbf{x}}{\frac{1}{\sqrt{D}}\|\mathbf{x}\|}
              \odot \mathbf{g}

    Parameters
    ----------
    dim : int
    eps : float, default 1e-6
        Added to the mean square before the square root.
    """

    _params = ("weight",)

    def reset_parameters(self) -> None:
        nn.init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return x / _rms(x, self.eps) * self.weight  # [..., D]


class AdaRMSNorm(_GainNorm):
    r"""Adaptive RMS normalisation, AdaRMSN (PPGT Sec. 3.1, Eq. 3).

    .. math::
        \mathrm{AdaRMSN}(\mathbf{x}) = \frac{\mathbf{x}}{\frac{1}{\sqrt{D}}\|\mathbf{x}\|}
        \cdot \gamma'(\mathbf{x}), \qquad
        \gamma'(\mathbf{x}) = \frac{1}{\sqrt{D}}\|\boldsymbol{\alpha}\odot\mathbf{x}
        + \boldsymbol{\beta}\|

    Initialised with :math:`\alpha = 0, \beta = 1`, so :math:`\gamma' = 1` and it equals RMSN
    (without gain); with :math:`\alpha = 1, \beta = 0` it is the identity, so unlike LayerNorm
    and RMSN it can keep the token magnitude (PPGT Prop. E.3).

    Parameters
    ----------
    dim : int
    eps : float, default 1e-6
        Added to both mean squares before the square roots.
    """

    _params = ("alpha", "beta")

    def reset_parameters(self) -> None:
        nn.init.zeros_(self.alpha)
        nn.init.ones_(self.beta)

    def forward(self, x: Tensor) -> Tensor:
        y = self.alpha * x + self.beta  # [..., D]
        return x / _rms(x, self.eps) * _rms(y, self.eps)  # [..., D]


class TokenBatchNorm(nn.BatchNorm1d):
    """``BatchNorm1d`` over every token of a ``[..., D]`` list (statistics over leading dims)."""

    def forward(self, x: Tensor) -> Tensor:  # type: ignore[override]
        shape = x.shape
        return super().forward(x.reshape(-1, shape[-1])).reshape(shape)


def make_norm(kind: str, dim: int) -> nn.Module:
    """A norm by name: ``"layernorm" | "rmsnorm" | "adarmsnorm" | "batchnorm"`` (PPGT Table 6)."""
    table: dict[str, Callable[[int], nn.Module]] = {"layernorm": nn.LayerNorm, "rmsnorm": RMSNorm,
                                                     "adarmsnorm": AdaRMSNorm, "batchnorm": TokenBatchNorm}
    if kind not in table:
        raise ValueError(f"unknown norm {kind!r}; choose from {', '.join(NORMS)}")
    return table[kind](dim)


def make_activation(kind: str) -> nn.Module:
    """An activation by name: ``"gelu" | "relu" | "silu"``."""
    table: dict[str, Callable[[], nn.Module]] = {"gelu": nn.GELU, "relu": nn.ReLU, "silu": nn.SiLU}
    if kind not in table:
        raise ValueError(f"unknown activation {kind!r}; choose from {', '.join(ACTIVATIONS)}")
    return table[kind]()


def trunc_normal_init_(module: nn.Module, std: float = 0.02) -> None:
    """Truncated-normal (std ``std``, cut at 2 std) weights and zero biases for every Linear in
    ``module`` (PPGT App. C.2: backbone and prediction head)."""
    for m in module.modules():
        if isinstance(m, nn.Linear):
            nn.init.trunc_normal_(m.weight, std=std, a=-2 * std, b=2 * std)
            if m.bias is not None:
                nn.init.zeros_(m.bias)


def kaiming_init_(linear: nn.Linear, a: float) -> None:
    """Kaiming-uniform weights with negative slope ``a`` and zero bias (PPGT App. C.2, stems:
    ``a = 0`` for hidden layers of MLPs, ``a = 1`` for output layers and standalone linears)."""
    nn.init.kaiming_uniform_(linear.weight, a=a)
    if linear.bias is not None:
        nn.init.zeros_(linear.bias)


class MLP(nn.Module):
    """``Linear -> act -> ... -> Linear`` with ``num_layers`` linear layers.

    Parameters
    ----------
    in_dim, hidden_dim, out_dim : int
    num_layers : int, default 2
        Number of linear layers (1 = a single linear map).
    activation : str, default ``"gelu"``
    dropout : float, default 0.0
        After each hidden activation.
    """

    def __init__(
        self,
        in_dim: int,
        hidden_dim: int,
        out_dim: int,
        num_layers: int = 2,
        activation: str = "gelu",
        dropout: float = 0.0,
    ) -> None:
        super().__init__()
        if num_layers < 1:
            raise ValueError("num_layers must be >= 1")
        dims = [in_dim] + [hidden_dim] * (num_layers - 1) + [out_dim]
        self.linears = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.act = make_activation(activation)
        self.dropout = nn.Dropout(dropout)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        for lin in self.linears:
            lin.reset_parameters()

    def kaiming_init_(self) -> None:
        """PPGT App. C.2 stem initialisation: ``a = 0`` hidden layers, ``a = 1`` output layer."""
        for k, lin in enumerate(self.linears):
            kaiming_init_(lin, a=1.0 if k == len(self.linears) - 1 else 0.0)

    def forward(self, x: Tensor) -> Tensor:
        for lin in self.linears[:-1]:
            x = self.dropout(self.act(lin(x)))  # [..., hidden]
        return self.linears[-1](x)  # [..., out]


class ReadoutMLP(nn.ModuleList):
    """Linear layers through widths ``dims`` with ReLU between them (none after the last): the
    graph-level readout head, a ``ModuleList`` of ``nn.Linear`` (``head.0``, ``head.1``, ...).

    Parameters
    ----------
    dims : sequence of int
        ``[in_dim, hidden..., out_dim]``, at least two entries.
    """

    def __init__(self, dims) -> None:
        dims = list(dims)
        if len(dims) < 2:
            raise ValueError("dims needs at least an input and an output width")
        super().__init__(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))

    def reset_parameters(self) -> None:
        for lin in self:
            lin.reset_parameters()

    def forward(self, x: Tensor) -> Tensor:
        *hidden, last = self  # (slicing a ModuleList subclass would call this __init__)
        for lin in hidden:
            x = F.relu(lin(x))  # [..., hidden]
        return last(x)  # [..., out]


class FeedForward(nn.Module):
    r"""Pre-norm residual feed-forward block (PPGT Eq. 7 second half):
    :math:`\mathbf{x} + \mathrm{MLP}(\mathrm{Norm}(\mathbf{x}))`, hidden width ``expansion * dim``.

    Parameters
    ----------
    dim : int
    expansion : float, default 2
    norm : str, default ``"adarmsnorm"``
    activation : str, default ``"gelu"``
    dropout : float, default 0.0
    """

    def __init__(
        self,
        dim: int,
        expansion: float = 2,
        norm: str = "adarmsnorm",
        activation: str = "gelu",
        dropout: float = 0.0,
    ) -> None:
        super().__init__()
        self.norm = make_norm(norm, dim)
        self.mlp = MLP(dim, int(round(expansion * dim)), dim, 2, activation, dropout)
        self.dropout = nn.Dropout(dropout)

    def reset_parameters(self) -> None:
        self.norm.reset_parameters()
        self.mlp.reset_parameters()

    def forward(self, x: Tensor) -> Tensor:
        return x + self.dropout(self.mlp(self.norm(x)))  # [..., D]


def l2_attention_bias(k: Tensor) -> Tensor:
    r"""The sL2 key bias :math:`-\|\mathbf{k}_j\|^2 / (2\sqrt{D})` (PPGT Eq. 4), ``[B, H, 1, N]``
    from keys ``[B, H, N, D]``."""
    d = k.shape[-1]
    return (-k.pow(2).sum(-1) / (2.0 * math.sqrt(d))).unsqueeze(-2)  # [B, H, 1, N]


def l2_augment(q: Tensor, k: Tensor) -> tuple[Tensor, Tensor]:
    r"""sL2 as plain SDP on augmented tokens: :math:`\tilde{\mathbf{q}}_i = [\mathbf{q}_i, 1]`,
    :math:`\tilde{\mathbf{k}}_j = [\mathbf{k}_j, -\|\mathbf{k}_j\|^2/2]`, so that
    :math:`\tilde{\mathbf{q}}_i^\top\tilde{\mathbf{k}}_j/\sqrt D = \mathbf{q}_i^\top\mathbf{k}_j/
    \sqrt D - \|\mathbf{k}_j\|^2/(2\sqrt D)` (PPGT Eq. 4) with ``D`` the original head width.
    ``[B, H, N, D]`` in, ``[B, H, N, D + 1]`` out."""
    qa = torch.cat([q, q.new_ones(q.shape[:-1] + (1,))], dim=-1)  # [B, H, N, D+1]
    ka = torch.cat([k, -0.5 * k.pow(2).sum(-1, keepdim=True)], dim=-1)  # [B, H, N, D+1]
    return qa, ka


def _float_mask(
    q: Tensor,
    k: Tensor,
    bias: Tensor | None,
    key_padding_mask: Tensor | None,
    kind: str,
) -> Tensor | None:
    """Additive float mask ``[B, H, N, N]``: sL2 key term (``kind="sl2"`` only) + theta bias +
    -inf on padded keys."""
    # key-only terms first (cheap, [B, H|1, 1, N]), then one add of the full [B, H, N, N] bias,
    # so sL2 costs no extra full-size operation over SDP in the forward pass
    mask = l2_attention_bias(k) if kind == "sl2" else None  # [B, H, 1, N]
    if key_padding_mask is not None:
        pad = torch.zeros(key_padding_mask.shape, dtype=q.dtype, device=q.device)  # [B, N]
        pad = pad.masked_fill(~key_padding_mask, float("-inf"))[:, None, None, :]  # [B, 1, 1, N]
        mask = pad if mask is None else mask + pad  # [B, H|1, 1, N]
    if bias is not None:
        mask = bias if mask is None else mask + bias  # [B, H, N, N]
    if mask is not None:
        mask = mask.expand(q.shape[0], q.shape[1], q.shape[2], k.shape[2])  # [B, H, N, N]
    return mask


def dense_attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    bias: Tensor | None = None,
    key_padding_mask: Tensor | None = None,
    kind: str = "sl2",
    urpe: Tensor | None = None,
    dropout_p: float = 0.0,
    l2_form: str = "mask",
) -> Tensor:
    r"""Multi-head attention with a relative bias, the fast path (PPGT Eq. 4-5).

    .. math::
        \alpha_{ij} = \phi(\mathbf{p}_{ij}) \cdot \mathrm{Softmax}_j\Big(
        \frac{\mathbf{q}_i^\top\mathbf{k}_j}{\sqrt{D}}
        - \frac{\mathbf{k}_j^\top\mathbf{k}_j}{2\sqrt{D}}
        + \theta(\mathbf{p}_{ij})\Big)

    ``kind="sl2"`` adds the key term :math:`-\|\mathbf{k}_j\|^2/(2\sqrt D)` (simplified L2
    attention, equal to softmax of :math:`-\|\mathbf{q}_i-\mathbf{k}_j\|^2/(2\sqrt D)` since the
    :math:`\|\mathbf{q}_i\|^2` term is constant in :math:`j`); ``kind="sdp"`` is plain scaled
    dot-product attention. The key term, ``bias`` (theta) and padding go into one float mask of
    :func:`torch.nn.functional.scaled_dot_product_attention`. URPE's factor ``urpe``
    (:math:`\phi(\mathbf{p}_{ij})`) multiplies the probabilities *after* the softmax, which SDPA
    cannot express, so with ``urpe`` the same scores go through an explicit softmax and matmul.

    ``l2_form`` chooses how the sL2 key term enters: ``"mask"`` (PPGT's footnote to Eq. 4: in
    the float mask) or ``"key"`` (:func:`l2_augment`: one extra query/key channel, so the mask
    holds only theta and padding and backward needs no gradient through a per-key mask term).
    Both are exact rewrites of the same scores.

    Parameters
    ----------
    q, k, v : Tensor ``[B, H, N, D]``
    bias : Tensor ``[B, H, N, N]``, optional
        :math:`\theta(\mathbf{p}_{ij})` per head.
    key_padding_mask : BoolTensor ``[B, N]``, optional
        ``True`` for real nodes (:func:`dense_batch`'s mask). Padded query rows still attend to the
        real keys of their graph (finite values; ignore them).
    kind : ``"sl2"`` or ``"sdp"``
    urpe : Tensor ``[B, H, N, N]``, optional
        :math:`\phi(\mathbf{p}_{ij})` per head.
    dropout_p : float, default 0.0
        Attention dropout (pass 0 in eval mode).
    l2_form : ``"mask"`` or ``"key"``, default ``"mask"``

    Returns
    -------
    Tensor ``[B, H, N, D]``
    """
    if kind not in ("sdp", "sl2"):
        raise ValueError(f"unknown attention {kind!r}; choose from sdp, sl2")
    if l2_form not in ("mask", "key"):
        raise ValueError(f"unknown l2_form {l2_form!r}; choose from mask, key")
    scale = 1.0 / math.sqrt(q.shape[-1])
    if kind == "sl2" and l2_form == "key":
        q, k = l2_augment(q, k)  # [B, H, N, D+1]
        kind = "sdp"  # the key term now lives in the extra channel
    mask = _float_mask(q, k, bias, key_padding_mask, kind)  # [B, H, N, N] or None
    if urpe is None:
        return F.scaled_dot_product_attention(
            q, k, v, attn_mask=mask, dropout_p=dropout_p, scale=scale
        )  # [B, H, N, D]
    scores = q @ k.transpose(-2, -1) * scale  # [B, H, N, N]
    if mask is not None:
        scores = scores + mask
    attn = torch.softmax(scores, dim=-1) * urpe  # [B, H, N, N]
    if dropout_p > 0:
        attn = F.dropout(attn, p=dropout_p)
    return attn @ v  # [B, H, N, D]


def dense_attention_reference(q: Tensor, k: Tensor, v: Tensor, bias: Tensor | None = None,
                              key_padding_mask: Tensor | None = None, kind: str = "sl2",
                              urpe: Tensor | None = None) -> Tensor:
    r"""Readable reference for :func:`dense_attention` (no dropout), written from the definitions.

    ``kind="sl2"``: :math:`\mathrm{softmax}_j(-\|\mathbf{q}_i - \mathbf{k}_j\|^2 / (2\sqrt D)
    + \theta_{ij})` (PPGT Eq. 4 before simplification); ``kind="sdp"``:
    :math:`\mathrm{softmax}_j(\mathbf{q}_i^\top\mathbf{k}_j/\sqrt D + \theta_{ij})`; then times
    ``urpe`` (Eq. 5) and applied to ``v``. Padded keys get probability zero.
    """
    d = q.shape[-1]
    if kind == "sl2":
        diff = q.unsqueeze(-2) - k.unsqueeze(-3)  # [B, H, N, N, D]
        scores = -diff.pow(2).sum(-1) / (2.0 * math.sqrt(d))  # [B, H, N, N]
    elif kind == "sdp":
        scores = q @ k.transpose(-2, -1) / math.sqrt(d)  # [B, H, N, N]
    else:
        raise ValueError(f"unknown attention {kind!r}; choose from sdp, sl2")
    if bias is not None:
        scores = scores + bias
    if key_padding_mask is not None:
        scores = scores.masked_fill(~key_padding_mask[:, None, None, :], float("-inf"))
    attn = torch.softmax(scores, dim=-1)  # [B, H, N, N]
    if urpe is not None:
        attn = attn * urpe
    return attn @ v  # [B, H, N, D]
