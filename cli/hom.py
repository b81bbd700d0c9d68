"""`wltools hom`: the number of homomorphisms from a pattern F to a graph G, plain or rooted."""

from __future__ import annotations

import click

from cli.common import MAX_MEMORY_HELP, QUIET_HELP, MemorySize, ReportedError, check_inputs, out_of_memory


def _roots(text: str | None, F, G) -> tuple[tuple, tuple]:
    """``--root V[,W]``: the vertices V (and W) of G that pattern vertices 0 (and 1) go to, as
    ``(names as given, vertices 0..n-1)``; a file's vertices by the file's own node names
    (:func:`wltools.graphs.validation.vertex_of`), other graphs' by their numbers 0..n-1."""
    from wltools.graphs.validation import NODE_NAMES, vertex_of

    if text is None:
        return (), ()
    parts = tuple(p.strip() for p in text.split(","))
    names = G.graph.get(NODE_NAMES)
    numbers = names is not None or all(p.lstrip("-").isdigit() for p in parts)
    if not 1 <= len(parts) <= 2 or not all(parts) or not numbers:
        raise ReportedError(f"--root {text}: expected one or two vertex numbers of G, e.g. 0 or 0,3")
    vertices = tuple(vertex_of(G, p) for p in parts)
    for p, v in zip(parts, vertices):
        if v is None:
            have = (f"G's vertices are its file's node names ({_shown(names)})" if names is not None
                    else f"G has vertices 0..{G.number_of_nodes() - 1}")
            raise ReportedError(f"--root {text}: {have}, not {p}")
    if len(parts) > F.number_of_nodes():
        raise ReportedError(f"--root {text}: two roots need a pattern of at least 2 vertices; F has "
                            f"{F.number_of_nodes()}")
    return tuple(int(p) if p.lstrip("-").isdigit() else p for p in parts), vertices


#: A count estimated above this many seconds prints its estimate and shows progress.
LONG_COUNT_SECONDS = 5.0


def _long_count(F, G, roots: int, specs: tuple, quiet: bool):
    """:func:`wltools.runtime.progress.timed_stage` around a count estimated above
    :data:`LONG_COUNT_SECONDS` (:func:`wltools.hom.count.count_estimate`), else nothing."""
    import contextlib

    from wltools.hom.count import count_estimate
    from wltools.runtime.memory import format_bytes
    from wltools.runtime.progress import timed_stage

    n = G.number_of_nodes()
    seconds, need = count_estimate(F, G, tuple(range(roots)))
    if quiet or seconds < LONG_COUNT_SECONDS:
        return contextlib.nullcontext()
    return timed_stage(f"hom({specs[0]}, {specs[1]})", f"estimated {format_bytes(need)} and about "
                       f"{seconds:.0f} s ({n:,} vertices)", seconds)


def _shown(names: tuple) -> str:
    return ", ".join(names[:6]) + (f", ... ({len(names)} in all)" if len(names) > 6 else "")


@click.command()
@click.argument("f", metavar="F")
@click.argument("g", metavar="G")
@click.option("--root", "root", default=None, metavar="V[,W]",
              help="Rooted count: only the homomorphisms sending pattern vertex 0 to vertex V of G "
                   "(and pattern vertex 1 to W). A file's vertices are named as in the file (an edge list "
                   "with nodes 1, 5, 9: --root 5 is its node 5); names, graph6 strings and unions number "
                   "theirs 0..n-1. The pattern's vertices 0 and 1: its first two in reading order.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: one line; json: one object for scripts.")
@click.option("--max-memory", type=MemorySize(), default=None, help=MAX_MEMORY_HELP)
@click.option("--quiet", is_flag=True, help=QUIET_HELP + " A count estimated at more than a few seconds otherwise "
              "prints its memory and time estimate first.")
def hom(f: str, g: str, root: str | None, fmt: str, max_memory: int | None, quiet: bool) -> None:
    """The number of homomorphisms from the pattern F to the graph G: maps of F's vertices to G's
    that send every edge to an edge, counted exactly (no overflow).

    F and G are given as for `wltools check` (files, names such as petersen or cycle:6, graph6
    strings, unions such as cycle:3+cycle:3). Counted by dynamic programming over an optimal tree
    decomposition of F: O(n^(t+1)) for a pattern of treewidth t, patterns up to 16 vertices.
    Unlabelled graphs only (labelled inputs are refused). G is held as a dense n x n matrix: the
    memory this needs is estimated first and the count refused over --max-memory.

    Example: wltools hom cycle:4 petersen --root 0
    """
    import json

    from wltools.hom.count import hom_count, hom_counts_at, require_count

    from .graph_names import load_one

    check_inputs(f, g)  # a FIFO or device as a graph file: one line, not a hang
    F, G = load_one(f, max_memory=max_memory), load_one(g, max_memory=max_memory)
    roots, vertices = _roots(root, F, G)
    require_count(F, G, tuple(range(len(roots))), max_memory=max_memory)  # refused before any progress line
    try:
        with _long_count(F, G, len(roots), (f, g), quiet):
            if roots:
                table = hom_counts_at(F, G, tuple(range(len(roots))), max_memory=max_memory)  # by position
                position = {v: i for i, v in enumerate(G.nodes)}
                count = int(table[tuple(position[v] for v in vertices)])
            else:
                count = hom_count(F, G, max_memory=max_memory)
    except MemoryError:
        raise out_of_memory(f"counting {f} into {g}") from None
    if fmt == "json":
        import networkx as nx

        pattern = nx.to_graph6_bytes(F, header=False).decode().strip()
        click.echo(json.dumps({"pattern": f, "pattern_graph6": pattern, "graph": g,
                               "n": G.number_of_nodes(), "root": list(roots) or None,
                               "pattern_roots": list(range(len(roots))) or None, "hom": count}, indent=2))
        return
    where = "".join(f", {p} -> {v}" for p, v in zip(range(len(roots)), roots))
    click.echo(f"hom({f}, {g}{where}) = {count}")
