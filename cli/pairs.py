"""`wltools check` and `wltools iso`: one pair of graphs."""

from __future__ import annotations

import click

from wltools.check import ISO_TIMEOUT
from wltools.refine.names import ALL_TESTS, TESTS
from cli.common import (EDGE_ATTR_HELP, ISO_TIMEOUT_HELP, IsoTimeout, MAX_MEMORY_HELP, MemorySize, NODE_ATTR_HELP,
                        ReportedError, TestName, check_inputs, check_output_file, out_of_memory, table)


@click.command()
@click.argument("g", metavar="G")
@click.argument("h", metavar="H")
@click.option(
    "--test",
    "test",
    type=TestName(ALL_TESTS + ("all",)),
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
@click.option("--max-memory", type=MemorySize(), default=None, help=MAX_MEMORY_HELP)
@click.option("--iso-timeout", type=IsoTimeout(), default=ISO_TIMEOUT,
              show_default=True, metavar="SECONDS", help=ISO_TIMEOUT_HELP)
@click.option("--no-iso", is_flag=True,
              help="Skip the canonical labelling (the cheap invariants are still compared).")
@click.option("--node-attr", default=None, metavar="NAME", help=NODE_ATTR_HELP)
@click.option("--edge-attr", default=None, metavar="NAME", help=EDGE_ATTR_HELP)
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
        check_output_file("--draw", draw_path, (g, h))  # nor a device, FIFO or input given as FILE:INDEX
    check_inputs(g, h)  # a FIFO or device as a graph file: one line, not a hang
    attrs = {"node_attr": node_attr, "edge_attr": edge_attr}
    G, H = load_graph(g, max_memory=max_memory, **attrs), load_graph(h, max_memory=max_memory, **attrs)
    try:
        c = check_pair(G, H, TESTS if test == "all" else (test,), rrwp_steps=rrwp_steps, exact=exact,
                       max_memory=max_memory, iso=not no_iso, iso_timeout=iso_timeout)
    except MemoryError:
        raise out_of_memory(f"checking {g} against {h}") from None
    for note in c.notes:
        click.echo(f"note: {note}", err=True)
    if c.inconsistent:
        click.echo("warning: isomorphic graphs reported as distinguished; this is a bug", err=True)
    if draw_path:
        from wltools.draw.figure import draw_results
        from wltools.runtime.atomic import atomic_path

        with atomic_path(draw_path, error=ReportedError) as tmp:  # a full disk leaves the old drawing whole
            drawn = draw_results(G, H, c.results, tmp, rrwp_steps=c.rrwp_steps, names=(g, h))
        click.echo(f"drawing: {draw_path} ({drawn})", err=True)
    if fmt == "json":
        click.echo(json.dumps(check_dict(c, (g, h), (G, H), exact), indent=2))
    else:
        click.echo(check_text(c, (g, h), (G, H)))


@click.command()
@click.argument("g", metavar="G")
@click.argument("h", metavar="H")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
    help="text: one line; json: one object with certificates and canonical graph6 forms "
         "(graph6 up to 1,000 nodes and of unlabelled graphs, else null).",
)
@click.option("--max-memory", type=MemorySize(), default=None, help=MAX_MEMORY_HELP)
@click.option("--iso-timeout", type=IsoTimeout(), default=ISO_TIMEOUT,
              show_default=True, metavar="SECONDS", help=ISO_TIMEOUT_HELP)
@click.option("--node-attr", default=None, metavar="NAME", help=NODE_ATTR_HELP)
@click.option("--edge-attr", default=None, metavar="NAME", help=EDGE_ATTR_HELP)
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

    check_inputs(g, h)  # a FIFO or device as a graph file: one line, not a hang
    attrs = {"node_attr": node_attr, "edge_attr": edge_attr}
    G, H = load_graph(g, max_memory=max_memory, **attrs), load_graph(h, max_memory=max_memory, **attrs)
    try:
        c = check_pair(G, H, (), max_memory=max_memory, iso_timeout=iso_timeout, always_label_small=True)
    except MemoryError:
        raise out_of_memory(f"labelling {g} and {h}") from None
    click.echo(json.dumps(iso_dict(c, (g, h), (G, H)), indent=2) if fmt == "json" else iso_text(c))

