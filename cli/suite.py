"""`wltools suite ...`: the classic suites (CSL, SR, EXP, graph8c, ...)."""

from __future__ import annotations

import click

from cli.common import (BOUND_HELP, DEFAULT_RRWP_STEPS, QUIET_HELP, Group, LazyOption, MultiPair, allow_code_change_option,
                        check_output_dir, check_output_target, max_failures_option, parse_seeds, parse_set, seed_device_options, set_option, tests_help,
                        write_text)


@click.group(cls=Group)
def suite() -> None:
    """Classic expressivity suites (CSL, EXP, SR25, graph8c, ...) as pair sets: list, verify, theory."""


@suite.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def suite_list(fmt: str) -> None:
    """List the suites: name, number of pairs and how the pairs are formed."""
    import json

    from wltools.suites import list_suites

    rows = [{"name": s.name, "core": s.core, "title": s.title, "pairs_rule": s.pairs_rule, "source": s.source,
             "licence": s.licence, "files": list(s.files)} for s in list_suites()]
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        click.echo(f"{r['name']:<9} {r['title']}")
        click.echo(f"{'':<9} pairs: {r['pairs_rule']}")


@suite.command("run")
@click.argument("name")
@click.option("--model", "model_name", required=True, metavar="NAME|MODULE:ATTR|PATH.py:ATTR",
              help="A registered model, or your own factory (as for brec run).")
@click.option("--preset", default=None, help="Preset of a built-in model.")
@click.option("--bound", cls=LazyOption, default=None, metavar="TEST|LOWER,UPPER", help=BOUND_HELP)
@click.option("--transform", default=None, metavar="MODULE:ATTR|PATH.py:ATTR", help="A PyG transform applied once per graph.")
@click.option("--pairs", "pair_spec", default=None, help="Pair ids of the suite, e.g. 0-9,20 (default: all).")
@seed_device_options
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Run directory (default runs/NAME-MODEL-PRESET); re-running into it resumes.")
@click.option("--epochs", type=click.IntRange(min=0), default=None, help="Override the protocol's epochs.")
@click.option("--threshold", "threshold_rule", type=click.Choice(["reference", "exact"]), default=None,
              help="T² threshold rule (as for brec run).")
@set_option
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Local processes.")
@click.option("--multi-pair", "multi_pair", type=MultiPair(), default="auto", show_default=True,
              help="As for brec run: G units at once, 'auto' (a timed probe with several seeds, recorded "
                   "in the run directory), or 1 for the loop.")
@allow_code_change_option
@max_failures_option
@click.option("--quiet", is_flag=True, help=QUIET_HELP)
def suite_run(name, model_name, preset, bound, transform, pair_spec, seed, seeds, device, out_dir, epochs,
              threshold_rule, sets, workers, multi_pair, allow_code_change, max_failures, quiet):
    """Train and test MODEL on the pairs of suite NAME with BREC's RPC protocol (same runner, run
    directories, resume and checks as brec run); then `wltools brec report RUN_DIR`, which compares
    with the suite's theoretical verdicts."""
    from brec_runner.runs.evaluate import run
    from brec_runner.runs.settings import RunSettings
    from wltools.suites import get_suite, parse_pair_ids

    check_output_dir("--out", out_dir)
    suite_name = get_suite(name).name
    ids = parse_pair_ids(suite_name, pair_spec) if pair_spec else None
    overrides = {k: v for k, v in {"epochs": epochs, "threshold_rule": threshold_rule}.items() if v is not None}
    settings = RunSettings(preset=preset, bound=bound, transform=transform, options=parse_set(sets),
                           protocol=overrides, categories=None, pairs=ids, seeds=parse_seeds(seed, seeds), device=device,
                           out=out_dir, progress=not quiet, workers=workers, multi_pair=multi_pair,
                           allow_code_change=allow_code_change, suite=suite_name, max_failures=max_failures)
    out = run(model_name, settings)
    click.echo(f"run directory: {out}")


@suite.command("verify-data")
@click.argument("names", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Verify every suite.")
@click.option("--quiet", is_flag=True, help=QUIET_HELP)
def suite_verify_data(names: tuple[str, ...], all_: bool, quiet: bool) -> None:
    """Prove suite data sound with pynauty: checksums, pairs non-isomorphic, copies isomorphic,
    and each suite's own checks (graph8c: complete, against graphs generated here)."""
    from wltools.suites import SUITES, get_suite, verify_suite_data

    if all_ == bool(names):
        raise click.UsageError("give suite names (see `wltools suite list`) or --all, not both or neither")
    for name in list(SUITES) if all_ else [get_suite(n).name for n in names]:
        summary = verify_suite_data(name, progress=not quiet)
        click.echo(f"OK {summary['suite']}: " + "; ".join(summary["checks"]) + ".")


@suite.command("theory")
@click.argument("name")
@click.option("--tests", cls=LazyOption, default=None,
              help=tests_help("every test but 3fwl, the subgraph WL tests swl-vs ... "
                              "slfwl2 and BREC's baselines s3 ... m2, which run when named or with all"))
@click.option("--rrwp-steps", cls=LazyOption, type=click.IntRange(min=1), default=DEFAULT_RRWP_STEPS,
              show_default=True, help="RRWP steps K for the rrwp test.")
@click.option("--pairs", "pair_ids", default=None, help="Pair id ranges within the suite, e.g. 0-9,20.")
@click.option("--format", "fmt", type=click.Choice(["md", "json", "csv"]), default="md", show_default=True,
              help="md: tables; json: per-pair verdicts per test; csv: one row per pair and test.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None, help="Write here, not to stdout.")
@click.option("--exact", is_flag=True, help="Use the exact refinement path instead of the fast one.")
@click.option("--quiet", is_flag=True, help=QUIET_HELP)
def suite_theory_cmd(name, tests, rrwp_steps, pair_ids, fmt, out_path, exact, quiet) -> None:
    """Verdict of each refinement test on each pair of suite NAME, with counts and expected counts."""
    from wltools.suites import parse_pair_ids
    from wltools.suites.theory import parse_tests, render, suite_theory

    check_output_target("--out", out_path)
    test_names = parse_tests(tests)
    ids = parse_pair_ids(name, pair_ids) if pair_ids else None
    text = render(suite_theory(name, test_names, rrwp_steps=rrwp_steps, ids=ids, fast=not exact, progress=not quiet), fmt)
    if out_path:
        write_text(out_path, text)
        click.echo(f"wrote {out_path}", err=True)
    else:
        click.echo(text, nl=False)

