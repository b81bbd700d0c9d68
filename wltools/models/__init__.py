"""Trainable graph transformers; importing this package registers every model."""

from .registry import create_model, list_models, register_model

__all__ = ["create_model", "list_models", "register_model"]
