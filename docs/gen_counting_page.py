"""Write ``docs/counting-power.md`` (pattern families and the cycles / paths each test counts)
from the code: :mod:`wltools.hom.families` (the families, their theorems) and
:func:`wltools.hom.spasm.can_count` (Theorem 4.5 of Zhang et al., ICLR 2024). The prose is
``docs/_templates/counting-power.md``.

    python docs/gen_counting_page.py            # rewrite docs/counting-power.md
    python docs/gen_counting_page.py --check    # exit 1 if the page is not what the code gives
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "counting-power.md"

#: The cycles C_3.. and paths P_3.. (vertices) of the counting table.
SIZES = range(3, 9)


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def families_table(root: Path = ROOT) -> str:
    """One row per test and level with a family: its description and citation."""
    from wltools.hom.families import FAMILY_TESTS, family_of, no_family_reason

    rows = []
    for test in FAMILY_TESTS:
        for level in ("graph", "node", "edge"):
            fam = family_of(test, level)
            text = (fam.name, fam.citation) if fam else ("none", no_family_reason(test, level))
            rows.append([f"`{test}`", level, text[0], text[1]])
    return _table(["test", "level", "family", "source"], rows)


def counting_table(root: Path = ROOT) -> str:
    """Which cycles and paths each test counts as subgraphs, at each level (as Example 4.6)."""
    import networkx as nx

    from wltools.hom.families import FAMILY_TESTS, family_of
    from wltools.hom.spasm import can_count

    header = ["test", "level"] + [f"C{n}" for n in SIZES] + [f"P{n}" for n in SIZES]
    rows = []
    for test in FAMILY_TESTS:
        if test == "m1":
            continue  # the same refinement as swl-vs
        for level in ("graph", "node", "edge"):
            if family_of(test, level) is None:
                continue
            marks = [can_count(gen(n), test, level)[0] for gen in (nx.cycle_graph, nx.path_graph)
                     for n in SIZES]
            rows.append([f"`{test}`", level] + ["yes" if ok else "no" for ok in marks])
    return _table(header, rows)


PLACEHOLDERS = {"families_table": families_table, "counting_table": counting_table}


def render(root: Path = ROOT) -> str:
    """The text of ``docs/counting-power.md``: the template with every placeholder filled in."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _generated import fill_template

    template = (root / "docs" / "_templates" / "counting-power.md").read_text()
    return fill_template(template, PLACEHOLDERS, root, "counting-power")


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from _generated import write_or_check

    return write_or_check(OUTPUT, render(), "gen_counting_page.py", argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
