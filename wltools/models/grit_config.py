"""GRIT's configuration and presets, without torch: read by ``wltools models list``, the
run reports and the registry without importing the model (:mod:`wltools.models.grit`,
which documents every field's source).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GRITConfig", "PRESETS"]


@dataclass
class GRITConfig:
    in_dim: int = 1  # node feature size (BREC: x = ones[n, 1])
    edge_dim: int = 0  # observed edge-attribute size; 0 = none (e'_ij dropped, Sec. 3.2)
    hidden: int = 64  # d, node and pair width (Table 9, ZINC)
    heads: int = 8  # N_h (Table 9); head width d' = hidden // heads
    layers: int = 10  # transformer layers (Table 9)
    rrwp_steps: int = 21  # K of Eq. 1 (channels I, M, ..., M^(K-1)); Table 9 "PE dim 21"
    dropout: float = 0.0  # after attention / FFN (Table 9)
    attn_dropout: float = 0.2  # on the attention probabilities (Table 9)
    ffn_expansion: float = 2.0  # FFN hidden = 2 d (GraphGPS / GRIT code)
    attn_clamp: float | None = 5.0  # clamp of the attention logits (GRIT code); None = off
    update_pairs: bool = True  # update e_ij every layer (Eq. 3); False = fixed PE (ablation)
    degree_scaler: bool = True  # Eq. 5
    pooling: str = "sum"  # graph readout: "sum" (ZINC, Table 9) or "mean"
    head_layers: int = 3  # linear layers of the graph head (d -> d/2 -> d/4 -> out_dim)
    out_dim: int = 16  # BREC output dimension
    # the RRWP pair stem on the distinct rows of rrwp only, gathered (same values up to float
    # summation order). Off by default: GRIT's stem is one K x d linear map, and the gather costs
    # as much as it saves (fwd+bwd ratio 0.99-1.0 on BREC pairs, benchmarks/models_bench.py)
    dedup_stem: bool = False

    @property
    def rrwp_channels(self) -> int:
        """K, the channels of GRIT's RRWP encoding (Eq. 1): ``rrwp_steps`` (identity included)."""
        return self.rrwp_steps


PRESETS: dict[str, dict] = {
    "brec": {},  # GRIT ZINC configuration (Table 9) with out_dim 16; see the module docstring
    "small": {"hidden": 32, "heads": 4, "layers": 3, "rrwp_steps": 8, "attn_dropout": 0.0},
}
