"""brec-run: PASS on a consistent run directory, FAIL on a tampered one, SKIP without one."""

import json

import pytest

from wltools.claims.brec_run import check_brec_run, read_run
from wltools.errors import RunDirectoryError

THEORY = {0: False, 1: True, 2: True, 3: False}


def _theory(test, ids):
    assert test == "spd"  # graphormer's class
    return {i: THEORY[i] for i in ids}


def _write(tmp_path, records, model="graphormer"):
    (tmp_path / "config.json").write_text(json.dumps({"model": model, "model_config": {}}))
    with open(tmp_path / "results.jsonl", "w") as fh:
        for r in records:
            fh.write(json.dumps(r) + "\n")
    return tmp_path


def _rec(i, dist, rel=True, seed=0):
    return {"id": i, "seed": seed, "distinguished": dist, "reliable": rel}


def test_consistent_run_passes(tmp_path):
    d = _write(tmp_path, [_rec(0, False), _rec(1, True), _rec(2, False), _rec(3, False),
                          _rec(3, True, rel=False)])  # unreliable hit beyond theory is allowed
    r = check_brec_run(run_dir=d, theory=_theory)
    assert r.status == "PASS", r.summary
    assert r.evidence["reliability failures"] == 1


def test_tampered_run_fails_with_the_pair(tmp_path):
    d = _write(tmp_path, [_rec(0, False), _rec(1, True), _rec(3, True)])
    r = check_brec_run(run_dir=d, theory=_theory)
    assert r.status == "FAIL"
    assert r.evidence["pairs reliably beyond the class"] == [3]
    assert "BREC pair 3" in r.witness


def test_without_run_dir_or_known_model_skips(tmp_path):
    assert check_brec_run().status == "SKIP"
    d = _write(tmp_path, [_rec(0, True)], model="mystery")
    assert check_brec_run(run_dir=d, theory=_theory).status == "SKIP"


def test_unusable_run_dirs_raise(tmp_path):
    with pytest.raises(RunDirectoryError, match="not a directory"):
        read_run(tmp_path / "missing")
    with pytest.raises(RunDirectoryError, match="config.json"):
        read_run(tmp_path)
    d = _write(tmp_path, [{"id": 1, "seed": 0}])
    with pytest.raises(RunDirectoryError, match="lacks distinguished, reliable"):
        read_run(d)


@pytest.mark.parametrize("model, preset, overrides, K", [
    ("grit", "small", {"rrwp_steps": 8}, 8),     # GRIT's K channels include the identity
    ("ppgt", "small", {}, 17),                   # PPGT small: 16 steps plus the identity channel
    ("ppgt", "small", {"rrwp_steps": 5}, 6),
])
def test_rrwp_bound_uses_the_models_own_K(tmp_path, model, preset, overrides, K):
    """The bound is RRWP-WL with exactly the channel count of the run's encoding."""
    from wltools.models import create_transform

    assert create_transform(model, preset, **overrides).walk_length == K
    (tmp_path / "config.json").write_text(json.dumps(
        {"model": model, "preset": preset, "model_overrides": overrides}))
    (tmp_path / "results.jsonl").write_text(json.dumps(_rec(1, True)) + "\n")
    r = check_brec_run(run_dir=tmp_path, theory=lambda test, ids: {i: True for i in ids})
    assert r.status == "PASS" and r.evidence["rrwp steps K of the bound"] == K


def test_rrwp_bound_without_rrwp_encoding_skips(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"model": "sgformer", "preset": "small"}))
    (tmp_path / "results.jsonl").write_text(json.dumps(_rec(1, True)) + "\n")
    r = check_brec_run(run_dir=tmp_path, test="rrwp", theory=lambda test, ids: {i: True for i in ids})
    assert r.status == "SKIP" and "RRWP" in r.summary
