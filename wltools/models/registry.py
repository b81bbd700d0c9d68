"""A timm-style model registry: ``@register_model``, ``create_model``, ``list_models``.

Each model file defines a config dataclass, a dict of named presets (field overrides of that
dataclass: at least ``"brec"``, the paper configuration, and ``"small"``, a CPU-sized one of the same
architecture) and a function building the PyG transform that attaches the encodings the model needs.
It registers the model class, whose ``__init__`` takes the config::

    @register_model("ppgt", config_cls=PPGTConfig, presets=PRESETS, make_transform=ppgt_transform)
    class PPGT(GraphEmbedder):
        def __init__(self, config: PPGTConfig): ...

Encodings are computed once per graph by that transform (and cached on disk by the BREC runner
under :func:`transform_key`), never per forward pass.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import UnknownNameError

__all__ = [
    "ModelSpec",
    "register_model",
    "list_models",
    "list_presets",
    "model_config",
    "create_model",
    "create_transform",
    "transform_key",
]


@dataclass(frozen=True)
class ModelSpec:
    """What the registry knows of one model."""

    name: str
    model_cls: type
    config_cls: type
    presets: dict[str, dict[str, Any]]
    make_transform: Callable[[Any], Any]

    def config(self, preset: str = "brec", **overrides: Any):
        """The config dataclass for ``preset`` with ``overrides`` applied (unknown keys rejected)."""
        if preset not in self.presets:
            raise UnknownNameError(
                f"unknown preset {preset!r} for model {self.name!r}; "
                f"choose from {', '.join(sorted(self.presets))}"
            )
        fields = {f.name for f in dataclasses.fields(self.config_cls)}
        unknown = sorted(set(overrides) - fields)
        if unknown:
            raise UnknownNameError(
                f"unknown option(s) {', '.join(unknown)} for model {self.name!r}; "
                f"its options are {', '.join(sorted(fields))}"
            )
        return self.config_cls(**{**self.presets[preset], **overrides})


_MODELS: dict[str, ModelSpec] = {}


def register_model(
    name: str,
    *,
    config_cls: type,
    presets: dict[str, dict[str, Any]],
    make_transform: Callable[[Any], Any],
) -> Callable[[type], type]:
    """Class decorator registering a model under ``name`` (see the module docstring)."""

    def wrap(model_cls: type) -> type:
        if name in _MODELS:
            raise ValueError(f"model {name!r} is registered twice")
        _MODELS[name] = ModelSpec(name, model_cls, config_cls, dict(presets), make_transform)
        return model_cls

    return wrap


def _registered() -> dict[str, ModelSpec]:
    """The registry, every built-in model file registered: this module is only ever imported
    through its package, whose ``__init__`` imports the model files first, so no import is needed
    here (one made here would be an import circle)."""
    return _MODELS


def _spec(name: str) -> ModelSpec:
    _registered()
    if name not in _MODELS:
        raise UnknownNameError(
            f"unknown model {name!r}; choose from {', '.join(sorted(_MODELS)) or '(none)'}"
        )
    return _MODELS[name]


def list_models() -> list[str]:
    """Names of all registered models, sorted."""
    return sorted(_registered())


def list_presets(name: str) -> list[str]:
    """Preset names of model ``name``, sorted."""
    return sorted(_spec(name).presets)


def model_config(name: str, preset: str = "brec", **overrides: Any):
    """The config dataclass of model ``name`` for ``preset`` with ``overrides``."""
    return _spec(name).config(preset, **overrides)


def create_model(name: str, preset: str = "brec", **overrides: Any):
    """Build model ``name`` (an ``nn.Module``) with ``preset`` and config ``overrides``."""
    spec = _spec(name)
    return spec.model_cls(spec.config(preset, **overrides))


def create_transform(name: str, preset: str = "brec", **overrides: Any):
    """The PyG transform attaching the encodings model ``name`` needs under these settings."""
    spec = _spec(name)
    return spec.make_transform(spec.config(preset, **overrides))


def transform_key(name: str, preset: str = "brec", **overrides: Any) -> str:
    """A string naming the encoding setting, for disk caches: the transform's ``repr``.

    Transforms must therefore ``repr`` every argument that changes their output (PyG style).
    """
    return repr(create_transform(name, preset, **overrides))
