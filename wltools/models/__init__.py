"""Trainable graph transformers (one model per file) and their registry.

Importing this package imports the five model modules below; each registers its model with
``@register_model`` on import. A new model file is added to these imports.
"""

from . import graph_transformer, graphormer, grit, ppgt, sgformer  # noqa: F401 - registration
from .registry import create_model, create_transform, list_models, register_model, transform_key

__all__ = ["create_model", "create_transform", "list_models", "register_model", "transform_key"]
