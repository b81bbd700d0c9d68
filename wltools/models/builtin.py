"""The built-in models: a static manifest of name -> config, presets and the module of the model.

Reading it imports only the torch-free ``*_config`` modules; each model's own module (torch, PyG)
is imported by its loader below when the model or its transform is first asked for
(:class:`~wltools.models.spec.ModelSpec`). A new built-in model adds its ``NAME_config.py`` (config
dataclass and ``PRESETS``), its ``NAME.py`` and one entry here.
"""

from __future__ import annotations

from . import graph_transformer_config, graphormer_config, grit_config, ppgt_config, sgformer_config
from .spec import ModelSpec

__all__ = ["BUILTIN_MODELS"]


def _graph_transformer():
    from .graph_transformer import GraphTransformer, graph_transformer_transform

    return GraphTransformer, graph_transformer_transform


def _graphormer():
    from .graphormer import Graphormer, graphormer_transform

    return Graphormer, graphormer_transform


def _grit():
    from .grit import GRIT, grit_transform

    return GRIT, grit_transform


def _ppgt():
    from .ppgt import PPGT, ppgt_transform

    return PPGT, ppgt_transform


def _sgformer():
    from .sgformer import SGFormer, sgformer_transform

    return SGFormer, sgformer_transform


#: Built-in model specs, in the registry's order of registration.
BUILTIN_MODELS: tuple[ModelSpec, ...] = (
    ModelSpec("graph_transformer", graph_transformer_config.GraphTransformerConfig, graph_transformer_config.PRESETS,
              _graph_transformer),
    ModelSpec("graphormer", graphormer_config.GraphormerConfig, graphormer_config.PRESETS, _graphormer),
    ModelSpec("grit", grit_config.GRITConfig, grit_config.PRESETS, _grit),
    ModelSpec("ppgt", ppgt_config.PPGTConfig, ppgt_config.PRESETS, _ppgt),
    ModelSpec("sgformer", sgformer_config.SGFormerConfig, sgformer_config.PRESETS, _sgformer),
)
