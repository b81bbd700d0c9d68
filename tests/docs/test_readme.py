"""README.md is the front door: two working commands first, the three questions, links that resolve,
and CI running exactly the test command it shows. The fault table (docs/reliability.md) names tests
that exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
FIRST_SCREEN = 40  # lines


def _readme() -> str:
    return README.read_text()


def _bash_blocks(text: str) -> list[str]:
    return re.findall(r"^```bash\n(.*?)^```", text, re.M | re.S)


def test_readme_is_short():
    assert len(_readme().splitlines()) <= 100


def test_the_two_commands_come_first():
    """The first two code blocks, within the first screen, are the main job and the test command."""
    head = "\n".join(_readme().splitlines()[:FIRST_SCREEN])
    main_job, tests = _bash_blocks(head)[:2]
    assert "pip install -e ." in main_job and "wltools brec theory" in main_job
    assert "wltools brec run" in main_job and "wltools brec report" in main_job
    assert tests.strip().endswith("python -m pytest -q")
    assert 'pip install -e ".[test]"' in tests


def test_the_main_job_uses_only_real_options():
    """Each wltools call of the main job parses (``--help`` of the same subcommand lists every
    option it uses), so the command cannot drift from the CLI without failing here."""
    from click.testing import CliRunner

    from cli import cli

    main_job = _bash_blocks(_readme())[0]
    for part in main_job.split("&&"):
        words = shlex.split(part)
        if words[0] != "wltools":
            continue
        sub = [w for w in words[1:3] if not w.startswith("-")]
        helptext = CliRunner().invoke(cli, [*sub, "--help"]).output
        for opt in (w for w in words if w.startswith("--")):
            assert opt in helptext, f"{' '.join(sub)} has no option {opt}"


def test_ci_runs_the_readme_test_command():
    """.ci/run makes a new virtual environment each run (no package installed by hand can hide a
    missing install step) and its last line is the README's test command, character for character."""
    readme_tests = _bash_blocks(_readme())[1].strip()
    ci = (ROOT / ".ci" / "run").read_text()
    lines = [ln.strip() for ln in ci.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    assert "python3 -m venv" in ci and 'source "$venv/bin/activate"' in ci
    assert lines[-1] == readme_tests
    assert "torch==2.13.0" in readme_tests and '-e ".[test]"' in readme_tests
    assert readme_tests.split("&&")[-1].strip() == "python -m pytest -q"


def test_the_three_questions_come_right_after_the_commands():
    """Each question is in the README's first 50 lines, with a command that answers it."""
    head = "\n".join(_readme().splitlines()[:50])
    for question, command in (("Can test X tell these two graphs apart?", "wltools check "),
                              ("How much of its theoretical power does my model realise?", "wltools brec run "),
                              ("Does this published claim hold?", "wltools claims verify ")):
        assert question in head
        assert command in head[head.index(question):]


def test_every_link_of_readme_and_docs_resolves_inside_the_repo():
    """Relative links of README.md and docs/ point at files that exist (mkdocs checks the docs'
    links between pages too; this also covers README.md, which mkdocs does not build)."""
    pages = [README, *sorted(p for p in (ROOT / "docs").rglob("*.md") if "_templates" not in p.parts)]
    missing = []
    for page in pages:
        text = re.sub(r"<!--.*?-->", "", page.read_text(), flags=re.S)  # a commented-out line is no link
        text = re.sub(r"^ *(`{3,}|~{3,}).*?^ *\1", "", text, flags=re.S | re.M)  # nor is code: SMILES
        text = re.sub(r"`[^`\n]*`", "", text)  # such as F[C@H](Cl)Br reads like one
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if target.startswith("#"):
                continue
            if re.match(r"[a-z]+:", target):  # the README links only inside the repo; docs may cite the web
                if page == README:
                    missing.append(f"README.md: external link {target}")
                continue
            if not (page.parent / target.split("#")[0]).exists():
                missing.append(f"{page.relative_to(ROOT)}: {target}")
    assert not missing, missing


def _fault_table_tests() -> list[tuple[str, str]]:
    """(file, test name) for every test named in the fault table's last column."""
    text = (ROOT / "docs" / "reliability.md").read_text()
    rows = [ln for ln in text.splitlines() if ln.startswith("| ") and not ln.startswith("| fault")]
    out = []
    for row in rows:
        file = "test_trust.py"  # the default; `FILE::name` sets the file, `::name` keeps the last one
        for ref in re.findall(r"`([^`]+)`", row.rstrip(" |").rsplit(" | ", 1)[-1]):
            named_file, sep, name = ref.rpartition("::")
            file = named_file or (file if sep else "test_trust.py")
            if name.startswith("test_"):
                out.append((file, name))
    return out


def test_the_fault_table_names_tests_that_exist():
    """Every test the reliability page names is defined in the file it names (default
    tests/brec_runner/test_trust.py); a name cut short with '…' must still start a real test."""
    refs = _fault_table_tests()
    assert len(refs) >= 30
    by_file = {p.name: p.read_text() for p in (ROOT / "tests").rglob("test_*.py")}
    missing = []
    for file, name in refs:
        if name.endswith(".py"):  # a whole file named
            if name not in by_file:
                missing.append(name)
            continue
        source = by_file.get(file, "")
        prefix = name.rstrip("…")
        pattern = rf"^def {re.escape(prefix)}" + ("" if name.endswith("…") else r"\(")
        if not re.search(pattern, source, re.M):
            missing.append(f"{file}::{name}")
    assert not missing, missing
