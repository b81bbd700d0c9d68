"""The claim registry: ids, lookup errors, statuses, dependency gaps and crash handling."""

import json

import pytest

from wltools.claims import registry
from wltools.claims.registry import (
    Claim,
    ClaimResult,
    MissingDependency,
    exit_code,
    format_results,
    get_claim,
    list_claims,
    require,
    run_claim,
)
from wltools.errors import RunDirectoryError, UnknownNameError

EXPECTED = {"grit-3.2", "grit-3.1a", "grit-3.3", "gdwl-hierarchy", "ppgt-e3", "ppgt-e1",
            "sgformer-1wl", "brec-run"}


def test_every_claim_is_registered_with_source_and_method():
    claims = list_claims()
    assert EXPECTED <= {c.id for c in claims}
    for c in claims:
        assert c.statement and c.source and callable(c.check)
        assert all(m in registry.METHODS for m in c.method.split("+"))


def test_unknown_claim_raises_unknown_name():
    with pytest.raises(UnknownNameError, match="unknown claim 'nope'"):
        get_claim("nope")


def test_bad_status_and_method_rejected():
    with pytest.raises(ValueError):
        ClaimResult("MAYBE", "x")
    with pytest.raises(ValueError):
        Claim("x", "s", "src", "guess", lambda: None)


def _claim(check, params=()):
    return Claim("t", "statement", "source", "numeric", check, tuple(params))


def test_missing_dependency_is_skip_and_crash_is_error_never_pass():
    def missing():
        require("wltools.no_such_module_xyz")

    def crash():
        raise RuntimeError("boom")

    assert run_claim(_claim(missing)).status == "SKIP"
    r = run_claim(_claim(crash))
    assert r.status == "ERROR" and "boom" in r.summary
    with pytest.raises(MissingDependency, match="does not define"):
        require("wltools.errors", "NoSuchName")


def test_library_errors_propagate_as_bad_input():
    def bad():
        raise RunDirectoryError("unusable")

    with pytest.raises(RunDirectoryError):
        run_claim(_claim(bad))


def test_params_passed_only_when_accepted_and_not_none():
    seen = {}

    def check(*, run_dir=None):
        seen["run_dir"] = run_dir
        return ClaimResult("PASS", "ok")

    run_claim(_claim(check), run_dir="D", seed=3)
    assert seen == {"run_dir": "D"}
    run_claim(_claim(check), run_dir=None)
    assert seen == {"run_dir": None}


def test_exit_code_and_formats():
    ok = (_claim(lambda: None), ClaimResult("PASS", "fine", {"x": 1.5}))
    skip = (_claim(lambda: None), ClaimResult("SKIP", "later"))
    fail = (_claim(lambda: None), ClaimResult("FAIL", "broken", {"n": 2}, witness="pair W"))
    assert exit_code([ok, skip]) == 0
    assert exit_code([ok, fail]) == 1
    assert exit_code([(ok[0], ClaimResult("ERROR", "crash"))]) == 1
    text = format_results([ok, fail], "text")
    assert "[FAIL] t" in text and "witness: pair W" in text and "n: 2" in text
    md = format_results([ok, fail], "md", meta={"command": "c"})
    assert "| `t` | **FAIL**" in md and "**Witness.** pair W" in md and "command" in md
    data = json.loads(format_results([ok, fail], "json"))
    assert [d["status"] for d in data] == ["PASS", "FAIL"] and data[1]["witness"] == "pair W"
    with pytest.raises(ValueError):
        format_results([ok], "xml")
