"""``hierarchy(tests)``: relations from certified pairs, checked against published orders and by
re-verifying every certificate from its graph6 strings."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli import cli
from wltools.hierarchy import hierarchy, verify_certificate


@pytest.fixture(scope="module")
def h():
    return hierarchy(["1wl", "spd", "3wl", "swl-vs"], max_seconds=240)


def test_published_strict_orders_are_found(h):
    """1-WL < SPD-WL < 2-FWL (= 3-WL) (Zhang, Luo, Wang & He, ICLR 2023, the GD-WL paper) and
    1-WL < SWL(VS) < 3-WL (Zhang et al., ICML 2023): a certified pair one way, none the other."""
    for a, b in (("1wl", "spd"), ("spd", "3wl"), ("1wl", "swl-vs"), ("swl-vs", "3wl"), ("1wl", "3wl")):
        assert h.relation(a, b) == "weaker" and h.relation(b, a) == "stronger", (a, b)


def test_every_certificate_re_checks(h):
    assert h.certificates
    for (a, b), cert in h.certificates.items():
        record = json.loads(json.dumps(cert.to_dict()))
        assert (record["a"], record["b"]) == (a, b)
        assert verify_certificate(record) == [], (a, b)


def test_hasse_edges_are_the_transitive_reduction(h):
    edges = h.hasse_edges()
    assert ("1wl", "3wl") not in edges  # 1wl < spd < 3wl lies between
    for a, b in edges:
        assert h.relation(a, b) == "weaker"
        assert not any(h.relation(a, c) == "weaker" and h.relation(c, b) == "weaker" for c in h.tests)


def test_cli_writes_markdown_json_and_the_diagram(tmp_path):
    out = tmp_path / "h"
    res = CliRunner().invoke(cli, ["hierarchy", "--tests", "1wl,3wl", "--out", str(out)])
    assert res.exit_code == 0, res.output
    record = json.loads((out / "hierarchy.json").read_text())
    assert record["hasse"] == [["1wl", "3wl"]]
    assert (out / "hierarchy.png").read_bytes()[:4] == b"\x89PNG"
    assert "1wl < 3wl" in (out / "hierarchy.md").read_text()
    for bad in (["--tests", "1wl"], ["--tests", "1wl,nope"]):
        r = CliRunner().invoke(cli, ["hierarchy", *bad])
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1


def test_certificates_say_how_many_candidates_were_swept(h):
    """Each certificate records the candidates swept up to it (it said 0 for every one before)."""
    tried = [cert.to_dict()["candidates_tried"] for cert in h.certificates.values()]
    assert min(tried) >= 1 and max(tried) > 1


RESUME_TESTS = ["1wl", "rd", "rrwp", "s3"]  # rd and rrwp stay equal: the sweep runs to its last candidate


def _without_seconds(record: dict) -> dict:
    text = json.dumps(record, sort_keys=True)
    out = json.loads(text)
    out.pop("seconds")
    for row in out["pairs"]:
        for key in ("b_over_a", "a_over_b"):
            if row[key]:
                row[key].pop("seconds")
    return out


def test_a_stopped_sweep_resumes_to_the_uninterrupted_result(monkeypatch):
    """Stopped by its budget (a clock that ticks one second per reading, so the stop is the same on
    every machine), saved as JSON, read back and resumed: the same record as one uninterrupted sweep."""
    import itertools

    from wltools.hierarchy import table

    full = hierarchy(RESUME_TESTS, max_vertices=14)
    assert not full.out_of_time and full.swept > 20

    class TickingClock:
        ticks = itertools.count()

        @staticmethod
        def perf_counter():
            return float(next(TickingClock.ticks))

    monkeypatch.setattr(table, "time", TickingClock)
    stopped = hierarchy(RESUME_TESTS, max_vertices=14, max_seconds=20)
    monkeypatch.undo()
    assert stopped.out_of_time and 0 < stopped.swept < full.swept
    assert any("time budget" in line for line in stopped.coverage)
    saved = table.Hierarchy.from_dict(json.loads(json.dumps(stopped.to_dict())))
    resumed = hierarchy(RESUME_TESTS, max_vertices=14, resume=saved)
    assert not resumed.out_of_time and resumed.swept == full.swept
    assert resumed.checked == full.checked  # each candidate refined once: none twice, none skipped
    assert _without_seconds(resumed.to_dict()) == _without_seconds(full.to_dict())
    with pytest.raises(table.ResumeMismatch, match="tests"):
        hierarchy(RESUME_TESTS[:3], max_vertices=14, resume=saved)
    with pytest.raises(table.ResumeMismatch, match="max-vertices"):
        hierarchy(RESUME_TESTS, max_vertices=13, resume=saved)


def test_cli_resume_refusals_are_one_line(tmp_path):
    out = tmp_path / "h"
    args = ["hierarchy", "--tests", "1wl,spd", "--max-vertices", "8", "--resume"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2 and "needs --out" in r.output
    r = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert r.exit_code == 2 and "does not exist" in r.output
    done = CliRunner().invoke(cli, args[:-1] + ["--out", str(out)])
    assert done.exit_code == 0, done.output
    r = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert r.exit_code == 2 and "finished" in r.output
    (out / "hierarchy.json").write_text('{"tests": ["1wl"')
    r = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert r.exit_code == 2 and "damaged" in r.output
    for res in (r,):
        assert len(res.output.strip().splitlines()) == 1
