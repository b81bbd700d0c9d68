"""`wltools brec ...`: data checks, theoretical verdicts, model runs, reports."""

from __future__ import annotations

import click

from wltools.errors import WLToolsError
from cli.common import (BOUND_HELP, CATEGORY_HELP, DEFAULT_RRWP_STEPS, DEFAULT_TESTS, QUIET_HELP, Group, LazyOption,
                        MultiPair, ReportedError, allow_code_change_option, brec_selection, check_output_dir,
                        check_output_file, check_report_targets, max_failures_option, parse_seeds, parse_set,
                        report_options, seed_device_options, set_option, table, tests_help, write_text)


@click.group(cls=Group)
def brec() -> None:
    """The BREC benchmark: data integrity, theoretical verdicts, model runs and reports."""


@brec.command("verify-data")
@click.option("--seed", type=click.IntRange(min=0), default=None, help="Relabeling seed (default: the runner's, 0).")
@click.option("--category", multiple=True, help=CATEGORY_HELP)
@click.option("--pairs", default=None, help="Pair id ranges, e.g. 0-59,260-269.")
@click.option("--quiet", is_flag=True, help=QUIET_HELP)
def brec_verify_data(seed: int | None, category: tuple[str, ...], pairs: str | None, quiet: bool) -> None:
    """Prove the BREC data sound with pynauty.

    Checks that every pair is non-isomorphic, every graph simple and undirected, and every one of
    the 32+32 relabelings and 64 reliability graphs of each pair isomorphic to its source.
    """
    from brec_runner.runs.dataset import load_pairs, verify_data
    from brec_runner.runs.protocol import Protocol

    ids = brec_selection(category, pairs)
    seed = Protocol().relabel_seed if seed is None else seed
    summary = verify_data(load_pairs(ids=ids), seed=seed, progress=not quiet)
    cats = ", ".join(f"{k} {v}" for k, v in summary["per_category"].items())
    click.echo(
        f"OK: {summary['pairs']} pairs non-isomorphic ({cats}); {summary['graphs']} graphs simple "
        f"and undirected; {summary['relabelings']} relabelings and {summary['reliability_graphs']} "
        f"reliability graphs (seed {summary['seed']}) isomorphic to their sources."
    )


@brec.command("theory")
@click.option("--tests", cls=LazyOption, type=str, default=DEFAULT_TESTS, show_default=True,
              help=tests_help(then=" 3fwl takes minutes per large CFI pair."))
@click.option("--rrwp-steps", cls=LazyOption, type=click.IntRange(min=1), default=DEFAULT_RRWP_STEPS,
              show_default=True, help="RRWP steps K for the rrwp test.")
@click.option("--category", multiple=True, help=CATEGORY_HELP)
@click.option("--pairs", default=None, help="Pair id ranges, e.g. 0-59,260-269.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="runs/brec-theory",
              show_default=True, help="Output folder (verdicts.json, verdicts.csv, README.md); the committed "
                                      "table is regenerated with --out reports/brec-theory and "
                                      "WLTOOLS_REGENERATE_REPORTS=1 in the environment.")
@click.option("--exact", is_flag=True, help="Use the exact refinement path instead of the fast one.")
@click.option("--no-cache", is_flag=True, help="Recompute instead of reading the verdict cache.")
@click.option("--quiet", is_flag=True, help=QUIET_HELP)
def brec_theory(tests: str, rrwp_steps: int, category: tuple[str, ...], pairs: str | None,
                out_dir: str, exact: bool, no_cache: bool, quiet: bool) -> None:
    """Theoretical verdict of each WL-family test on each BREC pair, with tables.

    Writes per-pair verdicts (iterations, witness) as JSON and CSV and a Markdown table of counts
    and runtimes per category; verdicts are cached and recomputed only when settings change.
    """
    from brec_runner.reports.theory import parse_tests
    from brec_runner.reports.theory_report import run_theory, terminal_summary, write_report

    test_names = parse_tests(tests)
    ids = brec_selection(category, pairs)
    check_output_dir("--out", out_dir)  # its README.md would replace BREC's (or a committed table)
    report = run_theory(test_names, rrwp_steps, ids=ids, fast=not exact, progress=not quiet,
                        use_cache=not no_cache)
    paths = write_report(report, out_dir)  # README.md states the command, --out included
    click.echo(terminal_summary(report, out_dir))
    click.echo(f"\nwrote {paths['markdown']} (every table: published counts, runtimes, settings), {paths['json']}, "
               f"{paths['csv']}")



@brec.command("run")
@click.option("--model", "model_name", required=True, metavar="NAME|MODULE:ATTR|PATH.py:ATTR",
              help="A registered model (wltools models list), or your own factory: MODULE:ATTR or PATH.py:ATTR.")
@click.option("--preset", default=None, help="Preset of a built-in model (default brec = paper config).")
@click.option("--bound", cls=LazyOption, default=None, metavar="TEST|LOWER,UPPER",
              help=BOUND_HELP)
@click.option("--transform", default=None, metavar="MODULE:ATTR|PATH.py:ATTR",
              help="A PyG transform applied once per graph (default: the factory's transform attribute).")
@click.option("--category", "categories", multiple=True, help=CATEGORY_HELP)
@click.option("--pairs", "pair_spec", default=None, help="Pair id ranges, e.g. 0-59,260-269.")
@seed_device_options
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Run directory (default runs/brec-MODEL-PRESET); re-running into it resumes.")
@click.option("--shard", default=None, help="K/N: run only the K-th of N round-robin slices of the pairs.")
@click.option("--multi-pair", "multi_pair", type=MultiPair(), default="auto", show_default=True,
              help="Train up to G (pair, seed) units at once (torch.func vmap over stacked parameters); "
                   "most models group only the seeds of one pair, so pair it with --seeds. 'auto': with "
                   "several seeds, group the seeds of one pair only when a short timed probe finds it "
                   "faster; the run directory records the decision and resumes keep it. 1: the loop.")
@click.option("--epochs", type=click.IntRange(min=0), default=None, help="Override the protocol's epochs.")
@click.option("--lr", type=click.FloatRange(min=0, min_open=True), default=None, help="Override the learning rate.")
@click.option("--batch-size", type=click.IntRange(min=2), default=None, help="Override the training batch size (even).")
@click.option("--weight-decay", type=click.FloatRange(min=0), default=None, help="Override the weight decay.")
@click.option("--loss-threshold", "loss_threshold", type=click.FloatRange(min=0), default=None,
              help="Override the early-stop loss threshold (0: train every epoch).")
@click.option("--threshold", "threshold_rule", type=click.Choice(["reference", "exact"]), default=None,
              help="T² threshold: the reference evaluator's two-decimal 72.34 (reference, default) or the "
                   "exact critical value 72.33799... (exact).")
@allow_code_change_option
@set_option
@click.option("--eval-batch-size", type=click.IntRange(min=2), default=None,
              help="Graphs per test batch (default: all 64 at once).")
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True,
              help="torch CPU threads (BREC graphs are small: one thread is fastest).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local processes sharing the run (units split between them; same verdicts as one).")
@click.option("--executor", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="ray: each unit (or --multi-pair window) is a Ray task; needs pip install -e \".[ray]\".")
@click.option("--address", default=None, metavar="ADDR",
              help="With --executor ray: a running Ray cluster (auto, HOST:PORT, ray://HOST:PORT); "
                   "default $RAY_ADDRESS, else a local Ray instance for this run.")
@click.option("--gpus-per-unit", "gpus_per_unit", type=click.FloatRange(min=0), default=0.0,
              help="With --executor ray: GPUs per task; a fraction (0.25) lets units share a GPU.")
@click.option("--cpus-per-unit", "cpus_per_unit", type=click.FloatRange(min=0, min_open=True), default=None,
              help="With --executor ray: CPUs per task (default: --threads).")
@max_failures_option
@click.option("--quiet", is_flag=True, help=QUIET_HELP)
def brec_run(model_name, preset, bound, transform, categories, pair_spec, seed, seeds, device, out_dir, shard,
             multi_pair, epochs, lr, batch_size, weight_decay, loss_threshold, threshold_rule, allow_code_change, sets, eval_batch_size, threads, workers, executor,
             address, gpus_per_unit, cpus_per_unit, max_failures, quiet):
    """Train and test MODEL on BREC pairs with the RPC protocol, into a resumable run directory.

    MODEL is a built-in or plugin name, or your own model factory (docs/your-model.md):
    `--model examples/gin.py:gin`. Writes RUN_DIR/config.json and one line per (pair, seed) to
    RUN_DIR/results.jsonl (results-shard-K-of-N.jsonl with --shard). The model is checked against
    the contract before anything is written. Protocol changes of the built-in models:
    brec_runner/configs/MODEL.json. --workers W runs W local processes of --threads threads each;
    --executor ray runs the units as Ray tasks on a cluster (docs/cluster.md).
    """
    from brec_runner.runs.evaluate import run
    from brec_runner.runs.plan import parse_shard
    from brec_runner.runs.settings import RunSettings

    try:
        ids = brec_selection(categories, pair_spec)  # both given: their intersection
    except (ValueError, WLToolsError) as exc:
        raise click.BadParameter(str(exc), param_hint="--category/--pairs") from None
    seed_list = parse_seeds(seed, seeds)
    check_output_dir("--out", out_dir)
    shard_kn = None
    if shard is not None:
        try:
            shard_kn = parse_shard(shard)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--shard") from None
    overrides = {k: v for k, v in {"epochs": epochs, "lr": lr, "batch_size": batch_size,
                                   "weight_decay": weight_decay, "loss_threshold": loss_threshold,
                                   "threshold_rule": threshold_rule}.items() if v is not None}
    settings = RunSettings(preset=preset, bound=bound, transform=transform, options=parse_set(sets),
                           protocol=overrides, categories=None, pairs=ids, seeds=seed_list, device=device, out=out_dir,
                           shard=shard_kn, multi_pair=multi_pair, progress=not quiet, eval_batch_size=eval_batch_size,
                           threads=threads, workers=workers, executor=executor, address=address,
                           gpus_per_unit=gpus_per_unit, cpus_per_unit=cpus_per_unit,
                           allow_code_change=allow_code_change, max_failures=max_failures)
    out = run(model_name, settings)
    click.echo(f"run directory: {out}")


@brec.command("report")
@report_options(plot_help="Write a bar chart (PNG).")
@click.option("--no-theory", is_flag=True, help="Skip the theoretical verdicts (faster).")
@click.option("--skip-bad", is_flag=True,
              help="Skip results lines that fail their checks (checksum, settings, verdict), listing and counting "
                   "them in the report, instead of stopping at the first.")
@click.option("--allow-mixed", is_flag=True,
              help="Accept run directories of different models or settings: one report per setting.")
@click.option("--html", "html_path", default=None, metavar="FILE",
              help="Also write one self-contained HTML page: the table, the chart and the pair drawings (offline).")
@click.option("--figures", "figures_dir", default=None, metavar="DIR",
              help="Also draw into DIR the pairs missed although the declared bound separates them and those "
                   "separated beyond it (a PNG each, coloured by the bound's test).")
@click.option("--explain", is_flag=True,
              help="Also name, for each pair missed although the declared bound separates it, the smallest pattern "
                   "of the bound's homomorphism family whose counts into the two graphs differ (md and json; "
                   "bounds with a family: see wltools patterns).")
def brec_report(run_dirs, fmt, plot_path, out_path, no_theory, skip_bad, allow_mixed, html_path, figures_dir,
                explain):
    """Realised vs theoretical counts per category from RUN_DIRS (shards and seeds are merged).

    Every results line is checked against its run's config.json (checksum, settings, code version,
    verdict recomputed from its T²); a bad line stops the report with its file and line, unless
    --skip-bad. Directories of different settings are refused unless --allow-mixed. --out and --plot
    never overwrite a run file (results*.jsonl, config.json, ...); both are written atomically.
    """
    from pathlib import Path

    from brec_runner.reports.report import build_reports, format_report, plot_report
    from wltools.runtime.atomic import atomic_path

    check_report_targets(run_dirs, out_path, plot_path)
    if explain and (no_theory or fmt == "csv"):
        raise ReportedError("--explain needs the theoretical verdicts and the md or json format: "
                            "drop --no-theory / --format csv")
    if html_path or figures_dir:
        from brec_runner.reports.figures import check_figures_dir, draw_report_pairs, figure_test
        from brec_runner.reports.html_page import check_html_target, write_html

        if html_path:
            check_html_target(html_path, run_dirs, (out_path, plot_path))
            check_output_file("--html", html_path)  # and not a device or FIFO
        if figures_dir:
            check_figures_dir(figures_dir, run_dirs, create=False)
    reps = build_reports(list(run_dirs), theory=not no_theory, skip_bad=skip_bad, allow_mixed=allow_mixed)
    for r in reps if html_path or figures_dir else ():
        figure_test(r)  # a bound whose colourings cannot be drawn: one line, before any output
    if fmt == "json" and len(reps) > 1:
        import json

        text = json.dumps(reps, indent=2, sort_keys=True) + "\n"
    else:
        text = ("\n" if fmt == "md" else "").join(format_report(r, fmt) for r in reps)
    if explain:
        text = _explained(reps, fmt, text)
    skipped = sum(len(r.get("skipped_lines") or []) for r in reps)
    if out_path:
        write_text(out_path, text)
        click.echo(f"report: {out_path}")
    else:
        click.echo(text, nl=False)
    if skipped:
        click.echo(f"warning: {skipped} untrustworthy results line(s) skipped (listed in the report)", err=True)
    not_invariant = sum(r.get("not_invariant_units") or 0 for r in reps)
    if not_invariant:
        click.echo(f"warning: {not_invariant} (pair, seed) unit(s) come from a model that failed the permutation-"
                   "invariance probe: separations beyond its bound are no evidence (said in the report)", err=True)
    duplicates = sum(r.get("duplicate_units") or 0 for r in reps)
    if duplicates:
        from brec_runner.reports.formatting import duplicates_line

        click.echo(f"note: {duplicates_line(duplicates)}", err=True)
    for r in reps:
        if r.get("unfinished"):
            click.echo(f"warning: unfinished run {', '.join(r['run_dirs'])}: {r['records']} of {r['selection']['units']} "
                       f"selected (pair, seed) units have results ({len(r['failed_units'])} failed, "
                       f"{len(r['missing_units'])} missing; listed in the report)", err=True)
    if plot_path:
        for i, r in enumerate(reps):
            target = plot_path if len(reps) == 1 else str(Path(plot_path).with_stem(f"{Path(plot_path).stem}-{i + 1}"))
            check_report_targets(run_dirs, None, target)
            with atomic_path(target, error=ReportedError) as tmp:
                plot_report(r, tmp)
            click.echo(f"plot: {target}")
    if html_path:
        write_html(reps, html_path)
        click.echo(f"html: {html_path}")
    for i, r in enumerate(reps if figures_dir else ()):
        target = Path(figures_dir) if len(reps) == 1 else Path(figures_dir) / f"report-{i + 1}"
        drawn = draw_report_pairs(r, target, run_dirs, progress=True)  # a bar on a terminal, else one line
        click.echo(f"figures: {len(drawn)} drawing(s) in {target}")
        if no_theory:
            click.echo("note: --no-theory: no pair is known to be missed or beyond the bound, so none is drawn", err=True)



def _explained(reps, fmt: str, text: str) -> str:
    """The report ``text`` with the patterns each run failed to see (:mod:`brec_runner.reports.patterns`):
    a section per report in Markdown, an ``unseen_patterns`` member of each report in JSON."""
    import json

    from brec_runner.reports.patterns import unseen_lines, unseen_patterns
    from brec_runner.reports.report import format_report

    for r in reps:
        r["unseen_patterns"] = unseen_patterns(r)
    if fmt == "json":
        return json.dumps(reps if len(reps) > 1 else reps[0], indent=2, sort_keys=True) + "\n"
    return "\n".join(format_report(r, "md") + "\n".join(unseen_lines(r["unseen_patterns"])) + "\n" for r in reps)


@brec.command("upgrade")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
def brec_upgrade(run_dirs):
    """Stamp run directories written before record checksums (format 1) with their identity.

    The records keep every value; they get the settings they were made under (the exact T²
    threshold, relabelled copies not checked distinct) and a checksum each. The originals are kept
    as *.v1 files. Such a run can be reported and verified, not resumed.
    """
    from brec_runner.records.upgrade import upgrade_legacy

    for d in run_dirs:
        info = upgrade_legacy(d)
        click.echo(f"{d}: {info['records']} records in {info['files']} file(s) stamped (code {info['code']})")


