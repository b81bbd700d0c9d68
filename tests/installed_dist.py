"""A distribution installed the way pip leaves one (a package and its .dist-info folder on
sys.path), for the plugin tests of models (tests/brec_runner/test_your_model.py) and of WL tests
(tests/wltools/wltests/test_registry.py)."""

from __future__ import annotations

import sys


def install(tmp_path, monkeypatch, package: str, source: str, group: str, entry_points: dict) -> None:
    """Put ``package`` (``__init__.py`` = ``source``) on sys.path with ``entry_points`` (name ->
    ``module:attribute``) in the entry-point ``group``; undone by ``monkeypatch``."""
    site = tmp_path / "site"
    (site / package).mkdir(parents=True)
    (site / package / "__init__.py").write_text(source)
    info = site / f"{package}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package.replace('_', '-')}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points.items()))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, package, raising=False)
