"""The constants of BREC's Reliable Paired Comparison (RPC) protocol, in one place.

Wang & Zhang, "Towards Better Evaluation of GNN Expressiveness with BREC Dataset" (2023/2024),
Section 4; every value, its source and every difference from the reference evaluator are listed in
``docs/protocol.md``. This module imports no torch, so planning a run and rendering reports stay
light; the training loop and the T² test are in :mod:`brec_runner.runs.rpc`.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Protocol", "t2_threshold", "decide", "OPTIMIZERS", "SCHEDULERS", "THRESHOLD_RULES"]

OPTIMIZERS = ("adam", "adamw")
SCHEDULERS = ("plateau", "cosine", "constant")
#: How the T² threshold is obtained: ``"reference"`` rounds the critical value to two decimals, as
#: the reference evaluator's literal 72.34 (q = 32, d = 16, alpha = 0.95); ``"exact"`` keeps it.
THRESHOLD_RULES = ("reference", "exact")


@dataclass(frozen=True)
class Protocol:
    """All RPC constants, defaulting to the published BREC values (data/brec/README.md).

    Attributes
    ----------
    num_relabelings : int
        q, relabelings per graph of a pair (32); the pair gives 2q graphs, interleaved.
    reliability_size : int
        Graphs in a pair's reliability set (64 = q couples of relabelings of one graph).
    out_dim : int
        d, the model's output dimension (16).
    alpha : float
        Level of the T² test (0.95): the threshold is its critical value (72.338 at the defaults).
    threshold_rule : str
        ``"reference"`` (default): the critical value rounded to two decimals, which at the defaults
        is the reference evaluator's literal ``THRESHOLD = 72.34`` (``docs/protocol.md``);
        ``"exact"``: the critical value itself (72.33799...).
    optimizer : str
        ``"adam"`` (published: L2 weight decay) or ``"adamw"`` (decoupled, PPGT).
    lr, weight_decay : float
        Learning rate (1e-4) and weight decay (1e-4).
    scheduler : str
        ``"plateau"`` (published: ``ReduceLROnPlateau(mode="min")`` stepped on the epoch loss with
        torch defaults factor 0.1, patience 10, threshold 1e-4 rel), ``"cosine"`` (linear warm-up
        over ``warmup_epochs`` then cosine to ``min_lr`` at ``epochs``; PPGT) or ``"constant"``.
    epochs : int
        At most this many epochs (20).
    batch_size : int
        Graphs per training batch (16 = 8 G/H couples), taken in order (no shuffling).
    loss_threshold : float
        Stop early when the epoch loss falls below this (0.2; 0 disables early stopping).
    margin : float
        Margin of ``CosineEmbeddingLoss`` (0.0), target -1 for every couple.
    grad_clip : float or None
        Clip the global gradient norm to this value (None: no clipping, published).
    cmp_atol, cmp_rtol : float
        Tolerances of the "T²(pair) close to T²(reliability)" check: atol 1e-6 (published) and
        torch.isclose's default rtol 1e-5 (the reference code passes only atol).
    t2_dtype : str
        dtype of the T² computation: ``"float32"`` (the reference code computes it on the model's
        float32 outputs) or ``"float64"``.
    relabel_seed : int
        Seed of the relabelings and reliability sets. BREC ships them fixed in its data file, so the
        same graphs are used for every training seed; so do we (the run seed varies the parameters).
    """

    num_relabelings: int = 32
    reliability_size: int = 64
    out_dim: int = 16
    alpha: float = 0.95
    optimizer: str = "adam"
    lr: float = 1e-4
    weight_decay: float = 1e-4
    scheduler: str = "plateau"
    plateau_factor: float = 0.1
    plateau_patience: int = 10
    warmup_epochs: int = 0
    min_lr: float = 0.0
    epochs: int = 20
    batch_size: int = 16
    loss_threshold: float = 0.2
    margin: float = 0.0
    grad_clip: float | None = None
    cmp_atol: float = 1e-6
    cmp_rtol: float = 1e-5
    t2_dtype: str = "float32"
    relabel_seed: int = 0
    threshold_rule: str = "reference"
    sources: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if self.optimizer not in OPTIMIZERS:
            raise ValueError(f"optimizer must be one of {OPTIMIZERS}, got {self.optimizer!r}")
        if self.scheduler not in SCHEDULERS:
            raise ValueError(f"scheduler must be one of {SCHEDULERS}, got {self.scheduler!r}")
        if self.batch_size < 2 or self.batch_size % 2:
            raise ValueError(f"batch_size must be a positive even number, got {self.batch_size}")
        if self.epochs < 0 or self.num_relabelings < 2 or self.out_dim < 1:
            raise ValueError("epochs must be >= 0, num_relabelings >= 2, out_dim >= 1")
        if self.t2_dtype not in ("float32", "float64"):
            raise ValueError(f"t2_dtype must be float32 or float64, got {self.t2_dtype!r}")
        if self.threshold_rule not in THRESHOLD_RULES:
            raise ValueError(f"threshold_rule must be one of {THRESHOLD_RULES}, got {self.threshold_rule!r}")

    @property
    def threshold(self) -> float:
        """The T² threshold for (num_relabelings, out_dim, alpha) under :attr:`threshold_rule`.

        Examples
        --------
        >>> Protocol().threshold, round(Protocol(threshold_rule="exact").threshold, 5)
        (72.34, 72.33799)
        """
        exact = t2_threshold(self.num_relabelings, self.out_dim, self.alpha)
        return exact if self.threshold_rule == "exact" else round(exact, 2)

    def replace(self, **changes: Any) -> "Protocol":
        """A copy with ``changes`` (unknown names raise ``TypeError``)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able constants, with the derived threshold."""
        d = dataclasses.asdict(self)
        d["sources"] = list(self.sources)
        d["threshold"] = self.threshold
        return d

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]


#: BREC's published setting (q = 32 relabelings, d = 16 outputs, alpha = 0.95), precomputed with
#: the formula below: every report re-checks its records against it, and importing scipy.special
#: alone costs a report about 0.4 CPU-s of start-up. tests/brec_runner/test_rpc.py checks it bit-equal
#: to scipy.stats.f.ppf.
_PRECOMPUTED = {(32, 16, 0.95): 72.33799245149663}


@functools.lru_cache(maxsize=64)
def t2_threshold(q: int, d: int, alpha: float = 0.95) -> float:
    """Critical value of Hotelling's T² for ``q`` paired observations in dimension ``d`` (cached:
    every results line's verdict is re-checked against it).

    .. math:: T^2_{\\mathrm{crit}} = \\frac{(q-1)\\,d}{q-d}\\, F^{-1}_{d,\\,q-d}(\\alpha)

    (Hotelling 1931; the one-sample test on the differences D_i = X_i - Y_i). With BREC's
    q = 32 relabelings and d = 16 outputs at alpha = 0.95 this is 72.338, the published 72.34.
    Requires q > d, otherwise the F distribution has no positive denominator degrees of freedom.
    The quantile is :func:`scipy.special.fdtri`, the function ``scipy.stats.f.ppf`` evaluates
    (the same float; importing ``scipy.stats`` would cost a report a second of start-up); BREC's
    own setting is read from :data:`_PRECOMPUTED`.
    """
    if not q > d >= 1:
        raise ValueError(f"the T² threshold needs q > d >= 1, got q={q}, d={d}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    if (q, d, alpha) in _PRECOMPUTED:
        return _PRECOMPUTED[q, d, alpha]
    from scipy.special import fdtri

    return float((q - 1) * d / (q - d) * fdtri(d, q - d, alpha))


def decide(t2_pair: float, t2_rel: float, protocol: Protocol) -> tuple[bool, bool]:
    """The published decision: ``(distinguished, reliable)``.

    distinguished iff ``t2_pair > threshold`` and not ``isclose(t2_pair, t2_rel)``;
    reliable iff ``t2_rel < threshold`` (``docs/protocol.md``). NaN statistics (a degenerate model)
    are neither distinguished nor reliable. Torch-free, so a record can be re-checked anywhere.

    Examples
    --------
    >>> decide(100.0, 1.0, Protocol()), decide(72.339, 1.0, Protocol()), decide(1.0, 80.0, Protocol())
    ((True, True), (False, True), (False, False))
    """
    thr = protocol.threshold
    close = abs(t2_pair - t2_rel) <= protocol.cmp_atol + protocol.cmp_rtol * abs(t2_rel)
    distinguished = bool(t2_pair > thr and not close)
    reliable = bool(t2_rel < thr)
    return distinguished, reliable
