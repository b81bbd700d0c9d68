"""`wltools claims list / verify` through click's CliRunner."""

import json

import pytest
from click.testing import CliRunner

import cli
from wltools.claims import registry
from wltools.claims.registry import Claim, ClaimResult


@pytest.fixture
def runner():
    return CliRunner()


def test_list_shows_every_claim(runner):
    res = runner.invoke(cli.cli, ["claims", "list"])
    assert res.exit_code == 0
    for cid in ("grit-3.2", "gdwl-hierarchy", "ppgt-e3", "brec-run"):
        assert cid in res.output
    data = json.loads(runner.invoke(cli.cli, ["claims", "list", "--format", "json"]).output)
    assert {"id", "statement", "source", "method"} <= set(data[0])


def test_verify_numeric_claim_json(runner):
    res = runner.invoke(cli.cli, ["claims", "verify", "ppgt-e3", "brec-run", "--format", "json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert [c["status"] for c in out["claims"]] == ["PASS", "SKIP"]
    assert out["meta"]["command"].startswith("wltools claims verify ppgt-e3")


@pytest.mark.parametrize("args, message", [
    (["claims", "verify", "nope"], "error: unknown claim 'nope'"),
    (["claims", "verify"], "give claim ids"),
    (["claims", "verify", "--all", "ppgt-e3"], "not both"),
    (["claims", "verify", "grit-3.2", "--brec-ids", "9-x"], "Invalid value for '--brec-ids'"),
    (["claims", "verify", "brec-run", "--run-dir", "/nonexistent/run"], "error: "),
    (["claims", "verify", "ppgt-e3", "--format", "xml"], "Invalid value for '--format'"),
])
def test_bad_usage_exits_2_with_one_line(runner, args, message):
    res = runner.invoke(cli.cli, args)
    assert res.exit_code == 2
    assert message in res.output
    assert "Traceback" not in res.output


def test_a_fail_is_printed_with_its_witness_and_exits_1(runner, monkeypatch):
    def broken():
        return ClaimResult("FAIL", "counterexample found", {"violations": 1}, witness="G vs H")

    monkeypatch.setitem(registry._CLAIMS, "test-broken",
                        Claim("test-broken", "a false statement", "nowhere", "numeric", broken))
    res = runner.invoke(cli.cli, ["claims", "verify", "test-broken"])
    assert res.exit_code == 1
    assert "[FAIL] test-broken" in res.output and "witness: G vs H" in res.output
    assert "violations: 1" in res.output


def test_md_report_written_to_out(runner, tmp_path):
    out = tmp_path / "claims.md"
    res = runner.invoke(cli.cli, ["claims", "verify", "brec-run", "--format", "md", "--out", str(out)])
    assert res.exit_code == 0
    text = out.read_text()
    assert text.startswith("# Claims verified by wltools") and "| `brec-run` | **SKIP**" in text


@pytest.mark.slow
def test_verify_all_passes_end_to_end(runner):
    """The committed report's command (about 4 minutes on 2 shared cores)."""
    res = runner.invoke(cli.cli, ["claims", "verify", "--all", "--format", "json"])
    out = json.loads(res.stdout)
    statuses = {c["id"]: c["status"] for c in out["claims"]}
    assert res.exit_code == 0, statuses
    assert statuses["brec-run"] == "SKIP"
    assert all(s == "PASS" for cid, s in statuses.items() if cid != "brec-run"), statuses
