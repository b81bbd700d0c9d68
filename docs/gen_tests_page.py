"""Write ``docs/tests.md`` (the tests and the models they bound) from the code's own registries.

    python docs/gen_tests_page.py            # rewrite docs/tests.md
    python docs/gen_tests_page.py --check    # exit 1 if docs/tests.md is not what the registries give

Sources: the test names, families and labels of :mod:`wltools.refine.names`; the subgraph WL
hierarchy and the literature models each class bounds (:data:`wltools.refine.swl.HIERARCHY`,
:data:`~wltools.refine.swl.SWL_MODELS`); the declared bound of each built-in model
(``brec_runner/configs/NAME.json``, key ``theory``) and of each example model (its class's
``wl_bound = "..."`` line in ``examples/*.py``). The prose is ``docs/_templates/tests.md``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "tests.md"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _families() -> dict[str, str]:
    from wltools.refine import names as w

    groups = ((w.TESTS, "GD-WL family; default columns"), (w.EXTRA_TESTS, "EPWL; in suite tables"),
              (w.ON_REQUEST_TESTS, "4-WL; only when named"), (w.SUBGRAPH_WL_TESTS, "subgraph WL hierarchy"),
              (w.SUBGRAPH_BASELINE_TESTS, "BREC's non-GNN baselines"))
    return {t: family for tests, family in groups for t in tests}


def declared_bounds(root: Path = ROOT) -> dict[str, list[str]]:
    """Test name -> the models of this repository that declare it as their upper bound."""
    out: dict[str, list[str]] = {}
    for path in sorted((root / "brec_runner" / "configs").glob("*.json")):
        theory = json.loads(path.read_text())["theory"]
        ranged = theory["lower"] != theory["upper"]
        note = f" (range `{theory['lower']}` .. `{theory['upper']}`)" if ranged else ""
        out.setdefault(theory["upper"], []).append(f"built-in `{path.stem}`{note}")
    for path in sorted((root / "examples").glob("*.py")):
        for bound in re.findall(r'^\s+wl_bound = "([^"]+)"', path.read_text(), re.M):
            out.setdefault(bound.split(":")[0], []).append(f"`examples/{path.name}`")
    return out


def tests_table(root: Path = ROOT) -> str:
    """One row per test name: label, family, may it exceed 3-WL, and the models it bounds."""
    from wltools.refine import names as w
    from wltools.refine.swl import SWL_MODELS

    families, declared = _families(), declared_bounds(root)
    rows = []
    for t in w.ALL_TESTS:
        models = declared.get(t, []) + list(SWL_MODELS.get(t, ()))
        rows.append([f"`{t}`", w.label_of(t), families[t], "yes" if w.may_exceed_3wl(t) else "no",
                     "; ".join(models) or "—"])
    return _table(["name", "label", "family", "can exceed 3-WL", "models it bounds"], rows)


def hierarchy_list() -> str:
    """The inclusions of the subgraph WL hierarchy, one line each."""
    from wltools.refine.swl import HIERARCHY
    from wltools.refine.names import label_of

    return "\n".join(f"- {label_of(a)} ⊏ {label_of(b)} (`{a}` ⊏ `{b}`)" for a, b in HIERARCHY)


PLACEHOLDERS = {"tests_table": tests_table, "hierarchy": lambda root: hierarchy_list()}


def render(root: Path = ROOT) -> str:
    """The text of ``docs/tests.md``: the template with every placeholder filled in."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _generated import render_template

    return render_template(root, "tests", PLACEHOLDERS)


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _generated import write_or_check

    return write_or_check(OUTPUT, render(), "gen_tests_page.py", argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
