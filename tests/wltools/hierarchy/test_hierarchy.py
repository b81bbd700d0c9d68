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
