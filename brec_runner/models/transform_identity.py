"""The identity of a transform: its full state as a canonical description, and a key from it.

A transform's ``repr`` is no identity. PyG's ``AddRandomWalkPE(walk_length=16)`` and
``AddLaplacianEigenvectorPE(k=3)`` print ``AddRandomWalkPE()`` and
``AddLaplacianEigenvectorPE()`` whatever their settings, and a ``Compose`` prints only its members'
reprs. Keying the encoding cache or a run's settings on the repr therefore hands a 16-step run the
8-step encodings of an earlier run, and lets a resume mix the two. This module keys a transform on
what determines its output instead:

- its **class**: for each class of its MRO but ``object``, the module, the qualified name and a
  sha256 of the source file that defines it (a class without a source file: of its source text; a
  class of a compiled module: the package version; Python's own, ``abc.ABC``, ``OrderedDict``:
  the name alone);
- its **state**: ``vars(obj)`` (and ``__slots__``) recursively. ``None``, bools, ints and strings
  are kept as they are, floats by their exact ``repr``, tuples, lists, dicts and sets element by
  element (dicts and sets in a canonical order), numpy arrays and torch tensors by dtype, shape and
  a sha256 of their bytes, dtypes and devices by name, enums by class and member, compiled regular
  expressions, dates and decimals by their pattern or exact ``repr``, nested objects
  (``Compose.transforms``, an ``nn.Module``, a config dataclass) by their class and state again,
  functions by module, qualified name, the digest of their source file, their source text, their
  defaults and the values their closure captured; ``functools.partial`` by function and arguments.

Globals a function reads from another module, and code a class calls in another file, are not
part of the key (the run's code version, :func:`brec_runner.records.identity.code_version`, covers the
model's and the transform's files).

A transform whose state cannot be captured is **refused**, in one line naming the transform and the
attribute (:class:`brec_runner.models.errors.ModelContractError`): an open file, a socket, a random
number generator (its output would not be a function of the graph, and a cache would freeze it),
an object of a type with neither ``__dict__`` nor ``__slots__`` (a lock, a generator), an object
array, or a class whose source cannot be read. Running such a transform uncached would still leave
the run's settings hash blind to it, so a resume could mix two settings; refusing is the one
behaviour that never reports a wrong number. A transform that holds such a thing on purpose (a
lazily opened file), or an attribute that changes without changing the output (a call counter,
which would only cost cache misses), may say what its state is: a method ``__wltools_state__()``
returning a value of the kinds above replaces ``vars(obj)``.

The key (:func:`transform_key`) is readable: the transform's ``repr`` (memory addresses removed,
whitespace collapsed) followed by ``[state <16 hex of the digest>]``; the cache uses the whole
digest (:func:`transform_digest`). Both are the same in every process for equal transforms.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import functools
import hashlib
import inspect
import io
import json
import re
import socket
import sys
import types
from pathlib import Path, PurePath
from typing import Any

from .errors import ModelContractError

__all__ = ["STATE_METHOD", "describe_transform", "transform_digest", "transform_key", "readable_repr"]

#: Name of the optional method by which a transform states its own state (replaces ``vars(obj)``).
STATE_METHOD = "__wltools_state__"

_VERSION = "transform-identity-v1"
# Modules whose classes are the language's own: named, without a source digest.
_LANGUAGE_MODULES = frozenset({"builtins", "abc", "typing", "typing_extensions", "collections", "enum"})
_ADDRESS = re.compile(r" (?:object )?at 0x[0-9a-fA-F]+")


class _Refused(Exception):
    """Internal: the state at ``path`` cannot be captured (``why``)."""

    def __init__(self, path: str, why: str, *, stateful: bool = True) -> None:
        super().__init__(why)
        self.path, self.why, self.stateful = path, why, stateful


# ----------------------------------------------------------------------------------------------
# code: classes, functions, modules


@functools.lru_cache(maxsize=512)
def _file_digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _package_version(module: str) -> str:
    top = sys.modules.get(module.split(".")[0])
    version = getattr(top, "__version__", None)
    return f"version {version}" if version else f"python {sys.version.split()[0]}"


def _code_digest(obj, path: str) -> str:
    """sha256 of the source file defining ``obj`` (a class, function or module), else of its
    source text, else the version of its compiled package; refused when none can be had."""
    try:
        file = inspect.getsourcefile(obj)
    except OSError:  # defined where no file is known (python -c, exec): its text is tried below
        file = None
    except TypeError:  # a built-in class, function or module: compiled
        module = obj.__name__ if isinstance(obj, types.ModuleType) else getattr(obj, "__module__", None) or "?"
        return _package_version(module)
    if file and Path(file).is_file():
        try:
            return _file_digest(str(Path(file).resolve()))
        except OSError:
            pass
    try:
        compiled = not file and Path(inspect.getfile(obj)).suffix in (".so", ".pyd", ".dll", ".dylib")
    except (OSError, TypeError):
        compiled = False
    if compiled:  # a class or function of an extension module
        module = obj.__name__ if isinstance(obj, types.ModuleType) else getattr(obj, "__module__", None) or "?"
        return _package_version(module)
    try:
        return hashlib.sha256(inspect.getsource(obj).encode()).hexdigest()
    except (OSError, TypeError):
        name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", repr(obj))
        raise _Refused(path, f"the source of {name} cannot be read (defined in an interactive session or by "
                             "exec?), so its behaviour cannot be identified", stateful=False) from None


def _describe_class(cls: type, path: str) -> list:
    out = []
    for c in cls.__mro__:
        if c is not object:  # Python's own classes by name only (OrderedDict is not dict)
            language = c.__module__ in _LANGUAGE_MODULES
            out.append([c.__module__, c.__qualname__, None if language else _code_digest(c, path)])
    return ["class", out]


def _describe_function(fn, path: str, stack: dict) -> list:
    if isinstance(fn, functools.partial):
        return ["partial", _describe(fn.func, f"{path}.func", stack), _describe(list(fn.args), f"{path}.args", stack),
                _describe(dict(fn.keywords), f"{path}.keywords", stack)]
    if isinstance(fn, types.MethodType):
        return ["method", _describe(fn.__func__, f"{path}.__func__", stack),
                _describe(fn.__self__, f"{path}.__self__", stack)]
    if isinstance(fn, types.FunctionType):
        try:
            text = inspect.getsource(fn)
        except (OSError, TypeError):
            text = None
        if text is None:
            raise _Refused(path, f"the source of function {fn.__qualname__} cannot be read, so its behaviour "
                                 "cannot be identified", stateful=False)
        cells = []
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                cells.append([name, ["empty"]])
                continue
            cells.append([name, _describe(value, f"{path}<closure {name}>", stack)])
        return ["function", fn.__module__, fn.__qualname__, _code_digest(fn, path),
                hashlib.sha256(text.encode()).hexdigest(),
                _describe(fn.__defaults__, f"{path}.__defaults__", stack),
                _describe(fn.__kwdefaults__, f"{path}.__kwdefaults__", stack), cells]
    # built-in functions, method descriptors, numpy ufuncs: compiled code, named
    module = getattr(fn, "__module__", None) or getattr(getattr(fn, "__objclass__", None), "__module__", None) or "?"
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    if not name:
        raise _Refused(path, f"a {type(fn).__name__} callable without a name cannot be identified")
    return ["builtin", module, name, _package_version(module)]


# ----------------------------------------------------------------------------------------------
# values


def _tensor_digest(t) -> list:
    import torch

    t = t.detach()
    if t.layout != torch.strided:
        t = t.to_dense()
    flat = t.cpu().contiguous().reshape(-1)
    data = flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b""
    return ["tensor", str(t.dtype), list(t.shape), hashlib.sha256(data).hexdigest()]


def _array_digest(a, path: str) -> list:
    import numpy as np

    if a.dtype.hasobject:
        raise _Refused(path, "a numpy array of Python objects cannot be captured")
    a = np.ascontiguousarray(a)
    return ["ndarray", a.dtype.str, str(a.dtype), list(a.shape), hashlib.sha256(a.tobytes()).hexdigest()]


def _is_rng(value) -> bool:
    import random

    import numpy as np

    kinds: tuple = (random.Random, np.random.Generator, np.random.RandomState, np.random.BitGenerator)
    if "torch" in sys.modules:
        kinds += (sys.modules["torch"].Generator,)
    return isinstance(value, kinds)


def _sorted_items(items: list[list]) -> list:
    return sorted(items, key=lambda kv: json.dumps(kv, separators=(",", ":")))


def _describe(value: Any, path: str, stack: dict) -> Any:
    """The canonical, JSON-able description of ``value`` (reached as ``path``)."""
    t = type(value)
    if value is None or t in (bool, str):
        return value
    if t is int:
        return value
    if t is float:
        return ["float", repr(value)]
    if t is complex:
        return ["complex", repr(value)]
    if t in (bytes, bytearray):
        return [t.__name__, hashlib.sha256(bytes(value)).hexdigest()]
    if t in (range, slice):
        return [t.__name__, value.start, value.stop, value.step]
    if value is Ellipsis:
        return ["ellipsis"]
    if "torch" in sys.modules:
        torch = sys.modules["torch"]
        if isinstance(value, torch.Tensor):
            try:
                return _tensor_digest(value)
            except Exception as exc:  # noqa: BLE001 - quantized, nested, meta tensors, ...
                raise _Refused(path, f"a tensor of layout {value.layout} cannot be read ({type(exc).__name__})") \
                    from None
        if isinstance(value, (torch.dtype, torch.device, torch.layout, torch.memory_format)):
            return [t.__name__, str(value)]
    if "numpy" in sys.modules:
        np = sys.modules["numpy"]
        if isinstance(value, np.ndarray):
            return _array_digest(value, path)
        if isinstance(value, np.generic):
            return ["npscalar", value.dtype.str, np.asarray(value).tobytes().hex()]
        if isinstance(value, np.dtype):
            return ["npdtype", value.str, str(value)]
    if isinstance(value, enum.Enum):
        return ["enum", _describe_class(t, path), value.name]
    if isinstance(value, PurePath):
        return ["path", type(value).__name__, str(value)]
    if isinstance(value, re.Pattern):
        return ["regex", _describe(value.pattern, path, stack), value.flags]
    if isinstance(value, (datetime.date, datetime.time, datetime.timedelta, decimal.Decimal)):
        return [t.__module__, t.__qualname__, repr(value)]  # exact reprs of immutable values
    if isinstance(value, type):
        return _describe_class(value, path)
    if isinstance(value, types.ModuleType):
        return ["module", value.__name__, _code_digest(value, path)]
    if isinstance(value, io.IOBase) or isinstance(value, socket.socket):
        raise _Refused(path, f"an open file or socket ({t.__module__}.{t.__qualname__}) cannot be captured")
    if _is_rng(value):
        raise _Refused(path, f"a random number generator ({t.__module__}.{t.__qualname__}): the output would not "
                             "be a function of the graph, so it cannot be cached or identified")
    function = isinstance(value, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, functools.partial,
                                  types.MethodDescriptorType, types.WrapperDescriptorType, types.BuiltinMethodType)) \
        or (t.__name__ == "ufunc" and t.__module__ == "numpy")
    key = id(value)
    if key in stack:  # a reference back to an object being described (a recursive closure, a parent link)
        return ["cycle", stack[key]]
    stack[key] = path
    try:
        return _describe_function(value, path, stack) if function else _describe_container(value, t, path, stack)
    finally:
        del stack[key]


def _describe_container(value: Any, t: type, path: str, stack: dict) -> Any:
    plain = t in (list, tuple, dict, set, frozenset)
    head: list = [t.__name__] if plain else ["object", _describe_class(t, path)]
    if isinstance(value, (list, tuple)):
        body = [_describe(v, f"{path}[{i}]", stack) for i, v in enumerate(value)]
        head.append(body)
    elif isinstance(value, dict):
        items = [[_describe(k, f"{path} key {k!r}", stack), _describe(v, f"{path}[{k!r}]", stack)]
                 for k, v in value.items()]
        head.append(_sorted_items(items))
    elif isinstance(value, (set, frozenset)):
        body = [_describe(v, f"{path} member", stack) for v in value]
        head.append(sorted(body, key=lambda d: json.dumps(d, separators=(",", ":"))))
    if plain:
        return head
    state = getattr(value, STATE_METHOD, None)
    if callable(state) and not isinstance(value, type):
        try:
            declared = state()
        except Exception as exc:  # noqa: BLE001 - a user's method: any failure is one line
            raise _Refused(path, f"{STATE_METHOD}() failed: {type(exc).__name__}: {exc}") from None
        head.append(["declared", _describe(declared, f"{path}.{STATE_METHOD}()", stack)])
        return head
    for base in (int, float, complex, str, bytes):  # a subclass of a value type: its value too
        if isinstance(value, base):
            head.append(["value", _describe(base(value), path, stack)])
            break
    fields: dict[str, Any] = {}
    slots = []
    for c in t.__mro__:
        declared = getattr(c, "__dict__", {}).get("__slots__", ())
        slots += [declared] if isinstance(declared, str) else list(declared)
    for s in slots:
        if s not in ("__dict__", "__weakref__") and hasattr(value, s):
            fields[s] = getattr(value, s)
    has_dict = hasattr(value, "__dict__")
    if has_dict:
        fields.update(vars(value))
    if not has_dict and not slots and not isinstance(value, (list, tuple, dict, set, frozenset, int, float, complex,
                                                             str, bytes)):
        raise _Refused(path, f"an object of type {t.__module__}.{t.__qualname__} (no attributes to read) cannot "
                             "be captured")
    items = [[name, _describe(v, f"{path}.{name}", stack)] for name, v in fields.items()]
    head.append(sorted(items, key=lambda kv: kv[0]))
    return head


# ----------------------------------------------------------------------------------------------
# public


def readable_repr(transform) -> str:
    """``repr(transform)`` on one line, without memory addresses (so it is the same in every
    process); the class name when ``repr`` fails."""
    try:
        text = repr(transform)
    except Exception:  # noqa: BLE001 - a user's __repr__: fall back to the class
        text = f"{type(transform).__qualname__}(?)"
    return " ".join(_ADDRESS.sub("", text).split())


def describe_transform(transform) -> list:
    """The canonical description of ``transform``: a JSON-able list, equal for transforms whose
    class code and state are equal (module docstring).

    Raises :class:`brec_runner.models.errors.ModelContractError` (one line naming the transform and
    the attribute) when the state cannot be captured.

    Examples
    --------
    >>> from torch_geometric.transforms import AddRandomWalkPE
    >>> a, b = AddRandomWalkPE(walk_length=8), AddRandomWalkPE(walk_length=16)
    >>> repr(a) == repr(b), describe_transform(a) == describe_transform(b)
    (True, False)
    """
    try:
        try:
            return [_VERSION, _describe(transform, "transform", {})]
        except RecursionError:
            raise _Refused("transform", "its attributes are nested too deeply to be read") from None
    except _Refused as exc:
        where = "" if exc.path == "transform" else f" at {exc.path}"
        hint = (f"; give it plain attributes (numbers, strings, tensors, ...) or a {STATE_METHOD}() method "
                "returning its settings") if exc.stateful else "; define it in a file"
        raise ModelContractError(f"transform {readable_repr(transform)}: cannot capture its state{where}: "
                                 f"{exc.why}{hint}") from None


def transform_digest(transform) -> str:
    """sha256 (64 hex) of :func:`describe_transform` ``(transform)``."""
    text = json.dumps(describe_transform(transform), separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def transform_key(transform) -> str | None:
    """``"<repr> [state <16 hex>]"``: readable, and different whenever the state differs (None for
    no transform).

    Examples
    --------
    >>> from torch_geometric.transforms import AddRandomWalkPE
    >>> k8, k16 = transform_key(AddRandomWalkPE(8)), transform_key(AddRandomWalkPE(16))
    >>> k8.startswith("AddRandomWalkPE() [state "), k8 == k16
    (True, False)
    """
    if transform is None:
        return None
    return f"{readable_repr(transform)} [state {transform_digest(transform)[:16]}]"
