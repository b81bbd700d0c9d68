"""Trainable graph transformers (one model per file) and their registry.

Importing this package imports no model file (no torch): the registry knows the built-in models
from :mod:`wltools.models.builtin` and imports a model's module when it is first built. A new
model file adds its entry there.
"""

from .registry import create_model, create_transform, list_models, register_model, transform_key

__all__ = ["create_model", "create_transform", "list_models", "register_model", "transform_key"]
