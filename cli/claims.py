"""`wltools claims ...`: the papers' claims, verified with evidence."""

from __future__ import annotations

import click
from cli.common import QUIET_HELP, Group, check_output_target, write_text


@click.group(cls=Group)
def claims() -> None:
    """Verify the papers' theoretical claims, with witnesses."""


_CLAIM_FORMATS = click.Choice(["text", "md", "json"])


def claims_registry():
    """``wltools.claims`` with every claim registered: its own, and brec-run from brec_runner."""
    import brec_runner.reports.claims  # noqa: F401 - registers brec-run
    import wltools.claims

    return wltools.claims


@claims.command("list")
@click.option("--format", "fmt", type=_CLAIM_FORMATS, default="text", show_default=True,
              help="Output format.")
def claims_list(fmt: str) -> None:
    """List the registered claims: id, method, source and statement."""
    import json as _json

    items = claims_registry().list_claims()
    if fmt == "json":
        click.echo(_json.dumps([c.to_dict() for c in items], indent=2))
    elif fmt == "md":
        click.echo("| id | method | source | statement |\n|---|---|---|---|")
        for c in items:
            click.echo(f"| `{c.id}` | {c.method} | {c.source} | {c.statement} |")
    else:
        for c in items:
            extra = f" [--{', --'.join(p.replace('_', '-') for p in c.params)}]" if c.params else ""
            click.echo(f"{c.id:<16} {c.method:<16} {c.source}{extra}")
            click.echo(f"{'':<16} {c.statement}")


def _brec_ids_option(ctx, param, value):
    if value is None:
        return None
    from brec_runner.runs.dataset import parse_id_ranges

    try:
        return parse_id_ranges(value)
    except Exception as exc:  # noqa: BLE001 - any parse failure is a bad option value
        raise click.BadParameter(str(exc)) from None


def _suites_option(ctx, param, value):
    if value is None:
        return None
    from wltools.suites import get_suite

    names = tuple(v.strip() for v in value.split(",") if v.strip())
    try:
        return tuple(get_suite(n).name for n in names)
    except Exception as exc:  # noqa: BLE001 - an unknown suite is a bad option value
        raise click.BadParameter(str(exc)) from None


@claims.command("verify")
@click.argument("ids", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Verify every registered claim.")
@click.option("--format", "fmt", type=_CLAIM_FORMATS, default="text", show_default=True,
              help="Output format (md is the committed report's format).")
@click.option("--run-dir", type=click.Path(path_type=str), default=None,
              help="BREC run directory for the brec-run claim (SKIPped without one).")
@click.option("--brec-ids", callback=_brec_ids_option, default=None,
              help="Restrict BREC-based checks to these pair ids, e.g. 0-59,260-269.")
@click.option("--suites", callback=_suites_option, default=None,
              help="The classic suites the claims that read suites check, e.g. csl,sr25 (default: each claim's own list).")
@click.option("--seed", type=int, default=None, help="Seed for the numeric checks that take one.")
@click.option("--max-nodes", type=click.IntRange(2, 7), default=None,
              help="Largest pattern (vertices) of the pattern-counting claims (hom-expressivity: "
                   "default 7; subgraph-counting: default 6).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Also write the output to this file.")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Processes that verify the claims and compute their shared verdicts (default: "
                   "with --all the CPU count, at most 2; else 1). The results do not depend on it.")
@click.option("--quiet", is_flag=True, help=QUIET_HELP + " (claims verify: no 'verifying ID ...' lines)")
def claims_verify(ids, all_, fmt, run_dir, brec_ids, suites, seed, max_nodes, workers, out, quiet) -> None:
    """Verify claims (IDs, or --all) and print each verdict with its evidence, then the count of
    each status (e.g. "9 claims: 8 PASS, 0 FAIL, 0 ERROR, 1 SKIP"; on stderr too with --format md
    or json).

    \b
    Statuses:
      PASS   the evidence, all of it, supports the claim
      FAIL   the evidence contradicts the claim (the counterexample is printed)
      ERROR  no verdict: a missing dependency or input, incomplete evidence, a crash (why is printed)
      SKIP   brec-run without --run-dir only: nothing was checked

    \b
    Exit status:
      0  no claim FAILed or ERRORed (every one PASSed or was SKIPped)
      1  some claim FAILed or ERRORed
      2  bad usage: unknown id, bad option value, unusable run directory
    """
    import os
    import platform
    import time as _time

    from brec_runner.reports.claims import claim_inputs

    check_output_target("--out", out, [run_dir] if run_dir else [])
    reg = claims_registry()
    if all_ and ids:
        raise click.UsageError("give claim ids or --all, not both")
    if not all_ and not ids:
        raise click.UsageError("give claim ids (see `wltools claims list`) or --all")
    chosen = reg.list_claims() if all_ else [reg.get_claim(i) for i in ids]
    # BREC pairs and verdicts, built once for the claims that take them
    params = {"run_dir": run_dir, "brec_ids": brec_ids, "suites": suites, "seed": seed, "max_nodes": max_nodes,
              **claim_inputs({name for c in chosen for name in c.inputs} | {"theory_verdicts"})}
    from wltools.claims.parallel import default_workers, verify_claims

    workers = workers or (default_workers() if all_ else 1)
    if not quiet:
        click.echo(f"verifying {len(chosen)} claim(s) with {workers} worker(s) ...", err=True)

    def done(c, r):
        if not quiet:
            click.echo(f"  {c.id}: {r.status} ({r.seconds:.1f}s)", err=True)

    t0 = _time.time()
    results = verify_claims(chosen, params, workers=workers, done=done)
    import torch

    meta = {"command": "wltools claims verify " + (" ".join(ids) if ids else "--all")
            + (f" --run-dir {run_dir}" if run_dir else "")
            + (f" --seed {seed}" if seed is not None else "")
            + (f" --max-nodes {max_nodes}" if max_nodes is not None else "")
            + (" --brec-ids ..." if brec_ids else "")
            + (f" --suites {','.join(suites)}" if suites is not None else ""),
            "date (UTC)": _time.strftime("%Y-%m-%d %H:%M", _time.gmtime(t0)),
            "total seconds": round(_time.time() - t0, 1),
            "python": platform.python_version(), "torch": torch.__version__,
            "platform": platform.platform(),
            "cpu": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
            "workers": workers}
    text = reg.format_results(results, fmt, meta=meta)
    click.echo(text)
    if out:
        write_text(out, text + "\n")
    if fmt != "text":  # the text format ends with this line already
        click.echo(reg.tally(results), err=True)
    raise SystemExit(reg.exit_code(results))

