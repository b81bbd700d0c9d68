"""The error of a model the runner cannot evaluate, apart from the modules that raise it.

:mod:`brec_runner.models.source` (loading a model) and :mod:`brec_runner.models.transform_identity` (keying
its transform) both raise :class:`ModelContractError`; here, so that neither imports the other
for it (model_source imports transform_identity, never the reverse).
"""

from __future__ import annotations

from wltools.errors import WLToolsError

__all__ = ["ModelContractError"]


class ModelContractError(WLToolsError):
    """A model that cannot be evaluated: not loadable, not callable, or breaking the contract."""
