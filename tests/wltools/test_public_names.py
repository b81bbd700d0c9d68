"""``import wltools as wl`` shows only wltools' own names (issue 43: ``dir(wl)`` listed
``annotations`` and ``importlib``), and every name it shows resolves."""

from __future__ import annotations

import types

import wltools as wl


def test_dir_shows_only_wltools_names():
    names = dir(wl)
    assert "importlib" not in names and "annotations" not in names
    for name in names:
        value = getattr(wl, name)
        if isinstance(value, types.ModuleType):
            assert value.__name__.startswith("wltools."), name
    assert set(wl.__all__) <= set(names)


def test_every_public_name_resolves():
    for name in wl.__all__:
        assert getattr(wl, name) is not None, name
