"""``wltools patterns`` and ``wltools can-count``: a test's pattern family and its subgraph-counting
power (Zhang et al., ICLR 2024, Theorems 3.4, 3.7, 4.5; :mod:`wltools.hom`)."""

from __future__ import annotations

import json

import click

from cli.common import ReportedError, check_inputs

__all__ = ["patterns_cmd", "can_count_cmd", "MAX_PATTERN_NODES"]

#: The largest ``--max-nodes`` answered per level, so that a command answers within about a minute:
#: 8 vertices are 11117 graphs (9: 261080), 7 vertices 4306 rooted graphs at node level (8: about
#: 47000), 6 vertices 1549 at edge level (7: 21090, minutes of ear searches).
MAX_PATTERN_NODES = {"graph": 8, "node": 7, "edge": 6}

LEVEL_HELP = ("graph: the test's graph colour; node: a node's colour, patterns rooted at vertex 0; "
              "edge: a vertex pair's colour, patterns rooted at vertices 0 and 1.")


def _level(level: str) -> str:
    from wltools.hom.patterns import LEVELS

    if level not in LEVELS:
        raise ReportedError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    return level


def _test(test: str) -> str:
    """``--test``, lower-cased; an unknown name is one line listing the tests with a family."""
    from wltools.hom.families import FAMILY_TESTS
    from wltools.refine.names import is_test_name

    name = test.strip().lower()
    if not is_test_name(name):
        raise ReportedError(f"unknown test {test!r}; the tests with a pattern family: {', '.join(FAMILY_TESTS)}")
    return name


def _family(test: str, level: str):
    from wltools.hom.families import family_of, no_family_reason

    fam = family_of(test, level)
    if fam is None:
        raise ReportedError(f"{test} has no known pattern family at {level} level: "
                            f"{no_family_reason(test, level)}")
    return fam


@click.command("patterns")
@click.option("--test", "test", required=True, help="Test name (1wl, swl-vs, m1, sswl, slfwl2, 3wl, 3fwl, epwl).")
@click.option("--max-nodes", "max_nodes", type=int, required=True, help="Largest pattern, in vertices.")
@click.option("--level", default="graph", show_default=True, help=LEVEL_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def patterns_cmd(test: str, max_nodes: int, level: str, fmt: str) -> None:
    """The connected patterns of TEST's family up to MAX_NODES vertices (graph6, fewest vertices
    first, then fewest edges) and their number per size."""
    from wltools.hom.families import family_patterns

    test = _test(test)
    fam = _family(test, _level(level))
    top = MAX_PATTERN_NODES[level]
    if max_nodes < 1 or max_nodes > top:
        raise ReportedError(f"--max-nodes must be between 1 and {top} at {level} level (one more "
                            f"vertex takes minutes to list); got {max_nodes}")
    pats = family_patterns(test, max_nodes, level)
    counts = {n: sum(F.number_of_nodes() == n for F in pats) for n in range(1, max_nodes + 1)}
    if fmt == "json":
        from wltools.hom.pattern_names import pattern_name
        from wltools.hom.patterns import graph6

        click.echo(json.dumps({"test": test, "level": level, "family": fam.name,
                               "citation": fam.citation, "max_nodes": max_nodes,
                               "counts": {str(n): c for n, c in counts.items()},
                               "patterns": [graph6(F) for F in pats], "names": [pattern_name(F) for F in pats]},
                              indent=1))
        return
    roots = {"graph": "", "node": " (root: vertex 0)", "edge": " (roots: vertices 0, 1)"}[level]
    click.echo(f"# {test}, {level} level: {fam.name}{roots}")
    click.echo(f"# {fam.citation}")
    click.echo("# count per number of vertices: " + ", ".join(f"{n}: {c}" for n, c in counts.items()))
    for F in pats:
        click.echo(_g6(F))


def _g6(F) -> str:
    """F's graph6 with its name beside it where it has one (``C~ (K4)``)."""
    from wltools.hom.pattern_names import with_name
    from wltools.hom.patterns import graph6

    return with_name(graph6(F), F)


def _roots(root: tuple[str, ...], level: str, G) -> tuple:
    """The marked vertices 0..n-1 of the pattern ``G``: ``--root`` values, a file's vertices by
    the file's own node names (:func:`wltools.graphs.validation.vertex_of`)."""
    from wltools.graphs.validation import NODE_NAMES, vertex_of

    need = {"graph": 0, "node": 1, "edge": 2}[level]
    if not root:
        return {"graph": (), "node": (0,), "edge": (0, 1)}[level]
    if len(root) != need:
        raise ReportedError(f"--root: {level} level marks {need} vertices; {len(root)} given")
    marks = tuple(vertex_of(G, r.strip()) for r in root)
    if None in marks or len(set(marks)) != len(marks):
        names = G.graph.get(NODE_NAMES)
        have = ", ".join(names) if names is not None else f"0..{G.number_of_nodes() - 1}"
        raise ReportedError(f"--root {' '.join(root)}: not {need} distinct vertices of the pattern (its vertices: {have})")
    return marks


@click.command("can-count")
@click.argument("pattern")
@click.option("--test", "test", required=True, help="Test name (1wl, swl-vs, m1, sswl, slfwl2, 3wl, 3fwl, epwl).")
@click.option("--level", default="graph", show_default=True, help=LEVEL_HELP)
@click.option("--root", multiple=True, help="Marked vertex (repeat for edge level); "
              "default vertex 0 (node), vertices 0 and 1 (edge). A pattern file's vertices are named as in "
              "the file (an edge list with nodes 1..4: --root 4 is its node 4); names and graph6 number "
              "theirs 0..n-1.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def can_count_cmd(pattern: str, test: str, level: str, root: tuple[str, ...], fmt: str) -> None:
    """Whether TEST can count PATTERN as a subgraph (Theorem 4.5: every homomorphic image of the
    pattern lies in the test's family); for "no", the image outside the family. PATTERN as
    everywhere: a name (K4, triangle, cycle:6, path:4, star:3, chordal:4, hom:boat), graph6, or a
    file; unlabelled."""
    from wltools.hom.spasm import MAX_SPASM_NODES, can_count

    from .graph_names import load_one

    test = _test(test)
    fam = _family(test, _level(level))
    check_inputs(pattern)  # a FIFO or device as a pattern file: one line, not a hang
    F = load_one(pattern)
    if F.number_of_nodes() > MAX_SPASM_NODES:
        raise ReportedError(f"the pattern has {F.number_of_nodes()} vertices; the spasm is enumerated "
                            f"up to {MAX_SPASM_NODES}")
    marks = _roots(root, level, F)
    ok, image = can_count(F, test, level, marks)
    witness = None if image is None else _g6(image)
    if fmt == "json":
        from wltools.hom.pattern_names import pattern_name
        from wltools.hom.patterns import graph6

        click.echo(json.dumps({"pattern": pattern, "test": test, "level": level, "roots": [int(r) if r.strip().lstrip("-").isdigit() else r for r in root] or list(marks),
                               "can_count": ok, "family": fam.name, "citation": fam.citation,
                               "witness": None if image is None else graph6(image),
                               "witness_name": None if image is None else pattern_name(image)}))
        return
    if ok:
        click.echo(f"yes: every homomorphic image of {pattern} lies in {test}'s family ({fam.name})")
    else:
        where = {"graph": "", "node": ", root vertex 0", "edge": ", roots vertices 0 and 1"}[level]
        click.echo(f"no: the homomorphic image {witness} ({image.number_of_nodes()} vertices, "
                   f"{image.number_of_edges()} edges{where}) is outside {test}'s family ({fam.name})")
