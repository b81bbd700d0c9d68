"""``separate(A, B)``: each certificate checked against independent references (networkx's WL hash
for 1-WL, bliss through igraph for isomorphism, the backtracking counter), smallest-first checked against the whole
atlas, coverage when nothing is found, tampered certificates refused."""

from __future__ import annotations

import json
import warnings

import networkx as nx
import pytest
from click.testing import CliRunner

from cli import cli
from wltools.errors import UnknownNameError
from wltools.hierarchy import NotFound, separate, verify_certificate
from wltools.hom.brute import hom_count_brute


def _isomorphic(G, H) -> bool:
    import igraph

    return igraph.Graph(n=G.number_of_nodes(), edges=list(G.edges)).isomorphic_bliss(
        igraph.Graph(n=H.number_of_nodes(), edges=list(H.edges)))


def _wl_hash(G):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return nx.weisfeiler_lehman_graph_hash(G, iterations=G.number_of_nodes())


@pytest.fixture(scope="module")
def wl_vs_3wl():
    return separate("1wl", "3wl", max_seconds=120)


def test_1wl_against_3wl_checked_independently(wl_vs_3wl):
    r = wl_vs_3wl
    G, H = r.G, r.H
    assert _wl_hash(G) == _wl_hash(H)  # 1-WL (networkx) cannot tell them apart
    assert not _isomorphic(G, H)
    F = nx.from_graph6_bytes(r.pattern.encode())
    assert nx.cycle_basis(F)  # a pattern outside the forests, as 1-WL's family demands
    assert hom_count_brute(F, G) != hom_count_brute(F, H)
    assert r.b_verdict["distinguished"] and not r.a_verdict["distinguished"]


def test_the_pair_is_the_smallest_there_is(wl_vs_3wl):
    """No two non-isomorphic graphs with fewer vertices have equal stable 1-WL colours (the whole
    atlas, by networkx), so a 6-vertex pair is the smallest 1-WL failure: 2C3 and C6."""
    small = [G for G in nx.graph_atlas_g() if 0 < G.number_of_nodes() < wl_vs_3wl.G.number_of_nodes()]
    seen = {}
    for G in small:
        key = (G.number_of_nodes(), G.number_of_edges(), _wl_hash(G))
        assert not any(not nx.is_isomorphic(G, K) for K in seen.get(key, ())), "a smaller 1-WL failure exists"
        seen.setdefault(key, []).append(G)
    assert wl_vs_3wl.G.number_of_nodes() == 6


def test_certificate_re_checks_and_tampering_is_caught(wl_vs_3wl):
    record = json.loads(json.dumps(wl_vs_3wl.to_dict()))
    assert verify_certificate(record) == []
    same = dict(record, H=record["G"])
    assert any("isomorphic" in p for p in verify_certificate(same))
    swapped = dict(record, a=record["b"], b=record["a"])
    assert verify_certificate(swapped)
    edited = dict(record, hom=dict(record["hom"], H=record["hom"]["H"] + 1))
    assert any("homomorphism counts" in p for p in verify_certificate(edited))


@pytest.mark.parametrize("a, b, size", [("swl-vs", "sswl", 16), ("3wl", "3fwl", 16)])
def test_fuerer_pairs_over_the_first_pattern_outside_the_weaker_family(a, b, size):
    """3-WL against 4-WL: the CFI pair over K4 (16 vertices; Cai, Fürer & Immerman 1992), with
    hom(K4, .) = 192 against 0 by backtracking; SWL against SSWL separated by a Fürer pair."""
    r = separate(a, b, max_seconds=120)
    assert r.G.number_of_nodes() == size and not _isomorphic(r.G, r.H)
    assert verify_certificate(r.to_dict()) == []
    if b == "3fwl":
        assert r.pattern == nx.to_graph6_bytes(nx.complete_graph(4), header=False).decode().strip()
        assert sorted((hom_count_brute(nx.complete_graph(4), r.G), hom_count_brute(nx.complete_graph(4), r.H))) == [0, 192]


def test_pairs_without_families_come_from_the_atlas():
    """SPD-WL and RD-WL: a 6-vertex atlas pair, SPD's verdict not distinguished (checked by the
    exact distance multisets from networkx), RD's distinguished."""
    r = separate("spd", "rd", max_seconds=120)
    assert r.construction.startswith("graph atlas pair") and r.pattern is None
    dist = [sorted(tuple(sorted(nx.single_source_shortest_path_length(X, v).values())) for v in X) for X in (r.G, r.H)]
    assert dist[0] == dist[1]  # equal SPD multisets at round 1, so SPD-WL's round-1 colours agree
    assert verify_certificate(r.to_dict()) == []


def test_nothing_found_says_what_was_searched():
    r = separate("3fwl", "1wl", max_seconds=5, max_vertices=8)
    assert isinstance(r, NotFound)
    text = str(r)
    assert "atlas" in text and "no proof" in text and r.to_dict()["found"] is False


def test_bad_names_are_refused():
    with pytest.raises(UnknownNameError):
        separate("1wl", "nope")
    with pytest.raises(UnknownNameError):
        separate("3wl", "3wl")


def test_cli_writes_a_certificate_that_re_checks(tmp_path):
    out = tmp_path / "sep"
    res = CliRunner().invoke(cli, ["separate", "1wl", "3wl", "--no-brec", "--format", "json", "--out", str(out)])
    assert res.exit_code == 0, res.output
    record = json.loads((out / "certificate.json").read_text())
    assert record == json.loads(res.output[: res.output.rindex("}") + 1]) or record["found"]
    assert (out / "G.g6").read_text().strip() == record["G"]
    assert verify_certificate(record) == []
    bad = CliRunner().invoke(cli, ["separate", "1wl", "bogus"])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1


def test_cli_draws_the_pair_beside_the_pattern(tmp_path):
    """--draw writes a PNG (its signature checked) of the pair and the pattern; a test whose
    colourings cannot be drawn (4-WL) is refused in one line before any search."""
    png = tmp_path / "sep.png"
    res = CliRunner().invoke(cli, ["separate", "1wl", "3wl", "--no-brec", "--draw", str(png)])
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    refused = CliRunner().invoke(cli, ["separate", "3wl", "3fwl", "--draw", str(tmp_path / "x.png")])
    assert refused.exit_code == 2 and "cannot draw" in refused.output and not (tmp_path / "x.png").exists()
