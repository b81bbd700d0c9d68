"""One self-contained HTML page of a BREC report: the table, the bar chart and the pair drawings.

The page holds the Markdown report of :func:`brec_runner.reports.formatting.format_report` (so its text and
table are the same as ``brec report``'s, converted by :func:`markdown_to_html`), the chart of
:func:`brec_runner.reports.formatting.plot_report` and the drawings of
:func:`brec_runner.reports.figures.render_pair_figures`, the images inlined as base64 PNG: no
script, stylesheet, font or image is fetched, so the file opens offline and can be mailed alone.

Sections (``<section id=...>``, ids suffixed ``-2``, ``-3``, ... for the further reports of a
mixed run): ``summary`` (title, settings, coverage), ``table`` (counts per category), ``plot``,
``pairs`` (pairs by class), ``drawings``.
"""

from __future__ import annotations

import base64
import html
import re
import tempfile
from pathlib import Path
from typing import Any, Sequence

from .formatting import format_report, plot_report

__all__ = ["SECTIONS", "markdown_to_html", "report_sections", "report_fragment", "report_html", "write_html",
           "check_html_target", "DRAWINGS_PER_CLASS", "html_page", "png_tag"]

#: The section ids of one report, in page order.
SECTIONS = ("summary", "table", "plot", "pairs", "drawings")

#: Drawings per class (missed, beyond the bound) inlined into a page by default.
DRAWINGS_PER_CLASS = 12

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 72em;
       color: #222; line-height: 1.45; padding: 0 1em; }
h1 { font-size: 1.6em; border-bottom: 2px solid #ddd; padding-bottom: .2em; }
h2 { font-size: 1.25em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 1em 0; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .3em .6em; text-align: right; }
th { background: #f0f3f7; }
td:first-child, th:first-child { text-align: left; }
tr:nth-child(even) td { background: #fafafa; }
img { max-width: 100%; border: 1px solid #eee; }
figure { margin: 1em 0 2em 0; }
figcaption { font-size: .9em; color: #555; }
code { background: #f4f4f4; padding: 0 .2em; }
"""


def _inline(text: str) -> str:
    """Escape ``text`` and render Markdown ``**bold**`` and ```code```."""
    out = html.escape(text, quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", out)


def _table(lines: list[str]) -> str:
    """A Markdown table (its ``|---|`` line dropped) as an HTML table."""
    rows = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in lines]
    rows = [r for r in rows if not all(set(c) <= set("-: ") for c in r)]  # the |---| separator
    head, body = rows[0], rows[1:]
    out = ["<table>", "<thead><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in head) + "</tr></thead>", "<tbody>"]
    out += ["<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in body]
    return "\n".join(out + ["</tbody>", "</table>"])


def markdown_to_html(md: str) -> str:
    """The Markdown the reports use (``#`` headings, paragraphs, ``- `` lists, ``|`` tables,
    fenced code, bold, code spans) as HTML.

    Examples
    --------
    >>> markdown_to_html("# T\\n\\ntext **b**\\n\\n- x\\n- y\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |")
    '<h1>T</h1>\\n<p>text <strong>b</strong></p>\\n<ul>\\n<li>x</li>\\n<li>y</li>\\n</ul>\\n<table>\\n<thead><tr><th>a</th><th>b</th></tr></thead>\\n<tbody>\\n<tr><td>1</td><td>2</td></tr>\\n</tbody>\\n</table>'
    """
    blocks, lines, i = [], md.splitlines(), 0
    while i < len(lines):
        ln = lines[i]
        if not ln.strip():
            i += 1
        elif ln.startswith("```"):
            j = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), len(lines))
            blocks.append("<pre><code>" + html.escape("\n".join(lines[i + 1 : j])) + "</code></pre>")
            i = j + 1
        elif m := re.match(r"^(#{1,6}) (.*)$", ln):
            level = len(m.group(1))
            blocks.append(f"<h{level}>{_inline(m.group(2))}</h{level}>")
            i += 1
        else:
            kind = "table" if ln.lstrip().startswith("|") else ("list" if ln.startswith("- ") else "p")
            j = i + 1
            while j < len(lines) and lines[j].strip() and _kind(lines[j]) == kind:
                j += 1
            chunk = lines[i:j]
            if kind == "table":
                blocks.append(_table(chunk))
            elif kind == "list":
                blocks.append("<ul>\n" + "\n".join(f"<li>{_inline(x[2:])}</li>" for x in chunk) + "\n</ul>")
            else:
                blocks.append("<p>" + _inline(" ".join(chunk)) + "</p>")
            i = j
    return "\n".join(blocks)


def _kind(line: str) -> str:
    """The Markdown block a line belongs to: table, list, a break (heading, fence) or paragraph."""
    if line.lstrip().startswith("|"):
        return "table"
    if line.startswith("- "):
        return "list"
    if line.startswith("#") or line.startswith("```"):
        return "break"
    return "p"


def report_sections(rep: dict[str, Any]) -> dict[str, str]:
    """The Markdown report split into ``summary`` (up to the table), ``table`` and ``pairs``
    (from ``## Pairs by class``)."""
    lines = format_report(rep, "md").splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith("|")), len(lines))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    pairs = next((i for i in range(end, len(lines)) if lines[i].startswith("## ")), len(lines))
    return {"summary": "\n".join(lines[:start]), "table": "\n".join(lines[start:pairs]),
            "pairs": "\n".join(lines[pairs:])}


def _png_tag(png: bytes, alt: str) -> str:
    """An ``<img>`` with the PNG inlined as base64."""
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}">'


def _plot_png(rep: dict[str, Any]) -> bytes:
    """The bar chart of :func:`~brec_runner.reports.formatting.plot_report` as PNG bytes."""
    with tempfile.TemporaryDirectory() as d:
        return plot_report(rep, Path(d) / "plot.png").read_bytes()


def _drawings(rep: dict[str, Any], figures) -> str:
    """The drawings section: per class (missed, beyond the bound) its figures, and how many were left out."""
    from .figures import FIGURE_CLASSES_BY_KIND, figure_pairs

    wanted = figure_pairs(rep)
    test = (rep.get("theory") or {}).get("upper")
    if figures is None:
        return "<p>Pair drawings not made.</p>"
    if not test:
        return "<p>No bound declared: no pair is missed or beyond it, nothing to draw.</p>"
    out = [f"<p>Both graphs of each pair side by side, nodes coloured by the declared bound ({html.escape(test)}): "
           "the outlined class is the one whose counts differ most at the round shown.</p>"]
    for kind, heading in FIGURE_CLASSES_BY_KIND.items():
        drawn = [f for f in figures if f.kind == kind]
        out.append(f"<h3>Pairs {html.escape(heading)} ({len(wanted[kind])})</h3>")
        if not wanted[kind]:
            out.append("<p>none</p>")
        for f in drawn:
            out.append(f"<figure id=\"pair-{f.id}-{kind}\">{_png_tag(f.png, f'pair {f.id}')}"
                       f"<figcaption>pair {f.id}, {html.escape(heading)}, coloured by {html.escape(f.test)}"
                       "</figcaption></figure>")
        if len(drawn) < len(wanted[kind]):
            out.append(f"<p>{len(wanted[kind]) - len(drawn)} more not drawn here (<code>brec report --figures DIR</code> "
                       "draws them all).</p>")
    return "\n".join(out)


def report_fragment(rep: dict[str, Any], *, sections: Sequence[str] = SECTIONS, figures=None,
                    suffix: str = "") -> str:
    """The ``sections`` of one report as HTML (no page around them): the body of
    :func:`report_html`, and what a notebook shows (summary, table, pairs). ``figures``:
    :class:`~brec_runner.reports.figures.PairFigure` list (None: the drawings section says none
    were made)."""
    parts = report_sections(rep)
    body = {
        "summary": lambda: markdown_to_html(parts["summary"]),
        "table": lambda: "<h2>Counts per category</h2>\n" + markdown_to_html(parts["table"]),
        "plot": lambda: "<h2>Chart</h2>\n" + _png_tag(_plot_png(rep), "bar chart per category"),
        "pairs": lambda: markdown_to_html(parts["pairs"]),
        "drawings": lambda: "<h2>Pair drawings</h2>\n" + _drawings(rep, figures),
    }
    return "\n".join(f'<section id="{name}{suffix}">\n{body[name]()}\n</section>' for name in sections)


def report_html(reps: dict[str, Any] | Sequence[dict[str, Any]], *, figures: bool = True,
                limit: int | None = DRAWINGS_PER_CLASS) -> str:
    """A whole self-contained HTML page of one report dict or several (one after the other),
    with the chart and, if ``figures``, the drawings of at most ``limit`` pairs per class."""
    from .figures import render_pair_figures

    reps = [reps] if isinstance(reps, dict) else list(reps)
    title = "BREC report: " + ", ".join(r.get("model", "?") for r in reps)
    articles = []
    for i, rep in enumerate(reps):
        figs = render_pair_figures(rep, limit=limit) if figures else None
        articles.append(f"<article>\n{report_fragment(rep, figures=figs, suffix='' if i == 0 else f'-{i + 1}')}\n</article>")
    return html_page(title, "\n".join(articles))


def html_page(title: str, body: str) -> str:
    """A self-contained page (this module's style inlined) around the HTML ``body``."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            + body + "\n</body>\n</html>\n")


def png_tag(png: bytes, alt: str) -> str:
    """An ``<img>`` with the PNG inlined as base64 (no file fetched)."""
    return _png_tag(png, alt)


def check_html_target(path, run_dirs=(), others=()) -> Path:
    """Refuse (:class:`~wltools.errors.WLToolsError`, one line) an HTML target that would
    overwrite a run file or a run directory (:func:`brec_runner.records.fileio.run_file_target`), is a
    folder, or is one of ``others`` (the report's other outputs, e.g. ``--out``).

    Examples
    --------
    >>> check_html_target("runs/x/config.json")
    Traceback (most recent call last):
    ...
    wltools.errors.WLToolsError: --html runs/x/config.json would overwrite the run's records (it is named like a run file (config.json)); write it elsewhere
    """
    from wltools.errors import WLToolsError

    from ..records.fileio import run_file_target

    why = run_file_target(path, run_dirs)
    if why:
        raise WLToolsError(f"--html {path} would overwrite the run's records ({why}); write it elsewhere")
    target = Path(path)
    if target.is_dir():
        raise WLToolsError(f"--html {path} is a folder; give a file name such as {target / 'report.html'}")
    for other in others:
        if other and Path(other).resolve() == target.resolve():
            raise WLToolsError(f"--html and another output name the same file {path}")
    return target


def write_html(reps, path, *, figures: bool = True, limit: int | None = DRAWINGS_PER_CLASS) -> Path:
    """Write :func:`report_html` to ``path`` atomically; an unwritable path is one
    :class:`~wltools.errors.WLToolsError` line."""
    from wltools.errors import WLToolsError

    from ..records.fileio import write_atomic

    return write_atomic(path, report_html(reps, figures=figures, limit=limit), error=WLToolsError)
