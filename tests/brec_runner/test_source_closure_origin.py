"""brec_runner.records.source_closure finds a submodule's file without importing its packages (issue 44
item 3: the theory cache key of every `brec report` walked into scipy through wltools.dataset)."""

from __future__ import annotations

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
