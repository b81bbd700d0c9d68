"""Per-model RPC overrides, each with its cited source, and the model's theoretical class.

One JSON file per model (``<name>.json``): ``protocol`` (field overrides of
:class:`brec_runner.rpc.Protocol`), ``sources`` (where each value comes from), ``theory`` (the WL
tests bounding the model from below and above, as names of :data:`wltools.refine.TESTS`, with a note)
and optionally ``published`` (the reference counts per category, PPGT paper Table 1).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from ..rpc import Protocol

__all__ = ["load_protocol", "model_info", "published_counts", "config_names"]


@lru_cache(maxsize=None)
def _load(name: str) -> dict[str, Any]:
    path = resources.files(__name__).joinpath(f"{name}.json")
    if not path.is_file():
        return {"model": name, "protocol": {}, "sources": {"protocol": "BREC defaults (no config file)"},
                "theory": {}}
    return json.loads(path.read_text())


def config_names() -> list[str]:
    """Models with a config file."""
    return sorted(p.name[:-5] for p in resources.files(__name__).iterdir() if p.name.endswith(".json"))


def load_protocol(name: str, **overrides: Any) -> Protocol:
    """The published protocol with model ``name``'s overrides and then ``overrides`` applied."""
    cfg = _load(name)
    sources = tuple(f"{k}: {v}" for k, v in cfg.get("sources", {}).items())
    return Protocol(**{**cfg.get("protocol", {}), **overrides, "sources": sources})


def model_info(name: str) -> dict[str, Any]:
    """The model's theoretical class entry (``theory``) and published counts (``published``)."""
    cfg = _load(name)
    return {"theory": cfg.get("theory", {}), "published": cfg.get("published")}


def published_counts(name: str) -> dict[str, Any] | None:
    return _load(name).get("published")
