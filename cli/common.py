"""What the command modules share: the error type shown as one line, the group class that
catches library errors, option types and help texts, and the output-target checks."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

import click

from wltools.errors import WLToolsError

class ReportedError(click.ClickException):
    """A library error shown to a person as one line, exit code 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class Group(click.Group):
    """Click group that turns library errors into :class:`ReportedError` and refuses an option
    given twice to a command that takes it once (:func:`repeated_option`)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except WLToolsError as exc:
            raise ReportedError(str(exc)) from exc
        except click.UsageError as exc:  # click's usage, hint and message: one line here, as every refusal
            if isinstance(exc, ReportedError) or exc.ctx is None or exc.ctx.command is self:
                raise
            raise ReportedError(f"{exc.format_message().rstrip('.')} (wltools {exc.ctx.command_path.partition(' ')[2]} "
                                "--help lists the options)") from exc

    def resolve_command(self, ctx, args):
        try:
            name, cmd, rest = super().resolve_command(ctx, args)
        except click.UsageError as exc:  # an unknown command: one line too
            raise ReportedError(f"{exc.format_message().rstrip('.')} ({ctx.command_path} --help lists the "
                                "commands)") from exc
        if cmd is not None and not isinstance(cmd, click.Group):
            why = repeated_option(cmd, rest)
            if why:
                raise ReportedError(why)
        return name, cmd, rest


def repeated_option(command: click.Command, args) -> str | None:
    """One line when ``args`` give an option of ``command`` that holds one value (not
    ``multiple=True``, not a counter) more than once, else None.

    Click keeps the last of such values silently (``hom cycle:4 petersen --root 0 --root 1`` counted
    for root 1 alone); repeatable options (``--category``, ``--set``, ``can-count --root``) say so in
    their help and are let through. ``--name=value`` and ``--name value`` are both read; ``--``
    ends the options; a flag and its ``--no-`` form are one option.

    Examples
    --------
    >>> cmd = click.Command("c", params=[click.Option(["--root"]), click.Option(["--tag"], multiple=True)])
    >>> repeated_option(cmd, ["--root", "0", "--tag", "a", "--tag", "b"]) is None
    True
    >>> repeated_option(cmd, ["--root", "0", "--root=1"])
    '--root given twice (0, then 1); it takes one value: give it once'
    """
    by_name = {}
    for p in command.params:
        if isinstance(p, click.Option):
            for opt in (*p.opts, *p.secondary_opts):
                by_name[opt] = p
    seen: dict = {}
    tokens = list(args)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        if tok == "--":
            break
        name, eq, value = tok.partition("=") if tok.startswith("--") else (tok, "", "")
        p = by_name.get(name)
        if p is None:
            continue
        if not (p.is_flag or p.count) and not eq and p.nargs == 1:
            value = tokens[i] if i < len(tokens) else ""
            i += 1
        if p.multiple or p.count:
            continue
        if p.name in seen:
            first_name, first = seen[p.name]
            if p.is_flag:
                both = "" if first_name == name else f" (as {first_name} and {name})"
                return f"{name} given twice{both}; give it once"
            return f"{name} given twice ({first}, then {value}); it takes one value: give it once"
        seen[p.name] = (name, value)
    return None



def given(param: str) -> bool:
    """Whether option ``param`` (its Python name) of the running command was given on the command
    line, not left at its default."""
    from click.core import ParameterSource

    return click.get_current_context().get_parameter_source(param) is ParameterSource.COMMANDLINE


def refuse_unused(param: str, option: str, used: bool, needs: str) -> None:
    """Refuse (one line, exit 2) option ``option`` given on the command line where it would have no
    effect (``used`` False): an ignored option is an input read two ways. ``needs`` says when it
    applies, e.g. ``"--explain"``."""
    if not used and given(param):
        raise ReportedError(f"{option} has no effect here: it needs {needs}; add that or leave {option} out")


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


class IsoTimeout(click.ParamType):
    """``--iso-timeout``: seconds > 0; ``inf``, ``none`` or anything at or above
    :data:`wltools.check.MAX_ISO_TIMEOUT` (11.6 days) mean no limit; NaN is refused."""

    name = "SECONDS"

    def convert(self, value, param, ctx):
        import math

        from wltools.check import MAX_ISO_TIMEOUT

        if value is None or isinstance(value, float) and value >= MAX_ISO_TIMEOUT:
            return None
        if isinstance(value, str) and value.strip().lower() in ("none", "inf", "infinity"):
            return None
        try:
            t = float(value)
        except (TypeError, ValueError):
            self.fail(f"expected a number of seconds > 0 (or inf), got {value!r}", param, ctx)
        if math.isnan(t) or t <= 0:
            self.fail(f"expected a number of seconds > 0 (or inf), got {value!r}", param, ctx)
        return None if t >= MAX_ISO_TIMEOUT else t


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


class Later:
    """A help text or default an option computes when first read (its ``--help``, or the command run
    without it), not when the command is defined (:class:`LazyOption`).

    Examples
    --------
    >>> later = Later(lambda: "computed")
    >>> later.value, later.value is later.value
    ('computed', True)
    """

    def __init__(self, compute: Callable[[], Any]):
        self._compute = compute

    @functools.cached_property
    def value(self) -> Any:
        return self._compute()


class LazyOption(click.Option):
    """An option whose ``help`` and ``default`` may be :class:`Later`: the WL tests' names in a help
    text or default come from their registry, which imports every test's module, and a command that
    is neither asked for that help nor run without that option must not pay for it (``wltools brec
    compare`` is defined beside ``brec theory``). The help reads, and the default is taken, exactly
    as given at once; give ``type`` with a :class:`Later` default (click guesses it from the default).

    Examples
    --------
    >>> opt = LazyOption(["--tests"], type=str, default=Later(lambda: "1wl,3wl"), help=Later(lambda: "Tests."))
    >>> opt.help, opt.get_default(click.Context(click.Command("c")))
    ('Tests.', '1wl,3wl')
    """

    def __init__(self, *args, help: str | Later | None = None, **kwargs):  # noqa: A002 - click's name
        later = help if isinstance(help, Later) else None
        super().__init__(*args, help=None if later else help, **kwargs)
        self._later_help = later

    @property
    def help(self) -> str | None:
        later = self.__dict__.get("_later_help")
        return inspect.cleandoc(later.value) if later is not None else self.__dict__.get("_help")

    @help.setter
    def help(self, value: str | None) -> None:
        self.__dict__["_later_help"] = None
        self.__dict__["_help"] = value

    def get_default(self, ctx, call: bool = True):
        value = super().get_default(ctx, call=call)
        return value.value if isinstance(value, Later) else value


def _names():
    import wltools.refine.names

    return wltools.refine.names


def tests_help(default: str | None = None, then: str = "") -> Later:
    """:func:`wltools.refine.names.tests_help` (``default`` as there) followed by ``then``, computed when read."""
    return Later(lambda: _names().tests_help(default) + then)


#: ``--bound``'s help (:func:`wltools.refine.names.bound_help`), the default ``--tests`` (the
#: default tests, :data:`wltools.refine.names.TESTS`) and ``--rrwp-steps``, computed when read.
BOUND_HELP = Later(lambda: _names().bound_help())
DEFAULT_TESTS = Later(lambda: ",".join(_names().TESTS))
DEFAULT_RRWP_STEPS = Later(lambda: _names().DEFAULT_RRWP_STEPS)

QUIET_HELP = ("No progress output: neither the bar (shown on a terminal) nor the one line per stage "
              "written when stderr is a file or a pipe; results and warnings are still printed.")

MAX_MEMORY_HELP = ("Refuse work whose estimated peak memory is above SIZE (e.g. 4G), before "
                    "starting it; default 80% of the memory free now.")

ISO_TIMEOUT_HELP = ("Stop the canonical labelling of graphs above 256 nodes (bliss, or Traces above "
                     "1,000 nodes where installed; in processes of their own) after SECONDS and "
                     "report isomorphism as undecided; cheap exact "
                     "invariants (degrees, components, triangles, 4-cycles, closed walks) are "
                     "compared first. inf, or 1000000 and above (11.6 days), means no limit.")


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
    from brec_runner.runs.dataset import select_ids

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
        if key.strip() in out:
            raise click.BadParameter(f"{key.strip()} is set twice; give each key once", param_hint="--set")
        try:
            out[key.strip()] = json.loads(raw)
        except ValueError:
            out[key.strip()] = raw
    return out


def _stack(*decorators):
    """One decorator applying ``decorators`` as if written in this order above a function (the
    order ``--help`` lists the options in)."""
    def apply(f):
        for decorator in reversed(decorators):
            f = decorator(f)
        return f
    return apply


def seed_device_options(f):
    """``--seed`` / ``--seeds`` (read by :func:`parse_seeds`) and ``--device``: the options of every
    command that trains a model."""
    return _stack(
        click.option("--seed", type=click.IntRange(min=0), default=None, help="One training seed (default 0)."),
        click.option("--seeds", default=None, help="Several training seeds, e.g. 0,1,2."),
        click.option("--device", default="cpu", show_default=True, type=click.Choice(["cpu", "cuda"])),
    )(f)


def set_option(f):
    """``--set KEY=VALUE`` (read by :func:`parse_set`): the factory's keyword arguments, for every
    command that trains a model (brec run, suite run, count run)."""
    return click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
                        help="Keyword argument of the model's factory / built-in config override (repeatable).")(f)


def allow_code_change_option(f):
    """``--allow-code-change``: resume a run directory another code version started (brec run,
    suite run, count run; :class:`brec_runner.records.record.RunDirectory`, :class:`brec_runner.counting.run.CountRun`)."""
    return click.option("--allow-code-change", is_flag=True,
                        help="Resume a run directory started by another code version (each record keeps its own).")(f)


def max_failures_option(f):
    """``--max-failures``: the failed units a run records and goes on after (brec run, suite run, count run)."""
    return click.option(
        "--max-failures", "max_failures", type=click.IntRange(min=0), default=10, show_default=True,
        help="Units whose model raises are recorded in RUN_DIR/failures.jsonl (one line on stderr each) "
             "and the run goes on; one more than this many stops it (exit 2). A resume retries them.")(f)


def report_options(plot_help: str):
    """``RUN_DIRS...`` and the ``--format`` / ``--plot`` / ``--out`` options of a ``report`` command;
    ``plot_help`` says what the plot shows."""
    return _stack(
        click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True)),
        click.option("--format", "fmt", type=click.Choice(["md", "json", "csv"]), default="md", show_default=True),
        click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None, help=plot_help),
        click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
                     help="Write the report here."),
    )


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



def _input_paths(inputs) -> list:
    """The existing files and folders a command reads, from its input arguments: a path as given,
    ``FILE`` of ``FILE:INDEX``, and the whole TU folder of a ``DS_A.txt``."""
    from pathlib import Path

    out = []
    for spec in inputs:
        if not spec:
            continue
        spec = str(spec)
        for cand in dict.fromkeys((spec, spec.rsplit(":", 1)[0])):
            p = Path(cand)
            if p.exists():
                out.append(p)
                if p.name.endswith("_A.txt"):
                    out.append(p.parent)
    return out


def check_inputs(*specs) -> None:
    """Refuse (one line, exit 2) an input that exists but is neither a regular file nor a folder: a
    FIFO would block its reader until some process writes to it, a device (``/dev/zero``) would
    never end. ``FILE:INDEX`` is checked as ``FILE``."""
    import os
    import stat

    from wltools.runtime.atomic import kind_of

    for spec in specs:
        for cand in dict.fromkeys((str(spec), str(spec).rsplit(":", 1)[0])) if spec else ():
            try:
                mode = os.stat(cand).st_mode
            except (OSError, ValueError):
                continue
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise ReportedError(f"{cand} is {kind_of(mode)}, not a regular file; give a graph file or folder")
            break


def check_output_file(option: str, target, inputs=()) -> None:
    """Refuse (one line, exit 2), before any work, an output that would replace what is not a regular
    file (a device such as /dev/null, a FIFO, a folder: :func:`wltools.runtime.atomic.output_target`;
    a link to a regular file is written through), what the project ships
    (:func:`wltools.runtime.shipped.refuse_shipped`: its data, committed reports, docs, source) or
    one of the command's ``inputs`` (the same file, a hard link included, or a file inside an input
    folder)."""
    import os
    from pathlib import Path

    from wltools.runtime.atomic import output_target
    from wltools.runtime.shipped import refuse_shipped

    if not target:
        return
    refuse_shipped(option, target, error=ReportedError)
    real = output_target(target, error=ReportedError)
    for p in _input_paths(inputs):
        if p.is_dir():
            if Path(os.path.realpath(real)).is_relative_to(os.path.realpath(p)):
                raise ReportedError(f"{option} {target} would write into the input folder {p}; write it elsewhere")
        elif real.exists() and os.path.samefile(real, p) or os.path.realpath(real) == os.path.realpath(p):
            raise ReportedError(f"{option} {target} would overwrite the input {p}; write it elsewhere")


def check_output_dir(option: str, target) -> None:
    """Refuse (one line, exit 2), before any work, an output folder (a run directory, a table
    folder) inside what the project ships (:func:`wltools.runtime.shipped.refuse_shipped`)."""
    from wltools.runtime.shipped import refuse_shipped

    refuse_shipped(option, target, error=ReportedError)


def check_output_target(option: str, target, run_dirs=(), inputs=()) -> None:
    """Refuse (one line, exit 2) an output path that would overwrite a run file
    (:func:`brec_runner.records.fileio.run_file_target`), an input or a non-regular file
    (:func:`check_output_file`): checked before any work."""
    if not target:
        return
    check_output_file(option, target, inputs)
    from brec_runner.records.fileio import run_file_target

    why = run_file_target(target, run_dirs)
    if why:
        raise ReportedError(f"{option} {target} would overwrite the run's records ({why}); write it elsewhere")


def check_report_targets(run_dirs, out_path, plot_path, inputs=()) -> None:
    """Refuse (one line, exit 2) an --out or --plot that would overwrite a run file of any run
    directory (:func:`brec_runner.records.fileio.run_file_target`), an input or a non-regular file
    (:func:`check_output_file`), the two naming one file, or a chart format matplotlib cannot
    write."""
    from pathlib import Path

    for option, target in (("--out", out_path), ("--plot", plot_path)):
        check_output_target(option, target, run_dirs, inputs)
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
    from wltools.runtime.atomic import write_atomic

    write_atomic(path, text, error=ReportedError)
