"""The built-in models: a static manifest of name -> config, presets and the module of the model.

Reading it imports only the torch-free :mod:`wltools.models.configs`; each model's own module
(torch, PyG) is imported by its loader below when the model or its transform is first asked for
(:class:`~wltools.models.spec.ModelSpec`). A new built-in model adds its config dataclass and
presets to ``configs.py``, its ``NAME.py`` and one entry here.
"""

from __future__ import annotations

from . import configs
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
    ModelSpec("graph_transformer", configs.GraphTransformerConfig, configs.GRAPH_TRANSFORMER_PRESETS,
              _graph_transformer),
    ModelSpec("graphormer", configs.GraphormerConfig, configs.GRAPHORMER_PRESETS, _graphormer),
    ModelSpec("grit", configs.GRITConfig, configs.GRIT_PRESETS, _grit),
    ModelSpec("ppgt", configs.PPGTConfig, configs.PPGT_PRESETS, _ppgt),
    ModelSpec("sgformer", configs.SGFormerConfig, configs.SGFORMER_PRESETS, _sgformer),
)
