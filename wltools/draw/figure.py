"""Side-by-side drawings of a pair of graphs, nodes coloured by a refinement test's colouring.

Both graphs are drawn with one palette indexed by the shared colour ids of
:func:`~wltools.draw.colourings.pair_colouring` (the same class has the same colour in G and H).
The colour class whose counts differ most at the shown round is outlined in black and its counts
are written under the drawing, with the round, the test's witness and what a node's colour means.
Pairs the test does not distinguish are drawn in their stable colouring, captioned "not
distinguished".

Deterministic: layouts are Kamada-Kawai (deterministic, started from a circle) up to
:data:`KAMADA_KAWAI_MAX_NODES` nodes and spring layouts with a fixed seed beyond; PNG files carry no
timestamp and SVG files are written without a date and with a fixed id salt, so the same pair gives
the same bytes.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import networkx as nx

from ..errors import WLToolsError
from ..refine.names import TEST_LABELS
from .colourings import DRAWABLE_TESTS, PairColouring, UnsupportedTestError, is_drawable, pair_colouring

__all__ = ["draw_pair", "draw_results", "draw_colouring", "layout", "save_figure", "check_target", "caption_lines",
           "FIGURE_FORMATS",
           "KAMADA_KAWAI_MAX_NODES"]

#: File suffixes :func:`save_figure` writes.
FIGURE_FORMATS = ("png", "svg", "pdf")

#: Graphs up to this many nodes are laid out by Kamada-Kawai, larger ones by a seeded spring layout.
KAMADA_KAWAI_MAX_NODES = 60

#: The outline of the marked colour class.
_MARK = {"color": "black", "width": 3.0}


def layout(G: nx.Graph, seed: int = 0) -> dict:
    """Node positions of ``G``, deterministic: Kamada-Kawai up to :data:`KAMADA_KAWAI_MAX_NODES`
    nodes, else ``spring_layout(seed=seed)``.

    Examples
    --------
    >>> import networkx as nx
    >>> a, b = layout(nx.cycle_graph(5)), layout(nx.cycle_graph(5))
    >>> all((a[v] == b[v]).all() for v in a)
    True
    """
    if G.number_of_nodes() == 0:
        return {}
    if G.number_of_nodes() <= KAMADA_KAWAI_MAX_NODES:
        return nx.kamada_kawai_layout(G)
    return nx.spring_layout(G, seed=seed)


def _palette(k: int) -> list:
    """``k`` colours: tab10 / tab20 while they suffice, else evenly spaced along ``turbo``."""
    from matplotlib import colormaps

    if k <= 10:
        return [colormaps["tab10"](i) for i in range(k)]
    if k <= 20:
        return [colormaps["tab20"](i) for i in range(k)]
    return [colormaps["turbo"](0.05 + 0.9 * i / (k - 1)) for i in range(k)]


def caption_lines(pc: PairColouring, width: int = 128) -> list[str]:
    """The text under a drawing: verdict and round, the marked class's counts, the witness
    (shortened), what a node's colour is.

    Examples
    --------
    >>> import networkx as nx
    >>> from wltools.draw import pair_colouring
    >>> caption_lines(pair_colouring(nx.path_graph(4), nx.star_graph(3), "1wl"))[:2]
    ['1-WL distinguishes G and H: colour histograms first differ at round 1', 'round 1: class 1: 2 nodes in G, 0 in H (outlined); 3 classes differ, 3 classes in all']
    """
    if pc.reason in ("order", "edges"):
        head = f"{pc.label} distinguishes G and H without refining: {pc.witness}"
    elif pc.distinguished:
        head = f"{pc.label} distinguishes G and H: colour histograms first differ at round {pc.first_diff}"
        if pc.shown_round != pc.first_diff:
            head += f" (of the refined elements); the node colours below differ from round {pc.shown_round}"
    else:
        head = f"{pc.label}: not distinguished (stable after {pc.rounds} round(s))"
    lines = textwrap.wrap(head, width)
    if pc.differing:
        c, a, b = pc.differing[0]
        more = len(pc.differing)
        lines.append(f"round {pc.shown_round}: class {c}: {a} node{'s' if a != 1 else ''} in G, {b} in H (outlined)"
                     + (f"; {more} classes differ" if more > 1 else "") + f", {pc.classes} classes in all")
    elif pc.reason not in ("order", "edges"):
        lines.append(f"round {pc.shown_round}: {pc.classes} colour classes, equal counts in G and H")
    if pc.reason not in ("order", "edges"):
        lines += textwrap.wrap("witness: " + pc.witness, width, max_lines=2, placeholder=" ...")
    lines.append(f"node colour: {pc.node_meaning}")
    return lines


def _draw_graph(ax, G: nx.Graph, pos: dict, colours: list, palette: list, marked: int | None, name: str) -> None:
    """One graph on ``ax``: nodes filled by class colour, the ``marked`` class outlined, class ids
    written in the nodes of graphs up to 40 nodes."""
    n = G.number_of_nodes()
    size = max(30, min(500, 9000 // max(n, 1)))
    name = name if len(name) <= 40 else name[:37] + "..."  # a long graph6 string or path
    ax.set_title(f"{name}: {n} nodes, {G.number_of_edges()} edges", fontsize=10)
    ax.set_axis_off()
    if n == 0:
        return
    nodes = list(range(n))
    nx.draw_networkx_edges(G, pos, ax=ax, edge_color="#888888", width=0.8 if n > 60 else 1.2)
    edge = [_MARK["color"] if colours[v] == marked else "white" for v in nodes]
    lw = [_MARK["width"] if colours[v] == marked else 0.5 for v in nodes]
    nx.draw_networkx_nodes(G, pos, nodelist=nodes, ax=ax, node_size=size, node_color=[palette[colours[v]] for v in nodes],
                           edgecolors=edge, linewidths=lw)
    if n <= 40:
        nx.draw_networkx_labels(G, pos, labels={v: str(colours[v]) for v in nodes}, ax=ax, font_size=7)


def draw_colouring(pc: PairColouring, *, names: tuple[str, str] = ("G", "H"), title: str | None = None,
                   seed: int = 0):
    """A matplotlib figure of a :class:`~wltools.draw.colourings.PairColouring` (both graphs side
    by side, the marked class outlined, the caption of :func:`caption_lines`)."""
    from matplotlib.figure import Figure

    lines = caption_lines(pc)
    palette = _palette(max(pc.classes, 1))
    caption_in = 0.2 + 0.15 * len(lines)  # inches: 8.5 pt monospace lines
    height = 5.0 + caption_in
    fig = Figure(figsize=(11, height))
    axes = fig.subplots(1, 2)
    marked = pc.differing[0][0] if pc.differing else None
    for ax, graph, colours, name in zip(axes, (pc.G, pc.H), (pc.colours_g, pc.colours_h), names):
        _draw_graph(ax, graph, layout(graph, seed), colours, palette, marked, name)
    fig.suptitle(title or f"{pc.label} colouring at round {pc.shown_round}", fontsize=12)
    fig.text(0.02, 0.1 / height, "\n".join(lines), fontsize=8.5, va="bottom", ha="left", family="monospace")
    fig.subplots_adjust(left=0.02, right=0.98, top=1 - 0.65 / height, bottom=(caption_in + 0.1) / height, wspace=0.05)
    return fig


def check_target(path, inputs=(), test: str | None = None) -> Path:
    """Refuse (:class:`~wltools.errors.WLToolsError`, one line) a drawing target that is a folder,
    has no suffix of :data:`FIGURE_FORMATS`, or is one of the ``inputs`` (the graph files drawn);
    and a ``test`` whose colourings cannot be drawn (``"all"``: any test).

    Examples
    --------
    >>> check_target("pair.svg").name
    'pair.svg'
    >>> check_target("pair.jpeg")
    Traceback (most recent call last):
    ...
    wltools.errors.WLToolsError: cannot write a drawing as 'pair.jpeg': use a .png, .svg or .pdf file name
    """
    if test not in (None, "all") and not is_drawable(test):
        raise UnsupportedTestError(f"cannot draw the colourings of {TEST_LABELS.get(test, test)} ({test}); "
                                   f"drawable tests: {', '.join(DRAWABLE_TESTS)}, or nK")
    path = Path(path)
    if path.is_dir():
        raise WLToolsError(f"{path} is a folder; give the drawing a file name such as {path / 'pair.png'}")
    if path.suffix.lower().lstrip(".") not in FIGURE_FORMATS:
        raise WLToolsError(f"cannot write a drawing as {path.name!r}: use a .png, .svg or .pdf file name")
    if not path.parent.is_dir():
        raise WLToolsError(f"cannot write the drawing {path}: there is no folder {path.parent}")
    for spec in inputs:
        if Path(str(spec)).exists() and Path(str(spec)).resolve() == path.resolve():
            raise WLToolsError(f"the drawing {path} would overwrite the input graph file {spec}")
    return path


def save_figure(fig, path) -> Path:
    """Write ``fig`` as PNG, SVG or PDF (by suffix), byte-for-byte reproducibly.

    Raises :class:`~wltools.errors.WLToolsError` for another suffix or an unwritable path.
    """
    import matplotlib

    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FIGURE_FORMATS:
        raise WLToolsError(f"cannot write a drawing as {path.name!r}: use a .png, .svg or .pdf file name")
    metadata = {"png": {"Software": None}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}[fmt]
    try:
        with matplotlib.rc_context({"svg.hashsalt": "wltools"}):
            fig.savefig(path, format=fmt, dpi=110, metadata=metadata)
    except OSError as exc:
        raise WLToolsError(f"cannot write the drawing {path}: {exc.strerror or exc}") from None
    return path


def draw_pair(G: nx.Graph, H: nx.Graph, test: str, path=None, *, round: int | None = None,
              rrwp_steps: int | None = None, names: tuple[str, str] = ("G", "H"), title: str | None = None,
              seed: int = 0):
    """Draw ``G`` and ``H`` side by side coloured by ``test``'s colouring at ``round`` (default:
    where the colour histograms first differ, else the stable colouring); write it to ``path``
    (PNG / SVG / PDF) if given. Returns the matplotlib figure.

    Raises :class:`~wltools.draw.colourings.UnsupportedTestError` for a test whose colourings
    cannot be drawn (4-WL, M1, M2).

    Examples
    --------
    >>> import networkx as nx
    >>> fig = draw_pair(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), "spd")
    >>> len(fig.axes)
    2
    """
    fig = draw_colouring(pair_colouring(G, H, test, round=round, rrwp_steps=rrwp_steps), names=names,
                         title=title, seed=seed)
    if path is not None:
        save_figure(fig, path)
    return fig


def draw_results(G: nx.Graph, H: nx.Graph, results, path, *, rrwp_steps: int | None = None,
                 names: tuple[str, str] = ("G", "H")) -> str:
    """Draw a checked pair (``wltools check --draw``): coloured by the first of ``results``
    (:class:`~wltools.refine.RefinementResult`, weakest test first) that distinguishes it, else by
    the last drawable one (its stable colouring); write it to ``path``. Returns the test drawn.

    Examples
    --------
    >>> import networkx as nx, tempfile, os
    >>> from wltools.refine import refine_pair
    >>> G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    >>> with tempfile.TemporaryDirectory() as d:
    ...     draw_results(G, H, [refine_pair(G, H, t) for t in ("1wl", "spd", "3wl")], os.path.join(d, "p.png"))
    'spd'
    """
    drawable = [r for r in results if is_drawable(r.test)]
    if not drawable:
        raise UnsupportedTestError("none of the tests run can be drawn (4-WL, M1 and M2 cannot)")
    chosen = next((r for r in drawable if r.distinguished), drawable[-1])
    pc = pair_colouring(G, H, chosen.test, rrwp_steps=rrwp_steps, result=chosen)
    save_figure(draw_colouring(pc, names=names), path)
    return chosen.test
