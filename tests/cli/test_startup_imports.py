"""Commands that train nothing start without torch (issue 44 item 3).

Each command runs in a fresh interpreter exactly as the console script runs it (``from cli import
main``), from the repository root, on committed run directories, with an empty verdict cache; the
interpreter reports at exit which heavy modules got imported. A property, not a timing: the timing
is ``benchmarks/startup_bench.py --cpu``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Modules a command that trains nothing must not import.
HEAVY = ("torch", "torch_geometric")

_SCRIPT = (
    "import atexit, sys\n"
    f"atexit.register(lambda: sys.stderr.write('\\nLOADED=' + ','.join(m for m in {HEAVY!r} if m in sys.modules)))\n"
    "from cli import main\n"
    "sys.argv[0] = 'wltools'\n"
    "main()\n"
)

NO_MODEL_COMMANDS = {
    "models list": ["models", "list"],
    "models list json": ["models", "list", "--format", "json"],
    "brec report": ["brec", "report", "reports/brec-runs/grit-brec-cpu", "--no-theory"],
    "brec compare": ["brec", "compare", "reports/brec-runs/ppgt-brec-cpu-basic", "reports/brec-runs/grit-brec-cpu"],
    "count report": ["count", "report", "reports/count-runs/gin-graph"],
    "count tasks": ["count", "tasks"],
    "claims list": ["claims", "list"],
}


@pytest.mark.parametrize("name", list(NO_MODEL_COMMANDS))
def test_command_that_trains_nothing_imports_no_torch(name, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "WLTOOLS_CACHE": str(tmp_path / "cache"),
           "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", _SCRIPT, *NO_MODEL_COMMANDS[name]], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    loaded = proc.stderr.rsplit("LOADED=", 1)[-1].strip()
    assert loaded == "", f"wltools {name} imported {loaded}"
    assert proc.stdout.strip(), "the command printed nothing"
