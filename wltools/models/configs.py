"""The five seed models' configurations and presets, without torch: read by ``wltools models
list``, the run reports and the registry without importing a model. Each model's module
(:mod:`wltools.models.graph_transformer`, :mod:`~wltools.models.graphormer`,
:mod:`~wltools.models.grit`, :mod:`~wltools.models.ppgt`, :mod:`~wltools.models.sgformer`)
documents every field's source in its paper.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GraphTransformerConfig", "GRAPH_TRANSFORMER_PRESETS", "GraphormerConfig", "GRAPHORMER_PRESETS",
           "GRITConfig", "GRIT_PRESETS", "PPGTConfig", "PPGT_PRESETS", "SGFormerConfig", "SGFORMER_PRESETS"]


# --- GraphTransformerConfig: the fields of :mod:`wltools.models.graph_transformer` ---


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


GRAPH_TRANSFORMER_PRESETS: dict[str, dict] = {
    "brec": {},  # paper benchmark setting, see the module docstring
    "small": {"hidden": 32, "heads": 4, "layers": 3, "lap_k": 4},
}


# --- GraphormerConfig: the fields of :mod:`wltools.models.graphormer` ---


@dataclass
class GraphormerConfig:
    in_dim: int = 1  # node feature size (BREC: x = ones[n, 1])
    edge_dim: int = 0  # edge-feature size; > 0 turns on the edge encoding (Sec. 3.1.3)
    max_hops: int = 5  # path edges used by the edge encoding (Graphormer code: multi_hop_max_dist)
    hidden: int = 80  # d (BREC run)
    heads: int = 8  # attention heads (BREC run); head width d / heads
    layers: int = 12  # Graphormer layers (BREC run)
    ffn_dim: int = 80  # FFN inner width; Graphormer sets it to d (App. B.2.1)
    dropout: float = 0.1  # FFN / residual dropout (Table 7)
    attn_dropout: float = 0.1  # attention dropout (Table 7)
    max_degree: int = 511  # centrality table rows - 1; larger degrees are clamped (Eq. 5)
    max_dist: int = 510  # SPD values clamped here; unreachable = max_dist + 1 (Eq. 6, phi = -1)
    bias_init_std: float = 0.02  # N(0, std) init of the spatial and [VNode] biases (Graphormer code)
    out_dim: int = 16  # BREC output dimension


GRAPHORMER_PRESETS: dict[str, dict] = {
    # the BREC benchmark's Graphormer run: 12 layers, hidden 80, 8 heads, FFN 80, and its dropouts:
    # test_BREC_search.py passes --dropout_rate 0.0 --intput_dropout_rate 0.0 and leaves
    # --attention_dropout_rate at its default 0.1 (docs/protocol.md difference 14)
    "brec": {"dropout": 0.0},
    # CPU-sized; the larger bias init lets the SPD bias matter from the first steps (see below)
    "small": {"hidden": 32, "heads": 4, "layers": 3, "ffn_dim": 32, "dropout": 0.0,
              "attn_dropout": 0.0, "max_dist": 30, "bias_init_std": 1.0},
}
# Why "small" raises bias_init_std: on regular graphs with constant node features every node token
# is identical, so attention (a convex combination of identical values) cannot see the SPD bias
# except through the share of attention each node gives to [VNode], which depends on its distance
# histogram. With the std-0.02 init that share differs between graphs by ~1e-4 and, measured on
# C6 vs two triangles (float64, Adam, 400 steps), 1 - cos stays ~1e-5; with std 1.0 the pair is
# separated in ~20 steps. Same architecture, different initial scale of one table.


# --- GRITConfig: the fields of :mod:`wltools.models.grit` ---


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


GRIT_PRESETS: dict[str, dict] = {
    "brec": {},  # GRIT ZINC configuration (Table 9) with out_dim 16; see the module docstring
    "small": {"hidden": 32, "heads": 4, "layers": 3, "rrwp_steps": 8, "attn_dropout": 0.0},
}


# --- PPGTConfig: the fields of :mod:`wltools.models.ppgt` ---


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


PPGT_PRESETS: dict[str, dict] = {
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


# --- SGFormerConfig: the fields of :mod:`wltools.models.sgformer` ---


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


SGFORMER_PRESETS: dict[str, dict] = {
    "brec": {},  # see the module docstring
    "small": {"hidden": 32},
}
