"""Drawings of the pairs a report singles out: missed although the declared bound separates them,
and separated beyond the bound.

For each such pair (:func:`figure_pairs`, from the report's ``pairs_by_class``) the two graphs are
drawn side by side, coloured by the bound's test (:func:`wltools.draw.figure.draw_pair`; at the
report's RRWP steps): for a missed pair the picture shows where the bound's colour histograms
first differ, for a pair beyond the bound the stable colouring the bound cannot split. Pairs come
from BREC (:func:`brec_runner.runs.dataset.load_pairs`) or from the run's suite
(:func:`brec_runner.runs.dataset.pairs_of`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wltools.errors import WLToolsError

__all__ = ["FIGURE_CLASSES", "PairFigure", "figure_pairs", "figure_test", "check_figures_dir", "draw_report_pairs",
           "render_pair_figures"]

#: The classes drawn: key in ``pairs_by_class`` -> (short name used in file names, heading).
FIGURE_CLASSES = {
    "unrealised": ("missed", "missed although the declared bound separates them"),
    "beyond_theory": ("beyond", "separated beyond the declared bound"),
}
#: short name -> heading.
FIGURE_CLASSES_BY_KIND = {kind: heading for kind, heading in FIGURE_CLASSES.values()}


@dataclass
class PairFigure:
    """One drawn pair: its id, class (``missed`` / ``beyond``), the test drawn, the image (PNG
    bytes) and the file it was written to (None when only rendered)."""

    id: int
    kind: str
    test: str
    png: bytes
    path: Path | None = None

    @property
    def file_name(self) -> str:
        """``pair-<id>-<kind>-<test>.png``."""
        return f"pair-{self.id:03d}-{self.kind}-{self.test}.png"


def figure_pairs(rep: dict[str, Any]) -> dict[str, list[int]]:
    """``{"missed": ids, "beyond": ids}`` of a report dict (:func:`brec_runner.reports.report.build_report`).

    Examples
    --------
    >>> figure_pairs({"pairs_by_class": {"unrealised": [4, 24], "beyond_theory": [{"id": 7, "seeds": [0]}]}})
    {'missed': [4, 24], 'beyond': [7]}
    """
    pc = rep.get("pairs_by_class") or {}
    out = {}
    for key, (kind, _) in FIGURE_CLASSES.items():
        out[kind] = [int(p["id"]) if isinstance(p, dict) else int(p) for p in pc.get(key) or []]
    return out


def figure_test(rep: dict[str, Any]) -> str | None:
    """The test the pairs are coloured by: the declared upper bound (None: no bound declared).

    Raises :class:`~wltools.draw.colourings.UnsupportedTestError` when its colourings cannot be drawn.
    """
    from wltools.draw import UnsupportedTestError, is_drawable

    test = (rep.get("theory") or {}).get("upper")
    if test and not is_drawable(test):
        raise UnsupportedTestError(f"cannot draw the report's pairs: the colourings of its bound {test} are not "
                                   "drawable (4-WL, M1 and M2 are not)")
    return test


def check_figures_dir(out_dir, run_dirs=(), *, create: bool = True) -> Path:
    """Refuse (:class:`~wltools.errors.WLToolsError`, one line) a figures folder that is a run
    directory or an existing file; create it (if ``create``)."""
    from wltools.runtime.shipped import refuse_shipped

    from ..records.fileio import run_file_target

    out = Path(out_dir)
    refuse_shipped("--figures", out)
    why = run_file_target(out, run_dirs)
    if why:
        raise WLToolsError(f"--figures {out_dir} would overwrite the run's records ({why}); write the drawings "
                           "elsewhere")
    if out.exists() and not out.is_dir():
        raise WLToolsError(f"--figures {out_dir} is a file, not a folder")
    if not create:
        return out
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WLToolsError(f"cannot create the figures folder {out_dir}: {exc.strerror}") from None
    return out


def render_pair_figures(rep: dict[str, Any], *, limit: int | None = None, progress: bool = False) -> list[PairFigure]:
    """PNG drawings of the report's missed and beyond-bound pairs (at most ``limit`` per class),
    coloured by the declared bound; none when no bound is declared. ``progress``: a bar on stderr."""
    import io

    from wltools.draw.figure import draw_pair
    from wltools.runtime.progress import progress_bar

    from ..runs.dataset import pairs_of

    test = figure_test(rep)
    if test is None:
        return []
    steps = (rep.get("theory") or {}).get("rrwp_steps") if test == "rrwp" else None
    todo = [(kind, ids if limit is None else ids[:limit]) for kind, ids in figure_pairs(rep).items()]
    bar = progress_bar(total=sum(len(ids) for _, ids in todo), desc="draw pairs", unit="pair", enabled=progress)
    out = []
    for kind, ids in todo:
        for pair in pairs_of(rep.get("suite"), ids) if ids else []:
            where = f"{rep['suite']} pair" if rep.get("suite") else "BREC pair"
            names = (f"{where} {pair.id} G", f"{where} {pair.id} H")
            title = f"{where} {pair.id} ({pair.category}), {FIGURE_CLASSES_BY_KIND[kind]}"
            fig = draw_pair(pair.g, pair.h, test, rrwp_steps=steps, names=names, title=title)
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=90, metadata={"Software": None})
            out.append(PairFigure(pair.id, kind, test, buf.getvalue()))
            bar.update()
    bar.close()
    return out


def draw_report_pairs(rep: dict[str, Any], out_dir, run_dirs=(), *, limit: int | None = None,
                      progress: bool = False) -> list[PairFigure]:
    """Write the drawings of :func:`render_pair_figures` into ``out_dir`` (created; refused when it
    is a run directory or a file) as ``pair-<id>-<missed|beyond>-<test>.png``, atomically."""
    from ..records.fileio import atomic_path

    out = check_figures_dir(out_dir, run_dirs)
    figures = render_pair_figures(rep, limit=limit, progress=progress)
    for f in figures:
        f.path = out / f.file_name
        with atomic_path(f.path, error=WLToolsError) as tmp:
            tmp.write_bytes(f.png)
    return figures
