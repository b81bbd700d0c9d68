"""SGFormer's configuration and presets, without torch: read by ``wltools models list``, the
run reports and the registry without importing the model (:mod:`wltools.models.sgformer`,
which documents every field's source).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SGFormerConfig", "PRESETS"]


@dataclass
class SGFormerConfig:
    in_dim: int = 1  # node feature size (BREC: x = ones[n, 1])
    hidden: int = 64  # d (Sec. 5.1 search space)
    heads: int = 1  # global-attention heads, averaged (Sec. 4.2: single head)
    alpha: float = 0.5  # weight of the GCN branch in Eq. 21, 0 <= alpha < 1
    gnn_layers: int = 2  # GCN layers of GN(Z0, A) (Sec. 4.1: shallow, 1-3)
    dropout: float = 0.0  # dropout inside both branches
    use_bn: bool = True  # batch norm after input MLP / each GCN layer (public code)
    residual: bool = True  # residual links (public code)
    pooling: str = "mean"  # graph readout: "mean" or "sum"
    head_layers: int = 2  # linear layers of the graph head
    out_dim: int = 16  # BREC output dimension


PRESETS: dict[str, dict] = {
    "brec": {},  # see the module docstring
    "small": {"hidden": 32},
}
