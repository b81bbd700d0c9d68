"""A certified separating pair drawn: G and H coloured by test B at the round where B's colour
histograms first differ (:func:`wltools.draw.figure.draw_pair`), beside the pattern F whose
homomorphism counts differ, with both counts."""

from __future__ import annotations

import networkx as nx

from ..draw.figure import draw_pair, save_figure
from .separate import Certificate

__all__ = ["draw_certificate"]


def draw_certificate(cert: Certificate, path) -> object:
    """Draw ``cert`` (module docstring) to ``path`` (.png, .svg or .pdf); returns the figure.

    Raises what :func:`~wltools.draw.figure.draw_pair` raises: a test whose colourings cannot be
    drawn, a graph too large to draw.
    """
    fig = draw_pair(cert.G, cert.H, cert.b, round=cert.b_verdict["iteration"], names=("G", "H"),
                    title=f"{cert.b} tells G and H apart at round {cert.b_verdict['iteration']}; "
                          f"{cert.a} does not ({cert.construction})")
    if cert.pattern is not None:
        width, height = fig.get_size_inches()
        fig.set_size_inches(width * 1.4, height)
        for ax in fig.axes:  # the pair to the left 5/7, the pattern to the right 2/7
            box = ax.get_position()
            ax.set_position([box.x0 / 1.4, box.y0, box.width / 1.4, box.height])
        F = nx.from_graph6_bytes(cert.pattern.encode())
        ax = fig.add_axes([0.74, 0.3, 0.24, 0.5])
        nx.draw_networkx(F, pos=nx.kamada_kawai_layout(F) if F.number_of_nodes() > 2 else None, ax=ax,
                         node_color="#dddddd", edgecolors="#333333", node_size=260, font_size=8)
        ax.set_title(f"pattern F = {cert.pattern}\nhom(F, G) = {cert.hom['G']}, hom(F, H) = {cert.hom['H']}",
                     fontsize=9)
        ax.set_axis_off()
    if path is not None:
        save_figure(fig, path)
    return fig
