"""Run directories (brec_runner.records.record) and runs through brec_runner.runs.evaluate.run: config check,
append/resume, truncated lines, shards, multi-pair."""

import json

import pytest

from brec_runner.records.record import RunDirectory, read_results
from brec_runner.runs.evaluate import run
from brec_runner.runs.plan import parse_shard, shard_ids
from brec_runner.runs.protocol import Protocol
from wltools.errors import RunDirectoryError


def _records(path):
    return sorted(((r["id"], r["seed"], r["t2_pair"], r["t2_reliability"], r["distinguished"], r["reliable"], r["epochs"])
                   for r in read_results(path)))


def test_parse_and_split_shards():
    assert parse_shard("2/5") == (2, 5)
    for bad in ("0/3", "4/3", "a/b", "3", "1/2/3"):
        with pytest.raises(ValueError):
            parse_shard(bad)
    ids = [5, 3, 9, 1, 7, 2, 8]
    parts = [shard_ids(ids, (k, 3)) for k in (1, 2, 3)]
    assert sorted(sum(parts, [])) == sorted(ids)
    assert all(not set(a) & set(b) for i, a in enumerate(parts) for b in parts[i + 1:])
    assert shard_ids(ids, None) == sorted(ids)


def test_truncated_last_line_dropped_and_repaired(tmp_path):
    f = tmp_path / "results.jsonl"
    good = [{"id": 1, "seed": 0}, {"id": 2, "seed": 0}]
    f.write_text("".join(json.dumps(r) + "\n" for r in good) + '{"id": 3, "se')
    assert read_results(f) == good
    assert f.read_text().endswith('"se')  # read only
    assert read_results(f, repair=True) == good
    assert f.read_text() == "".join(json.dumps(r) + "\n" for r in good)
    # a whole JSON object without its newline is kept; the writer's repair adds the newline
    f.write_text(json.dumps(good[0]) + "\n" + json.dumps(good[1]))
    assert read_results(f) == good
    assert read_results(f, repair=True) == good and f.read_text() == "".join(json.dumps(r) + "\n" for r in good)
    f.write_text(json.dumps(good[0]) + "\nnot json\n" + json.dumps(good[1]) + "\n")
    with pytest.raises(RunDirectoryError, match="line 2"):
        read_results(f)


def _outcome(pid, seed=0, t2=1.0):
    return {"id": pid, "seed": seed, "t2_pair": t2, "t2_reliability": 1.0, "threshold": Protocol().threshold,
            "distinguished": t2 > Protocol().threshold, "reliable": True, "epochs": 1, "final_loss": 0.5}


def test_config_mismatch_names_keys(tmp_path):
    cfg = {"model": "m", "preset": "small", "model_overrides": {}, "protocol": Protocol().to_dict(),
           "device_type": "cpu", "seeds": [0]}
    with RunDirectory(tmp_path / "run", cfg) as rd:
        rd.append(_outcome(4))
    with RunDirectory(tmp_path / "run", {**cfg, "seeds": [0, 1]}) as rd:
        assert rd.done == {(4, 0)}  # seeds may extend
    # config.json then lists every seed and pair the directory holds, the rest as first written
    written = json.loads((tmp_path / "run" / "config.json").read_text())
    assert written["seeds"] == [0, 1] and written["model"] == "m"
    RunDirectory(tmp_path / "run", {**cfg, "seeds": [1], "pairs": [7]}).close()
    written = json.loads((tmp_path / "run" / "config.json").read_text())
    assert written["seeds"] == [0, 1] and written["pairs"] == [7]
    other = {**cfg, "preset": "brec", "protocol": Protocol(epochs=3).to_dict()}
    with pytest.raises(RunDirectoryError, match=r"preset, protocol.epochs; preset: \"small\" here, \"brec\" now"):
        RunDirectory(tmp_path / "run", other)
    with RunDirectory(tmp_path / "run", cfg, shard=(2, 3)) as shard:
        assert shard.results_path.name == "results-shard-2-of-3.jsonl"
        assert shard.done == {(4, 0)}  # what any results file of the directory holds is done
        assert len(shard.records) == 1


def test_interrupted_then_resumed_equals_uninterrupted(tiny_model, tmp_path):
    # multi_pair=1: "auto" decides by a timed probe, recorded per run directory, so two directories
    # on a loaded machine may train in groups in one and alone in the other (same verdicts, T2
    # equal only to float precision); the resume guarantee is per directory
    kw = dict(protocol=Protocol(epochs=2), pairs=[0, 1, 2, 3], categories=None, seeds=[0, 1], progress=False)
    one = dict(kw, multi_pair=1)
    full = run(tiny_model, preset="brec", out=tmp_path / "full", **one)
    part = tmp_path / "part"
    run(tiny_model, preset="brec", out=part, stop_after=3, **one)
    lines = (part / "results.jsonl").read_text().splitlines(keepends=True)
    assert len(lines) == 3
    # simulate a kill in the middle of writing the 4th line
    (part / "results.jsonl").write_text("".join(lines) + lines[0][: len(lines[0]) // 2])
    run(tiny_model, preset="brec", out=part, **one)
    got, want = _records(part / "results.jsonl"), _records(full / "results.jsonl")
    assert got == want and len(got) == 8
    assert len({(r[0], r[1]) for r in got}) == 8  # nothing duplicated
    run(tiny_model, preset="brec", out=part, **one)  # a finished run: nothing new
    assert len(read_results(part / "results.jsonl")) == 8
    # the multi-pair mode gives the same verdicts, epochs and (up to float reassociation) the same losses
    multi = run(tiny_model, preset="brec", out=tmp_path / "multi", multi_pair=4, **kw)
    m = {(r["id"], r["seed"]): r for r in read_results(multi / "results.jsonl")}
    f = {(r["id"], r["seed"]): r for r in read_results(full / "results.jsonl")}
    assert m.keys() == f.keys()
    for key in f:
        assert (m[key]["distinguished"], m[key]["reliable"], m[key]["epochs"]) == (
            f[key]["distinguished"], f[key]["reliable"], f[key]["epochs"])
        assert abs(m[key]["final_loss"] - f[key]["final_loss"]) <= 1e-4 * abs(f[key]["final_loss"]) + 1e-6
    assert {r["mode"] for r in m.values()} <= {"multipair:2", "multipair:3", "multipair:4", "single"}
    cfg = json.loads((full / "config.json").read_text())
    for key in ("model", "preset", "model_overrides", "protocol", "seeds", "device", "environment", "theory"):
        assert key in cfg
    assert cfg["protocol"]["epochs"] == 2 and round(cfg["protocol"]["threshold"], 2) == 72.34
    assert "torch" in cfg["environment"]["versions"] and cfg["environment"]["hostname"]
    rec = read_results(full / "results.jsonl")[0]
    for key in ("id", "category", "subcategory", "seed", "t2_pair", "t2_reliability", "threshold",
                "distinguished", "reliable", "epochs", "final_loss", "wall_s", "cuda_s"):
        assert key in rec


def test_shards_cover_the_run(tiny_model, tmp_path):
    kw = dict(protocol=Protocol(epochs=1), pairs=[0, 1, 2, 3, 4], categories=None, seeds=[3], progress=False)
    full = run(tiny_model, preset="small", out=tmp_path / "full", **kw)
    for k in (1, 2):
        run(tiny_model, preset="small", out=tmp_path / "sharded", shard=(k, 2), **kw)
    merged = _records(tmp_path / "sharded" / "results-shard-1-of-2.jsonl") + _records(
        tmp_path / "sharded" / "results-shard-2-of-2.jsonl")
    assert sorted(merged) == _records(full / "results.jsonl")


def test_resume_with_other_settings_fails(tiny_model, tmp_path):
    run(tiny_model, preset="small", out=tmp_path / "r", protocol=Protocol(epochs=1), pairs=[0], categories=None, progress=False)
    with pytest.raises(RunDirectoryError, match="protocol"):
        run(tiny_model, preset="small", out=tmp_path / "r", protocol=Protocol(epochs=2), pairs=[0], categories=None, progress=False)
    with pytest.raises(RunDirectoryError, match="model_overrides"):
        run(tiny_model, preset="small", out=tmp_path / "r", protocol=Protocol(epochs=1), pairs=[0], categories=None,
                 options={"hidden": 5}, progress=False)
