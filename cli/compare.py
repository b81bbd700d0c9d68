"""`wltools brec compare` and `wltools suite compare`: models side by side, one table of many runs."""

from __future__ import annotations

import click

from cli.common import check_report_targets, write_text


def _options(fn):
    """The options both commands share."""
    fn = click.option("--skip-bad", is_flag=True,
                      help="Skip results lines that fail their checks (as brec report), counting them per row, "
                           "instead of stopping at the first.")(fn)
    fn = click.option("--no-theory", is_flag=True, help="Leave out the bound's and 3-WL's counts.")(fn)
    fn = click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
                      help="Also write a grouped bar figure (PNG, PDF or SVG): realised per row, the bound and "
                           "3-WL as markers.")(fn)
    fn = click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
                      help="Write the table here instead of stdout (atomically; never over a run file).")(fn)
    fn = click.option("--format", "fmt", type=click.Choice(["md", "csv", "json", "latex", "html"]), default="md",
                      show_default=True, help="latex: a booktabs tabular; html: one self-contained page.")(fn)
    return click.argument("paths", nargs=-1, required=True, metavar="RUN_OR_DIR...")(fn)


def _compare(paths, fmt, out_path, plot_path, no_theory, skip_bad, suite: bool) -> None:
    from brec_runner.records.fileio import atomic_path
    from brec_runner.reports.compare import compare_runs, find_runs
    from brec_runner.reports.compare_format import format_comparison, plot_comparison

    from cli.common import ReportedError

    runs, _ = find_runs(paths, suite=suite)  # bad paths: one line, before any output is checked or written
    check_report_targets([str(d) for d in runs], out_path, plot_path)
    cmp = compare_runs(paths, suite=suite, theory=not no_theory, skip_bad=skip_bad)
    text = format_comparison(cmp, fmt)
    if plot_path:  # first: a figure that cannot be written stops the command before any table is out
        with atomic_path(plot_path, error=ReportedError) as tmp:
            plot_comparison(cmp, tmp)
        click.echo(f"plot: {plot_path}", err=True)
    if out_path:
        write_text(out_path, text)
        click.echo(f"table: {out_path}", err=True)
    else:
        click.echo(text, nl=False)
    for f in cmp["skipped_files"]:
        click.echo(f"note: {f} is a file, not a run directory: left out", err=True)
    skipped = sum(len(r["skipped_lines"]) for r in cmp["rows"])
    if skipped:
        click.echo(f"warning: {skipped} untrustworthy results line(s) skipped (counted per row)", err=True)
    duplicates = sum(r.get("duplicate_units") or 0 for r in cmp["rows"])
    if duplicates:
        from brec_runner.reports.formatting import duplicates_line

        click.echo(f"note: {duplicates_line(duplicates)}", err=True)
    not_invariant = [r for r in cmp["rows"] if r.get("not_invariant_units")]
    if not_invariant:
        units = sum(r["not_invariant_units"] for r in not_invariant)
        click.echo(f"warning: {len(not_invariant)} row(s) hold {units} (pair, seed) unit(s) of models that failed the "
                   "permutation-invariance probe (marked 'not permutation invariant' in the table)", err=True)
    unfinished = [r for r in cmp["rows"] if r["unfinished"]]
    if unfinished:
        click.echo(f"warning: {len(unfinished)} row(s) of unfinished runs (marked in the table)", err=True)


@click.command("compare")
@_options
def brec_compare(paths, fmt, out_path, plot_path, no_theory, skip_bad):
    """One table of BREC runs: models as rows (declared bound, seeds), categories and the total as
    columns, each cell realised / bound / 3-WL.

    RUN_OR_DIR: run directories, or folders holding them (e.g. reports/brec-runs). Runs of one
    settings merge (seeds: mean ± std); runs of one model under different settings are separate rows
    labelled by what differs. Theory comes from the committed tables where they hold it, else it
    is computed (cached).
    """
    _compare(paths, fmt, out_path, plot_path, no_theory, skip_bad, suite=False)


@click.command("compare")
@_options
def suite_compare(paths, fmt, out_path, plot_path, no_theory, skip_bad):
    """One table of suite runs (wltools suite run): models as rows, suites as columns, each cell
    realised / bound / 3-WL (as brec compare).

    RUN_OR_DIR: run directories, or folders holding them (e.g. reports/suite-runs).
    """
    _compare(paths, fmt, out_path, plot_path, no_theory, skip_bad, suite=True)
