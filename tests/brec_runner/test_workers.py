"""`brec run --workers W` (brec_runner.workers): same verdicts as one process, resume, failures.

Worker processes are spawned, so they see only registered models (not a test's temporary one):
these tests use Graphormer's ``small`` preset for 2 epochs on a few Basic pairs.
"""

import json

import pytest

from brec_runner.rpc import Protocol
from brec_runner.rundir import finished_units, read_results, run_brec
from brec_runner.workers import run_in_workers, split_units
from wltools.errors import WLToolsError

_KW = dict(protocol=Protocol(epochs=2), pair_ids=[0, 1, 2, 3, 5], seeds=[0, 1], progress=False)


def _by_unit(run_dir):
    return {(r["id"], r["seed"]): r for f in sorted(run_dir.glob("results*.jsonl")) for r in read_results(f)}


def test_split_units_is_a_balanced_partition_in_blocks():
    todo = [(pid, s) for pid in (7, 3, 9) for s in (0, 1, 2, 3)]
    parts = split_units(todo, 2)
    assert sorted(u for p in parts for u in p) == sorted(todo) and [len(p) for p in parts] == [6, 6]
    parts = split_units(todo, 2, block=2)  # blocks of two seeds of one pair: (3,0),(3,1) | (3,2),(3,3) | ...
    assert parts == [[(3, 0), (3, 1), (7, 0), (7, 1), (9, 0), (9, 1)], [(3, 2), (3, 3), (7, 2), (7, 3), (9, 2), (9, 3)]]
    parts = split_units(todo, 2, block=4)  # 3 pairs of 4 seeds: whole pairs, 2 + 1
    assert [sorted({u[0] for u in p}) for p in parts] == [[3, 9], [7]]
    assert len(split_units(todo[:2], 8)) == 2  # no empty workers


@pytest.fixture(scope="module")
def one_process(tmp_path_factory):
    out = tmp_path_factory.mktemp("one") / "run"
    run_brec("graphormer", "small", out=out, **_KW)
    return _by_unit(out)


def _same_verdicts(got, want, same_arithmetic=True):
    """Same verdicts and epochs; the same T² and losses too when the same code path computed them
    (the multi-pair mode reassociates float sums, which moves a T² near zero noticeably)."""
    assert got.keys() == want.keys()
    for key, w in want.items():
        g = got[key]
        assert (g["distinguished"], g["reliable"], g["epochs"]) == (w["distinguished"], w["reliable"], w["epochs"])
        if same_arithmetic:
            for field in ("t2_pair", "t2_reliability", "final_loss"):
                assert g[field] == pytest.approx(w[field], rel=1e-5, abs=1e-6), (key, field)


def test_workers_match_one_process(one_process, tmp_path):
    out = tmp_path / "run"
    run_brec("graphormer", "small", out=out, workers=2, **_KW)
    files = sorted(p.name for p in out.glob("results*.jsonl"))
    assert files == ["results-worker-1-of-2.jsonl", "results-worker-2-of-2.jsonl"]
    got = _by_unit(out)
    _same_verdicts(got, one_process)
    assert sum(len(read_results(out / f)) for f in files) == len(got) == 10  # nothing duplicated
    assert {(r["id"], r["seed"]) for r in read_results(out / files[0])} == {
        (0, 0), (1, 0), (2, 0), (3, 0), (5, 0)}  # units dealt round-robin in (pair, seed) order
    grouped = tmp_path / "grouped"
    run_brec("graphormer", "small", out=grouped, workers=2, multi_pair=2, **_KW)
    _same_verdicts(_by_unit(grouped), one_process, same_arithmetic=False)
    assert {(r["id"], r["mode"]) for r in read_results(grouped / files[0])} == {
        (0, "multipair:2"), (2, "multipair:2"), (5, "multipair:2")}  # both seeds of a pair, trained together
    assert json.loads((out / "config.json").read_text())["pairs"] == [0, 1, 2, 3, 5]


def test_resume_with_another_worker_count(one_process, tmp_path):
    out = tmp_path / "run"
    run_brec("graphormer", "small", out=out, stop_after=3, **_KW)  # interrupted one-process run
    assert len(read_results(out / "results.jsonl")) == 3
    run_brec("graphormer", "small", out=out, workers=3, **_KW)
    per_file = {p.name: len(read_results(p)) for p in out.glob("results*.jsonl")}
    assert per_file.pop("results.jsonl") == 3 and sum(per_file.values()) == 7  # only the 7 left were run
    _same_verdicts(_by_unit(out), one_process)
    run_brec("graphormer", "small", out=out, workers=2, **_KW)  # finished: nothing new, nothing started
    assert len(finished_units(out)) == 10 and not list(out.glob("results-worker-*-of-2.jsonl"))


def test_a_failing_worker_is_one_error_line(tmp_path):
    kwargs = dict(model="no-such-model", preset="brec", protocol=Protocol(epochs=1), seeds=[0], out=str(tmp_path),
                  progress=False)
    with pytest.raises(WLToolsError, match=r"brec worker [12]/2 failed: UnknownNameError: .*no-such-model") as err:
        run_in_workers([(0, 0), (1, 0)], 2, tmp_path, None, kwargs=kwargs, progress=False)
    assert "\n" not in str(err.value)
