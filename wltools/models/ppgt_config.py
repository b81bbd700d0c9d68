"""PPGT's configuration and presets, without torch: read by ``wltools models list``, the
run reports and the registry without importing the model (:mod:`wltools.models.ppgt`,
which documents every field's source).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PPGTConfig", "PRESETS"]


@dataclass
class PPGTConfig:
    """PPGT hyperparameters; defaults are the BREC setting (PPGT Table 8 + the authors' config)."""

    in_dim: int = 1  # width of data.x (BREC: constant ones)
    rrwp_steps: int = 32  # RRWP random-walk steps; K = steps + 1 channels (identity) (Table 8 PE-dim)
    spe_bases: int = 15  # S of the sinusoidal PE enhancement (Eq. 9); 0 switches SPE off
    pe_hidden: int = 192  # hidden width of the PE-stem MLP (Table 8 "MLP-dim")
    pe_ffn: int = 4  # number of FFN blocks in the PE stem (Table 8 "# FFN")
    pe_ffn_expansion: float = 2.0  # Table 8 PE stem "FFN expansion"
    dim: int = 96  # backbone width D (Table 8 "Dim")
    num_layers: int = 6  # Table 8 "# blocks"
    num_heads: int = 16  # Table 8 "# attn. heads"
    ffn_expansion: float = 2.0  # Table 8 backbone "FFN expansion"
    attention: str = "sl2"  # "sl2" (Eq. 4-5) | "sdp" (plain scaled dot product)
    sl2_form: str = "mask"  # sL2 key term: in the float mask (Eq. 4 footnote) | "key" (channel)
    norm: str = "adarmsnorm"  # "adarmsnorm" (Eq. 3) | "rmsnorm" | "layernorm" | "batchnorm"
    urpe: bool = True  # URPE factor phi(p_ij) of Eq. 5
    inject_degree: bool = True  # App. C.3 degree / graph-order injection
    activation: str = "gelu"
    dropout: float = 0.0  # Table 8 "S.D." 0
    attn_dropout: float = 0.0  # Table 8 "Attn. dropout" 0
    pooling: str = "sum"  # Table 8 "Graph Pooling" ("sum" | "mean")
    head_layers: int = 3  # Table 8 pred. head "# layers"
    head_batchnorm: bool = True  # batch norm on the head output (authors' BREC config)
    out_dim: int = 16  # BREC embedding size
    # run the PE stem (and theta / phi) on the distinct rows of p' only and gather (same outputs up
    # to float summation order); off under a batch-norm stem or stem dropout in training
    dedup_stem: bool = True

    @property
    def rrwp_channels(self) -> int:
        """K, the channels of PPGT's RRWP encoding: ``rrwp_steps + 1`` (identity included)."""
        return self.rrwp_steps + 1

    @property
    def pair_channels(self) -> int:
        """Raw pair channels p'_ij: RRWP (steps + 1) plus 1/deg_i, 1/deg_j, 1/n (App. C.3)."""
        return self.rrwp_channels + (3 if self.inject_degree else 0)

    def validate(self) -> None:
        from .layers import NORMS  # torch: validated only when the model is built

        if self.attention not in ("sl2", "sdp"):
            raise ValueError(f"attention must be 'sl2' or 'sdp', got {self.attention!r}")
        if self.sl2_form not in ("mask", "key"):
            raise ValueError(f"sl2_form must be 'mask' or 'key', got {self.sl2_form!r}")
        if self.norm not in NORMS:
            raise ValueError(f"norm must be one of {NORMS}, got {self.norm!r}")
        if self.dim % self.num_heads:
            raise ValueError(f"dim {self.dim} is not divisible by num_heads {self.num_heads}")
        if self.pooling not in ("sum", "mean"):
            raise ValueError(f"pooling must be 'sum' or 'mean', got {self.pooling!r}")
        if self.spe_bases < 0 or self.rrwp_steps < 1 or self.head_layers < 1:
            raise ValueError("spe_bases >= 0, rrwp_steps >= 1 and head_layers >= 1 required")


PRESETS: dict[str, dict] = {
    # PPGT Table 8 (BREC) + the authors' public BREC configuration (about 874K parameters)
    "brec": {},
    # same architecture, CPU-sized: trains a 10-node BREC pair in seconds on one core
    "small": dict(
        rrwp_steps=16,
        spe_bases=6,
        pe_hidden=64,
        pe_ffn=1,
        dim=32,
        num_layers=2,
        num_heads=4,
    ),
}
