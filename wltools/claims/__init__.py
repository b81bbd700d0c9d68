"""Verification of the papers' theoretical claims (``wltools claims``).

One module per source paper registers its claims in :mod:`wltools.claims.registry` when imported
below: :mod:`~wltools.claims.grit` and :mod:`~wltools.claims.grit_numeric` (GRIT Prop. 3.2; 3.1 (a), 3.3),
:mod:`~wltools.claims.zhang_gdwl` (the GD-WL hierarchy), :mod:`~wltools.claims.ppgt` (PPGT
Prop. E.1, E.3), :mod:`~wltools.claims.sgformer` and :mod:`~wltools.claims.epwl` (EPWL between
GD-WL and 3-WL, PPGT Table 1) and :mod:`~wltools.claims.subgraph` (the subgraph WL hierarchy of
Zhang et al., ICML 2023, and BREC's non-GNN baselines) and :mod:`~wltools.claims.hom_expressivity` (homomorphism
expressivity and subgraph counting, Zhang et al., ICLR 2024). The modules import the project's heavier
parts (refinement, distances, models) inside the checks, so listing claims stays fast. BREC pairs
and verdicts come in as arguments (:mod:`wltools.claims.inputs`); the claim about a BREC run
directory lives with the runs, in :mod:`brec_runner.reports.claims`.
"""

# Importing a claim module registers its claims; this order is the order of `wltools claims list`.
from . import grit  # noqa: F401, I001
from . import grit_numeric  # noqa: F401
from . import zhang_gdwl  # noqa: F401
from . import ppgt  # noqa: F401
from . import sgformer  # noqa: F401
from . import epwl  # noqa: F401
from . import subgraph  # noqa: F401
from . import hom_expressivity  # noqa: F401
from . import hom_consistency  # noqa: F401
from . import hierarchy  # noqa: F401
from .registry import (
    STATUSES,
    Claim,
    ClaimResult,
    exit_code,
    format_results,
    get_claim,
    list_claims,
    register_claim,
    run_claim,
    status_counts,
    tally,
    verify,
)

__all__ = [
    "STATUSES",
    "Claim",
    "ClaimResult",
    "exit_code",
    "format_results",
    "get_claim",
    "list_claims",
    "register_claim",
    "run_claim",
    "status_counts",
    "tally",
    "verify",
]
