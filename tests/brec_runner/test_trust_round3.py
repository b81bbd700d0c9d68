"""Issue 45, round three: a run's identity covers what changes a number. The declared bound is part
of a BREC run's identity (format 3: its settings hash); reports and comparisons never merge runs of
different identities silently (a refusal naming the difference, or separate rows), and say how
many duplicate (pair, seed) units they counted once; old run directories are still read
(docs/reliability.md, "Round three")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_runs import unit_record, write_run

import cli
from brec_runner.records.identity import seal_config, settings_hash
from brec_runner.records.record import RunDirectory, read_config, read_run
from brec_runner.reports.report import build_report, build_reports
from brec_runner.runs.protocol import Protocol
from wltools.errors import RunDirectoryError

ROOT = Path(__file__).resolve().parents[2]
GIN_RUN = ROOT / "reports" / "brec-runs" / "gin-example-cpu"  # format 2, 260 pairs x seed 0, declared 1-WL


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))


def _run(*args):
    return CliRunner().invoke(cli.cli, [str(a) for a in args])


def _bound(test: str) -> dict:
    return {"class": f"{test}, as declared", "lower": None, "upper": test, "note": "", "rrwp_steps": None,
            "source": "--bound"}


def _config(bound: str) -> dict:
    return {"model": "sgformer", "preset": "small", "model_overrides": {}, "protocol": Protocol().to_dict(),
            "device_type": "cpu", "device": "cpu", "bound": _bound(bound), "theory": {"theory": {}, "published": None}}


@pytest.fixture
def two_bounds(tmp_path):
    """One model's runs declared 3-WL (seed 0) and 1-WL (seed 1), each realising Basic pairs 0 and 1."""
    a = write_run(tmp_path / "a-3wl", _config("3wl"), [unit_record(0, 0, True), unit_record(1, 0, True)])
    b = write_run(tmp_path / "b-1wl", _config("1wl"), [unit_record(0, 1, True), unit_record(1, 1, True)])
    return a, b


def test_the_bound_is_part_of_the_settings_hash(two_bounds):
    a, b = (read_config(d) for d in two_bounds)
    assert a["format"] == b["format"] == 3
    assert a["settings_hash"] != b["settings_hash"]
    # its words are not: the class text, note and source change no number
    c = {**_config("3wl"), "format": 3}
    assert settings_hash(c) == settings_hash({**c, "bound": {**c["bound"], "class": "other words", "note": "x"}})


@pytest.mark.parametrize("order", [0, 1])
def test_reports_refuse_to_merge_runs_of_different_bounds(two_bounds, order):
    """Before: merged with the bound of whichever came first ("3-WL, 0 pairs beyond the bound" in
    one order, "1-WL, 2 pairs beyond" in the other). Now refused in either order, naming the bound."""
    dirs = list(two_bounds)[::1 if order == 0 else -1]
    with pytest.raises(RunDirectoryError, match=r"different settings \(bound differ"):
        build_report(dirs)
    result = _run("brec", "report", *dirs, "--no-theory")
    assert result.exit_code == 2 and "bound differ" in result.output and len(result.output.splitlines()) == 1


def test_allow_mixed_gives_each_bound_its_own_report(two_bounds):
    """Hand count: BREC's pairs are 1-WL-equivalent (1-WL separates none), 3-WL separates every
    Basic pair (published 60/60). Realising pairs 0 and 1 is beyond a 1-WL bound, within 3-WL."""
    reps = {r["theory"]["upper"]: r for r in build_reports(list(two_bounds), allow_mixed=True)}
    assert set(reps) == {"3wl", "1wl"}
    assert [p["id"] for p in reps["1wl"]["pairs_by_class"]["beyond_theory"]] == [0, 1]
    assert reps["3wl"]["pairs_by_class"]["beyond_theory"] == []
    assert reps["3wl"]["pairs_by_class"]["realised_and_allowed"] == [0, 1]
    assert reps["1wl"]["seeds"] == [1] and reps["3wl"]["seeds"] == [0]  # no seed counted under the other bound


def test_compare_gives_each_bound_its_own_row(two_bounds):
    result = _run("brec", "compare", *two_bounds, "--format", "json", "--no-theory")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert sorted(r["bound"]["upper"] for r in rows) == ["1wl", "3wl"]
    assert sorted(r["label"] for r in rows) == ["declared 1wl", "declared 3wl"]


def _old_copy_with_bound(src: Path, dst: Path, upper: str) -> Path:
    """A format-2 run directory as the old code wrote it, declared ``upper`` (format 2 hashed no
    bound, so the old writer gave both bounds one settings hash and the records stay valid)."""
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".lock*"))
    cfg = json.loads((dst / "config.json").read_text())
    cfg["bound"] = _bound(upper)
    (dst / "config.json").write_text(json.dumps(seal_config(cfg), indent=2, sort_keys=True))
    return dst


def test_format2_runs_on_disk_of_different_bounds_are_not_merged(tmp_path):
    """The issue's case on runs written before the bound was hashed: one settings hash, two bounds."""
    a = _old_copy_with_bound(GIN_RUN, tmp_path / "gin-1wl", "1wl")
    b = _old_copy_with_bound(GIN_RUN, tmp_path / "gin-3wl", "3wl")
    ca, cb = read_config(a), read_config(b)
    assert ca["format"] == cb["format"] == 2 and ca["settings_hash"] == cb["settings_hash"]
    assert len(read_run(a).records) == len(read_run(b).records) == 260  # still read
    result = _run("brec", "report", a, b, "--no-theory")
    assert result.exit_code == 2 and "bound differ" in result.output, result.output
    result = _run("brec", "compare", a, b, "--format", "json", "--no-theory")
    assert result.exit_code == 0, result.output
    assert sorted(r["label"] for r in json.loads(result.stdout)["rows"]) == ["declared 1wl", "declared 3wl"]


def test_duplicate_units_are_counted_once_and_said(tmp_path):
    """A copy of a run directory reported beside it: every unit is there twice. Before: dropped
    without a word. Now one line with the count (the copy's results lines, counted here)."""
    copy = tmp_path / "copy"
    shutil.copytree(GIN_RUN, copy, ignore=shutil.ignore_patterns(".lock*"))
    lines = sum(len(f.read_text().splitlines()) for f in copy.glob("results*.jsonl"))
    assert lines == 260
    for command in (("brec", "report", "--format", "json"), ("brec", "compare", "--format", "json")):
        result = _run(*command, GIN_RUN, copy, "--no-theory")
        assert result.exit_code == 0, result.output
        notes = [ln for ln in result.stderr.splitlines() if "recorded more than once" in ln]
        assert len(notes) == 1 and notes[0].startswith(f"note: {lines} (pair, seed) unit(s)"), result.stderr
    rep = json.loads(_run("brec", "report", GIN_RUN, copy, "--no-theory", "--format", "json").stdout)
    assert rep["records"] == 260 and rep["duplicate_units"] == 260
    md = _run("brec", "compare", GIN_RUN, copy, "--no-theory").stdout
    assert "260 (pair, seed) unit(s) recorded more than once, counted once" in md
    one = _run("brec", "report", GIN_RUN, "--no-theory")
    assert "recorded more than once" not in one.output  # nothing duplicated: nothing said


def test_a_resume_under_another_bound_is_refused(tmp_path):
    d = write_run(tmp_path / "run", _config("1wl"), [unit_record(0, 0, True)])
    before = (d / "config.json").read_bytes()
    with pytest.raises(RunDirectoryError, match="other settings .bound"):
        RunDirectory(d, _config("3wl"), code="test")
    assert (d / "config.json").read_bytes() == before


def test_the_legacy_run_is_upgraded_to_the_current_format_and_read(tmp_path):
    legacy = shutil.copytree(ROOT / "tests" / "data" / "legacy-run", tmp_path / "legacy")
    lines = len((legacy / "results.jsonl").read_text().splitlines())
    result = _run("brec", "report", legacy, "--no-theory")
    assert result.exit_code == 2 and "brec upgrade" in result.output  # refused clearly before the upgrade
    assert _run("brec", "upgrade", legacy).exit_code == 0
    cfg = read_config(legacy)
    assert cfg["format"] == 3 and cfg["settings_hash"] == settings_hash(cfg)
    assert len(read_run(legacy).records) == lines
    assert _run("brec", "report", legacy, "--no-theory").exit_code == 0


# ------------------------------------------------------------------ non-invariant runs marked

_NOT_INVARIANT = {"copies": 4, "invariant": False, "max_abs_diff": 0.0123, "pair": 0}
_INVARIANT = {"copies": 4, "invariant": True, "max_abs_diff": 1e-7, "pair": 0}


def _run_with(tmp_path, name: str, invariance: dict, seeds=(0,)) -> Path:
    cfg = {**_config("3wl"), "invariance": invariance, "pairs": [0, 1], "seeds": list(seeds)}
    return write_run(tmp_path / name, cfg, [unit_record(p, s, True) for s in seeds for p in (0, 1)])


def test_compare_marks_and_counts_units_of_a_non_invariant_model(tmp_path):
    """Before: ``brec compare`` showed a row of a model that failed the invariance probe like any other."""
    bad = _run_with(tmp_path, "lap", _NOT_INVARIANT, seeds=(0, 1))  # 2 pairs x 2 seeds = 4 units
    good = write_run(tmp_path / "gin", {**_config("1wl"), "model": "graphormer", "invariance": _INVARIANT},
                     [unit_record(0, 0, False)])
    result = _run("brec", "compare", bad, good, "--format", "json", "--no-theory")
    assert result.exit_code == 0, result.output
    rows = {r["model"]: r for r in json.loads(result.stdout)["rows"]}
    assert rows["sgformer"]["not_invariant_units"] == 4 and rows["graphormer"]["not_invariant_units"] == 0
    warning = [ln for ln in result.stderr.splitlines() if "invariance probe" in ln]
    assert len(warning) == 1 and "1 row(s) hold 4 (pair, seed) unit(s)" in warning[0]
    md = _run("brec", "compare", bad, good, "--no-theory").stdout
    marked = [ln for ln in md.splitlines() if "not permutation invariant" in ln]
    assert marked and all("sgformer" in ln for ln in marked)
    assert "4 of its 4 (pair, seed) units" in md
    csv_rows = _run("brec", "compare", bad, good, "--format", "csv", "--no-theory").stdout.splitlines()
    col = csv_rows[0].split(",").index("not_invariant_units")
    assert sorted(r.split(",")[col] for r in csv_rows[1:]) == ["0", "4"]


def test_a_report_counts_the_units_of_a_non_invariant_directory_it_merges(tmp_path):
    """One identity, two directories (seeds 0 and 1), one of them probed not invariant: the report
    says so, whichever comes first, and counts that directory's units."""
    a = _run_with(tmp_path, "a", _INVARIANT, seeds=(0,))
    b = _run_with(tmp_path, "b", _NOT_INVARIANT, seeds=(1,))
    for dirs in ([a, b], [b, a]):
        rep = build_report(dirs, theory=False)
        assert rep["not_invariant_units"] == 2 and rep["invariance"]["invariant"] is False
    result = _run("brec", "report", a, b, "--no-theory")
    assert "Not permutation invariant" in result.stdout
    assert "warning: 2 (pair, seed) unit(s) come from a model that failed" in result.stderr


def test_claims_verify_brec_run_does_not_pass_a_non_invariant_run(tmp_path):
    """Before: PASS. The same records from an invariant model PASS (3-WL separates Basic pairs 0 and
    1), so the ERROR comes from the probe alone."""
    good = _run_with(tmp_path, "good", _INVARIANT)
    bad = _run_with(tmp_path, "bad", _NOT_INVARIANT)
    ok = _run("claims", "verify", "brec-run", "--run-dir", good)
    assert ok.exit_code == 0 and "PASS" in ok.stdout, ok.output
    result = _run("claims", "verify", "brec-run", "--run-dir", bad)
    assert result.exit_code == 1, result.output
    assert "ERROR" in result.stdout and "permutation-invariance probe" in result.stdout
    assert "all 2 (pair, seed) units" in result.stdout and "0 PASS" in result.stdout


# ------------------------------------------------------------------ the theory cache key

def test_the_theory_key_covers_the_record_shaping_module(tmp_path, monkeypatch):
    """brec_runner/reports/theory.py shapes the cached records: an edited copy of it is a new key (before,
    a hand-kept "-c2" in the file name stood in for it)."""
    from brec_runner.records import source_closure as sc
    from brec_runner.reports import theory as th

    before = th.code_version()
    original = sc._origin("brec_runner.reports.theory")
    copy = tmp_path / "theory.py"
    copy.write_bytes(original.read_bytes())
    monkeypatch.setattr(sc, "_origin", lambda name, real=sc._origin: copy if name == "brec_runner.reports.theory" else real(name))
    assert th.code_version() == before  # the same bytes: the same key
    copy.write_bytes(original.read_bytes().replace(b'_RESULT_FIELDS = ("distinguished",',
                                                   b'_RESULT_FIELDS = ("distinguished", "extra",'))
    assert th.code_version() != before
    assert "-c2" not in th._cache_file("1wl", 0, True, before).name


def test_the_theory_key_covers_the_python_version(monkeypatch):
    from brec_runner.records import source_closure as sc
    from brec_runner.reports import theory as th

    before = th.code_version()
    monkeypatch.setattr(sc.platform, "python_version", lambda: "3.99.0")
    assert th.code_version() != before


@pytest.mark.parametrize("library, counts", [("torch", False), ("rdkit", False), ("pynauty", True), ("scipy", True)])
def test_the_theory_key_reads_only_the_libraries_the_verdicts_use(monkeypatch, library, counts):
    """An upgrade of torch or RDKit (imported in the closure only by the models' float encodings and
    the SMILES reader) keeps the key; one of pynauty or scipy changes it."""
    from brec_runner.records import source_closure as sc
    from brec_runner.reports import theory as th

    before = th.code_version()
    real = sc.metadata.version
    monkeypatch.setattr(sc.metadata, "version", lambda name: "99.0" if name == library else real(name))
    assert (th.code_version() != before) is counts


def test_a_left_out_library_counts_again_once_another_module_imports_it(tmp_path, monkeypatch):
    """leave_out names the modules whose import of a library the results do not read; a new import
    of it anywhere else in the closure puts its version back into the key."""
    from brec_runner.records import source_closure as sc

    pkg = tmp_path / "pkgy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "entry.py").write_text("from . import side, core\n")
    (pkg / "side.py").write_text("import numpy\n")
    (pkg / "core.py").write_text("x = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sc, "_MEMO", {})
    real = sc.metadata.version
    version = {"numpy": "1.0"}
    monkeypatch.setattr(sc.metadata, "version", lambda name: version.get(name) or real(name))
    key = lambda: sc.sources_digest(["pkgy.entry"], "pkgy", leave_out={"numpy": ("pkgy.side",)})  # noqa: E731
    k0 = key()
    version["numpy"] = "2.0"
    assert key() == k0  # only pkgy.side imports it: left out
    (pkg / "core.py").write_text("import numpy\nx = 1\n")
    k1 = key()
    version["numpy"] = "3.0"
    assert key() != k1  # pkgy.core imports it now: its version counts
