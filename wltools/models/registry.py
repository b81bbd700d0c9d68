"""A timm-style model registry: ``register_model``, ``create_model``, ``list_models``.

Each model has a config dataclass and a dict of named presets (field overrides of that dataclass:
at least ``"brec"``, the paper configuration, and ``"small"``, a CPU-sized one of the same
architecture), a model class whose ``__init__`` takes the config, and a function building the PyG
transform that attaches the encodings the model needs. The built-in models are declared in
:mod:`wltools.models.builtin` (configs and presets in the torch-free :mod:`wltools.models.configs`, the model in
``NAME.py``, imported on first use), so listing names, presets, configs and RRWP widths imports no
torch. Other models register their class::

    @register_model("mine", config_cls=MyConfig, presets=PRESETS, make_transform=my_transform)
    class Mine(nn.Module):
        def __init__(self, config: MyConfig): ...

Encodings are computed once per graph by that transform (and cached on disk by the BREC runner
under :func:`transform_key`), never per forward pass.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import UnknownNameError
from .builtin import BUILTIN_MODELS
from .spec import ModelSpec

__all__ = [
    "ModelSpec",
    "register_model",
    "list_models",
    "list_presets",
    "model_config",
    "rrwp_channels",
    "create_model",
    "create_transform",
    "transform_key",
]

#: Every registered model by name: the built-in ones (:mod:`wltools.models.builtin`, their code
#: imported on first use) and those registered with :func:`register_model`.
_MODELS: dict[str, ModelSpec] = {spec.name: spec for spec in BUILTIN_MODELS}


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
        _MODELS[name] = ModelSpec(name, config_cls, dict(presets), lambda: (model_cls, make_transform))
        return model_cls

    return wrap


def _spec(name: str) -> ModelSpec:
    if name not in _MODELS:
        raise UnknownNameError(
            f"unknown model {name!r}; choose from {', '.join(sorted(_MODELS)) or '(none)'}"
        )
    return _MODELS[name]


def list_models() -> list[str]:
    """Names of all registered models, sorted."""
    return sorted(_MODELS)


def list_presets(name: str) -> list[str]:
    """Preset names of model ``name``, sorted."""
    return sorted(_spec(name).presets)


def model_config(name: str, preset: str = "brec", **overrides: Any):
    """The config dataclass of model ``name`` for ``preset`` with ``overrides``."""
    return _spec(name).config(preset, **overrides)


def rrwp_channels(name: str, preset: str = "brec", **overrides: Any) -> int | None:
    """K, the channels of model ``name``'s own RRWP encoding under these settings (identity
    included), from its config alone (no model code imported); None when the model has no RRWP
    encoding (its config has no ``rrwp_channels``). The built-in RRWP transforms are built with
    this number, so a bound read here and the transform of a run agree."""
    return getattr(model_config(name, preset, **overrides), "rrwp_channels", None)


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
