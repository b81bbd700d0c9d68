"""brec_runner.reports.claims: the BREC inputs of the claims, and brec-run (PASS on a consistent run
directory, FAIL on a tampered one, ERROR when it cannot be compared with theory, SKIP only
without a run directory)."""

import json

import pytest

from brec_runner.records.record import RunDirectory
from brec_runner.reports.claims import check_brec_run, claim_inputs, read_run, theory_distinguished
from brec_runner.runs.protocol import Protocol
from wltools.claims import get_claim, list_claims, run_claim
from wltools.errors import RunDirectoryError

THEORY = {0: False, 1: True, 2: True, 3: False}


def _theory(test, ids, rrwp_steps=None):
    assert test == "spd" and rrwp_steps is None  # graphormer's class
    return {i: THEORY[i] for i in ids}


def _write(tmp_path, records, model="graphormer", pairs=(0, 1, 2, 3), seeds=(0,), **extra):
    """A run directory written as runs write it (brec_runner.records.record.RunDirectory)."""
    cfg = {"model": model, "model_config": {}, "protocol": Protocol().to_dict(), "pairs": list(pairs),
           "seeds": list(seeds), **extra}
    with RunDirectory(tmp_path, cfg, code="test") as rd:
        for r in records:
            rd.append(r)
    return tmp_path


def _rec(i, dist, rel=True, seed=0):
    return {"id": i, "seed": seed, "distinguished": dist, "reliable": rel, "threshold": Protocol().threshold,
            "t2_pair": 1e3 if dist else 1.0, "t2_reliability": 1.0 if rel else 500.0}


def test_brec_run_is_registered_by_importing_brec_runner_claims():
    assert get_claim("brec-run").check is check_brec_run
    assert "brec-run" in [c.id for c in list_claims()]


def test_consistent_run_passes(tmp_path):
    d = _write(tmp_path, [_rec(i, i == 1) for i in range(4)]
               + [_rec(i, i == 3, rel=i != 3, seed=1) for i in range(4)], seeds=(0, 1))
    r = check_brec_run(run_dir=d, theory_verdicts=_theory)
    assert r.status == "PASS", r.summary
    assert r.evidence["reliability failures"] == 1  # an unreliable hit beyond theory is allowed
    assert r.evidence["planned (pair, seed) units"] == 8


def test_tampered_run_fails_with_the_pair(tmp_path):
    d = _write(tmp_path, [_rec(0, False), _rec(1, True), _rec(3, True)], pairs=(0, 1, 3))
    r = check_brec_run(run_dir=d, theory_verdicts=_theory)
    assert r.status == "FAIL"
    assert r.evidence["pairs reliably beyond the class"] == [3]
    assert "BREC pair 3" in r.witness


def test_skip_only_without_a_run_dir(tmp_path):
    assert check_brec_run().status == "SKIP"
    assert run_claim(get_claim("brec-run")).status == "SKIP"


def test_unknown_model_is_error_not_skip(tmp_path):
    d = _write(tmp_path, [_rec(0, True)], model="mystery", pairs=(0,))
    r = check_brec_run(run_dir=d, theory_verdicts=_theory)
    assert r.status == "ERROR" and "mystery" in r.summary


def test_model_without_a_declared_bound_is_error(tmp_path):
    d = _write(tmp_path, [_rec(0, True)], model="mine", pairs=(0,), bound=None)
    r = check_brec_run(run_dir=d, theory_verdicts=_theory)
    assert r.status == "ERROR" and "no theoretical class" in r.summary


def test_unfinished_run_is_error_not_a_pass_on_part_of_it(tmp_path):
    d = _write(tmp_path, [_rec(0, False), _rec(1, True)], pairs=(0, 1, 2, 3), seeds=(0,))
    r = check_brec_run(run_dir=d, theory_verdicts=_theory)
    assert r.status == "ERROR" and "2 of 4 planned" in r.summary
    assert r.evidence["unfinished units (first 10)"] == [[2, 0], [3, 0]]


def test_a_missing_theory_verdict_is_error(tmp_path):
    d = _write(tmp_path, [_rec(i, False) for i in range(4)])
    r = check_brec_run(run_dir=d, theory_verdicts=lambda t, ids, k: {0: False})
    assert r.status == "ERROR" and "no spd verdict for BREC pairs 1-3" in r.summary


def test_unusable_run_dirs_raise(tmp_path):
    with pytest.raises(RunDirectoryError, match="not a run directory"):
        read_run(tmp_path / "missing")
    with pytest.raises(RunDirectoryError, match="config.json"):
        read_run(tmp_path)
    d = _write(tmp_path / "run", [_rec(1, False)])
    (d / "results.jsonl").write_text(json.dumps({"id": 1, "seed": 0}) + "\n")
    with pytest.raises(RunDirectoryError, match="line 1: missing field"):
        read_run(d)
    cfg = json.loads((d / "config.json").read_text())
    cfg.pop("config_check", None)  # a config written before its checksum: a hand edit goes unnoticed
    (d / "config.json").write_text(json.dumps({**cfg, "seeds": None}))  # settings intact, seeds gone
    (d / "results.jsonl").unlink()
    with pytest.raises(RunDirectoryError, match="no results"):
        read_run(d)
    with pytest.raises(RunDirectoryError):  # through the runner too: bad input, exit 2 in the CLI
        run_claim(get_claim("brec-run"), run_dir=str(tmp_path / "missing"))


@pytest.mark.parametrize("model, preset, overrides, K", [
    ("grit", "small", {"rrwp_steps": 8}, 8),     # GRIT's K channels include the identity
    ("ppgt", "small", {}, 17),                   # PPGT small: 16 steps plus the identity channel
    ("ppgt", "small", {"rrwp_steps": 5}, 6),
])
def test_rrwp_bound_uses_the_models_own_K(tmp_path, model, preset, overrides, K):
    """The bound is RRWP-WL with exactly the channel count of the run's encoding."""
    from wltools.models import create_transform

    assert create_transform(model, preset, **overrides).walk_length == K
    asked = []

    def theory(test, ids, rrwp_steps):
        asked.append((test, rrwp_steps))
        return {i: True for i in ids}

    _write(tmp_path, [_rec(1, True)], model=model, preset=preset, model_overrides=overrides, pairs=[1])
    r = check_brec_run(run_dir=tmp_path, theory_verdicts=theory)
    assert r.status == "PASS" and r.evidence["rrwp steps K of the bound"] == K
    assert asked == [("rrwp", K)]


def test_rrwp_bound_without_rrwp_encoding_is_error(tmp_path):
    _write(tmp_path, [_rec(1, True)], model="sgformer", preset="small", pairs=[1])
    r = check_brec_run(run_dir=tmp_path, test="rrwp",
                       theory_verdicts=lambda test, ids, k: {i: True for i in ids})
    assert r.status == "ERROR" and "RRWP" in r.summary


def test_claim_inputs_build_what_the_claims_read():
    got = claim_inputs({"pairs", "to_data"})
    assert set(got) == {"pairs", "to_data"}
    pairs = got["pairs"]
    assert [p.id for p in pairs] == list(range(400))
    p = pairs[14]
    assert (p.id, p.category) == (14, "basic") and p.g.number_of_nodes() == 10
    data = got["to_data"](p.g)
    assert data.num_nodes == 10 and data.edge_index.shape[1] == 2 * p.g.number_of_edges()
    assert claim_inputs({"theory_verdicts"}) == {"theory_verdicts": theory_distinguished}
    with pytest.raises(ValueError, match="no BREC input named graphs"):
        claim_inputs({"graphs"})


def test_theory_distinguished_matches_the_published_counts(tmp_path, monkeypatch):
    """The adapter over the theory cache: 1-WL separates none of the Basic pairs and SPD-WL 16
    of the 60 (BREC paper Table 2)."""
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path))
    basic = list(range(60))
    assert sum(theory_distinguished("1wl", basic).values()) == 0
    spd = theory_distinguished("spd", basic)
    assert sorted(spd) == basic and sum(spd.values()) == 16
