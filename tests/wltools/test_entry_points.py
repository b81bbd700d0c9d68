"""wltools.runtime.entry_points: the installed entry points of a group, read once while the
installation stays as it was, and again after an install (a new dist-info folder) or a sys.path change."""

from __future__ import annotations

from importlib.metadata import entry_points

from installed_dist import install

from wltools.runtime import entry_points as ep_module
from wltools.runtime.entry_points import entry_points_of

GROUP = "wltools.test-entry-points-only"


def _names():
    return sorted(entry_points_of(GROUP))


def test_equals_importlib_and_follows_installs(tmp_path, monkeypatch):
    import importlib.metadata as md

    calls = []
    ep_module._HELD.clear()

    monkeypatch.setattr(md, "entry_points", lambda **kw: calls.append(kw) or entry_points(**kw))
    assert _names() == [] and _names() == [] and len(calls) == 1  # read once while nothing changed
    install(tmp_path / "a", monkeypatch, "pkg_ep_a", "x = 1\n", GROUP, {"alpha": "pkg_ep_a:x"})
    assert _names() == ["alpha"] and len(calls) == 2  # sys.path changed: read again
    site = tmp_path / "a" / "site"
    info = site / "pkg_ep_b-0.1.dist-info"  # a second package installed into the same folder
    (site / "pkg_ep_b").mkdir()
    (site / "pkg_ep_b" / "__init__.py").write_text("y = 2\n")
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pkg-ep-b\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nbeta = pkg_ep_b:y\n")
    assert _names() == ["alpha", "beta"]
    assert _names() == sorted(e.name for e in entry_points(group=GROUP))
    monkeypatch.undo()
    assert _names() == []
