"""The claim registry: ids, lookup errors, statuses (ERROR for any missing dependency, input or
crash; never SKIP), counts, and the layering (wltools.claims imports nothing of brec_runner)."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import wltools.claims
from wltools.claims import registry
from wltools.claims.registry import (Claim, ClaimResult, exit_code, format_results, get_claim, list_claims, run_claim,
                                     status_counts, tally)
from wltools.errors import RunDirectoryError, UnknownNameError

EXPECTED = {"grit-3.2", "grit-3.1a", "grit-3.3", "gdwl-hierarchy", "epwl-placement", "ppgt-e3", "ppgt-e1",
            "sgformer-1wl", "subgraph-hierarchy", "hom-expressivity", "subgraph-counting",
            "hom-consistency", "fuerer-pairs", "hierarchy-certified"}


def test_every_claim_is_registered_with_source_and_method():
    claims = list_claims()
    assert EXPECTED <= {c.id for c in claims}
    for c in claims:
        assert c.statement and c.source and callable(c.check)
        assert all(m in registry.METHODS for m in c.method.split("+"))


def test_unknown_claim_raises_unknown_name():
    with pytest.raises(UnknownNameError, match="unknown claim 'nope'"):
        get_claim("nope")


def test_bad_status_method_and_input_rejected():
    with pytest.raises(ValueError):
        ClaimResult("MAYBE", "x")
    with pytest.raises(ValueError):
        Claim("x", "s", "src", "guess", lambda: None)
    with pytest.raises(ValueError, match="unknown input 'graphs'"):
        Claim("x", "s", "src", "numeric", lambda: None, inputs=("graphs",))


def _claim(check, params=(), inputs=()):
    return Claim("t", "statement", "source", "numeric", check, tuple(params), tuple(inputs))


def test_a_crash_and_an_import_error_are_error_never_pass_or_skip():
    def crash():
        raise RuntimeError("boom")

    def missing_dependency():
        import wltools.no_such_module_xyz  # noqa: F401

    r = run_claim(_claim(crash))
    assert r.status == "ERROR" and "boom" in r.summary
    r = run_claim(_claim(missing_dependency))
    assert r.status == "ERROR" and "ModuleNotFoundError" in r.summary
    assert "no_such_module_xyz" in r.summary


def test_a_real_claim_whose_dependency_fails_to_import_is_error(monkeypatch):
    """ppgt-e3 builds its norms with wltools.models.layers; make that import fail."""
    monkeypatch.setitem(sys.modules, "wltools.models.layers", None)
    r = run_claim(get_claim("ppgt-e3"))
    assert r.status == "ERROR", r.summary
    assert "wltools.models.layers" in r.summary and r.evidence["exception"] == "ModuleNotFoundError"


def test_a_missing_declared_input_is_error_and_the_check_does_not_run():
    ran = []

    def check(*, pairs=None):
        ran.append(pairs)
        return ClaimResult("PASS", "ok")

    r = run_claim(_claim(check, inputs=("pairs",)))
    assert r.status == "ERROR" and "`pairs`" in r.summary and ran == []
    assert r.evidence == {"missing inputs": ["pairs"]}
    assert run_claim(_claim(check, inputs=("pairs",)), pairs=[1]).status == "PASS"
    for cid in ("grit-3.2", "grit-3.1a", "gdwl-hierarchy", "ppgt-e1", "sgformer-1wl"):
        r = run_claim(get_claim(cid))  # the BREC claims, called without BREC data
        assert r.status == "ERROR" and "the caller gave no `pairs`" in r.summary, cid


def test_only_run_directory_errors_propagate_as_bad_input():
    def bad_dir():
        raise RunDirectoryError("unusable")

    def unknown_model():
        raise UnknownNameError("unknown model 'x'")

    with pytest.raises(RunDirectoryError):
        run_claim(_claim(bad_dir))
    assert run_claim(_claim(unknown_model)).status == "ERROR"


def test_params_passed_only_when_accepted_and_not_none():
    seen = {}

    def check(*, run_dir=None):
        seen["run_dir"] = run_dir
        return ClaimResult("PASS", "ok")

    run_claim(_claim(check), run_dir="D", seed=3)
    assert seen == {"run_dir": "D"}
    run_claim(_claim(check), run_dir=None)
    assert seen == {"run_dir": None}


def test_exit_code_counts_and_formats():
    ok = (_claim(lambda: None), ClaimResult("PASS", "fine", {"x": 1.5}))
    skip = (_claim(lambda: None), ClaimResult("SKIP", "later"))
    fail = (_claim(lambda: None), ClaimResult("FAIL", "broken", {"n": 2}, witness="pair W"))
    err = (_claim(lambda: None), ClaimResult("ERROR", "no verdict", {"where": "x.py:1"}))
    assert exit_code([ok, skip]) == 0
    assert exit_code([ok, fail]) == 1
    assert exit_code([ok, err]) == 1
    assert status_counts([ok, ok, err, skip]) == {"PASS": 2, "FAIL": 0, "ERROR": 1, "SKIP": 1}
    assert tally([ok, ok, err, skip]) == "4 claims: 2 PASS, 0 FAIL, 1 ERROR, 1 SKIP"
    text = format_results([ok, fail, err], "text")
    assert "[FAIL] t" in text and "witness: pair W" in text and "n: 2" in text
    assert "[ERROR] t" in text and 'where: "x.py:1"' in text
    assert text.splitlines()[-1] == "3 claims: 1 PASS, 1 FAIL, 1 ERROR, 0 SKIP"
    md = format_results([ok, fail], "md", meta={"command": "c"})
    assert "| `t` | **FAIL**" in md and "**Witness.** pair W" in md and "command" in md
    assert "2 claims: 1 PASS, 1 FAIL, 0 ERROR, 0 SKIP." in md
    data = json.loads(format_results([ok, fail], "json"))
    assert [d["status"] for d in data] == ["PASS", "FAIL"] and data[1]["witness"] == "pair W"
    with pytest.raises(ValueError):
        format_results([ok], "xml")


def test_wltools_claims_imports_nothing_of_brec_runner():
    code = ("import sys, wltools.claims\n"
            "ids = [c.id for c in wltools.claims.list_claims()]\n"
            "bad = sorted(m for m in sys.modules if m.startswith('brec_runner'))\n"
            "assert not bad, bad\n"
            "print(','.join(ids))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert set(out.stdout.strip().split(",")) == EXPECTED  # brec-run lives in brec_runner.reports.claims


def test_claim_sources_have_no_string_imports_and_no_upward_imports():
    """No importlib / __import__ and no `brec_runner` import in wltools/claims (names in
    docstrings are fine)."""
    root = Path(wltools.claims.__file__).parent
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Name) and node.id == "__import__":
                names = ["__import__"]
            else:
                continue
            for name in names:
                assert not name.startswith(("brec_runner", "importlib", "__import__")), \
                    f"{path.name}:{node.lineno} imports {name}"
