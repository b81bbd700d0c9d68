"""Running the CLI in-process and reading a one-line refusal: shared by the careless-user tests
(tests/cli/test_faults_careless.py, tests/cli/test_trust_round3_files.py)."""

from __future__ import annotations

from click.testing import CliRunner

import cli


def run(*args):
    """``wltools ARGS`` through click's test runner (arguments turned into text)."""
    return CliRunner().invoke(cli.cli, [str(a) for a in args])


def one_error_line(result, needle: str = "") -> str:
    """The single ``error: ...`` line of a refusal with exit status 2, containing ``needle``."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.output, result.output
    assert needle in lines[0], lines[0]
    return lines[0]
