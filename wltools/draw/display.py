"""Check results as tables in Jupyter (``_repr_html_`` / ``_repr_markdown_``) and as pandas
DataFrames (pandas is optional: :func:`require_pandas` says so in one line when it is missing).

:func:`check_table` runs :func:`wltools.refine.refine_pair` for several tests and wraps the
results in a :class:`CheckTable`, which a notebook shows as a table (test, verdict, reason, first
differing iteration, rounds, witness).

Examples
--------
>>> t = check_table("cycle:6", "cycle:3+cycle:3", ["1wl", "spd"])
>>> [(r["test"], r["verdict"]) for r in t.rows()]
[('1wl', 'not distinguished'), ('spd', 'distinguished')]
>>> print(t._repr_markdown_().splitlines()[4][:60])
| 1wl | 1-WL | not distinguished | none | - | 0 | colour his
"""

from __future__ import annotations

import html
from typing import Iterable, Sequence

from ..errors import WLToolsError
from ..refine.names import TEST_LABELS, TESTS

__all__ = ["OptionalDependencyError", "require_pandas", "CheckTable", "check_table", "markdown_table", "html_table"]


class OptionalDependencyError(WLToolsError, ImportError):
    """An optional package (pandas) that a call needs is not installed."""


def require_pandas(what: str = "to_dataframe()"):
    """The ``pandas`` module, or :class:`OptionalDependencyError` saying how to install it."""
    try:
        import pandas
    except ImportError:
        raise OptionalDependencyError(f"{what} needs pandas, an optional dependency: pip install pandas") from None
    return pandas


def _cell(x) -> str:
    return "-" if x is None else str(x)


def markdown_table(header: Sequence[str], rows: Iterable[Sequence]) -> str:
    """A Markdown table (``|`` inside cells escaped).

    Examples
    --------
    >>> print(markdown_table(["a", "b"], [[1, "x|y"]]))
    | a | b |
    |---|---|
    | 1 | x\\|y |
    """
    def esc(x) -> str:
        return _cell(x).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(map(esc, header)) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(map(esc, r)) + " |" for r in rows])


def html_table(header: Sequence[str], rows: Iterable[Sequence]) -> str:
    """An HTML table, every cell escaped.

    Examples
    --------
    >>> html_table(["a"], [["<b>"]])
    '<table>\\n<thead><tr><th>a</th></tr></thead>\\n<tbody>\\n<tr><td>&lt;b&gt;</td></tr>\\n</tbody>\\n</table>'
    """
    out = ["<table>", "<thead><tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in header) + "</tr></thead>",
           "<tbody>"]
    out += ["<tr>" + "".join(f"<td>{html.escape(_cell(c))}</td>" for c in r) + "</tr>" for r in rows]
    return "\n".join(out + ["</tbody>", "</table>"])


class CheckTable:
    """Refinement results of one pair under several tests, displayed as a table.

    Parameters
    ----------
    results : sequence of :class:`~wltools.refine.RefinementResult`
    names : (str, str)
        What G and H are (shown above the table).
    """

    COLUMNS = ("test", "label", "verdict", "reason", "iteration", "iterations", "witness")

    def __init__(self, results: Sequence, names: tuple[str, str] = ("G", "H")):
        self.results = list(results)
        self.names = names

    def rows(self) -> list[dict]:
        """One dict per test with the :attr:`COLUMNS`."""
        return [{"test": r.test, "label": TEST_LABELS.get(r.test, r.test),
                 "verdict": "distinguished" if r.distinguished else "not distinguished", "reason": r.reason,
                 "iteration": r.iteration, "iterations": r.iterations, "witness": r.witness} for r in self.results]

    def _title(self) -> str:
        return f"{self.names[0]} vs {self.names[1]}"

    def _repr_markdown_(self) -> str:
        return f"**{self._title()}**\n\n" + markdown_table(self.COLUMNS, [[r[c] for c in self.COLUMNS]
                                                                         for r in self.rows()])

    def _repr_html_(self) -> str:
        return (f"<p><strong>{html.escape(self._title())}</strong></p>\n"
                + html_table(self.COLUMNS, [[r[c] for c in self.COLUMNS] for r in self.rows()]))

    def to_dataframe(self):
        """A pandas DataFrame, one row per test (needs pandas)."""
        return require_pandas("CheckTable.to_dataframe()").DataFrame(self.rows(), columns=list(self.COLUMNS))

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, i):
        return self.results[i]

    def __repr__(self) -> str:
        verdicts = ", ".join(f"{r.test}: {'yes' if r.distinguished else 'no'}" for r in self.results)
        return f"CheckTable({self._title()}; distinguished {verdicts})"


def check_table(G, H, tests: Sequence[str] = TESTS, *, rrwp_steps: int | None = None) -> CheckTable:
    """Run :func:`~wltools.refine.refine_pair` for ``tests`` on ``G`` and ``H`` (graphs, or specs
    :func:`~wltools.graphs.load_graph` reads: a file, a named graph such as ``"petersen"``, a
    graph6 string) and return the table."""
    from ..graphs import load_graph
    from ..refine import refine_pair

    names = (G if isinstance(G, str) else "G", H if isinstance(H, str) else "H")
    G = load_graph(G) if isinstance(G, str) else G
    H = load_graph(H) if isinstance(H, str) else H
    return CheckTable([refine_pair(G, H, t, rrwp_steps=rrwp_steps) for t in tests], names)
