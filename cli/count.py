"""`wltools count ...`: the substructure-counting benchmark: targets, training runs, reports."""

from __future__ import annotations

import click

from cli.common import (Group, allow_code_change_option, check_output_dir, check_report_targets, max_failures_option, parse_seeds,
                        parse_set, set_option, write_text)

LEVEL = click.Choice(["graph", "node", "edge"])


@click.group(cls=Group)
def count() -> None:
    """Counting power realised: train models to count substructures, beside what their class can count."""


@count.command("tasks")
def count_tasks() -> None:
    """List the counting tasks (pattern names) and Zhang et al.'s homomorphism tasks."""
    from wltools.counting.tasks import STANDARD_TASKS, ZHANG_HOM_TASKS, task_names

    click.echo("tasks: " + ", ".join(task_names()))
    click.echo("precomputed subgraph-count targets: " + ", ".join(STANDARD_TASKS))
    click.echo("Zhang et al. (ICLR 2024) homomorphism tasks: " + ", ".join(f"{t} ({lv})" for t, lv in ZHANG_HOM_TASKS))


def _rows(task: str, level: str, split: str | None, limit: int | None) -> list[dict]:
    """One dict per graph: index, split, graph6 and its count(s) (computed before anything prints)."""
    import networkx as nx

    from wltools.counting.data import edge_list, load_graphs, load_splits, split_indices, targets

    graphs = load_graphs()
    where = {i: s for s, ids in load_splits().items() for i in ids}
    ids = split_indices(split)[:limit]
    return list(_row(graphs, where, level, i, y, edge_list, nx) for i, y in zip(ids, targets(task, level, ids)))


def _row(graphs, where, level, i, y, edge_list, nx) -> dict:
    row = {"index": i, "split": where[i], "graph6": nx.to_graph6_bytes(graphs[i], header=False).decode().strip()}
    if level == "graph":
        return {**row, "count": int(y)}
    if level == "node":
        return {**row, "counts": [int(v) for v in y]}
    return {**row, "counts": [[u, v, int(c)] for (u, v), c in zip(edge_list(graphs[i]), y)]}


@count.command("data")
@click.option("--task", required=True, help="A counting task, e.g. cycle:4, path:3, star:3, chordal:4, hom:boat.")
@click.option("--level", type=LEVEL, default="graph", show_default=True)
@click.option("--split", type=click.Choice(["train", "val", "test"]), default=None, help="One split (default: all).")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N graphs of the selection.")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
def count_data(task: str, level: str, split: str | None, limit: int | None, fmt: str) -> None:
    """Print each benchmark graph (graph6) with its exact targets, so anyone can check them.

    CSV: one row per graph (graph level), node (index, node, count) or edge (index, u, v, count);
    JSON: one object per graph with its count(s). Nodes are numbered as in the graph6 string.
    """
    import json

    rows = _rows(task, level, split, limit)
    if fmt == "json":
        click.echo(json.dumps(rows))
        return
    head = {"graph": "index,split,graph6,count", "node": "index,split,graph6,node,count",
            "edge": "index,split,graph6,u,v,count"}[level]
    click.echo(head)
    for r in rows:
        pre = f"{r['index']},{r['split']},{r['graph6']}"
        if level == "graph":
            click.echo(f"{pre},{r['count']}")
        elif level == "node":
            click.echo("\n".join(f"{pre},{v},{c}" for v, c in enumerate(r["counts"])))
        else:
            click.echo("\n".join(f"{pre},{u},{v},{c}" for u, v, c in r["counts"]))


@count.command("verify-data")
@click.option("--sample", type=click.IntRange(min=1), default=None, help="Check only the first N graphs.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
def count_verify_data(sample: int | None, jobs: int) -> None:
    """Check the shipped files' checksums and compare every target (every task, level and graph)
    with an independent brute-force count: igraph's list of all monomorphisms (LAD) for the shipped
    subgraph counts, summed over the pattern's quotients for the homomorphism counts (hom:NAME)."""
    from wltools.counting.verify import verify_all

    s = verify_all(indices=range(sample) if sample else None, jobs=jobs)
    if s["jobs"] < jobs:
        click.echo(f"wltools: --jobs {jobs} capped at {s['jobs']}, the CPU cores this process may use", err=True)
    click.echo(f"OK: {s['tasks']} tasks x {s['levels']} levels x {s['graphs']} graphs ({s['items']} targets): "
               f"every target equals the brute-force count ({s['wall_s']} s)")


def _split_list(text: str, what: str) -> list[str]:
    out = [t.strip() for t in text.split(",") if t.strip()]
    if not out:
        raise click.BadParameter(f"expected comma-separated {what}", param_hint=f"--{what}")
    return out


@count.command("run")
@click.option("--model", "model_name", required=True, metavar="NAME|MODULE:ATTR|PATH.py:ATTR",
              help="A registered model, plugin, or your own factory (as for brec run).")
@click.option("--task", "task_text", required=True, help="Comma-separated tasks, e.g. cycle:3,star:3.")
@click.option("--level", "level_text", default="graph", show_default=True, help="Comma-separated: graph,node,edge.")
@click.option("--preset", default=None, help="Preset of a built-in model.")
@click.option("--bound", default=None, metavar="TEST|LOWER,UPPER", help="Declared WL bound (as for brec run).")
@click.option("--transform", default=None, metavar="MODULE:ATTR|PATH.py:ATTR", help="A PyG transform per graph.")
@click.option("--seed", type=click.IntRange(min=0), default=None, help="One training seed (default 0).")
@click.option("--seeds", default=None, help="Several seeds, e.g. 0,1,2.")
@click.option("--epochs", type=click.IntRange(min=1), default=None, help="Override the protocol's 1200 epochs.")
@click.option("--lr", type=click.FloatRange(min=0, min_open=True), default=None, help="Override the learning rate.")
@click.option("--batch-size", type=click.IntRange(min=1), default=None, help="Override the batch size (512).")
@click.option("--early-stop", type=click.IntRange(min=0), default=None,
              help="Stop after this many epochs without a better validation error (0: off).")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Use only the first N graphs of each split (a smoke test; recorded in the protocol).")
@set_option
@click.option("--device", default="cpu", show_default=True, type=click.Choice(["cpu", "cuda"]))
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True, help="torch CPU threads.")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Run directory (default runs/count-MODEL); re-running into it resumes.")
@max_failures_option
@allow_code_change_option
@click.option("--quiet", is_flag=True, help="No progress bar and no per-unit lines.")
def count_run(model_name, task_text, level_text, preset, bound, transform, seed, seeds, epochs, lr, batch_size,
              early_stop, limit, sets, device, threads, out_dir, max_failures, allow_code_change, quiet):
    """Train MODEL to count TASK at LEVEL (L1 on normalised targets, Adam; docs/counting.md), resumable.

    One unit per (task, level, seed), each appended to RUN_DIR/results.jsonl; a unit whose model
    raises goes to RUN_DIR/failures.jsonl and the run goes on.
    """
    import re

    from brec_runner.counting.evaluate import run_count

    tasks = _split_list(task_text, "task")
    levels = _split_list(level_text, "level")
    seed_list = parse_seeds(seed, seeds)
    check_output_dir("--out", out_dir)
    out = out_dir or f"runs/count-{re.sub(r'[^A-Za-z0-9_.-]+', '_', model_name)}"
    protocol = {"epochs": epochs, "lr": lr, "batch_size": batch_size, "early_stop": early_stop, "limit": limit}
    path = run_count(model_name, tasks, levels, seed_list, out, preset=preset, bound=bound, transform=transform,
                     options=parse_set(sets), protocol=protocol, device=device, progress=not quiet, quiet=quiet,
                     threads=threads, max_failures=max_failures, allow_code_change=allow_code_change)
    if not quiet:
        click.echo(f"run directory: {path}")


@count.command("report")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--format", "fmt", type=click.Choice(["md", "json", "csv", "html"]), default="md", show_default=True,
              help="html: one self-contained page with the chart inlined.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None, help="Write the report here.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None, help="Write a chart (PNG/PDF/SVG).")
@click.option("--skip-bad", is_flag=True, help="Skip results lines that fail their checks, counting them.")
def count_report(run_dirs, fmt, out_path, plot_path, skip_bad):
    """Realised test normalised MAE (mean ± std over seeds) per model, task and level, beside the
    theory's verdict for the model's declared bound, with disagreements flagged."""
    from brec_runner.counting.report import build_count_report, format_count_report, plot_count_report

    check_report_targets(run_dirs, out_path, plot_path)
    report = build_count_report(run_dirs, skip_bad=skip_bad)
    if report["duplicates"]:
        click.echo(f"wltools: {len(report['duplicates'])} duplicate(s) dropped (a run given twice, or a seed held by "
                   "two runs): each seed counted once; listed in the report", err=True)
    text = format_count_report(report, fmt)
    if out_path:
        write_text(out_path, text)
    else:
        click.echo(text, nl=not text.endswith("\n"))
    if plot_path:
        plot_count_report(report, plot_path)


__all__ = ["count"]
