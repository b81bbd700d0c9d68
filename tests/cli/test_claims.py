"""`wltools claims list / verify` through click's CliRunner."""

import json
import sys
from pathlib import Path

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
    assert [c["status"] for c in out["claims"]] == ["PASS", "SKIP"]  # SKIP: no --run-dir
    assert out["meta"]["command"].startswith("wltools claims verify ppgt-e3")
    assert "2 claims: 1 PASS, 0 FAIL, 0 ERROR, 1 SKIP" in res.stderr


def test_verify_gives_the_brec_claims_their_pairs(runner):
    """ppgt-e1 receives the BREC pairs from the CLI (its default examples include four)."""
    res = runner.invoke(cli.cli, ["claims", "verify", "ppgt-e1", "--format", "json"])
    assert res.exit_code == 0, res.output
    (claim,) = json.loads(res.stdout)["claims"]
    assert claim["status"] == "PASS" and claim["evidence"]["comparisons"] == 24
    assert res.stdout.count("BREC 110 (regular)") >= 3


def test_a_missing_dependency_is_error_and_exits_1(runner, monkeypatch):
    monkeypatch.setitem(sys.modules, "wltools.models.layers", None)
    res = runner.invoke(cli.cli, ["claims", "verify", "ppgt-e3", "brec-run"])
    assert res.exit_code == 1, res.output
    assert "[ERROR] ppgt-e3" in res.stdout and "ModuleNotFoundError" in res.stdout
    assert res.stdout.splitlines()[-1] == "2 claims: 0 PASS, 0 FAIL, 1 ERROR, 1 SKIP"


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
    assert "1 claims: 0 PASS, 1 FAIL, 0 ERROR, 0 SKIP" in res.stdout


def test_an_unfinished_run_dir_is_error_and_exits_1(runner, tmp_path):
    from brec_runner.protocol import Protocol
    from brec_runner.record import RunDirectory

    with RunDirectory(tmp_path, {"model": "graphormer", "protocol": Protocol().to_dict(), "pairs": [0, 1],
                                 "seeds": [0]}, code="test") as rd:
        rd.append({"id": 0, "seed": 0, "distinguished": False, "reliable": True, "t2_pair": 1.0,
                   "t2_reliability": 1.0, "threshold": Protocol().threshold})
    res = runner.invoke(cli.cli, ["claims", "verify", "brec-run", "--run-dir", str(tmp_path)])
    assert res.exit_code == 1, res.output
    assert "[ERROR] brec-run" in res.stdout and "unfinished" in res.stdout


def test_help_documents_the_exit_codes(runner):
    res = runner.invoke(cli.cli, ["claims", "verify", "--help"])
    assert res.exit_code == 0
    for line in ("0  no claim FAILed or ERRORed", "1  some claim FAILed or ERRORed",
                 "2  bad usage"):
        assert line in res.output


def test_md_report_written_to_out(runner, tmp_path):
    out = tmp_path / "claims.md"
    res = runner.invoke(cli.cli, ["claims", "verify", "brec-run", "--format", "md", "--out", str(out)])
    assert res.exit_code == 0
    text = out.read_text()
    assert text.startswith("# Claims verified by wltools") and "| `brec-run` | **SKIP**" in text


def _committed_statuses() -> dict[str, str]:
    """``{claim id: status}`` of the committed ``reports/claims.md`` (its summary table)."""
    import re

    text = (Path(__file__).resolve().parents[2] / "reports" / "claims.md").read_text()
    return dict(re.findall(r"^\| `([a-z0-9.\-]+)` \| \*\*([A-Z]+)\*\* \|", text, flags=re.M))


@pytest.mark.xdist_group("suite-verdicts")  # one process with the suite tables: suites refined once
def test_verify_all_passes_end_to_end(runner):
    """Every registered claim, no run directory, on the representative part of BREC
    (tests/brec_sample.py: `--brec-ids`) and on each claim's suites and atlas graphs: all PASS but
    brec-run (SKIP); and the committed reports/claims.md lists exactly the registered claims, each
    with the status this run gives (brec-run PASS there: it was given a run directory). The whole
    of BREC: ``python benchmarks/claims_bench.py`` (benchmarks/results/claims.json)."""
    from brec_sample import sample_ids

    from wltools.claims import list_claims

    ids = ",".join(map(str, sample_ids()))
    res = runner.invoke(cli.cli, ["claims", "verify", "--all", "--format", "json", "--brec-ids", ids])
    out = json.loads(res.stdout)
    statuses = {c["id"]: c["status"] for c in out["claims"]}
    assert res.exit_code == 0, statuses
    assert statuses["brec-run"] == "SKIP"
    assert all(s == "PASS" for cid, s in statuses.items() if cid != "brec-run"), statuses
    n = len(list_claims())
    assert f"{n} claims: {n - 1} PASS, 0 FAIL, 0 ERROR, 1 SKIP" in res.stderr
    committed = _committed_statuses()
    assert set(committed) == set(statuses)
    assert {c: s for c, s in committed.items() if c != "brec-run"} == {
        c: s for c, s in statuses.items() if c != "brec-run"}
    assert committed["brec-run"] == "PASS"
