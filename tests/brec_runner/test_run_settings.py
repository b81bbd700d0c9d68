"""One settings object for a run (issue 41 item 5): :func:`run` and :func:`evaluate` take a
:class:`RunSettings`, or its fields as keywords, and both spellings run the same thing."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from brec_runner.records.record import read_config, read_results
from brec_runner.runs.evaluate import evaluate, run
from brec_runner.runs.settings import RunSettings


def _verdicts(run_dir):
    return sorted((r["id"], r["seed"], r["distinguished"], r["reliable"], r["t2_pair"])
                  for r in read_results(run_dir / "results.jsonl"))


def test_an_object_and_keywords_make_the_same_run(tiny_model, tmp_path):
    fields = dict(preset="brec", protocol={"epochs": 1}, pairs=[0, 60], categories=None, seeds=(0, 1),
                  progress=False, multi_pair=1)
    by_object = run(tiny_model, RunSettings(out=tmp_path / "object", **fields))
    by_keywords = run(tiny_model, out=tmp_path / "keywords", **fields)
    # an object with a field overridden by keyword: the keyword wins
    overridden = run(tiny_model, RunSettings(out=tmp_path / "elsewhere", **fields), out=tmp_path / "override")
    assert not (tmp_path / "elsewhere").exists()
    assert _verdicts(by_object) == _verdicts(by_keywords) == _verdicts(overridden)
    assert len(_verdicts(by_object)) == 4
    assert read_config(by_object)["settings_hash"] == read_config(by_keywords)["settings_hash"] \
        == read_config(overridden)["settings_hash"]


def test_a_setting_changes_the_run(tiny_model, tmp_path):
    """The settings object is read, not ignored: other seeds, other records."""
    base = RunSettings(preset="brec", protocol={"epochs": 1}, pairs=[0], categories=None, progress=False,
                       multi_pair=1)
    one = run(tiny_model, base.with_fields(out=tmp_path / "a"))
    two = run(tiny_model, base.with_fields(out=tmp_path / "b", seeds=(3, 4)))
    assert [r[1] for r in _verdicts(one)] == [0] and [r[1] for r in _verdicts(two)] == [3, 4]


@pytest.mark.parametrize("call", [run, evaluate])
def test_a_misspelt_setting_is_refused_before_any_work(call, tmp_path):
    with pytest.raises(TypeError, match="seed"):
        call("gin", out=tmp_path / "r", seed=[0])  # the field is `seeds`
    with pytest.raises(TypeError, match="RunSettings"):
        call("gin", {"seeds": [0]})
    assert not (tmp_path / "r").exists()


def test_run_and_evaluate_declare_no_setting_of_their_own():
    """The settings live in RunSettings alone: neither function repeats one as a parameter."""
    names = {f.name for f in dataclasses.fields(RunSettings)}
    for fn, own in ((run, {"model", "settings", "stop_after", "on_outcome", "fields"}),
                    (evaluate, {"model", "settings", "theory", "fields"})):
        params = set(inspect.signature(fn).parameters)
        assert params == own and not params & names, fn.__name__
    assert "theory" not in names  # a report option, not a run setting
