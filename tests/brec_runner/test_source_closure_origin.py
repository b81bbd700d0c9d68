"""brec_runner.records.source_closure finds a submodule's file without importing its packages (issue 44
item 3: the theory cache key of every `brec report` walked into scipy through wltools.dataset)."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

from brec_runner.records.source_closure import _origin, import_closure
from brec_runner.reports.theory import RECORD_MODULES, VERDICT_ENTRIES

ROOT = Path(__file__).resolve().parents[2]


def test_every_closure_file_is_the_one_find_spec_names():
    closure = import_closure(VERDICT_ENTRIES, "wltools")
    assert len(closure) > 20
    for name, path in closure.items():
        assert path == Path(importlib.util.find_spec(name).origin), name
    for name in RECORD_MODULES:
        assert _origin(name) == Path(importlib.util.find_spec(name).origin), name
    assert _origin("wltools.no_such_module") is None and _origin("wltools.graphs.named_graph") is None


def test_looking_a_submodule_up_imports_none_of_its_packages():
    code = ("import sys\nfrom brec_runner.records.source_closure import _origin\n"
            "assert _origin('wltools.dataset.refine').name == 'refine.py'\n"
            "print(sorted(m for m in ('wltools.dataset', 'scipy') if m in sys.modules))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert proc.returncode == 0, proc.stderr[-1000:]
    assert proc.stdout.strip() == "[]"


def _package(tmp_path, name="pkgz"):
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "entry.py").write_text("from . import core\n")
    (pkg / "core.py").write_text("x = 1\n")
    return pkg


def test_a_fresh_process_reads_the_closure_from_disk_until_a_file_or_folder_changes(tmp_path, monkeypatch):
    """The closure is remembered in the cache folder (a fresh process skips the walk), and walked
    again when a file of it changes (a new import) or a module is added beside its files."""
    from brec_runner.records import source_closure as sc

    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    pkg = _package(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    walks = []
    real_walk = sc._walk
    monkeypatch.setattr(sc, "_walk", lambda *a: walks.append(a) or real_walk(*a))

    def closure():
        monkeypatch.setattr(sc, "_MEMO", {})  # what a fresh process starts with
        return set(sc.import_closure(["pkgz.entry"], "pkgz"))

    assert closure() == {"pkgz", "pkgz.entry", "pkgz.core"} and len(walks) == 1
    assert closure() == {"pkgz", "pkgz.entry", "pkgz.core"} and len(walks) == 1  # from disk
    (pkg / "extra.py").write_text("y = 1\n")
    (pkg / "core.py").write_text("from . import extra\nx = 1\n")
    assert closure() == {"pkgz", "pkgz.entry", "pkgz.core", "pkgz.extra"} and len(walks) == 2
    (pkg / "sub").mkdir()  # a folder added beside the files: walked again, same closure
    assert closure() == {"pkgz", "pkgz.entry", "pkgz.core", "pkgz.extra"} and len(walks) == 3
    stores = list((tmp_path / "cache" / "source-closure").glob("*.json"))
    assert len(stores) == 1
    stores[0].write_text('{"found": ')  # damaged: walked again and rewritten, never trusted
    assert closure() == {"pkgz", "pkgz.entry", "pkgz.core", "pkgz.extra"} and len(walks) == 4
    assert closure() and len(walks) == 4


def test_two_checkouts_never_share_a_remembered_closure(tmp_path, monkeypatch):
    """The same package name loaded from another folder (another checkout) has its own record."""
    from brec_runner.records import source_closure as sc

    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    _package(first)
    (_package(second) / "core.py").write_text("from . import other\n")
    (second / "pkgz" / "other.py").write_text("")
    monkeypatch.setattr(sc, "_MEMO", {})
    monkeypatch.syspath_prepend(str(first))
    assert set(sc.import_closure(["pkgz.entry"], "pkgz")) == {"pkgz", "pkgz.entry", "pkgz.core"}
    monkeypatch.undo()
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(sc, "_MEMO", {})
    monkeypatch.syspath_prepend(str(second))
    importlib.invalidate_caches()
    assert set(sc.import_closure(["pkgz.entry"], "pkgz")) == {"pkgz", "pkgz.entry", "pkgz.core", "pkgz.other"}
