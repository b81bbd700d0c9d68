"""What the model registry knows of one model: :class:`ModelSpec`.

A spec holds what is read without building anything (the config dataclass and the presets) apart
from what needs the model's code (its class and its transform builder, usually torch and PyG):
those come from ``load`` on first use, so listing models, their presets and their bounds imports
no model file (issue 44 item 3).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import UnknownNameError

__all__ = ["ModelSpec"]


@dataclass(frozen=True)
class ModelSpec:
    """One registered model.

    Attributes
    ----------
    name : str
    config_cls : type
        The config dataclass; its fields are the model's options.
    presets : dict
        Named field overrides of ``config_cls`` (at least ``"brec"``).
    load : callable
        ``load() -> (model_cls, make_transform)``: imports the model's code; called once, on the
        first use of :attr:`model_cls` or :attr:`make_transform`.
    """

    name: str
    config_cls: type
    presets: dict[str, dict[str, Any]]
    load: Callable[[], tuple[type, Callable[[Any], Any]]]
    _loaded: list = field(default_factory=list, repr=False, compare=False)

    def _code(self) -> tuple[type, Callable[[Any], Any]]:
        if not self._loaded:
            self._loaded.append(self.load())
        return self._loaded[0]

    @property
    def model_cls(self) -> type:
        """The model class (``model_cls(config)`` builds it); imports the model's code."""
        return self._code()[0]

    @property
    def make_transform(self) -> Callable[[Any], Any]:
        """``make_transform(config)``: the PyG transform the model needs; imports the model's code."""
        return self._code()[1]

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
