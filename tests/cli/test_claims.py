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
    from brec_runner.records.record import RunDirectory
    from brec_runner.runs.protocol import Protocol

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


def _claim_ids() -> list[str]:
    """Every registered claim, brec-run (registered by brec_runner) included, as the CLI sees them."""
    return [c.id for c in cli.claims.claims_registry().list_claims()]


def test_an_unknown_suite_is_one_line_and_exit_2(runner):
    res = runner.invoke(cli.cli, ["claims", "verify", "epwl-placement", "--suites", "csl,nope"])
    assert res.exit_code == 2 and "unknown suite 'nope'" in res.output


def test_the_committed_claims_report_lists_every_registered_claim_as_passed():
    """reports/claims.md (a run with a run directory: brec-run checked too) holds exactly the
    registered claims, each PASS; the test below reproduces each status from the code."""
    assert _committed_statuses() == dict.fromkeys(_claim_ids(), "PASS")


#: The suites the end-to-end claims read: every suite of the claims' defaults but EXP (600 pairs,
#: the SWL and EPWL tests on it take minutes; the committed EXP table is checked in tests/wltools/suites).
_SUITES = "csl,sr25,graph8c,sr16,sr26,sr28"
#: Claims whose unit tests already run them on some of those suites read the others here, so no
#: suite is refined twice: subgraph-hierarchy on csl, sr25, graph8c and sr16 with all 400 BREC pairs
#: (tests/wltools/claims/test_subgraph_claim.py::test_passes_on_all_of_brec_suites_and_atlas; the
#: eight SWL classes and BREC's baselines on graph8c's 312 pairs were most of this test's time).
_SUITES_OF = {"subgraph-hierarchy": "sr26,sr28"}
#: ``--max-nodes`` of a claim whose whole default run is a unit test's already: fuerer-pairs on every
#: pattern of 2 to 5 vertices, graph and node level, is
#: tests/wltools/hierarchy/test_maximality.py::test_fuerer_pairs_are_separated_exactly_inside_the_families
#: (up to 4 vertices again in its test_the_claim_checks_node_level_both_ways); here the CLI path on the
#: patterns up to 3 vertices (the triangle: outside 1-WL's family, inside 3-WL's).
_MAX_NODES_OF = {"fuerer-pairs": "3"}
#: Claims whose suite verdicts the committed suite tables' check computes in full anyway
#: (tests/wltools/suites/test_suites.py::test_committed_theory_tables_are_reproduced: every pair of
#: csl, graph8c, sr16, sr25, sr26 and sr28 with SPD, RD, RRWP (K = 32), 3-WL and EPWL over A and L): they
#: run in its xdist group, and ask those verdicts as the tables do first (:func:`_share_verdicts`), so
#: that the process refines each (suite, test, pair) once, not once verdict-only for the claim and
#: again in full for the table (with graph8c's 11,117 graphs read once).
_WITH_SUITE_TABLES = ("epwl-placement",)


def _claim_params() -> list:
    return [pytest.param(c, marks=pytest.mark.xdist_group("suite-verdicts")) if c in _WITH_SUITE_TABLES else c
            for c in _claim_ids()]


def _share_verdicts(claim: str, ids: list[int], suites: str, brec_theory) -> None:
    """Compute the verdicts ``claim`` will read (its declared units, :func:`wltools.claims.parallel.needed_units`)
    where the other checks of the session compute the same ones in full: its BREC units through the
    session's theory cache (``brec_theory``: tests/brec_runner/test_committed_theory.py reads every test of
    the committed table there, on these pairs too), and for :data:`_WITH_SUITE_TABLES` its suite units with
    the committed tables' settings (suite_theory's memo). The CLI's verdict-only reads are then answered by
    these full records (the same verdicts: a full record answers a verdict-only question); the claim's
    result is what it computes itself."""
    from brec_runner.reports.claims import theory_distinguished
    from brec_sample import all_pairs
    from wltools.claims.parallel import needed_units
    from wltools.refine.names import DEFAULT_RRWP_STEPS
    from wltools.suites.theory import suite_theory

    params = {"pairs": all_pairs(), "theory_verdicts": theory_distinguished, "model_bounds": {}, "brec_ids": ids,
              "suites": tuple(suites.split(",")), "max_nodes": 5}
    for unit in needed_units([cli.claims.claims_registry().get_claim(claim)], params):
        if unit[0] == "brec" and unit[2] in (None, DEFAULT_RRWP_STEPS):
            brec_theory(unit[1], list(unit[3]))
        elif unit[0] == "suite" and claim in _WITH_SUITE_TABLES:
            suite_theory(unit[1], [unit[2]], ids=unit[3], rrwp_steps=DEFAULT_RRWP_STEPS, fast=True)


@pytest.mark.parametrize("claim", _claim_params())
def test_every_claim_passes_end_to_end(runner, claim, brec_theory):
    """Each registered claim through the CLI, no run directory, on the representative part of
    BREC (tests/brec_sample.py: `--brec-ids`), the suites of ``_SUITES`` (``_SUITES_OF``), the atlas graphs and
    the patterns up to 5 vertices (``_MAX_NODES_OF``):
    PASS, as the committed reports/claims.md says (brec-run: SKIP without a run directory). The
    whole of BREC and every suite, all claims in one command: ``python benchmarks/claims_bench.py``."""
    from brec_sample import sample_ids

    ids = sample_ids()
    suites = _SUITES_OF.get(claim, _SUITES)
    _share_verdicts(claim, ids, suites, brec_theory)
    res = runner.invoke(cli.cli, ["claims", "verify", claim, "--format", "json", "--brec-ids", ",".join(map(str, ids)),
                                  "--suites", suites, "--max-nodes", _MAX_NODES_OF.get(claim, "5")])
    out = json.loads(res.stdout)
    [got] = [c["status"] for c in out["claims"]]
    assert res.exit_code == 0, out
    assert got == ("SKIP" if claim == "brec-run" else _committed_statuses()[claim]) == (
        "SKIP" if claim == "brec-run" else "PASS"), out


def test_workers_change_nothing_but_the_seconds(runner):
    """Two worker processes give the claims, in their order, with the verdicts and evidence of one."""
    outs = []
    for workers in ("1", "2"):
        res = runner.invoke(cli.cli, ["claims", "verify", "grit-3.3", "ppgt-e3", "brec-run", "--workers", workers,
                                      "--format", "json"])
        assert res.exit_code == 0, res.output
        doc = json.loads(res.stdout)
        assert doc["meta"]["workers"] == int(workers) and "--workers" not in doc["meta"]["command"]
        outs.append([{k: v for k, v in c.items() if k != "seconds"} for c in doc["claims"]])
    assert outs[0] == outs[1] and [c["id"] for c in outs[1]] == ["grit-3.3", "ppgt-e3", "brec-run"]


@pytest.mark.parametrize("value", ["0", "x"])
def test_bad_workers_exit_2(runner, value):
    res = runner.invoke(cli.cli, ["claims", "verify", "ppgt-e3", "--workers", value])
    assert res.exit_code == 2 and "Invalid value for '--workers'" in res.output
