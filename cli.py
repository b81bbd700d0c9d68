"""wltools command line: a thin click layer over library calls.

Every command's docstring is its help text. Errors of our own types (``wltools.errors``) are
caught here and printed as one line ``error: ...`` with exit code 2.
"""

from __future__ import annotations

import click

from wltools.check import ISO_TIMEOUT
from wltools.errors import WLToolsError
from wltools.refine.names import ALL_TESTS, DEFAULT_RRWP_STEPS, TESTS


class ReportedError(click.ClickException):
    """A library error shown to a person as one line, exit code 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class _Group(click.Group):
    """Click group that turns library errors into :class:`ReportedError`."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except WLToolsError as exc:
            raise ReportedError(str(exc)) from exc


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="wltools")
def cli() -> None:
    """Expressivity and isomorphism testing for graph learning."""


@cli.group(cls=_Group)
def brec() -> None:
    """The BREC benchmark: data integrity, theoretical verdicts, model runs and reports."""


@cli.group(cls=_Group)
def claims() -> None:
    """Verify the papers' theoretical claims, with witnesses."""


# --- check / iso ---


class _MemorySize(click.ParamType):
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


class _TestName(click.Choice):
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


_MAX_MEMORY_HELP = ("Refuse work whose estimated peak memory is above SIZE (e.g. 4G), before "
                    "starting it; default 80% of the memory free now.")

_ISO_TIMEOUT_HELP = ("Stop the canonical labelling of graphs above 256 nodes (bliss, in a child "
                     "process) after SECONDS and report isomorphism as undecided; cheap exact "
                     "invariants (degrees, components, triangles, 4-cycles, closed walks) are "
                     "compared first.")


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    """Left-aligned columns separated by two spaces."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]


def _out_of_memory(what: str) -> ReportedError:
    return ReportedError(f"out of memory while {what}; the estimate was too low: give a smaller "
                         "input or a lower --max-memory, and report this")


_NODE_ATTR_HELP = ("Node attribute of GraphML / node-link JSON inputs to use as node labels (numbers, "
                   "strings, or lists of them: feature rows); smiles: inputs always carry atom labels.")
_EDGE_ATTR_HELP = "Edge attribute of GraphML / node-link JSON inputs to use as edge labels."


@cli.command()
@click.argument("g", metavar="G")
@click.argument("h", metavar="H")
@click.option(
    "--test",
    "test",
    type=_TestName(ALL_TESTS + ("all",)),
    default="all",
    show_default=True,
    help="Refinement test: 1-WL, GD-WL with SPD / resistance distance / RRWP, 3-WL (2-FWL); "
         "3fwl is 4-WL (3-FWL, n^4 work per round), run only when named; swl-vs ... slfwl2 are the "
         "subgraph WL hierarchy (Zhang et al. 2023: SWL, PSWL, GSWL, SSWL, LFWL(2), SLFWL(2)), run when named; "
         "s3, s4, n1, n2 (nK: any radius K), m1, m2 are BREC's non-GNN baselines (substructure counts, "
         "ego networks, node marking), run when named.",
)
@click.option(
    "--rrwp-steps",
    type=click.IntRange(min=1),
    default=None,
    metavar="K",
    help="RRWP steps K (channels I, M, ..., M^(K-1)); default max(n_G, n_H); values above "
         "n + 1 are lowered to n + 1 (higher powers of M add nothing, by Cayley-Hamilton).",
)
@click.option("--exact", is_flag=True, help="Use the exact refinement path, not the fast one.")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
    help="text: a table with witnesses; json: one object for scripts.",
)
@click.option("--max-memory", type=_MemorySize(), default=None, help=_MAX_MEMORY_HELP)
@click.option("--iso-timeout", type=click.FloatRange(min=0, min_open=True), default=ISO_TIMEOUT,
              show_default=True, metavar="SECONDS", help=_ISO_TIMEOUT_HELP)
@click.option("--no-iso", is_flag=True,
              help="Skip the canonical labelling (the cheap invariants are still compared).")
@click.option("--node-attr", default=None, metavar="NAME", help=_NODE_ATTR_HELP)
@click.option("--edge-attr", default=None, metavar="NAME", help=_EDGE_ATTR_HELP)
@click.option("--draw", "draw_path", default=None, metavar="FILE",
              help="Also draw G and H side by side (.png, .svg or .pdf), nodes coloured by the test's colouring at "
                   "the round where the colour histograms first differ, the class that differs most outlined and "
                   "its counts written; with --test all, the weakest test that distinguishes them (else 3-WL).")
def check(g: str, h: str, test: str, rrwp_steps: int | None, exact: bool, fmt: str,
          max_memory: int | None, iso_timeout: float, no_iso: bool, node_attr: str | None,
          edge_attr: str | None, draw_path: str | None) -> None:
    """Can refinement tests distinguish graphs G and H? Also says whether they are isomorphic.

    G and H are each a file (graph6/sparse6, edge list, GraphML, node-link JSON; FILE:INDEX picks
    one graph of a multi-graph file), a named graph (petersen, cycle:6, shrikhande, decalin, ...),
    a disjoint union such as cycle:3+cycle:3, a graph6/sparse6 string, or smiles:SMILES (a
    molecule, atoms and bonds as labels; needs RDKit: pip install -e ".[chem]"). Labels are part
    of the graph in every test and in the isomorphism answer.

    Example: wltools check decalin bicyclopentyl --test spd
    """
    import json

    from wltools.check import check_dict, check_pair, check_text
    from wltools.graphs import load_graph

    if draw_path:  # refused before any work: a folder, an unknown format, an input file, an undrawable test
        from wltools.draw.figure import check_target

        check_target(draw_path, (g, h), test)
    attrs = {"node_attr": node_attr, "edge_attr": edge_attr}
    G, H = load_graph(g, max_memory=max_memory, **attrs), load_graph(h, max_memory=max_memory, **attrs)
    try:
        c = check_pair(G, H, TESTS if test == "all" else (test,), rrwp_steps=rrwp_steps, exact=exact,
                       max_memory=max_memory, iso=not no_iso, iso_timeout=iso_timeout)
    except MemoryError:
        raise _out_of_memory(f"checking {g} against {h}") from None
    for note in c.notes:
        click.echo(f"note: {note}", err=True)
    if c.inconsistent:
        click.echo("warning: isomorphic graphs reported as distinguished; this is a bug", err=True)
    if draw_path:
        from wltools.draw.figure import draw_results

        drawn = draw_results(G, H, c.results, draw_path, rrwp_steps=c.rrwp_steps, names=(g, h))
        click.echo(f"drawing: {draw_path} ({drawn})", err=True)
    if fmt == "json":
        click.echo(json.dumps(check_dict(c, (g, h), (G, H), exact), indent=2))
    else:
        click.echo(check_text(c, (g, h), (G, H)))


@cli.command()
@click.argument("g", metavar="G")
@click.argument("h", metavar="H")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
    help="text: one line; json: one object with certificates and canonical graph6 forms "
         "(graph6 up to 1,000 nodes and of unlabelled graphs, else null).",
)
@click.option("--max-memory", type=_MemorySize(), default=None, help=_MAX_MEMORY_HELP)
@click.option("--iso-timeout", type=click.FloatRange(min=0, min_open=True), default=ISO_TIMEOUT,
              show_default=True, metavar="SECONDS", help=_ISO_TIMEOUT_HELP)
@click.option("--node-attr", default=None, metavar="NAME", help=_NODE_ATTR_HELP)
@click.option("--edge-attr", default=None, metavar="NAME", help=_EDGE_ATTR_HELP)
def iso(g: str, h: str, fmt: str, max_memory: int | None, iso_timeout: float, node_attr: str | None,
        edge_attr: str | None) -> None:
    """Are graphs G and H isomorphic? Exact, by canonical certificates: nauty (pynauty) up to 256
    nodes, bliss (igraph) above, up to 100,000 nodes.

    G and H are given as for `wltools check`. Exit code 0 whether or not they are isomorphic.
    Cheap exact invariants (degrees, components, triangles, 4-cycles, closed walks) are compared
    first; a difference answers "not isomorphic" with that witness, and above 256 nodes skips the
    labelling.
    """
    import json

    from wltools.check import check_pair, iso_dict, iso_text
    from wltools.graphs import load_graph

    attrs = {"node_attr": node_attr, "edge_attr": edge_attr}
    G, H = load_graph(g, max_memory=max_memory, **attrs), load_graph(h, max_memory=max_memory, **attrs)
    try:
        c = check_pair(G, H, (), max_memory=max_memory, iso_timeout=iso_timeout, always_label_small=True)
    except MemoryError:
        raise _out_of_memory(f"labelling {g} and {h}") from None
    click.echo(json.dumps(iso_dict(c, (g, h), (G, H)), indent=2) if fmt == "json" else iso_text(c))


# --- brec verify-data / theory ---


def _brec_selection(category: tuple[str, ...], pairs: str | None) -> list[int]:
    """Pair ids from ``--category`` (repeatable, or comma-separated) and ``--pairs`` ranges."""
    from brec_runner.dataset import select_ids

    return select_ids(list(category) or None, pairs)


_CATEGORY_HELP = (
    "BREC category (repeatable or comma-separated): basic, regular, simple_regular, "
    "strongly_regular, extension, cfi, 4vertex, distance_regular, regular140."
)


@brec.command("verify-data")
@click.option("--seed", type=click.IntRange(min=0), default=None, help="Relabeling seed (default: the runner's, 0).")
@click.option("--category", multiple=True, help=_CATEGORY_HELP)
@click.option("--pairs", default=None, help="Pair id ranges, e.g. 0-59,260-269.")
def brec_verify_data(seed: int | None, category: tuple[str, ...], pairs: str | None) -> None:
    """Prove the BREC data sound with pynauty.

    Checks that every pair is non-isomorphic, every graph simple and undirected, and every one of
    the 32+32 relabelings and 64 reliability graphs of each pair isomorphic to its source.
    """
    from brec_runner.dataset import load_pairs, verify_data
    from brec_runner.protocol import Protocol

    ids = _brec_selection(category, pairs)
    seed = Protocol().relabel_seed if seed is None else seed
    summary = verify_data(load_pairs(ids=ids), seed=seed, progress=True)
    cats = ", ".join(f"{k} {v}" for k, v in summary["per_category"].items())
    click.echo(
        f"OK: {summary['pairs']} pairs non-isomorphic ({cats}); {summary['graphs']} graphs simple "
        f"and undirected; {summary['relabelings']} relabelings and {summary['reliability_graphs']} "
        f"reliability graphs (seed {summary['seed']}) isomorphic to their sources."
    )


@brec.command("theory")
@click.option("--tests", default=",".join(TESTS), show_default=True,
              help="Comma-separated tests; also epwl, epwl-lap and 3fwl (4-WL: minutes per large CFI pair).")
@click.option("--rrwp-steps", type=click.IntRange(min=1), default=DEFAULT_RRWP_STEPS, show_default=True,
              help="RRWP steps K for the rrwp test.")
@click.option("--category", multiple=True, help=_CATEGORY_HELP)
@click.option("--pairs", default=None, help="Pair id ranges, e.g. 0-59,260-269.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="reports/brec-theory",
              show_default=True, help="Output folder (verdicts.json, verdicts.csv, README.md).")
@click.option("--exact", is_flag=True, help="Use the exact refinement path instead of the fast one.")
@click.option("--no-cache", is_flag=True, help="Recompute instead of reading the verdict cache.")
def brec_theory(tests: str, rrwp_steps: int, category: tuple[str, ...], pairs: str | None,
                out_dir: str, exact: bool, no_cache: bool) -> None:
    """Theoretical verdict of each WL-family test on each BREC pair, with tables.

    Writes per-pair verdicts (iterations, witness) as JSON and CSV and a Markdown table of counts
    and runtimes per category; verdicts are cached and recomputed only when settings change.
    """
    from brec_runner.theory import parse_tests
    from brec_runner.theory_report import markdown_summary, run_theory, write_report

    test_names = parse_tests(tests)
    ids = _brec_selection(category, pairs)
    report = run_theory(test_names, rrwp_steps, ids=ids, fast=not exact, progress=True,
                        use_cache=not no_cache)
    paths = write_report(report, out_dir)
    summary = markdown_summary(report)
    click.echo(summary.split("## Settings")[0].rstrip())
    click.echo(f"\nwrote {paths['markdown']}, {paths['json']}, {paths['csv']}")


# --- brec run / report ---

def _parse_set(values) -> dict:
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


def _parse_seeds(seed, seeds) -> list[int]:
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


class _MultiPair(click.ParamType):
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


@brec.command("run")
@click.option("--model", "model_name", required=True, metavar="NAME|MODULE:ATTR|PATH.py:ATTR",
              help="A registered model (wltools models list), or your own factory: MODULE:ATTR or PATH.py:ATTR.")
@click.option("--preset", default=None, help="Preset of a built-in model (default brec = paper config).")
@click.option("--bound", default=None, metavar="TEST|LOWER,UPPER",
              help="The WL test bounding your model from above (1wl, spd, rd, rrwp[:K], 3wl, epwl, epwl-lap; "
                   "subgraph GNNs: swl-vs, swl-sv, pswl-vs, pswl-sv, gswl, sswl, lfwl2, slfwl2); "
                   "default: the factory's wl_bound attribute, else unknown.")
@click.option("--transform", default=None, metavar="MODULE:ATTR|PATH.py:ATTR",
              help="A PyG transform applied once per graph (default: the factory's transform attribute).")
@click.option("--category", "categories", multiple=True, help=_CATEGORY_HELP)
@click.option("--pairs", "pair_spec", default=None, help="Pair id ranges, e.g. 0-59,260-269.")
@click.option("--seed", type=click.IntRange(min=0), default=None, help="One training seed (default 0).")
@click.option("--seeds", default=None, help="Several training seeds, e.g. 100,200,300.")
@click.option("--device", default="cpu", show_default=True, type=click.Choice(["cpu", "cuda"]))
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Run directory (default runs/brec-MODEL-PRESET); re-running into it resumes.")
@click.option("--shard", default=None, help="K/N: run only the K-th of N round-robin slices of the pairs.")
@click.option("--multi-pair", "multi_pair", type=_MultiPair(), default="auto", show_default=True,
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
@click.option("--allow-code-change", is_flag=True,
              help="Resume a run directory started by another code version (each record keeps its own).")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
              help="Keyword argument of the model's factory / built-in config override (repeatable).")
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
@click.option("--max-failures", "max_failures", type=click.IntRange(min=0), default=10, show_default=True,
              help="Units whose model raises are recorded in RUN_DIR/failures.jsonl (one line on stderr each) "
                   "and the run goes on; one more than this many stops it (exit 2). A resume retries them.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
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
    from brec_runner.evaluate import run
    from brec_runner.plan import parse_shard

    try:
        ids = _brec_selection(categories, pair_spec)  # both given: their intersection
    except (ValueError, WLToolsError) as exc:
        raise click.BadParameter(str(exc), param_hint="--category/--pairs") from None
    seed_list = _parse_seeds(seed, seeds)
    shard_kn = None
    if shard is not None:
        try:
            shard_kn = parse_shard(shard)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--shard") from None
    overrides = {k: v for k, v in {"epochs": epochs, "lr": lr, "batch_size": batch_size,
                                   "weight_decay": weight_decay, "loss_threshold": loss_threshold,
                                   "threshold_rule": threshold_rule}.items() if v is not None}
    out = run(model_name, preset=preset, bound=bound, transform=transform, options=_parse_set(sets),
              protocol=overrides, categories=None, pairs=ids, seeds=seed_list, device=device, out=out_dir,
              shard=shard_kn, multi_pair=multi_pair, progress=not quiet, eval_batch_size=eval_batch_size,
              threads=threads, workers=workers, executor=executor, address=address,
              gpus_per_unit=gpus_per_unit, cpus_per_unit=cpus_per_unit, allow_code_change=allow_code_change,
              max_failures=max_failures)
    click.echo(f"run directory: {out}")


@brec.command("report")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--format", "fmt", type=click.Choice(["md", "json", "csv"]), default="md", show_default=True)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None, help="Write a bar chart (PNG).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None, help="Write the report here.")
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
def brec_report(run_dirs, fmt, plot_path, out_path, no_theory, skip_bad, allow_mixed, html_path, figures_dir):
    """Realised vs theoretical counts per category from RUN_DIRS (shards and seeds are merged).

    Every results line is checked against its run's config.json (checksum, settings, code version,
    verdict recomputed from its T²); a bad line stops the report with its file and line, unless
    --skip-bad. Directories of different settings are refused unless --allow-mixed. --out and --plot
    never overwrite a run file (results*.jsonl, config.json, ...); both are written atomically.
    """
    from pathlib import Path

    from brec_runner.fileio import atomic_path
    from brec_runner.report import build_reports, format_report, plot_report

    _check_report_targets(run_dirs, out_path, plot_path)
    if html_path or figures_dir:
        from brec_runner.report_figures import check_figures_dir, draw_report_pairs, figure_test
        from brec_runner.report_html import check_html_target, write_html

        if html_path:
            check_html_target(html_path, run_dirs, (out_path, plot_path))
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
    skipped = sum(len(r.get("skipped_lines") or []) for r in reps)
    if out_path:
        _write_text(out_path, text)
        click.echo(f"report: {out_path}")
    else:
        click.echo(text, nl=False)
    if skipped:
        click.echo(f"warning: {skipped} untrustworthy results line(s) skipped (listed in the report)", err=True)
    for r in reps:
        if r.get("unfinished"):
            click.echo(f"warning: unfinished run {', '.join(r['run_dirs'])}: {r['records']} of {r['selection']['units']} "
                       f"selected (pair, seed) units have results ({len(r['failed_units'])} failed, "
                       f"{len(r['missing_units'])} missing; listed in the report)", err=True)
    if plot_path:
        for i, r in enumerate(reps):
            target = plot_path if len(reps) == 1 else str(Path(plot_path).with_stem(f"{Path(plot_path).stem}-{i + 1}"))
            _check_report_targets(run_dirs, None, target)
            with atomic_path(target, error=ReportedError) as tmp:
                plot_report(r, tmp)
            click.echo(f"plot: {target}")
    if html_path:
        write_html(reps, html_path)
        click.echo(f"html: {html_path}")
    for i, r in enumerate(reps if figures_dir else ()):
        target = Path(figures_dir) if len(reps) == 1 else Path(figures_dir) / f"report-{i + 1}"
        drawn = draw_report_pairs(r, target, run_dirs, progress=click.get_text_stream("stderr").isatty())
        click.echo(f"figures: {len(drawn)} drawing(s) in {target}")
        if no_theory:
            click.echo("note: --no-theory: no pair is known to be missed or beyond the bound, so none is drawn", err=True)


def _check_output_target(option: str, target, run_dirs=()) -> None:
    """Refuse (one line, exit 2) an output path that would overwrite a run file
    (:func:`brec_runner.fileio.run_file_target`): checked before any work."""
    from brec_runner.fileio import run_file_target

    why = run_file_target(target, run_dirs) if target else None
    if why:
        raise ReportedError(f"{option} {target} would overwrite the run's records ({why}); write it elsewhere")


def _check_report_targets(run_dirs, out_path, plot_path) -> None:
    """Refuse (one line, exit 2) an --out or --plot that would overwrite a run file of any run
    directory (:func:`brec_runner.fileio.run_file_target`), the two naming one file, or a chart
    format matplotlib cannot write."""
    from pathlib import Path

    for option, target in (("--out", out_path), ("--plot", plot_path)):
        _check_output_target(option, target, run_dirs)
    if out_path and plot_path and Path(out_path).resolve() == Path(plot_path).resolve():
        raise ReportedError(f"--out and --plot name the same file {out_path}")
    if plot_path:
        from matplotlib.backend_bases import FigureCanvasBase

        suffix = Path(plot_path).suffix.lower().lstrip(".")
        formats = FigureCanvasBase.get_supported_filetypes()
        if suffix not in formats:
            raise ReportedError(f"--plot {plot_path}: " + (f"matplotlib cannot write a .{suffix} chart" if suffix else
                                "no file suffix to choose the chart format by") + "; use .png, .pdf or .svg")


def _write_text(path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a temporary file beside it, fsynced, renamed); an
    unwritable path is one error line."""
    from brec_runner.fileio import write_atomic

    write_atomic(path, text, error=ReportedError)


@brec.command("upgrade")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
def brec_upgrade(run_dirs):
    """Stamp run directories written before record checksums (format 1) with their identity.

    The records keep every value; they get the settings they were made under (the exact T²
    threshold, relabelled copies not checked distinct) and a checksum each. The originals are kept
    as *.v1 files. Such a run can be reported and verified, not resumed.
    """
    from brec_runner.record import upgrade_legacy

    for d in run_dirs:
        info = upgrade_legacy(d)
        click.echo(f"{d}: {info['records']} records in {info['files']} file(s) stamped (code {info['code']})")


# --- suite ---


@cli.group(cls=_Group)
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
@click.option("--bound", default=None, metavar="TEST|LOWER,UPPER", help="The WL test bounding your model from above.")
@click.option("--transform", default=None, metavar="MODULE:ATTR|PATH.py:ATTR", help="A PyG transform applied once per graph.")
@click.option("--pairs", "pair_spec", default=None, help="Pair ids of the suite, e.g. 0-9,20 (default: all).")
@click.option("--seed", type=click.IntRange(min=0), default=None, help="One training seed (default 0).")
@click.option("--seeds", default=None, help="Several training seeds, e.g. 0,1,2.")
@click.option("--device", default="cpu", show_default=True, type=click.Choice(["cpu", "cuda"]))
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Run directory (default runs/NAME-MODEL-PRESET); re-running into it resumes.")
@click.option("--epochs", type=click.IntRange(min=0), default=None, help="Override the protocol's epochs.")
@click.option("--threshold", "threshold_rule", type=click.Choice(["reference", "exact"]), default=None,
              help="T² threshold rule (as for brec run).")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Keyword argument of the model's factory.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Local processes.")
@click.option("--multi-pair", "multi_pair", type=_MultiPair(), default="auto", show_default=True,
              help="As for brec run: G units at once, 'auto' (a timed probe with several seeds, recorded "
                   "in the run directory), or 1 for the loop.")
@click.option("--allow-code-change", is_flag=True, help="Resume a run directory started by another code version.")
@click.option("--max-failures", "max_failures", type=click.IntRange(min=0), default=10, show_default=True,
              help="Units whose model raises are recorded in RUN_DIR/failures.jsonl (one line on stderr each) "
                   "and the run goes on; one more than this many stops it (exit 2). A resume retries them.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def suite_run(name, model_name, preset, bound, transform, pair_spec, seed, seeds, device, out_dir, epochs,
              threshold_rule, sets, workers, multi_pair, allow_code_change, max_failures, quiet):
    """Train and test MODEL on the pairs of suite NAME with BREC's RPC protocol (same runner, run
    directories, resume and checks as brec run); then `wltools brec report RUN_DIR`, which compares
    with the suite's theoretical verdicts."""
    from brec_runner.evaluate import run
    from wltools.suites import get_suite, parse_pair_ids

    suite_name = get_suite(name).name
    ids = parse_pair_ids(suite_name, pair_spec) if pair_spec else None
    overrides = {k: v for k, v in {"epochs": epochs, "threshold_rule": threshold_rule}.items() if v is not None}
    out = run(model_name, preset=preset, bound=bound, transform=transform, options=_parse_set(sets),
              protocol=overrides, categories=None, pairs=ids, seeds=_parse_seeds(seed, seeds), device=device,
              out=out_dir, progress=not quiet, workers=workers, multi_pair=multi_pair,
              allow_code_change=allow_code_change, suite=suite_name, max_failures=max_failures)
    click.echo(f"run directory: {out}")


@suite.command("verify-data")
@click.argument("names", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Verify every suite.")
def suite_verify_data(names: tuple[str, ...], all_: bool) -> None:
    """Prove suite data sound with pynauty: checksums, pairs non-isomorphic, copies isomorphic,
    and each suite's own checks (graph8c: complete, against graphs generated here)."""
    from wltools.suites import SUITES, get_suite, verify_suite_data

    if all_ == bool(names):
        raise click.UsageError("give suite names (see `wltools suite list`) or --all, not both or neither")
    for name in list(SUITES) if all_ else [get_suite(n).name for n in names]:
        summary = verify_suite_data(name, progress=True)
        click.echo(f"OK {summary['suite']}: " + "; ".join(summary["checks"]) + ".")


@suite.command("theory")
@click.argument("name")
@click.option("--tests", default=None, help="Comma-separated tests (default: all, EPWL included, but 3fwl, "
              "4-WL, and the subgraph WL tests swl-vs ... slfwl2, which run only when named).")
@click.option("--rrwp-steps", type=click.IntRange(min=1), default=DEFAULT_RRWP_STEPS, show_default=True,
              help="RRWP steps K for the rrwp test.")
@click.option("--pairs", "pair_ids", default=None, help="Pair id ranges within the suite, e.g. 0-9,20.")
@click.option("--format", "fmt", type=click.Choice(["md", "json", "csv"]), default="md", show_default=True,
              help="md: tables; json: per-pair verdicts per test; csv: one row per pair and test.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None, help="Write here, not to stdout.")
@click.option("--exact", is_flag=True, help="Use the exact refinement path instead of the fast one.")
def suite_theory_cmd(name, tests, rrwp_steps, pair_ids, fmt, out_path, exact) -> None:
    """Verdict of each refinement test on each pair of suite NAME, with counts and expected counts."""
    from wltools.suites import parse_pair_ids
    from wltools.suites.theory import parse_tests, render, suite_theory

    _check_output_target("--out", out_path)
    test_names = parse_tests(tests)
    ids = parse_pair_ids(name, pair_ids) if pair_ids else None
    text = render(suite_theory(name, test_names, rrwp_steps=rrwp_steps, ids=ids, fast=not exact, progress=True), fmt)
    if out_path:
        _write_text(out_path, text)
        click.echo(f"wrote {out_path}", err=True)
    else:
        click.echo(text, nl=False)


# --- dataset ---


@cli.command("dataset")
@click.argument("path", metavar="PATH")
@click.option("--tests", default="1wl", show_default=True, help="Comma-separated tests: 1wl, spd, 3wl.")
@click.option("--rounds", type=click.IntRange(min=1), default=None,
              help="Rounds (layers) 1..L; default: until each test is stable.")
@click.option("--format", "fmt", type=click.Choice(["md", "json", "csv"]), default="md", show_default=True)
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None, help="Write the report here.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
              help="Write a chart of the accuracy bound against rounds (PNG).")
@click.option("--node-targets", is_flag=True, help="Also bound node classification (TU: node labels as targets).")
@click.option("--targets", "targets_path", type=click.Path(dir_okay=False), default=None,
              help="graph6 / sparse6 input: a file with one graph target per line.")
@click.option("--node-features", type=click.Choice(["auto", "labels", "attributes", "both", "none"]), default="auto",
              show_default=True, help="TU: initial node colours (auto: labels, none with --node-targets).")
@click.option("--no-edge-labels", is_flag=True, help="Ignore the edge labels.")
@click.option("--no-iso", is_flag=True, help="Skip isomorphism classes (and the pair counts needing them).")
@click.option("--executor", type=click.Choice(["local", "ray"]), default="local", show_default=True)
@click.option("--shards", type=click.IntRange(min=1), default=1, show_default=True,
              help="Split the graphs into shards (Ray: one actor each); the driver keeps one colour table.")
@click.option("--address", default=None, metavar="ADDR", help="Ray cluster address (default: a local instance).")
@click.option("--max-memory", type=_MemorySize(), default=None, help=_MAX_MEMORY_HELP)
@click.option("--quiet", is_flag=True, help="No progress bar.")
def dataset_cmd(path, tests, rounds, fmt, out_path, plot_path, node_targets, targets_path, node_features,
                no_edge_labels, no_iso, executor, shards, address, max_memory, quiet) -> None:
    """Per test and round: equivalence classes, non-isomorphic pairs not separated, graphs in
    classes with mixed targets and the accuracy upper bound of a collection (PATH: a TU folder, a
    graph6 / sparse6 file, or a committed dataset's name such as NCI1K). See docs/datasets.md."""
    from wltools.dataset import analyse, open_dataset, plot_bounds, render

    _check_report_targets((), out_path, plot_path)
    coll = open_dataset(path, node_features=node_features, edge_labels=not no_edge_labels,
                        node_targets=node_targets, targets=targets_path, max_memory=max_memory)
    report = analyse(coll, [t.strip().lower() for t in tests.split(",") if t.strip()], rounds,
                     node_targets=node_targets, iso=not no_iso, shards=shards, executor=executor,
                     max_memory=max_memory, progress=not quiet, ray_address=address)
    text = render(report, fmt)
    if out_path:
        _write_text(out_path, text)
    else:
        click.echo(text, nl=False)
    if plot_path:
        plot_bounds(report, plot_path)


# --- claims ---

_CLAIM_FORMATS = click.Choice(["text", "md", "json"])


def _claims_registry():
    """``wltools.claims`` with every claim registered: its own, and brec-run from brec_runner."""
    import brec_runner.claims  # noqa: F401 - registers brec-run
    import wltools.claims

    return wltools.claims


@claims.command("list")
@click.option("--format", "fmt", type=_CLAIM_FORMATS, default="text", show_default=True,
              help="Output format.")
def claims_list(fmt: str) -> None:
    """List the registered claims: id, method, source and statement."""
    import json as _json

    items = _claims_registry().list_claims()
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
    from brec_runner.dataset import parse_id_ranges

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
@click.option("--out", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Also write the output to this file.")
def claims_verify(ids, all_, fmt, run_dir, brec_ids, suites, seed, out) -> None:
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

    from brec_runner.claims import claim_inputs

    _check_output_target("--out", out, [run_dir] if run_dir else [])
    reg = _claims_registry()
    if all_ and ids:
        raise click.UsageError("give claim ids or --all, not both")
    if not all_ and not ids:
        raise click.UsageError("give claim ids (see `wltools claims list`) or --all")
    chosen = reg.list_claims() if all_ else [reg.get_claim(i) for i in ids]
    # BREC pairs and verdicts, built once for the claims that take them
    params = {"run_dir": run_dir, "brec_ids": brec_ids, "suites": suites, "seed": seed,
              **claim_inputs({name for c in chosen for name in c.inputs} | {"theory_verdicts"})}
    results = []
    t0 = _time.time()
    for c in chosen:
        click.echo(f"verifying {c.id} ...", err=True)
        r = reg.run_claim(c, **params)
        click.echo(f"  {r.status} ({r.seconds:.1f}s)", err=True)
        results.append((c, r))
    import torch

    meta = {"command": "wltools claims verify " + (" ".join(ids) if ids else "--all")
            + (f" --run-dir {run_dir}" if run_dir else "")
            + (f" --seed {seed}" if seed is not None else "")
            + (" --brec-ids ..." if brec_ids else "")
            + (f" --suites {','.join(suites)}" if suites is not None else ""),
            "date (UTC)": _time.strftime("%Y-%m-%d %H:%M", _time.gmtime(t0)),
            "total seconds": round(_time.time() - t0, 1),
            "python": platform.python_version(), "torch": torch.__version__,
            "platform": platform.platform(),
            "cpu": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"}
    text = reg.format_results(results, fmt, meta=meta)
    click.echo(text)
    if out:
        _write_text(out, text + "\n")
    if fmt != "text":  # the text format ends with this line already
        click.echo(reg.tally(results), err=True)
    raise SystemExit(reg.exit_code(results))



@cli.group(cls=_Group)
def models() -> None:
    """Models the BREC runner knows by name: built-in and installed plugins."""


@models.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def models_list(fmt: str) -> None:
    """List built-in models and plugins (entry-point group wltools.models) with bound and presets.

    Any other model runs by reference: wltools brec run --model PATH.py:ATTR (docs/your-model.md).
    """
    import json

    from brec_runner.model_source import list_model_sources

    rows = list_model_sources()
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    table = [("name", "kind", "bound", "presets", "source")]
    table += [(r["name"], r["kind"], r["bound"] or "unknown", ",".join(r["presets"]) or "-", r["source"])
              for r in rows]
    click.echo("\n".join(_table(table)))


def _stdout_gone() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of a full or closed stdout adds
    no second message on the way out."""
    import os
    import sys

    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError):
        pass


def main() -> None:
    """Console-script entry point.

    Output that cannot be written is no traceback: stdout on a full device (``> /dev/full``, a full
    disk or quota) is one ``error:`` line on stderr and exit 2; a reader that stops early
    (``| head``, a broken pipe) ends the command quietly (exit 1 from click, or 2). stdout is
    flushed inside the guard, since a full device shows only when the buffer is written. Any other
    OS error that reaches this boundary is one line too.
    """
    import errno
    import sys

    try:
        try:
            cli.main(prog_name="wltools")
        finally:
            sys.stdout.flush()
    except OSError as exc:
        if exc.filename:  # a file's error: stdout was flushed in the finally above
            print(f"error: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        else:  # stdout's: nothing more can go there, not even the interpreter's last flush
            _stdout_gone()
            if exc.errno != errno.EPIPE:
                print(f"error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
