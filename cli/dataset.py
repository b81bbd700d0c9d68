"""`wltools dataset`: what a test bounds on a whole collection."""

from __future__ import annotations

import click
from cli.common import (MAX_MEMORY_HELP, LazyOption, MemorySize, ReportedError, check_inputs, check_report_targets,
                        refuse_unused, table, tests_help, write_text)


def _not_nan(value, param):
    if value != value:
        raise click.BadParameter("nan is not a number of seconds", param=param)
    return value


@click.command("dataset")
@click.argument("path", metavar="PATH")
@click.option("--tests", cls=LazyOption, default="1wl", show_default=True,
              help=tests_help(then=" 1wl, spd, 3wl (shardable) and rd, rrwp, epwl, epwl-lap, s3, s4, nK (in one "
                                   "shard) refine the collection on one colour table; the others compare graphs with "
                                   "class representatives pair by pair."))
@click.option("--rounds", type=click.IntRange(min=1), default=None,
              help="Rounds (layers) 1..L; default: until each test is stable.")
@click.option("--format", "fmt", type=click.Choice(["md", "json", "csv"]), default="md", show_default=True)
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None, help="Write the report here.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
              help="Write a chart of the accuracy bound against rounds (PNG).")
@click.option("--node-targets", is_flag=True, help="Also bound node classification (TU: node labels as targets).")
@click.option("--targets", "targets_path", default=None, metavar="FILE|count:PATTERN",
              help="graph6 / sparse6 input: a file with one graph target per line (numbers by value: 1 = 1.0); "
              "any input: count:PATTERN, each graph's number of subgraphs isomorphic to PATTERN (cycle:4, path:3, "
              "a graph6 string; at most 8 nodes), e.g. with --task regression.")
@click.option("--task", type=click.Choice(["classification", "regression"]), default="classification",
              show_default=True, help="What the graph targets are: classes (the accuracy bound) or real numbers "
              "(the MAE floor: the lowest mean absolute error of a model giving one class one prediction).")
@click.option("--node-features", type=click.Choice(["auto", "labels", "attributes", "both", "none"]), default="auto",
              show_default=True, help="TU: initial node colours (auto: labels, none with --node-targets).")
@click.option("--no-edge-labels", is_flag=True, help="Ignore the edge labels.")
@click.option("--no-iso", is_flag=True, help="Skip isomorphism classes (and the pair counts needing them).")
@click.option("--executor", type=click.Choice(["local", "ray"]), default="local", show_default=True)
@click.option("--shards", type=click.IntRange(min=1), default=1, show_default=True,
              help="Split the graphs into shards (Ray: one actor each); the driver keeps one colour table.")
@click.option("--address", default=None, metavar="ADDR", help="Ray cluster address (default: a local instance).")
@click.option("--max-memory", type=MemorySize(), default=None, help=MAX_MEMORY_HELP)
@click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True, max=1e9), default=1800.0,
              show_default=True, metavar="SECONDS", callback=lambda ctx, param, v: _not_nan(v, param),
              help="Refuse a test refined pairwise (all but 1wl, spd, 3wl) whose estimated time is above SECONDS.")
@click.option("--quiet", is_flag=True, help="No progress bar (off a terminal: no stage lines).")
def dataset_cmd(path, tests, rounds, fmt, out_path, plot_path, node_targets, targets_path, task, node_features,
                no_edge_labels, no_iso, executor, shards, address, max_memory, max_seconds, quiet) -> None:
    """Per test and round: equivalence classes, non-isomorphic pairs not separated, graphs in
    classes with mixed targets and the accuracy upper bound (or, with --task regression, the MAE
    floor) of a collection (PATH: a TU folder, a graph6 / sparse6 file, or a committed dataset's
    name such as NCI1K). See docs/datasets.md."""
    from wltools.dataset import analyse, open_dataset, plot_bounds, render
    from wltools.dataset.tu import bundled
    from wltools.refine.names import parse_tests
    from wltools.runtime.progress import on_terminal

    test_names = parse_tests(tests, command="--tests")
    refuse_unused("address", "--address", executor == "ray", "--executor ray")
    check_inputs(path, targets_path)  # a FIFO or device as input: one line, not a hang
    check_report_targets((), out_path, plot_path, inputs=(path, targets_path, bundled(str(path))))
    coll = open_dataset(path, node_features=node_features, edge_labels=not no_edge_labels,
                        node_targets=node_targets, targets=targets_path, max_memory=max_memory)
    test_names = _label_tests(test_names, tests, coll, path)
    if plot_path and coll.graph_targets is None and (not node_targets or coll.node_targets is None):
        raise ReportedError(f"--plot {plot_path}: {path} has no targets, so there is no bound to chart; give "
                            "--targets FILE or --targets count:PATTERN (or --node-targets on a TU folder with "
                            "node labels), or leave --plot out")
    report = analyse(coll, test_names, rounds, task=task, node_targets=node_targets, iso=not no_iso, shards=shards,
                     executor=executor, max_memory=max_memory, progress=not quiet and on_terminal(),
                     ray_address=address, max_seconds=max_seconds,
                     stage=None if quiet or on_terminal() else lambda line: click.echo(line, err=True))
    text = render(report, fmt)
    if out_path:
        write_text(out_path, text)
    else:
        click.echo(text, nl=False)
    if plot_path:
        from wltools.runtime.atomic import atomic_path

        with atomic_path(plot_path, error=ReportedError) as tmp:  # a full disk leaves the old chart whole
            plot_bounds(report, tmp)



def _label_tests(test_names: tuple, text: str, coll, path: str) -> tuple:
    """The tests to run on ``coll``: a test that refuses labels (s3, s4, nK, m1, m2; EPWL with edge
    labels: :func:`wltools.refine.names.refuses_labels`) named on a labelled collection is refused
    with one line, as ``wltools check`` refuses it on a labelled pair; within ``all`` it reads the
    graphs without those labels (docs/datasets.md), said in a note and in the report's heading."""
    from wltools.refine.names import refuses_labels

    node, edge = coll.node_labels is not None, coll.edge_labels is not None
    refused = [t for t in test_names if refuses_labels(t, node, edge)]
    if not refused:
        return test_names
    kinds = " and ".join(k for k, x in (("node", node), ("edge", edge)) if x)
    if "all" in {t.strip().lower() for t in text.split(",")}:
        click.echo(f"note: {', '.join(refused)} (in all) read the graphs without their {kinds} labels, as the "
                   "report's headings say; name them alone to be refused instead", err=True)
        return test_names
    raise ReportedError(f"test {refused[0]} is not defined on labelled graphs and {path} has {kinds} labels; "
                        "use another test, or drop the labels (--node-features none --no-edge-labels)")
