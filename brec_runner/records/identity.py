"""What makes a BREC record trustworthy: the run's settings hash, the code version, a line checksum.

Every results line carries

- ``settings``: :func:`settings_hash` of the run's identity (:data:`SETTINGS_KEYS`: model or
  factory, preset, the built-in model's full config, factory options, transform key, every
  protocol value including the threshold rule, device type, the dataset digest, which covers the
  raw BREC files and the relabelling rule, and the declared bound's tests, which decide the
  report's theory and "beyond the bound" counts);
- ``code``: :func:`code_version` of the files that compute a result (the runner's training and
  data modules and the model's own source file), one of the run's ``code_versions``;
- ``check``: :func:`record_checksum`, a sha256 of the line's other fields.

``config.json`` itself carries ``config_check`` (:func:`config_checksum`, a sha256 of every other
entry), written by :mod:`brec_runner.records.record` each time it writes the file: the settings hash covers
only what changes results, and the entries the report and the claims read besides (``seeds`` and
``pairs``, which say what was planned, the declared ``bound``, the published counts) must not be
editable unnoticed either. A directory written before the config checksum has none and is read as
before (:func:`config_problem` returns None); any later write of its config adds it.

:func:`record_problem` re-checks a line against its run's ``config.json``: checksum, settings, code
version, the threshold of the protocol, and the published decision recomputed from the line's own
T² statistics (:func:`brec_runner.runs.protocol.decide`). A hand-edited verdict therefore fails twice:
its checksum and its decision. Torch-free.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path
from typing import Any

from ..runs.protocol import Protocol, decide

__all__ = [
    "FORMAT",
    "READ_FORMATS",
    "SETTINGS_KEYS",
    "settings_keys",
    "run_identity",
    "IDENTITY_FIELDS",
    "settings_of",
    "settings_hash",
    "record_checksum",
    "stamp",
    "code_version",
    "record_problem",
    "differing_settings",
    "CONFIG_CHECK",
    "config_checksum",
    "seal_config",
    "config_problem",
]

#: Version of the run-directory format written by this code (``config.json`` ``format``): 3 puts
#: the declared bound into the settings hash (format 2 hashed :data:`SETTINGS_KEYS_V2`).
FORMAT = 3
#: The formats this code reads (format 1: after ``wltools brec upgrade``).
READ_FORMATS = (2, 3)
#: Config keys whose values change a number of a run or its report: a run directory holds records
#: of one setting of these, and readers merge only runs that agree on all of them.
SETTINGS_KEYS = ("model", "preset", "model_config", "model_overrides", "transform", "protocol", "device_type",
                 "dataset", "bound")
#: What the settings hash of a format-2 run directory (and of a count run) covers: the bound was a
#: declaration a resume could change.
SETTINGS_KEYS_V2 = SETTINGS_KEYS[:-1]
#: The parts of a declared bound that change a number (the tests and the RRWP steps; its class
#: text, note and source are words).
_BOUND_FIELDS = ("lower", "upper", "rrwp_steps")
#: Fields a results line gets on top of :class:`brec_runner.runs.rpc.PairOutcome`.
IDENTITY_FIELDS = ("settings", "code", "threshold_rule", "check")
_REQUIRED = {"id": int, "seed": int, "t2_pair": (int, float), "t2_reliability": (int, float),
             "threshold": (int, float), "distinguished": bool, "reliable": bool}

_RUNNER_FILES = ("runs/rpc.py", "runs/multipair.py", "runs/protocol.py", "runs/dataset.py", "models/encoding_cache.py",
                 "runs/execute.py")


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=True)


def _comparable(key: str, value):
    if key == "protocol" and isinstance(value, dict):
        return {k: v for k, v in value.items() if k != "sources"}
    if key == "bound" and isinstance(value, dict):
        return {k: value.get(k) for k in _BOUND_FIELDS}
    return value


def settings_keys(config: dict[str, Any]) -> tuple[str, ...]:
    """The keys the stored settings hash of ``config`` covers: :data:`SETTINGS_KEYS` from format 3
    on, :data:`SETTINGS_KEYS_V2` before (and for count runs, which record no format)."""
    fmt = config.get("format")
    return SETTINGS_KEYS if isinstance(fmt, int) and fmt >= 3 else SETTINGS_KEYS_V2


def settings_of(config: dict[str, Any], keys: tuple[str, ...] = SETTINGS_KEYS) -> dict[str, Any]:
    """The part of a run config that changes a number (``keys``, default :data:`SETTINGS_KEYS`;
    a protocol's cited sources and a bound's words are not part of it).

    Examples
    --------
    >>> settings_of({"model": "m", "protocol": {"lr": 1e-4, "sources": ["x"]}, "seeds": [0]})["protocol"]
    {'lr': 0.0001}
    >>> settings_of({"bound": {"upper": "3wl", "class": "3-WL, as declared"}})["bound"]
    {'lower': None, 'upper': '3wl', 'rrwp_steps': None}
    """
    return {k: _comparable(k, config.get(k)) for k in keys}


def settings_hash(config: dict[str, Any]) -> str:
    """sha256 (16 hex) of :func:`settings_of` over :func:`settings_keys` ``(config)``: the hash a
    run directory stores and stamps on its records."""
    return hashlib.sha256(_canonical(settings_of(config, settings_keys(config))).encode()).hexdigest()[:16]


def run_identity(config: dict[str, Any]) -> str:
    """sha256 (16 hex) of :func:`settings_of` over all :data:`SETTINGS_KEYS`, whatever the config's
    format: readers (report, compare, leaderboard) merge only runs of one identity. Give the bound
    the report reads (:func:`brec_runner.configs.theory_bound`) as the config's ``bound``.

    Examples
    --------
    >>> a = {"format": 2, "model": "gin", "bound": {"upper": "3wl"}}
    >>> settings_hash(a) == settings_hash({**a, "bound": {"upper": "1wl"}})  # format 2: not in its hash
    True
    >>> run_identity(a) == run_identity({**a, "bound": {"upper": "1wl"}})
    False
    """
    return hashlib.sha256(_canonical(settings_of(config)).encode()).hexdigest()[:16]


def differing_settings(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The :data:`SETTINGS_KEYS` (protocol: ``protocol.FIELD``) whose values differ.

    Examples
    --------
    >>> differing_settings({"bound": {"upper": "3wl", "class": "a"}}, {"bound": {"upper": "1wl", "class": "a"}})
    ['bound']
    """
    a, b = settings_of(old), settings_of(new)
    out = []
    for k in SETTINGS_KEYS:
        if k == "protocol" and isinstance(a[k], dict) and isinstance(b[k], dict):
            out += [f"protocol.{f}" for f in sorted(set(a[k]) | set(b[k])) if a[k].get(f) != b[k].get(f)]
        elif a[k] != b[k]:
            out.append(k)
    return out


def record_checksum(record: dict[str, Any]) -> str:
    """sha256 (16 hex) of a record's fields other than ``check``.

    Examples
    --------
    >>> r = {"id": 1, "distinguished": False}
    >>> record_checksum(r) == record_checksum({**r, "check": "x"}) != record_checksum({**r, "distinguished": True})
    True
    """
    return hashlib.sha256(_canonical({k: v for k, v in record.items() if k != "check"}).encode()).hexdigest()[:16]


#: The ``config.json`` entry holding :func:`config_checksum`.
CONFIG_CHECK = "config_check"


def config_checksum(config: dict[str, Any]) -> str:
    """sha256 (16 hex) of every entry of a run config but ``config_check``.

    Examples
    --------
    >>> c = {"model": "m", "seeds": [0, 1], "bound": None}
    >>> config_checksum(c) == config_checksum(seal_config(c)) != config_checksum({**c, "seeds": [0]})
    True
    """
    body = {k: v for k, v in config.items() if k != CONFIG_CHECK}
    return hashlib.sha256(_canonical(body).encode()).hexdigest()[:16]


def seal_config(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` with its ``config_check`` (written into every ``config.json``)."""
    out = {k: v for k, v in config.items() if k != CONFIG_CHECK}
    out[CONFIG_CHECK] = config_checksum(out)
    return out


def config_problem(config: dict[str, Any]) -> str | None:
    """Why a run config read from disk fails its ``config_check`` (None when it holds, or when the
    config predates the check and has none).

    Examples
    --------
    >>> sealed = seal_config({"model": "m", "seeds": [0, 1]})
    >>> config_problem(sealed) is None and config_problem({"model": "m"}) is None
    True
    >>> config_problem({**sealed, "seeds": [0]})
    'its config_check does not match its entries (the file was edited by hand: seeds, pairs, bound or another entry changed)'
    """
    if CONFIG_CHECK not in config:
        return None
    if config[CONFIG_CHECK] != config_checksum(config):
        return ("its config_check does not match its entries (the file was edited by hand: seeds, pairs, bound "
                "or another entry changed)")
    return None


def stamp(record: dict[str, Any], config: dict[str, Any], code: str) -> dict[str, Any]:
    """``record`` with the identity fields of a run (its settings hash, ``code``, the threshold
    rule, and the checksum of all that)."""
    out = {k: v for k, v in record.items() if k != "check"}
    out["settings"] = config["settings_hash"]
    out["code"] = code
    out["threshold_rule"] = (config.get("protocol") or {}).get("threshold_rule")
    out["check"] = record_checksum(out)
    return out


def _file_digest(h, path: Path, label: str) -> None:
    h.update(b"\0" + label.encode() + b"\0")
    try:
        h.update(path.read_bytes())
    except OSError:
        h.update(b"<unreadable>")


def code_version(source=None) -> dict[str, str]:
    """Versions (sha256, 12 hex) of the code that computes a record: ``runner`` (the training, data
    and encoding modules of :mod:`brec_runner`) and ``model`` (a built-in model: ``wltools/models``
    and ``wltools/distances``; another factory: its source file and its transform's, or its source
    text when it has no file). ``version`` combines both.
    """
    here = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for name in _RUNNER_FILES:
        _file_digest(h, here / name, name)
    runner = h.hexdigest()[:12]

    m = hashlib.sha256()
    if source is None or getattr(source, "kind", None) == "built-in":
        import wltools

        root = Path(wltools.__file__).resolve().parent
        for sub in ("models", "distances"):
            for p in sorted((root / sub).glob("*.py")):
                _file_digest(m, p, f"{sub}/{p.name}")
    else:
        objects = [getattr(source, "factory", None), getattr(source, "transform", None)]
        for obj in objects:
            if obj is None:
                continue
            target = obj if inspect.isclass(obj) or inspect.isfunction(obj) else type(obj)
            try:
                path = inspect.getsourcefile(target)
            except TypeError:
                path = None
            if path and Path(path).is_file():
                _file_digest(m, Path(path), Path(path).name)
            else:
                try:
                    m.update(inspect.getsource(target).encode())
                except (OSError, TypeError):
                    m.update(repr(target).encode())
    model = m.hexdigest()[:12]
    return {"runner": runner, "model": model,
            "version": hashlib.sha256(f"{runner}:{model}".encode()).hexdigest()[:12]}


def protocol_of(config: dict[str, Any]) -> Protocol | None:
    raw = config.get("protocol")
    if not isinstance(raw, dict):
        return None
    fields = {k: v for k, v in raw.items() if k in Protocol.field_names() and k != "sources"}
    try:
        return Protocol(**fields)
    except (TypeError, ValueError):
        return None


def record_problem(record: Any, config: dict[str, Any], *, protocol: Protocol | None = None) -> str | None:
    """Why ``record`` cannot be trusted as a result of the run ``config`` (``None`` when it can).

    ``protocol`` (the config's, rebuilt when not given) saves rebuilding it per line.

    Examples
    --------
    >>> from brec_runner.runs.protocol import Protocol
    >>> cfg = {"protocol": Protocol().to_dict(), "settings_hash": "s", "code_versions": ["c"]}
    >>> rec = stamp({"id": 0, "seed": 0, "t2_pair": 100.0, "t2_reliability": 1.0, "threshold": 72.34,
    ...              "distinguished": True, "reliable": True}, cfg, "c")
    >>> record_problem(rec, cfg) is None
    True
    >>> record_problem({**rec, "distinguished": False}, cfg)
    'checksum mismatch (the line was edited or damaged)'
    """
    if not isinstance(record, dict):
        return f"a JSON {type(record).__name__}, not a record"
    missing = [k for k in (*_REQUIRED, *IDENTITY_FIELDS) if k not in record]
    if missing:
        return f"missing field(s) {', '.join(missing)}"
    for k, types in _REQUIRED.items():
        v = record[k]
        if not isinstance(v, types) or (types is int and isinstance(v, bool)):
            return f"field {k} has the wrong type ({type(v).__name__})"
    if record["check"] != record_checksum(record):
        return "checksum mismatch (the line was edited or damaged)"
    if record["settings"] != config.get("settings_hash"):
        return (f"written under other settings (settings {record['settings']}, this run's are "
                f"{config.get('settings_hash')})")
    if record["code"] not in (config.get("code_versions") or []):
        return f"code version {record['code']} is not one of this run's ({', '.join(config.get('code_versions') or [])})"
    protocol = protocol or protocol_of(config)
    if protocol is None:
        return "the run's protocol in config.json is unreadable"
    if record["threshold_rule"] != protocol.threshold_rule or record["threshold"] != protocol.threshold:
        return f"threshold {record['threshold']} ({record['threshold_rule']}) is not the run's {protocol.threshold}"
    t2p, t2r = float(record["t2_pair"]), float(record["t2_reliability"])
    expect = decide(t2p, t2r, protocol)
    if (record["distinguished"], record["reliable"]) != expect:
        return (f"verdict distinguished={record['distinguished']}, reliable={record['reliable']} does not follow "
                f"from its T² {t2p:.6g} / {t2r:.6g} (expected {expect[0]}, {expect[1]})")
    return None
