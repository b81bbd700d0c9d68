"""Trainable graph transformers.

Importing this package imports every model module in it (each registers itself with
``@register_model``), so a new model file needs no edit here.
"""

import importlib
import pkgutil

from .registry import create_model, create_transform, list_models, register_model, transform_key

__all__ = ["create_model", "create_transform", "list_models", "register_model", "transform_key"]

_INFRASTRUCTURE = {"registry", "layers", "encodings"}

for _info in pkgutil.iter_modules(__path__):
    if _info.name not in _INFRASTRUCTURE and not _info.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_info.name}")
