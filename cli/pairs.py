"""`wltools check` and `wltools iso`: one pair of graphs."""

from __future__ import annotations

import click

from wltools.check import EXPLAIN_MAX_NODES, ISO_TIMEOUT
from cli.common import (DEFAULT_TESTS, EDGE_ATTR_HELP, ISO_TIMEOUT_HELP, IsoTimeout, LazyOption, MAX_MEMORY_HELP,
                        MemorySize, NODE_ATTR_HELP, QUIET_HELP, ReportedError, check_inputs, check_output_file,
                        out_of_memory, refuse_unused, table, tests_help)

#: --stereo on check and iso (wltools.graphs.inputs.from_smiles).
STEREO_HELP = ("smiles: inputs only: add stereo to the labels, the CIP descriptor of each atom (R, S; r, s "
               "pseudo-asymmetric; '' none) and of each double bond (E, Z; '' none); without it the two "
               "enantiomers of a molecule are one labelled graph.")


@click.command()
@click.argument("g", metavar="G")
@click.argument("h", metavar="[H]", required=False, default=None)
@click.option(
    "--test",
    "test",
    cls=LazyOption,
    type=str,
    default=DEFAULT_TESTS,
    show_default=True,
    metavar="TESTS",
    help=tests_help(then=" With all, tests that refuse the pair's labels (BREC's baselines; EPWL with edge "
                         "labels) are left out with a note."),
)
@click.option(
    "--rrwp-steps",
    type=click.IntRange(min=1),
    default=None,
    metavar="K",
    help="RRWP's K, its number of channels I, M, ..., M^(K-1) (walks of 0 to K-1 steps; the K of rrwp:K); "
         "default max(n_G, n_H); values above "
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
                   "its counts written; with several tests, the weakest drawable test that distinguishes them (else 3-WL). "
                   "Graphs up to 500 nodes; labels (element symbols, bond orders) written on them.")
@click.option("--stereo", is_flag=True, help=STEREO_HELP)
@click.option("--explain", is_flag=True,
              help="For each test with a homomorphism family (1wl: trees, swl-vs, sswl, slfwl2, 3wl: treewidth <= 2, "
                   "3fwl: treewidth <= 3; wltools patterns --test T lists them), the smallest family pattern whose "
                   "homomorphism counts into G and H differ, with both counts (unlabelled graphs only).")
@click.option("--explain-max-nodes", type=click.IntRange(1, 7), default=EXPLAIN_MAX_NODES, show_default=True,
              metavar="K", help="Largest pattern (vertices) --explain searches.")
@click.option("--quiet", is_flag=True, help=QUIET_HELP + " A test estimated at more than a few seconds a round "
              "(3fwl on large graphs) otherwise prints its memory and time estimate first.")
def check(g: str, h: str, test: str, rrwp_steps: int | None, exact: bool, fmt: str,
          max_memory: int | None, iso_timeout: float, no_iso: bool, node_attr: str | None,
          edge_attr: str | None, draw_path: str | None, stereo: bool, explain: bool, explain_max_nodes: int,
          quiet: bool) -> None:
    """Can refinement tests distinguish graphs G and H? Also says whether they are isomorphic.

    G and H are each a file (graph6/sparse6, edge list, GraphML, node-link JSON; FILE:INDEX picks
    one graph of a multi-graph file), a named graph (petersen, cycle:6, K4, star:3, shrikhande, ...),
    one graph of a BREC or suite pair (brec:270:g, exp:12:h); or give one pair name alone for both
    (wltools check brec:270, exp:12, csl:3),
    a disjoint union such as cycle:3+cycle:3, a graph6/sparse6 string, or smiles:SMILES (a
    molecule read by RDKit, pip install -e ".[chem]"; up to 5,000 atoms). A molecule's atom label
    is (element symbol, formal charge, aromatic, hydrogens), e.g. ('C', 0, False, 2) for a CH2;
    its bond label the bond type (SINGLE, DOUBLE, TRIPLE, AROMATIC); --stereo adds the CIP
    descriptor to both (R/S to atoms, E/Z to double bonds). Labels are part of the graph in every
    test and in the isomorphism answer.

    Example: wltools check decalin bicyclopentyl --test spd
    """
    import json

    from wltools.check import check_dict, check_pair, check_text
    from wltools.refine.names import parse_tests

    from .graph_names import load_two

    tests = parse_tests(test, command="--test")
    pair = None
    if h is None:  # one pair by name (brec:270, exp:12): its two graphs
        pair = load_two(g, None)
        g, h = (X.graph["name"] for X in pair)
    refuse_unused("explain_max_nodes", "--explain-max-nodes", explain, "--explain (it bounds the patterns searched)")
    refuse_unused("rrwp_steps", "--rrwp-steps", "rrwp" in tests, "the rrwp test among --test")
    refuse_unused("iso_timeout", "--iso-timeout", not no_iso, "the isomorphism check (not --no-iso)")
    refuse_unused("stereo", "--stereo", any(str(x).startswith("smiles:") for x in (g, h)), "a smiles: input")
    if draw_path:  # refused before any work: a folder, an unknown format, an input file, an undrawable test
        from wltools.draw.figure import check_target

        check_target(draw_path, (g, h), tests[0] if len(tests) == 1 else "all")
        check_output_file("--draw", draw_path, (g, h))  # nor a device, FIFO or input given as FILE:INDEX
    check_inputs(g, h)  # a FIFO or device as a graph file: one line, not a hang
    attrs = {"node_attr": node_attr, "edge_attr": edge_attr, "stereo": stereo}
    G, H = pair or load_two(g, h, max_memory=max_memory, **attrs)
    tests = _applicable(tests, test, G, H)
    if explain:  # labelled graphs refused before any work
        from wltools.hom.count import check_unlabelled

        check_unlabelled(G, f"G ({g})")
        check_unlabelled(H, f"H ({h})")
        from wltools.check import require_explain

        require_explain(tests, G, H, explain_max_nodes, max_memory)  # the dense matrices, before any work
    if draw_path:  # a drawing of many nodes takes minutes: refused before the work
        from wltools.draw.figure import check_draw_size

        check_draw_size(G, H, (g, h))
    try:
        c = check_pair(G, H, tests, rrwp_steps=rrwp_steps, exact=exact, max_memory=max_memory,
                       iso=not no_iso, iso_timeout=iso_timeout, progress=not quiet)
    except MemoryError:
        raise out_of_memory(f"checking {g} against {h}") from None
    if explain:
        from wltools.check import explain_results

        explain_results(c, G, H, explain_max_nodes)
    for note in c.notes:
        click.echo(f"note: {note}", err=True)
    if c.inconsistent:
        click.echo("warning: isomorphic graphs reported as distinguished; this is a bug", err=True)
    if draw_path:
        from wltools.draw.figure import draw_results
        from wltools.runtime.atomic import atomic_path

        with atomic_path(draw_path, error=ReportedError) as tmp:  # a full disk leaves the old drawing whole
            drawn = draw_results(G, H, c.results, tmp, rrwp_steps=c.rrwp_steps, names=(g, h),
                                 explanations=c.explanations)
        click.echo(f"drawing: {draw_path} ({drawn})", err=True)
    if fmt == "json":
        click.echo(json.dumps(check_dict(c, (g, h), (G, H), exact), indent=2))
    else:
        click.echo(check_text(c, (g, h), (G, H)))


def _applicable(tests: tuple, text: str, G, H) -> tuple:
    """``tests`` without those that refuse the pair's labels when the user wrote ``all`` (a note
    on stderr names them); a test named explicitly keeps its one-line refusal."""
    from wltools.graphs.labels import pair_labels
    from wltools.refine.names import refuses_labels

    labels = pair_labels(G, H)
    if labels is None or "all" not in {t.strip().lower() for t in text.split(",")}:
        return tests
    keep = tuple(t for t in tests if not refuses_labels(t, labels.node is not None, labels.edge is not None))
    left = [t for t in tests if t not in keep]
    if left:
        click.echo(f"note: left out of all, as they refuse labelled graphs: {', '.join(left)}", err=True)
    return keep


@click.command()
@click.argument("g", metavar="G")
@click.argument("h", metavar="[H]", required=False, default=None)
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
@click.option("--stereo", is_flag=True, help=STEREO_HELP)
def iso(g: str, h: str, fmt: str, max_memory: int | None, iso_timeout: float, node_attr: str | None,
        edge_attr: str | None, stereo: bool) -> None:
    """Are graphs G and H isomorphic? Exact, by canonical certificates: nauty (pynauty) up to 256
    nodes, bliss (igraph) above, Traces (pip install -e ".[traces]") above 1,000 nodes where
    installed; up to 100,000 nodes.

    G and H are given as for `wltools check` (or one pair name: wltools iso brec:270). Exit code 0 whether or not they are isomorphic.
    Cheap exact invariants (degrees, components, triangles, 4-cycles, closed walks) are compared
    first; a difference answers "not isomorphic" with that witness, and above 256 nodes skips the
    labelling.
    """
    import json

    from wltools.check import check_pair, iso_dict, iso_text

    from .graph_names import load_two

    pair = None
    if h is None:  # one pair by name (brec:270, exp:12): its two graphs
        pair = load_two(g, None)
        g, h = (X.graph["name"] for X in pair)
    refuse_unused("stereo", "--stereo", any(str(x).startswith("smiles:") for x in (g, h)), "a smiles: input")
    check_inputs(g, h)  # a FIFO or device as a graph file: one line, not a hang
    attrs = {"node_attr": node_attr, "edge_attr": edge_attr, "stereo": stereo}
    G, H = pair or load_two(g, h, max_memory=max_memory, **attrs)
    try:
        c = check_pair(G, H, (), max_memory=max_memory, iso_timeout=iso_timeout, always_label_small=True)
    except MemoryError:
        raise out_of_memory(f"labelling {g} and {h}") from None
    click.echo(json.dumps(iso_dict(c, (g, h), (G, H)), indent=2) if fmt == "json" else iso_text(c))

