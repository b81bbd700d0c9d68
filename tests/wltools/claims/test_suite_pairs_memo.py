"""wltools.suites.theory.theory_pairs (the claims' suite units each asked suite_pairs again, about
2 s for EXP): the pairs of suite_pairs, built once per (suite, ids), bad ids still refused, and
suite_theory's verdicts unchanged."""

import networkx as nx
import pytest

from wltools.errors import UnknownNameError
from wltools.refine import refine_pair
from wltools.suites import suite_pairs
from wltools.suites.theory import suite_theory, theory_pairs


def test_the_pairs_of_suite_pairs_built_once_per_suite_and_ids():
    want = suite_pairs("csl")
    got = theory_pairs("csl")
    assert [(p.id, p.meta) for p in got] == [(p.id, p.meta) for p in want]
    assert all(nx.utils.graphs_equal(a.g, b.g) and nx.utils.graphs_equal(a.h, b.h) for a, b in zip(got, want))
    assert theory_pairs("csl")[5] is got[5] and theory_pairs("csl") is not got  # shared pairs, a new list
    some = theory_pairs("csl", [7, 3, 7])
    assert [p.id for p in some] == [3, 7] and theory_pairs("csl", (3, 7))[0] is some[0]
    with pytest.raises(UnknownNameError, match="out of range"):
        theory_pairs("csl", [10_000])


def test_suite_theory_reads_them_with_the_verdicts_of_refine_pair():
    th = suite_theory("sr16", ["1wl", "3wl"])
    th2 = suite_theory("csl", ["1wl"], ids=[0, 44])
    for t, pairs in ((th, suite_pairs("sr16")), (th2, suite_pairs("csl", [0, 44]))):
        assert [p.id for p in t.pairs] == [p.id for p in pairs]
        for p in pairs:
            for test in t.tests:
                assert t.verdicts[p.id][test]["distinguished"] == refine_pair(p.g, p.h, test).distinguished


def test_a_verdict_only_record_never_answers_a_full_run():
    """EXP pair 3 under SSWL: the verdict-only run stops at the first difference (no witness, no
    rounds); a full run afterwards refines again and memoises the full record, which then also
    answers verdict-only runs (and is not replaced by a verdict-only one from another process)."""
    from wltools.suites.theory import memo_records, remember

    quick = suite_theory("exp", ["sswl"], ids=[3], verdict_only=True).verdicts[3]["sswl"]
    assert quick["distinguished"] and quick["iterations"] is None and quick["verdict_only"]
    full = suite_theory("exp", ["sswl"], ids=[3]).verdicts[3]["sswl"]
    want = refine_pair(*(lambda p: (p.g, p.h))(suite_pairs("exp", [3])[0]), "sswl")
    assert (full["iterations"], full["witness"]) == (want.iterations, want.witness) and "verdict_only" not in full
    assert suite_theory("exp", ["sswl"], ids=[3], verdict_only=True).verdicts[3]["sswl"]["witness"] == want.witness
    remember({key: {**rec, "verdict_only": True, "witness": ""} for key, rec in memo_records("exp", ["sswl"]).items()})
    assert suite_theory("exp", ["sswl"], ids=[3]).verdicts[3]["sswl"]["witness"] == want.witness
