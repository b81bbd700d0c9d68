"""What the runner needs of a model, whoever wrote it: :class:`ModelSource` and :func:`resolve_model`.

A model reaches the runner in one of four ways, and all of them end in the same
:class:`ModelSource` (a factory, its options, an optional transform, a declared bound), so the
five built-in models and a researcher's own model go through one code path:

- a registered name: a built-in model (``ppgt``, ``grit``, ...; its preset and config overrides
  are the factory's options, its bound and protocol overrides come from ``brec_runner/configs``),
  or a plugin registered under the entry-point group ``wltools.models`` by an installed package;
- ``MODULE:ATTR``: an attribute of an importable module (``mypkg.models:gin``);
- ``PATH.py:ATTR``: an attribute of a Python file (``examples/gin.py:gin``);
- a Python object (the :func:`brec_runner.evaluate` API): a factory callable or an ``nn.Module``
  subclass.

A factory is called as ``factory(**options)`` and returns a ``torch.nn.Module``. It may carry two
attributes: ``wl_bound`` (the WL test bounding the model from above, see :func:`parse_bound`) and
``transform`` (a PyG transform applied once per graph, cached on disk under its identity: the code
of its class and its whole state, :mod:`brec_runner.models.transform_identity`, since a ``repr`` may hide
settings). Explicit arguments (``--bound``, ``--transform``) override them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from wltools.errors import UnknownNameError, WLToolsError
from wltools.refine.names import ALL_TESTS, is_test_name, label_of

from ..runs.protocol import Protocol
from .errors import ModelContractError
from .transform_identity import transform_key

__all__ = ["ModelSource", "ModelContractError", "resolve_model", "parse_bound", "load_object",
           "plugin_entry_points", "BUILTIN", "PLUGIN", "EXTERNAL"]

BUILTIN, PLUGIN, EXTERNAL = "built-in", "plugin", "external"
ENTRY_POINT_GROUP = "wltools.models"


@dataclass
class ModelSource:
    """A model as the runner sees it.

    Attributes
    ----------
    name : str
        How the model was named (``ppgt``, ``examples/gin.py:gin``, ``mypkg.models:gin``, or the
        factory's qualified name); written to ``config.json`` and shown in reports.
    kind : {"built-in", "plugin", "external"}
    factory : callable
        ``factory(**options) -> nn.Module``.
    options : dict
        Keyword arguments of the factory (a built-in's config overrides).
    preset : str or None
        The preset of a built-in model (None otherwise).
    transform : callable or None
        PyG transform applied once per graph before training.
    transform_key : str or None
        Disk-cache key of the transform's output, and the ``transform`` setting of an external
        model's run (``"<repr> [state <digest>]"``, :func:`brec_runner.models.transform_identity.transform_key`;
        a built-in model's: its ``repr``, whose settings its ``model_config`` holds). None: no
        transform.
    bound : dict or None
        ``{"lower", "upper", "class", "note", "rrwp_steps", "source"}``; None when unknown.
    protocol : Protocol
        The model's protocol before a run's own overrides: BREC's published one, with a built-in
        model's cited changes (``brec_runner/configs/NAME.json``).
    ref : str or None
        The text :func:`resolve_model` can rebuild this source from in another process.
    """

    name: str
    kind: str
    factory: Callable[..., Any]
    options: dict[str, Any] = field(default_factory=dict)
    preset: str | None = None
    transform: Any = None
    transform_key: str | None = None
    bound: dict[str, Any] | None = None
    protocol: Protocol = field(default_factory=Protocol)
    ref: str | None = None
    _given: dict[str, Any] = field(default_factory=dict, repr=False)

    def __reduce__(self):
        # A factory loaded from a file path is not importable by name in a worker process:
        # rebuild the whole source from the text it was resolved from.
        if self.ref is not None:
            return (_rebuild, (self.ref, self._given))
        return (_from_fields, (self.__dict__.copy(),))

    def build(self):
        """``factory(**options)``, checked to be an ``nn.Module``."""
        from torch import nn

        try:
            model = self.factory(**self.options)
        except WLToolsError:
            raise
        except Exception as exc:  # noqa: BLE001 - a user's factory: any failure is one line
            raise ModelContractError(f"model {self.name}: calling the factory failed: "
                                     f"{type(exc).__name__}: {_first_line(exc)}") from None
        if not isinstance(model, nn.Module):
            raise ModelContractError(f"model {self.name}: the factory returned {type(model).__name__}, "
                                     "not a torch.nn.Module")
        return model

    def config_entries(self) -> dict[str, Any]:
        """The ``config.json`` entries naming this model (compared on resume, see
        :data:`brec_runner.records.record.COMPARED_KEYS`)."""
        return {"model": self.name, "model_kind": self.kind, "preset": self.preset,
                "model_overrides": dict(self.options),
                "transform": None if self.kind == BUILTIN else self.transform_key,
                "bound": self.bound}


def _from_fields(fields: dict[str, Any]) -> ModelSource:
    return ModelSource(**fields)


def _rebuild(ref: str, given: dict[str, Any]) -> ModelSource:
    return resolve_model(ref, **given)


def _first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [""])[0][:300]


# ----------------------------------------------------------------------------------------------
# loading objects named by text (the model-plugin loader: the one place with string imports)

_ATTR = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def _is_reference(text: str) -> bool:
    return ":" in text


def load_object(text: str, what: str = "model"):
    """The object named by ``MODULE:ATTR`` or ``PATH.py:ATTR`` (ATTR may be dotted).

    Raises :class:`ModelContractError` with one line when the module or file cannot be imported
    or has no such attribute.

    Examples
    --------
    >>> load_object("math:pi")
    3.141592653589793
    """
    target, _, attr = text.rpartition(":")
    if not target or not _ATTR.match(attr):
        raise ModelContractError(f"{what} {text!r}: expected MODULE:ATTR or PATH.py:ATTR")
    if target.endswith(".py") or "/" in target or "\\" in target:
        module = _import_file(Path(target), what, text)
    else:
        try:
            module = importlib.import_module(target)
        except Exception as exc:  # noqa: BLE001 - a user's module: any failure is one line
            raise ModelContractError(f"{what} {text!r}: cannot import module {target!r}: "
                                     f"{type(exc).__name__}: {_first_line(exc)}") from None
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ModelContractError(f"{what} {text!r}: {target} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


def _import_file(path: Path, what: str, text: str):
    if not path.is_file():
        raise ModelContractError(f"{what} {text!r}: no such file {str(path)!r}")
    resolved = path.resolve()
    name = f"wltools_user_{re.sub(r'[^0-9A-Za-z_]', '_', path.stem)}_" \
           f"{hashlib.sha256(str(resolved).encode()).hexdigest()[:10]}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise ModelContractError(f"{what} {text!r}: {path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - a user's file: any failure is one line
        del sys.modules[name]
        raise ModelContractError(f"{what} {text!r}: importing {path} failed: "
                                 f"{type(exc).__name__}: {_first_line(exc)}") from None
    return module


def plugin_entry_points() -> dict[str, Any]:
    """Entry points of the group ``wltools.models`` of the installed packages, by name."""
    from wltools.runtime.entry_points import entry_points_of

    return entry_points_of(ENTRY_POINT_GROUP)


# ----------------------------------------------------------------------------------------------
# bounds


def parse_bound(value, rrwp_steps: int | None = None) -> dict[str, Any] | None:
    """A declared bound as the runner records it.

    ``value`` is None (unknown), a test name of :data:`wltools.refine.names.ALL_TESTS` (the upper bound; EPWL included),
    ``"rrwp:K"`` (RRWP-WL with K channels), a ``(lower, upper)`` pair of such names, or a dict as
    returned here. An RRWP bound needs K: from ``"rrwp:K"`` or from ``rrwp_steps`` (the
    ``walk_length`` of the model's transform).

    Examples
    --------
    >>> parse_bound("1wl")["upper"]
    '1wl'
    >>> parse_bound(("1wl", "rrwp:8"))["rrwp_steps"]
    8
    >>> parse_bound(None) is None
    True
    """
    if value is None:
        return None
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",")] if "," in value else (None, value)
    try:
        lower, upper = value
    except (TypeError, ValueError):
        raise ModelContractError(f"bound must be a test name or a (lower, upper) pair, got {value!r}") from None
    names, k = [], rrwp_steps
    for part in (lower, upper):
        if part is None:
            names.append(None)
            continue
        name, _, steps = str(part).strip().partition(":")
        if not is_test_name(name):  # nK: BREC's ego-network test of radius K
            raise ModelContractError(f"unknown bound {part!r}; choose from {', '.join(ALL_TESTS)} "
                                     "(rrwp:K for RRWP-WL with K channels; nK for ego networks of radius K)")
        if steps:
            if not steps.isdigit() or int(steps) < 1:
                raise ModelContractError(f"bound {part!r}: K must be a positive integer")
            k = int(steps)
        names.append(name)
    if "rrwp" in names and k is None:
        raise ModelContractError("an RRWP-WL bound needs its K: write rrwp:K, or give the model a transform "
                                 "with walk_length")
    labels = [label_of(n) + (f" (K = {k})" if n == "rrwp" else "") if n else None for n in names]
    text = labels[1] if names[0] in (None, names[1]) else f"between {labels[0]} and {labels[1]}"
    return {"lower": names[0], "upper": names[1], "class": f"{text}, as declared", "note": "",
            "rrwp_steps": k if "rrwp" in names else None, "source": "declared"}


# ----------------------------------------------------------------------------------------------
# resolution


def resolve_model(model, *, preset: str | None = None, options: dict[str, Any] | None = None,
                  bound=None, transform=None) -> ModelSource:
    """The :class:`ModelSource` of ``model`` (a registered name, ``MODULE:ATTR``, ``PATH.py:ATTR``
    or a factory object); see the module docstring.

    ``preset`` applies to built-in models only; ``options`` are the factory's keyword arguments;
    ``bound`` and ``transform`` (an object or a ``MODULE:ATTR`` / ``PATH.py:ATTR`` text) override
    the factory's ``wl_bound`` and ``transform`` attributes.

    Examples
    --------
    >>> src = resolve_model("sgformer", preset="small")
    >>> src.kind, src.bound["upper"]
    ('built-in', '1wl')
    """
    options = dict(options or {})
    given = {"preset": preset, "options": options, "bound": bound, "transform": transform}
    if isinstance(model, str):
        text = model.strip()
        if not text:
            raise UnknownNameError("empty model name")
        if not _is_reference(text):
            from wltools.models import registry

            if text in registry.list_models():
                return _builtin(text, preset, options, bound, transform, given)
            plugins = plugin_entry_points()
            if text not in plugins:
                known = sorted(set(registry.list_models()) | set(plugins))
                raise UnknownNameError(f"unknown model {text!r}; choose from {', '.join(known)}, "
                                       "or give MODULE:ATTR or PATH.py:ATTR")
            try:
                obj = plugins[text].load()
            except Exception as exc:  # noqa: BLE001 - a plugin package: any failure is one line
                raise ModelContractError(f"model plugin {text!r} ({plugins[text].value}) cannot be loaded: "
                                         f"{type(exc).__name__}: {_first_line(exc)}") from None
            return _external(text, PLUGIN, obj, preset, options, bound, transform, text, given)
        return _external(text, EXTERNAL, load_object(text), preset, options, bound, transform, text, given)
    name = getattr(model, "__qualname__", None) or type(model).__name__
    module = getattr(model, "__module__", None)
    return _external(f"{module}.{name}" if module else name, EXTERNAL, model, preset, options, bound,
                     transform, None, {})


def _transform_key(transform) -> str | None:
    """The transform's identity as a readable key (:func:`brec_runner.models.transform_identity.transform_key`:
    its ``repr`` and a digest of its class code and whole state), so a setting its ``repr`` hides
    still changes the key; None for no transform. A transform whose state cannot be captured is
    refused with one line (:class:`ModelContractError`)."""
    return transform_key(transform)


def _external(name, kind, obj, preset, options, bound, transform, ref, given) -> ModelSource:
    if not callable(obj):
        raise ModelContractError(f"model {name}: {type(obj).__name__} object is not callable "
                                 "(expected a factory function or an nn.Module subclass)")
    if preset is not None:
        raise ModelContractError(f"model {name}: --preset applies to built-in models only; "
                                 "pass options with --set KEY=VALUE")
    if isinstance(transform, str):
        transform = load_object(transform, "transform")
    if transform is None:
        transform = getattr(obj, "transform", None)
    if transform is not None and not callable(transform):
        raise ModelContractError(f"model {name}: the transform {transform!r} is not callable")
    steps = getattr(transform, "walk_length", None)
    declared = bound if bound is not None else getattr(obj, "wl_bound", None)
    parsed = parse_bound(declared, int(steps) if isinstance(steps, int) else None)
    if parsed is not None:
        parsed["source"] = "--bound / bound=" if bound is not None else f"{name}.wl_bound"
    return ModelSource(name=name, kind=kind, factory=obj, options=options, transform=transform,
                       transform_key=_transform_key(transform), bound=parsed, ref=ref, _given=given)


def _builtin(name, preset, options, bound, transform, given) -> ModelSource:
    import functools

    from wltools.models import registry

    from ..configs import builtin_bound, load_protocol

    if transform is not None:
        raise ModelContractError(f"model {name}: built-in models bring their own transform; "
                                 "--transform is for other models")
    preset = preset or "brec"
    registry.model_config(name, preset, **options)  # unknown presets and options: one line now
    made = registry.create_transform(name, preset, **options)
    parsed = parse_bound(bound, getattr(made, "walk_length", None)) if bound is not None \
        else builtin_bound(name, getattr(made, "walk_length", None))
    return ModelSource(name=name, kind=BUILTIN, factory=functools.partial(registry.create_model, name, preset),
                       options=options, preset=preset, transform=made,
                       transform_key=registry.transform_key(name, preset, **options), bound=parsed,
                       protocol=load_protocol(name), ref=name, _given=given)


def _bound_text(bound: dict[str, Any] | None) -> str | None:
    if not bound or not bound.get("upper"):
        return None
    upper = bound["upper"] + (f":{bound['rrwp_steps']}" if bound["upper"] == "rrwp" and bound.get("rrwp_steps") else "")
    lower = bound.get("lower")
    return upper if lower in (None, bound["upper"]) else f"{lower},{upper}"


def list_model_sources(load_plugins: bool = False) -> list[dict[str, Any]]:
    """Built-in models and installed plugins: name, kind, bound (text), presets, source.

    Built-in models are read from their configs (no model code, no torch, is imported). Plugins
    are listed by name and entry point without importing them, their bound shown as not loaded,
    unless ``load_plugins``: then each is loaded for its bound, and one that cannot be loaded is
    listed with the reason instead.
    """
    from wltools.models import registry

    from ..configs import builtin_bound

    rows = []
    for name in registry.list_models():
        bound = builtin_bound(name, registry.rrwp_channels(name))
        rows.append({"name": name, "kind": BUILTIN, "bound": _bound_text(bound),
                     "presets": registry.list_presets(name), "source": f"wltools.models ({bound['source']})"})
    for name, ep in sorted(plugin_entry_points().items()):
        if name in registry.list_models():
            rows.append({"name": name, "kind": PLUGIN, "bound": None, "presets": [],
                         "source": f"{ep.value} (shadowed by the built-in model of that name)"})
            continue
        rows.append({"name": name, "kind": PLUGIN, "bound": _plugin_bound(name) if load_plugins else NOT_LOADED,
                     "presets": [], "source": ep.value})
    return rows


#: The bound column of a plugin that :func:`list_model_sources` did not load.
NOT_LOADED = "(not loaded: --load-plugins)"


def _plugin_bound(name: str) -> str | None:
    """The bound text of plugin ``name``, loading it; the reason when it cannot be loaded."""
    try:
        return _bound_text(resolve_model(name).bound)
    except WLToolsError as exc:
        return f"(cannot load: {exc})"
