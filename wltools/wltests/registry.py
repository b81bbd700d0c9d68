"""The registry of WL tests: every command and module reads tests from here.

Built-in tests are one module each (or one per family of parametrised tests) in this package;
:data:`BUILTIN` lists them in the order of the default lists. Tests from outside come from the
entry-point group ``wltools.tests`` (:data:`ENTRY_POINT_GROUP`), each entry point naming a
:class:`~wltools.wltests.base.WLTest` (or a sequence of them) and loaded only when its name is
asked for; or from :func:`register_test` at run time. A plugin that cannot be loaded is one line
(:class:`TestPluginError`), never a traceback, and only when it is asked for.

Parametrised families resolve names of their own shape: ``nK`` (BREC's ego-network test of
radius ``K``, any ``K >= 1``) and ``rrwp:K`` (RRWP-WL with ``K`` channels).

Examples
--------
>>> get_test("n5").label, get_test("rrwp:8").params, get_test("RRWP").name
('N5', (('rrwp_steps', 8),), 'rrwp')
>>> [t.name for t in builtin_tests("default")]
['1wl', 'spd', 'rd', 'rrwp', '3wl']
>>> get_test("4wl")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
wltools.errors.UnknownNameError: unknown test '4wl'; choose from 1wl, spd, ..., nK (any K >= 1)
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Callable, Iterable, Iterator

from ..errors import UnknownNameError, WLToolsError
from . import ego, epwl, fwl2, fwl3, gdwl, marking, subgraph_wl, substructure, wl1
from .base import WLTest

__all__ = ["register_test", "unregister_test", "registered", "get_test", "is_test_name", "list_tests", "builtin_tests",
           "TestPluginError", "ENTRY_POINT_GROUP", "FAMILY_HELP"]

#: The entry-point group of tests from outside (``[project.entry-points."wltools.tests"]``).
ENTRY_POINT_GROUP = "wltools.tests"

#: The names of the parametrised families, as help texts write them.
FAMILY_HELP = "nK (any K >= 1)"

#: The built-in test modules, in the order of the default lists (weakest first in each).
BUILTIN = (wl1, gdwl, fwl2, epwl, fwl3, subgraph_wl, substructure, ego, marking)


class TestPluginError(WLToolsError):
    """A test from outside (entry point ``wltools.tests``) that cannot be loaded or is malformed."""

    __test__ = False


_TESTS: dict[str, WLTest] = {}
_ALIASES: dict[str, str] = {}
_BUILTIN_NAMES: list[str] = []


def register_test(test: WLTest, *, replace: bool = False) -> WLTest:
    """Register ``test`` under its name and aliases (a name taken is refused unless ``replace``)."""
    if not isinstance(test, WLTest):
        raise TestPluginError(f"{test!r} is not a WLTest (wltools.wltests.WLTest)")
    names = (test.name, *test.aliases)
    for name in names:
        if name != name.strip().lower() or not name:
            raise TestPluginError(f"test name {name!r} must be lower case without spaces")
        taken = _TESTS.get(name) or _TESTS.get(_ALIASES.get(name, ""))
        if taken is not None and not replace and taken is not test:
            raise TestPluginError(f"test name {name!r} is taken by {taken!r}")
        member = _family(name)
        if member is not None and member != test and not replace:
            raise TestPluginError(f"test name {name!r} is one of the family {FAMILY_HELP}")
    _TESTS[test.name] = test
    _ALIASES.update({a: test.name for a in test.aliases})
    return test


def unregister_test(name: str) -> None:
    """Remove a test registered at run time (tests of the test suite clean up with it)."""
    test = _TESTS.pop(name, None)
    for alias in getattr(test, "aliases", ()):
        _ALIASES.pop(alias, None)


@contextlib.contextmanager
def registered(test: WLTest) -> Iterator[WLTest]:
    """Inside, ``test`` is the registered test of its name (a test object that is not, or not
    yet, registered: :func:`wltools.testing.check_test` runs it through every command's path);
    the registry is restored after."""
    _load_builtins()
    before = _TESTS.get(test.name)
    if before is test:
        yield test
        return
    register_test(test, replace=True)
    try:
        yield test
    finally:
        unregister_test(test.name)
        if before is not None:
            register_test(before, replace=True)


def _family(name: str) -> WLTest | None:
    """The member of a parametrised family named ``name`` (``nK``, ``rrwp:K``), else None."""
    k = ego.ego_radius(name)
    if k is not None and name == f"n{k}":
        return ego.test(k)
    base, sep, steps = name.partition(":")
    if sep and base == "rrwp" and steps.isascii() and steps.isdigit() and int(steps) >= 1 and steps[0] != "0":
        return dataclasses.replace(gdwl.RRWP, params=(("rrwp_steps", int(steps)),))
    return None


def _entry_points() -> dict:
    """Entry points of the group :data:`ENTRY_POINT_GROUP` of the installed packages, by name."""
    from ..runtime.entry_points import entry_points_of

    return entry_points_of(ENTRY_POINT_GROUP)


def _load_plugin(name: str, ep) -> WLTest:
    """Load the entry point ``ep`` and register what it names; one line when it fails."""
    try:
        obj = ep.load()
    except Exception as exc:  # noqa: BLE001 - a plugin package: any failure is one line
        first = (str(exc).splitlines() or [""])[0]
        raise TestPluginError(f"test plugin {name!r} ({ep.value}) cannot be loaded: {type(exc).__name__}: "
                              f"{first}") from None
    tests = list(obj) if isinstance(obj, (list, tuple)) else [obj]
    if not all(isinstance(t, WLTest) for t in tests):
        raise TestPluginError(f"test plugin {name!r} ({ep.value}) is not a WLTest (wltools.wltests.WLTest) "
                              "nor a list of them")
    for t in tests:
        if t.name not in _TESTS:
            register_test(t)
    found = _TESTS.get(name) or _TESTS.get(_ALIASES.get(name, ""))
    if found is None:
        raise TestPluginError(f"test plugin {name!r} ({ep.value}) defines {', '.join(t.name for t in tests)}, "
                              f"not {name!r}")
    return found


def _load_builtins() -> None:
    if _BUILTIN_NAMES:
        return
    for module in BUILTIN:
        for t in module.TESTS:
            register_test(t)
            _BUILTIN_NAMES.append(t.name)


def get_test(name) -> WLTest:
    """The test named ``name`` (a name, an alias, ``nK``, ``rrwp:K``, a plugin's name; case and
    spaces ignored), or ``name`` itself when it is a :class:`WLTest`.

    Raises :class:`~wltools.errors.UnknownNameError` (one line listing the names) for an unknown
    name and :class:`TestPluginError` for a plugin that cannot be loaded.
    """
    if isinstance(name, WLTest):
        return name
    _load_builtins()
    if not isinstance(name, str):
        raise UnknownNameError(f"unknown test {name!r}; choose from {choices()}")
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key in _TESTS:
        return _TESTS[key]
    member = _family(key)
    if member is not None:
        return member
    plugins = _entry_points()
    if key in plugins:
        return _load_plugin(key, plugins[key])
    raise UnknownNameError(f"unknown test {name!r}; choose from {choices()}")


def is_test_name(name) -> bool:
    """Whether ``name`` names a test (:func:`get_test` would find it; a broken plugin counts)."""
    try:
        get_test(name)
    except TestPluginError:
        return True
    except UnknownNameError:
        return False
    return True


def builtin_tests(group: str | None = None) -> tuple[WLTest, ...]:
    """The built-in tests (of ``group``, :data:`~wltools.wltests.base.GROUPS`), in order."""
    _load_builtins()
    return tuple(_TESTS[n] for n in _BUILTIN_NAMES if group is None or _TESTS[n].group == group)


def list_tests(*, plugins: bool = True) -> list[str]:
    """Names of every registered test: the built-ins in order, then tests registered at run
    time, then the names of installed plugins (not loaded)."""
    _load_builtins()
    names = list(_BUILTIN_NAMES) + [n for n in _TESTS if n not in _BUILTIN_NAMES]
    if plugins:
        names += sorted(n for n in _entry_points() if n not in _TESTS)
    return names


def choices() -> str:
    """The names a command takes, for error lines and help."""
    return f"{', '.join(list_tests())}, {FAMILY_HELP}"


def select(where: Callable[[WLTest], bool], names: Iterable[str] | None = None) -> tuple[str, ...]:
    """The names (of ``names``, default the built-ins) of the tests for which ``where`` holds."""
    return tuple(n for n in (names if names is not None else list_tests(plugins=False)) if where(get_test(n)))
