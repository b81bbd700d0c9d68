"""What the command modules share: the error type shown as one line, the group class that
catches library errors, option types and help texts, and the output-target checks."""

from __future__ import annotations

import click

from wltools.errors import WLToolsError

class ReportedError(click.ClickException):
    """A library error shown to a person as one line, exit code 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class Group(click.Group):
    """Click group that turns library errors into :class:`ReportedError`."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except WLToolsError as exc:
            raise ReportedError(str(exc)) from exc



class MemorySize(click.ParamType):
    """A memory size such as 4G, 512M or 1.5GiB (:func:`wltools.runtime.memory.parse_size`), in bytes."""

    name = "SIZE"

    def convert(self, value, param, ctx):
        from wltools.runtime.memory import parse_size

        if isinstance(value, int):
            return value
        try:
            return parse_size(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


class TestName(click.Choice):
    """A test name of the choices, or ``nK`` (BREC's ego-network test of radius K, any K >= 1)."""

    def convert(self, value, param, ctx):
        from wltools.refine.names import is_test_name

        if isinstance(value, str) and is_test_name(value.strip().lower()):
            return value.strip().lower()
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"{value!r} is not a test: choose from {', '.join(self.choices)}, or nK (K >= 1: "
                      "the ego-network test of radius K)", param, ctx)


QUIET_HELP = ("No progress output: neither the bar (shown on a terminal) nor the one line per stage "
              "written when stderr is a file or a pipe; results and warnings are still printed.")

MAX_MEMORY_HELP = ("Refuse work whose estimated peak memory is above SIZE (e.g. 4G), before "
                    "starting it; default 80% of the memory free now.")

ISO_TIMEOUT_HELP = ("Stop the canonical labelling of graphs above 256 nodes (bliss, in a child "
                     "process) after SECONDS and report isomorphism as undecided; cheap exact "
                     "invariants (degrees, components, triangles, 4-cycles, closed walks) are "
                     "compared first.")


def table(rows: list[tuple[str, ...]]) -> list[str]:
    """Left-aligned columns separated by two spaces."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]


def out_of_memory(what: str) -> ReportedError:
    return ReportedError(f"out of memory while {what}; the estimate was too low: give a smaller "
                         "input or a lower --max-memory, and report this")


NODE_ATTR_HELP = ("Node attribute of GraphML / node-link JSON inputs to use as node labels (numbers, "
                   "strings, or lists of them: feature rows); smiles: inputs always carry atom labels.")
EDGE_ATTR_HELP = "Edge attribute of GraphML / node-link JSON inputs to use as edge labels."


def brec_selection(category: tuple[str, ...], pairs: str | None) -> list[int]:
    """Pair ids from ``--category`` (repeatable, or comma-separated) and ``--pairs`` ranges."""
    from brec_runner.dataset import select_ids

    return select_ids(list(category) or None, pairs)


CATEGORY_HELP = (
    "BREC category (repeatable or comma-separated): basic, regular, simple_regular, "
    "strongly_regular, extension, cfi, 4vertex, distance_regular, regular140."
)



def parse_set(values) -> dict:
    """``--set key=value`` pairs; values are read as JSON when they parse, else kept as text."""
    import json

    out = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected key=value, got {item!r}", param_hint="--set")
        try:
            out[key.strip()] = json.loads(raw)
        except ValueError:
            out[key.strip()] = raw
    return out


def parse_seeds(seed, seeds) -> list[int]:
    if seed is not None and seeds is not None:
        raise click.BadParameter("give --seed or --seeds, not both", param_hint="--seeds")
    if seeds is None:
        return [0 if seed is None else seed]
    try:
        out = [int(s) for s in seeds.split(",") if s.strip()]
    except ValueError:
        raise click.BadParameter(f"expected comma-separated integers, got {seeds!r}", param_hint="--seeds") from None
    if not out or len(set(out)) != len(out):
        raise click.BadParameter(f"expected distinct comma-separated integers, got {seeds!r}", param_hint="--seeds")
    if min(out) < 0:  # numpy's SeedSequence, which derives each unit's seed, takes none below 0
        raise click.BadParameter(f"seeds are integers >= 0, got {min(out)}", param_hint="--seeds")
    return out


class MultiPair(click.ParamType):
    """``--multi-pair``: a group size G >= 1, or ``auto``."""

    name = "G|auto"

    def convert(self, value, param, ctx):
        if value is None or value == "auto":
            return value
        try:
            g = int(value)
        except (TypeError, ValueError):
            self.fail(f"expected a group size >= 1 or 'auto', got {value!r}", param, ctx)
        if g < 1:
            self.fail(f"expected a group size >= 1 or 'auto', got {value!r}", param, ctx)
        return g



def check_output_target(option: str, target, run_dirs=()) -> None:
    """Refuse (one line, exit 2) an output path that would overwrite a run file
    (:func:`brec_runner.fileio.run_file_target`): checked before any work."""
    from brec_runner.fileio import run_file_target

    why = run_file_target(target, run_dirs) if target else None
    if why:
        raise ReportedError(f"{option} {target} would overwrite the run's records ({why}); write it elsewhere")


def check_report_targets(run_dirs, out_path, plot_path) -> None:
    """Refuse (one line, exit 2) an --out or --plot that would overwrite a run file of any run
    directory (:func:`brec_runner.fileio.run_file_target`), the two naming one file, or a chart
    format matplotlib cannot write."""
    from pathlib import Path

    for option, target in (("--out", out_path), ("--plot", plot_path)):
        check_output_target(option, target, run_dirs)
    if out_path and plot_path and Path(out_path).resolve() == Path(plot_path).resolve():
        raise ReportedError(f"--out and --plot name the same file {out_path}")
    if plot_path:
        from matplotlib.backend_bases import FigureCanvasBase

        suffix = Path(plot_path).suffix.lower().lstrip(".")
        formats = FigureCanvasBase.get_supported_filetypes()
        if suffix not in formats:
            raise ReportedError(f"--plot {plot_path}: " + (f"matplotlib cannot write a .{suffix} chart" if suffix else
                                "no file suffix to choose the chart format by") + "; use .png, .pdf or .svg")


def write_text(path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a temporary file beside it, fsynced, renamed); an
    unwritable path is one error line."""
    from brec_runner.fileio import write_atomic

    write_atomic(path, text, error=ReportedError)
