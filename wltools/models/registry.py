"""A timm-style model registry: ``@register_model`` on factories, ``create_model``, ``list_models``.

A factory takes ``preset`` (a name from the model's presets) and keyword overrides of the model's
config dataclass, and returns an ``nn.Module`` whose ``forward(batch)`` maps a PyG batch to graph
embeddings ``[num_graphs, out_dim]``.
"""

from __future__ import annotations

from typing import Callable

from ..errors import UnknownNameError

__all__ = ["register_model", "create_model", "list_models"]

_MODELS: dict[str, Callable] = {}


def register_model(name: str) -> Callable[[Callable], Callable]:
    """Register ``factory(preset: str = "brec", **overrides)`` under ``name``."""

    def wrap(factory: Callable) -> Callable:
        if name in _MODELS:
            raise ValueError(f"model {name!r} is registered twice")
        _MODELS[name] = factory
        return factory

    return wrap


def list_models() -> list[str]:
    """Names of all registered models, sorted."""
    _import_models()
    return sorted(_MODELS)


def create_model(name: str, preset: str = "brec", **overrides):
    """Build model ``name`` with ``preset`` and config ``overrides``."""
    _import_models()
    if name not in _MODELS:
        raise UnknownNameError(f"unknown model {name!r}; choose from {', '.join(sorted(_MODELS))}")
    return _MODELS[name](preset=preset, **overrides)


def _import_models() -> None:
    """Import the models package, whose ``__init__`` imports (and so registers) every model file."""
    import importlib

    importlib.import_module("wltools.models")
