"""Side-by-side drawings of a pair of graphs, nodes coloured by a refinement test's colouring.

Both graphs are drawn with one palette indexed by the shared colour ids of
:func:`~wltools.draw.colourings.pair_colouring` (the same class has the same colour in G and H).
The colour class whose counts differ most at the shown round is outlined in black and its counts
are written under the drawing, with the round, the test's witness and what a node's colour means.
Pairs the test does not distinguish are drawn in their stable colouring, captioned "not
distinguished".

Labels (:mod:`wltools.graphs.labels`) are written on the graph: a molecule read from SMILES
(``graph["molecule"]``, :func:`wltools.graphs.inputs.from_smiles`) shows element symbols (with
charge and, under ``stereo``, the CIP descriptor) in its atoms and bond orders on its bonds (2
double, 3 triple, 1.5 aromatic; single bonds unmarked); other graphs show their label values
(shortened past :data:`LABEL_CHARS` characters). The class ids are then written beside the nodes.

Planar graphs are drawn planar: the Kamada-Kawai layout when it has no crossing edges, else
Kamada-Kawai started from networkx's planar straight-line embedding (``planar_layout``: Chrobak &
Payne's algorithm on the embedding of :func:`networkx.check_planarity`), else that embedding itself,
which has none.

Deterministic: layouts are Kamada-Kawai (deterministic, started from a circle) up to
:data:`KAMADA_KAWAI_MAX_NODES` nodes and spring layouts with a fixed seed beyond (planar
embeddings for planar graphs); PNG files carry no timestamp and SVG files are written without a
date and with a fixed id salt, so the same pair gives the same bytes.

Size: graphs above :data:`DRAW_MAX_NODES` nodes are refused (:func:`check_draw_size`): the layout
(a seeded spring layout, quadratic in the nodes) dominates; ``check --test 1wl --draw`` on random
3-regular pairs took 26.5 s at 500 nodes (7.4 s without ``--draw``), 48.5 s at 1,000 (3.9 s) and
143 s at 2,000 (6.9 s) on a 2-core machine shared with other jobs, and 137 s at 5,000 (1.1 s) on
another; nothing in such a picture is legible either.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import networkx as nx
import numpy as np

from ..errors import ResourceLimitError, WLToolsError
from ..refine.names import TEST_LABELS
from .colourings import DRAWABLE_TESTS, PairColouring, UnsupportedTestError, is_drawable, pair_colouring

__all__ = ["draw_pair", "draw_results", "draw_colouring", "layout", "save_figure", "check_target", "caption_lines",
           "FIGURE_FORMATS", "KAMADA_KAWAI_MAX_NODES", "DRAW_MAX_NODES", "LABEL_CHARS", "check_draw_size",
           "label_texts", "crossing_edges"]

#: File suffixes :func:`save_figure` writes.
FIGURE_FORMATS = ("png", "svg", "pdf")

#: Graphs up to this many nodes are laid out by Kamada-Kawai, larger ones by a seeded spring layout.
KAMADA_KAWAI_MAX_NODES = 60

#: Most nodes a drawn graph may have (:func:`check_draw_size`).
DRAW_MAX_NODES = 500

#: Longest label text written on a node or edge; longer values are cut with "...".
LABEL_CHARS = 8

#: Bond orders written on a molecule's bonds (RDKit bond type names; single bonds unmarked).
_BOND_ORDER = {"SINGLE": "", "DOUBLE": "2", "TRIPLE": "3", "AROMATIC": "1.5", "QUADRUPLE": "4"}

#: The outline of the marked colour class.
_MARK = {"color": "black", "width": 3.0}


def crossing_edges(G: nx.Graph, pos: dict) -> int:
    """Number of pairs of edges of ``G`` without a common end whose straight segments at ``pos``
    cross (properly: each segment's ends strictly on the two sides of the other's line).

    Examples
    --------
    >>> import networkx as nx
    >>> square = {0: (0, 0), 1: (1, 1), 2: (1, 0), 3: (0, 1)}  # the cycle 0 1 2 3: its diagonals cross
    >>> crossing_edges(nx.cycle_graph(4), square), crossing_edges(nx.Graph([(0, 2), (1, 3)]), square)
    (1, 0)
    """
    edges = np.array([(u, v) for u, v in G.edges() if u != v])
    if len(edges) < 2:
        return 0
    p, q = (np.array([pos[v] for v in edges[:, k]], dtype=float) for k in (0, 1))

    def side(a, b, c):  # sign of the turn a -> b -> c, every pair of edges at once
        return np.sign((b[:, None, 0] - a[:, None, 0]) * (c[None, :, 1] - a[:, None, 1])
                       - (b[:, None, 1] - a[:, None, 1]) * (c[None, :, 0] - a[:, None, 0]))

    before, after = side(p, q, p), side(p, q, q)  # [i, j]: where edge j's ends lie from edge i
    cross = (before * after < 0) & (before.T * after.T < 0)
    shared = (edges[:, None, :, None] == edges[None, :, None, :]).any(axis=(2, 3))
    return int(np.triu(cross & ~shared, 1).sum())


def _planar_layout(G: nx.Graph, start: dict | None) -> dict:
    """A crossing-free layout of a planar ``G`` (module docstring): Kamada-Kawai from ``start``'s
    planar embedding when that keeps it crossing-free, else the embedding."""
    flat = nx.planar_layout(G)
    if start is not None:
        relaxed = nx.kamada_kawai_layout(G, pos=flat)
        if not crossing_edges(G, relaxed):
            return relaxed
    return flat


def layout(G: nx.Graph, seed: int = 0) -> dict:
    """Node positions of ``G``, deterministic: Kamada-Kawai up to :data:`KAMADA_KAWAI_MAX_NODES`
    nodes, else ``spring_layout(seed=seed)``; planar graphs without crossing edges (module
    docstring).

    Examples
    --------
    >>> import networkx as nx
    >>> a, b = layout(nx.cycle_graph(5)), layout(nx.cycle_graph(5))
    >>> all((a[v] == b[v]).all() for v in a)
    True
    """
    n = G.number_of_nodes()
    if n == 0:
        return {}
    planar = n >= 4 and G.number_of_edges() <= 3 * n - 6 and nx.check_planarity(G)[0]
    if n <= KAMADA_KAWAI_MAX_NODES:
        pos = nx.kamada_kawai_layout(G)
        return _planar_layout(G, pos) if planar and crossing_edges(G, pos) else pos
    return _planar_layout(G, None) if planar else nx.spring_layout(G, seed=seed)


def _short(value) -> str:
    """A label value as text, cut to :data:`LABEL_CHARS` characters."""
    text = str(value)
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 3] + "..."


def _atom_text(label) -> str:
    """An atom label of :func:`~wltools.graphs.inputs.from_smiles` as a chemist writes it: the
    element symbol, its charge (``N+``, ``O-``, ``Fe2+``) and a CIP descriptor (``C R``)."""
    symbol, charge = label[0], int(label[1])
    text = symbol + ("" if not charge else ("+" if charge > 0 else "-") if abs(charge) == 1
                     else f"{abs(charge)}{'+' if charge > 0 else '-'}")
    return text + (f" {label[4]}" if len(label) > 4 and label[4] else "")


def _bond_text(label) -> str:
    """A bond label of :func:`~wltools.graphs.inputs.from_smiles` as its bond order (``2``,
    ``1.5``; single bonds unmarked), with an E / Z descriptor."""
    kind, cip = (label, "") if isinstance(label, str) else (label[0], label[1])
    order = _BOND_ORDER.get(kind, kind.lower()[:LABEL_CHARS])
    return f"{order} {cip}".strip()


def label_texts(G: nx.Graph) -> tuple[dict, dict]:
    """What :func:`draw_colouring` writes on ``G``'s nodes and edges for their labels (module
    docstring): ``({node: text}, {(u, v): text})``, empty for an unlabelled graph; a molecule's
    element symbols and bond orders, else the label values (shortened).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1, {"label": "DOUBLE"})], molecule=True)
    >>> nx.set_node_attributes(G, {0: ("C", 0, False, 2), 1: ("O", -1, False, 0)}, "label")
    >>> label_texts(G)
    ({0: 'C', 1: 'O-'}, {(0, 1): '2'})
    >>> label_texts(nx.Graph([(0, 1, {"label": "a very long label"})]))
    ({}, {(0, 1): 'a ve...'})
    """
    molecule = bool(G.graph.get("molecule"))
    node, edge = (_atom_text, _bond_text) if molecule else (_short, _short)
    nodes = {v: node(x) for v, x in G.nodes(data="label") if x is not None}
    edges = {(u, v): edge(x) for u, v, x in G.edges(data="label") if x is not None}
    return nodes, {e: t for e, t in edges.items() if t}


def check_draw_size(G: nx.Graph, H: nx.Graph, names: tuple[str, str] = ("G", "H")) -> None:
    """Refuse (:class:`~wltools.errors.ResourceLimitError`, one line) a pair with a graph above
    :data:`DRAW_MAX_NODES` nodes (module docstring).

    Examples
    --------
    >>> import networkx as nx
    >>> check_draw_size(nx.path_graph(3), nx.path_graph(501), ("p3", "p501"))
    Traceback (most recent call last):
    ...
    wltools.errors.ResourceLimitError: cannot draw p501 (501 nodes): drawings are limited to 500 nodes per graph (the layout takes minutes beyond: 143 s for a 2,000-node pair that checks in 7 s); drop --draw
    """
    for X, name in zip((G, H), names):
        if X.number_of_nodes() > DRAW_MAX_NODES:
            raise ResourceLimitError(f"cannot draw {_short_name(name)} ({X.number_of_nodes():,} nodes): drawings are "
                                     f"limited to {DRAW_MAX_NODES:,} nodes per graph (the layout takes minutes "
                                     "beyond: 143 s for a 2,000-node pair that checks in 7 s); drop --draw")


def _short_name(name: str) -> str:
    """A graph's name for a title or a message: a long graph6 string or path cut to 40 characters."""
    return name if len(name) <= 40 else name[:37] + "..."


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
    lines += textwrap.wrap(_labels_line(pc), width)
    lines.append(f"node colour: {pc.node_meaning}" + (" (refined from the node labels)" if pc.labelled[0] else ""))
    return lines


def _labels_line(pc: PairColouring) -> str:
    """The caption's line on labels: which of nodes and edges carry them and how they are written."""
    nodes, edges = pc.labelled
    if not (nodes or edges):
        return ""
    which = "nodes and edges carry labels" if nodes and edges else "nodes carry labels" if nodes else \
        "edges carry labels (the nodes none)"
    if pc.G.graph.get("molecule") and pc.H.graph.get("molecule"):
        how = ("element symbols in the atoms, bond orders on the bonds (2 double, 3 triple, 1.5 aromatic; single "
               "unmarked), CIP descriptors after them with --stereo (C R, 2 E)")
    else:
        how = f"written on them, values past {LABEL_CHARS} characters shortened"
    return f"labels: {which}, part of the graph in the test; {how}" + ("; class ids beside the nodes" if nodes else "")


def _draw_graph(ax, G: nx.Graph, pos: dict, colours: list, palette: list, marked: int | None, name: str) -> None:
    """One graph on ``ax``: nodes filled by class colour, the ``marked`` class outlined; in graphs
    up to 40 nodes, class ids written in the nodes, or labels in them (:func:`label_texts`, class
    ids beside) and on the edges."""
    n = G.number_of_nodes()
    size = max(30, min(500, 9000 // max(n, 1)))
    ax.set_title(f"{_short_name(name)}: {n} nodes, {G.number_of_edges()} edges", fontsize=10)
    ax.set_axis_off()
    if n == 0:
        return
    nodes = list(range(n))
    nx.draw_networkx_edges(G, pos, ax=ax, edge_color="#888888", width=0.8 if n > 60 else 1.2)
    edge = [_MARK["color"] if colours[v] == marked else "white" for v in nodes]
    lw = [_MARK["width"] if colours[v] == marked else 0.5 for v in nodes]
    nx.draw_networkx_nodes(G, pos, nodelist=nodes, ax=ax, node_size=size, node_color=[palette[colours[v]] for v in nodes],
                           edgecolors=edge, linewidths=lw)
    if n > 40:
        return
    node_text, edge_text = label_texts(G)
    classes = {v: str(colours[v]) for v in nodes}
    if node_text:
        nx.draw_networkx_labels(G, pos, labels=node_text, ax=ax, font_size=7, font_weight="bold")
        span = np.ptp(np.array(list(pos.values())), axis=0).max() if n > 1 else 1.0
        beside = {v: pos[v] + 0.045 * span for v in nodes}
        nx.draw_networkx_labels(G, beside, labels=classes, ax=ax, font_size=6, font_color="#444444")
    else:
        nx.draw_networkx_labels(G, pos, labels=classes, ax=ax, font_size=7)
    if edge_text:
        nx.draw_networkx_edge_labels(G, pos, edge_labels=edge_text, ax=ax, font_size=6, rotate=False,
                                     bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8})


def draw_colouring(pc: PairColouring, *, names: tuple[str, str] = ("G", "H"), title: str | None = None,
                   seed: int = 0, pattern: tuple[nx.Graph | None, str] | None = None):
    """A matplotlib figure of a :class:`~wltools.draw.colourings.PairColouring` (both graphs side
    by side, the marked class outlined, the caption of :func:`caption_lines`); ``pattern``, a
    ``(F, text)`` such as ``--explain``'s homomorphism witness, is drawn in a third panel."""
    from matplotlib.figure import Figure

    lines = caption_lines(pc)
    palette = _palette(max(pc.classes, 1))
    caption_in = 0.2 + 0.15 * len(lines)  # inches: 8.5 pt monospace lines
    height = 5.0 + caption_in
    fig = Figure(figsize=(11 if pattern is None else 14, height))
    axes = fig.subplots(1, 2) if pattern is None else fig.subplots(1, 3, width_ratios=[1, 1, 0.55])
    marked = pc.differing[0][0] if pc.differing else None
    for ax, graph, colours, name in zip(axes, (pc.G, pc.H), (pc.colours_g, pc.colours_h), names):
        _draw_graph(ax, graph, layout(graph, seed), colours, palette, marked, name)
    if pattern is not None:
        F, text = pattern
        wrapped = "\n".join(textwrap.wrap(text, 34))
        if F is not None:
            nx.draw_networkx(F, nx.spring_layout(F, seed=seed), ax=axes[2], node_color="#dddddd",
                             edgecolors="#333333", node_size=300, font_size=8)
            axes[2].set_title(wrapped, fontsize=9)
        else:
            axes[2].text(0.5, 0.5, wrapped, fontsize=9, ha="center", va="center", transform=axes[2].transAxes)
        axes[2].set_axis_off()
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
    from wltools.runtime.shipped import refuse_shipped

    path = Path(path)
    refuse_shipped("the drawing", path)
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
    cannot be drawn (4-WL, M1, M2), :class:`~wltools.errors.ResourceLimitError` for a graph above
    :data:`DRAW_MAX_NODES` nodes.

    Examples
    --------
    >>> import networkx as nx
    >>> fig = draw_pair(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), "spd")
    >>> len(fig.axes)
    2
    """
    check_draw_size(G, H, names)
    fig = draw_colouring(pair_colouring(G, H, test, round=round, rrwp_steps=rrwp_steps), names=names,
                         title=title, seed=seed)
    if path is not None:
        save_figure(fig, path)
    return fig


def draw_results(G: nx.Graph, H: nx.Graph, results, path, *, rrwp_steps: int | None = None,
                 names: tuple[str, str] = ("G", "H"), explanations: dict | None = None) -> str:
    """Draw a checked pair (``wltools check --draw``): coloured by the first of ``results``
    (:class:`~wltools.refine.RefinementResult`, weakest test first) that distinguishes it, else by
    the last drawable one (its stable colouring); write it to ``path``. Returns the test drawn.
    With ``explanations`` (``--explain``'s, by test), the drawn test's homomorphism witness (else the
    first test's that has one) is drawn beside the pair.

    Examples
    --------
    >>> import networkx as nx, tempfile, os
    >>> from wltools.refine import refine_pair
    >>> G, H = nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    >>> with tempfile.TemporaryDirectory() as d:
    ...     draw_results(G, H, [refine_pair(G, H, t) for t in ("1wl", "spd", "3wl")], os.path.join(d, "p.png"))
    'spd'
    """
    check_draw_size(G, H, names)
    drawable = [r for r in results if is_drawable(r.test)]
    if not drawable:
        raise UnsupportedTestError("none of the tests run can be drawn (4-WL, M1 and M2 cannot)")
    chosen = next((r for r in drawable if r.distinguished), drawable[-1])
    pc = pair_colouring(G, H, chosen.test, rrwp_steps=rrwp_steps, result=chosen)
    save_figure(draw_colouring(pc, names=names, pattern=_witness_pattern(explanations or {}, chosen.test)), path)
    return chosen.test


def _witness_pattern(explanations: dict, test: str) -> tuple[nx.Graph | None, str] | None:
    """``(F, text)`` of the homomorphism witness of ``test``, else of the first test with one;
    ``(None, why)`` where no test has one; None without explanations."""
    found = [(t, e) for t, e in explanations.items() if e is not None and e.witness is not None]
    found.sort(key=lambda te: te[0] != test)
    if not found:
        searched = [e for e in explanations.values() if e is not None]
        if not searched:
            return None
        return None, (f"no homomorphism witness: every family pattern up to {searched[0].searched_up_to} "
                      "vertices has equal counts in G and H (--explain-max-nodes)")
    t, e = found[0]
    w = e.witness
    return nx.from_graph6_bytes(w.pattern.encode()), f"{t}'s witness: {w}"
