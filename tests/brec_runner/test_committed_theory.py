"""The committed BREC theory table (``reports/brec-theory/verdicts.csv``) is what the code gives now.

Every (test, pair) record's verdict, reason, first differing iteration, iteration count and witness
text (up to the CSV's truncation) is recomputed through :func:`brec_runner.reports.theory.theory_verdicts`
(the session's theory cache, shared with the other checks that read BREC verdicts) on all 400
pairs, except for the three tests whose fast paths take minutes on BREC's largest graphs (EPWL over
``A`` and ``L``: about 4 CPU-minutes on the CFI and 4-vertex pairs; M2: about 40 s), which are
recomputed on the representative part of BREC (``tests/brec_sample.py``); their full table is the
benchmark ``wltools brec theory --tests epwl,epwl-lap,m2 --out DIR`` compared with this file.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

_CSV = Path(__file__).resolve().parents[2] / "reports" / "brec-theory" / "verdicts.csv"
_ON_SAMPLE = ("epwl", "epwl-lap", "m2")


def _committed() -> dict[str, dict[int, dict]]:
    out: dict[str, dict[int, dict]] = {}
    with _CSV.open(newline="") as f:
        for row in csv.DictReader(f):
            out.setdefault(row["test"], {})[int(row["id"])] = row
    return out


_TABLE = _committed()


def _as_csv(value) -> str:
    return "" if value is None else str(int(value)) if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("test", sorted(_TABLE))
def test_committed_theory_table_is_reproduced(test, brec_theory):
    from brec_sample import sample_ids

    rows = _TABLE[test]
    assert len(rows) == 400
    ids = sample_ids() if test in _ON_SAMPLE else sorted(rows)
    now = brec_theory(test, None if test not in _ON_SAMPLE else ids)
    for pid in ids:
        old, new = rows[pid], now[pid]
        got = {k: _as_csv(new[k]) for k in ("distinguished", "reason", "iteration", "iterations")}
        assert got == {k: old[k] for k in got}, (test, pid)
        witness = old["witness"]
        cut = witness.endswith("…")
        assert (str(new["witness"]).startswith(witness[:-1]) if cut else str(new["witness"]) == witness), (test, pid)
