"""Verification of the papers' theoretical claims (``wltools claims``).

One module per source paper (``grit``, ``ppgt``, ``zhang_gdwl``, ``sgformer``, ``brec_run``)
registers its claims in :mod:`wltools.claims.registry`; the modules import the project's
heavier parts (refinement, distances, models, BREC data) only inside the checks.
"""

from .registry import (
    Claim,
    ClaimResult,
    exit_code,
    format_results,
    get_claim,
    list_claims,
    register_claim,
    verify,
)

__all__ = [
    "Claim",
    "ClaimResult",
    "exit_code",
    "format_results",
    "get_claim",
    "list_claims",
    "register_claim",
    "verify",
]
