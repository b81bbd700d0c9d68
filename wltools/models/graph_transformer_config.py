"""the Graph Transformer's configuration and presets, without torch: read by ``wltools models list``, the
run reports and the registry without importing the model (:mod:`wltools.models.graph_transformer`,
which documents every field's source).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GraphTransformerConfig", "PRESETS"]


@dataclass
class GraphTransformerConfig:
    in_dim: int = 1  # node feature size (BREC: x = ones[n, 1])
    edge_dim: int = 0  # edge-feature size; > 0 uses the edge-feature layer (Eq. 9-15)
    hidden: int = 64  # d (public code, ZINC)
    heads: int = 8  # H (Sec. 3)
    layers: int = 10  # L (Sec. 3)
    lap_k: int = 8  # k smallest non-trivial eigenvectors as PE (Sec. 2.2; public code, ZINC)
    pos_enc: str = "lap"  # "lap" (paper) | "lap_abs" (|u|, sign invariant) | "none"
    sign_flip: bool = True  # random eigenvector sign flips in training (Sec. 2.2)
    full_attention: bool = False  # False: j in N(i) (paper's best); True: all j != i of the graph
    norm: str = "batch"  # "batch" (paper's best, Table 1) or "layer"
    dropout: float = 0.0  # (public code, ZINC)
    qkv_bias: bool = False  # bias of Q, K, V, E projections (public code, ZINC: none)
    attn_clamp: float = 5.0  # clamp of the attention logits (Sec. 2.3: "clamped to -5..5")
    readout: str = "mean"  # graph pooling: "mean" (public code) or "sum"
    out_dim: int = 16  # BREC output dimension


PRESETS: dict[str, dict] = {
    "brec": {},  # paper benchmark setting, see the module docstring
    "small": {"hidden": 32, "heads": 4, "layers": 3, "lap_k": 4},
}
