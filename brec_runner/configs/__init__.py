"""Per-model RPC overrides, each with its cited source, and the model's theoretical class.

One JSON file per model (``<name>.json``): ``protocol`` (field overrides of
:class:`brec_runner.runs.rpc.Protocol`), ``sources`` (where each value comes from), ``theory`` (the WL
tests bounding the model from below and above, as names of :data:`wltools.refine.TESTS`, with a note)
and optionally ``published`` (the reference counts per category, PPGT paper Table 1).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from ..runs.protocol import Protocol

__all__ = ["load_protocol", "model_info", "published_counts", "config_names", "builtin_bound", "theory_bound"]


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


def builtin_bound(name: str, rrwp_channels: int | None) -> dict[str, Any]:
    """The WL tests bounding built-in model ``name``, from its config file.

    Returns ``{"lower", "upper", "class", "note", "rrwp_steps", "source"}``; ``rrwp_steps`` is the
    channel count K of the model's own RRWP encoding (``rrwp_channels``: its transform's
    ``walk_length``, identity channel included, or :func:`wltools.models.registry.rrwp_channels`,
    the number that transform is built with) when a bound is RRWP-WL, else None. K is never
    guessed: a smaller K would make the bound too strict, a larger one too loose.
    """
    from wltools.errors import RunDirectoryError

    th = dict(_load(name).get("theory", {}))
    k = None
    if "rrwp" in (th.get("lower"), th.get("upper")):
        if rrwp_channels is None:
            raise RunDirectoryError(f"model {name!r} is bounded by RRWP-WL but has no RRWP encoding "
                                    "of its own (no walk_length)")
        k = int(rrwp_channels)
    return {"lower": th.get("lower"), "upper": th.get("upper"), "class": th.get("class"),
            "note": th.get("note", ""), "rrwp_steps": k, "source": f"brec_runner/configs/{name}.json"}


def theory_bound(run_config: dict[str, Any]) -> dict[str, Any] | None:
    """The WL tests bounding a run's model: the one definition the report and the claims use.

    The bound recorded in the run's ``config.json`` (``bound``, None when the model declared none);
    run directories written before bounds were recorded get their built-in model's
    :func:`builtin_bound` (read from its config: no model code is imported).
    """
    if "bound" in run_config:
        return run_config["bound"]
    from wltools.models import registry

    k = registry.rrwp_channels(run_config["model"], run_config.get("preset") or "brec",
                               **(run_config.get("model_overrides") or {}))
    return builtin_bound(run_config["model"], k)
