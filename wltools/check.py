"""Checking a pair of graphs: which refinement tests distinguish them, and are they isomorphic?

This is the library side of ``wltools check`` and ``wltools iso`` (the CLI only parses options
and prints). :func:`check_pair` plans the work, refuses it before it starts when its estimated
memory is over the budget (:mod:`wltools.runtime.memory`), runs the tests (:func:`wltools.refine.refine_pair`)
and decides isomorphism in three steps, cheapest first:

1. **exact invariants** (:func:`wltools.iso.invariants.first_difference`: order, size, degrees,
   components, triangles, 4-cycles, closed walks per node): a difference proves the graphs
   non-isomorphic and is the witness; no canonical labelling is run;
2. **a distinguishing test**: a refinement test that tells the graphs apart also proves them
   non-isomorphic (it is what is reported when the labelling is skipped or stopped);
3. **canonical labelling** (:mod:`wltools.iso`: nauty up to 256 nodes, bliss above, Traces above
   1,000 where installed), only when the invariants agree. Above 256 nodes it runs in two
   processes (one per graph, in parallel) with a time budget (``iso_timeout``); a labelling that
   runs over is killed and isomorphism is *undecided* (``isomorphic = None``), never guessed.

Examples
--------
>>> import networkx as nx
>>> c = check_pair(nx.cycle_graph(6), nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3)), ("1wl", "spd"))
>>> [r.distinguished for r in c.results], c.isomorphic, c.iso_witness
([False, True], False, 'component sizes: 0 components of 3 nodes in G, 2 in H')
>>> check_pair(nx.petersen_graph(), nx.petersen_graph(), ("1wl",)).isomorphic
True
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import ResourceLimitError, WLToolsError
from .graphs import edge_count
from .runtime.collector import paused

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["ISO_TIMEOUT", "EXPLAIN_MAX_NODES", "CheckResult", "check_pair", "explain_results", "require_iso",
           "require_tests", "require_explain", "canonical_forms", "LabellingFailed"]

#: Default time budget (seconds) for the canonical labelling of graphs above
#: :data:`wltools.iso.NAUTY_MAX_NODES` nodes.
ISO_TIMEOUT = 60.0

#: Default largest pattern (vertices) of ``wltools check --explain``: on the largest BREC pair
#: (CFI, 198 vertices) each search alone takes 0.01 s for 1-WL's trees, 0.2 s for 3-WL's
#: treewidth-2 patterns and 6.5 s for 3-FWL's treewidth-3 ones; on the largest pair of every
#: other category at most 0.15 s (benchmarks/results/hom.json, 2 shared cores). With 6 vertices
#: 3-WL's search on the CFI pair takes 13 s, and 3-FWL has 132 patterns instead of 30.
EXPLAIN_MAX_NODES = 5

#: Time budgets (seconds) at or above this mean no limit (11.6 days; beyond about 2.1e6 s the
#: child processes' wait overflows the operating system's millisecond timer).
MAX_ISO_TIMEOUT = 1_000_000.0


#: A refinement whose estimated round is longer than this shows the estimate and progress.
LONG_ROUND_SECONDS = 5.0


def round_seconds(test: str, n: int) -> float | None:
    """Estimated seconds of one round of ``test`` (fast path) on graphs of ``n`` nodes, or None
    where the test has no time model (the registry's
    :meth:`~wltools.wltests.base.WLTest.round_seconds`).

    Examples
    --------
    >>> from wltools.wltests.fwl3 import FWL3  # 3-FWL, the test with a time model
    >>> round(round_seconds(FWL3.name, 198)), round_seconds("1wl", 198) is None
    (77, True)
    """
    from .wltests.registry import get_test

    return get_test(test).round_seconds(n)


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"


def _refine_shown(G: nx.Graph, H: nx.Graph, test: str, rrwp_steps, exact: bool, progress: bool):
    """:func:`wltools.refine.refine_pair`, inside :func:`wltools.runtime.progress.timed_stage` when
    ``progress`` and its round is estimated above :data:`LONG_ROUND_SECONDS`: the memory and time
    estimate first, then a bar of elapsed time on a terminal, a stage line otherwise, and a line
    after each round (:func:`wltools.refine.kernel.round_progress`)."""
    from .refine import refine_pair
    from .refine.cost import peak_bytes
    from .refine.kernel import round_progress
    from .runtime.memory import format_bytes
    from .runtime.progress import timed_stage

    n = max(G.number_of_nodes(), H.number_of_nodes())
    per_round = round_seconds(test, n)
    if not progress or exact or per_round is None or per_round < LONG_ROUND_SECONDS:
        return refine_pair(G, H, test, rrwp_steps=rrwp_steps, fast=not exact)
    from .wltests.registry import get_test

    k = get_test(test).time_power
    need = peak_bytes(test, n, max(edge_count(G), edge_count(H)))
    estimate = (f"estimated {format_bytes(need)} and up to about {_duration(per_round)} a round (n^{k} = "
                f"{float(n) ** k:.2g} items; BREC's CFI pairs take 4-6 rounds of about a quarter of that, "
                "their triples falling into few classes)")
    start = time.monotonic()
    with timed_stage(f"{test} on {n:,} nodes", estimate, 5 * per_round) as note:
        def round_done(t, k):
            note(f"round {t} done, {k:,} colour classes, {time.monotonic() - start:.0f} s elapsed")

        with round_progress(round_done):
            return refine_pair(G, H, test, rrwp_steps=rrwp_steps, fast=not exact)


def iso_budget(timeout: float | None) -> float | None:
    """``timeout`` as the labelling's budget: None (no limit) for None, ``inf`` or anything at or
    above :data:`MAX_ISO_TIMEOUT`; a :class:`~wltools.errors.WLToolsError` for NaN, zero or a
    negative value.

    Examples
    --------
    >>> iso_budget(60), iso_budget(float("inf")), iso_budget(3e6)
    (60.0, None, None)
    """
    if timeout is None:
        return None
    t = float(timeout)
    if math.isnan(t) or t <= 0:
        raise WLToolsError(f"the isomorphism time budget must be a number of seconds > 0, got {timeout!r}")
    return None if t >= MAX_ISO_TIMEOUT else t


class LabellingFailed(WLToolsError):
    """The canonical labelling in the child process failed or died (one line for the CLI)."""


@dataclass
class CheckResult:
    """What :func:`check_pair` found.

    Attributes
    ----------
    results : list of RefinementResult
        One per test, in the order asked.
    isomorphic : bool or None
        None when undecided: the labelling was skipped (``iso=False``) or stopped at the time
        budget, and no invariant or test told the graphs apart.
    iso_status : {"decided", "undecided", "not checked"}
    iso_witness : str or None
        The invariant that differs (e.g. ``"triangles: 0 in G, 2 in H"``), or
        ``"distinguished by <test>"``; None when decided by the certificates.
    forms : tuple of two CanonicalForm, or None
        The canonical forms when a labelling ran to the end.
    iso_timeout : float or None
    rrwp_steps : int or None
        The RRWP steps K the ``rrwp`` test used: the one asked for (lowered to ``n + 1`` when more,
        see ``notes``), else the default ``max(n_G, n_H)``; None when ``rrwp`` is not among the tests.
    notes : list of str
        Remarks for the user (e.g. a lowered ``rrwp_steps``).
    explanations : dict or None
        After :func:`explain_results`: ``{test: Explanation or None}`` (None: no known family).
    """

    results: list
    isomorphic: bool | None
    iso_status: str
    iso_witness: str | None = None
    forms: tuple | None = None
    iso_timeout: float | None = None
    rrwp_steps: int | None = None
    notes: list = field(default_factory=list)
    explanations: dict | None = None

    @property
    def certificates(self) -> dict | None:
        """``{"G": digest, "H": digest}`` of the canonical forms, or None."""
        if self.forms is None:
            return None
        return {"G": self.forms[0].digest(), "H": self.forms[1].digest()}

    def _table(self):
        from .draw.display import CheckTable

        return CheckTable(self.results)

    def _repr_markdown_(self) -> str:
        """A table of the verdicts in Jupyter, then the isomorphism line."""
        return self._table()._repr_markdown_() + f"\n\n{_iso_line(self)}"

    def _repr_html_(self) -> str:
        import html

        return self._table()._repr_html_() + f"\n<p>{html.escape(_iso_line(self))}</p>"

    def to_dataframe(self):
        """One row per test (needs pandas)."""
        return self._table().to_dataframe()

    @property
    def inconsistent(self) -> bool:
        """Isomorphic graphs reported as distinguished: a bug, to be shown to the user."""
        return bool(self.isomorphic) and any(r.distinguished for r in self.results)


def require_iso(G: nx.Graph, which: str, max_memory: int | None) -> None:
    """Refuse a canonical labelling over the memory budget or above :data:`wltools.iso.MAX_NODES`."""
    from .iso import MAX_NODES, choose_method, peak_bytes
    from .runtime.memory import require

    n, m = G.number_of_nodes(), edge_count(G)
    if n > MAX_NODES:
        raise ResourceLimitError(
            f"isomorphism of {which} ({n:,} nodes): above the tested limit of {MAX_NODES:,} nodes "
            "of the canonical labeller"
        )
    require(peak_bytes(n, m), f"canonical labelling ({choose_method(n)}) of {which} ({n:,} nodes)",
            max_memory=max_memory)


def require_tests(tests, G: nx.Graph, H: nx.Graph, rrwp_steps: int | None, max_memory: int | None) -> None:
    """Refuse, before any work, a test whose estimated peak memory
    (:func:`wltools.refine.cost.peak_bytes`, for the larger order and size) plus the two graphs
    is over the budget. Tests without a cost model are not refused here."""
    from .errors import UnknownNameError
    from .graphs import load_bytes
    from .refine.cost import peak_bytes
    from .runtime.memory import require
    from .refine.names import label_of

    n = max(G.number_of_nodes(), H.number_of_nodes())
    m = max(edge_count(G), edge_count(H))
    graphs = (load_bytes(G.number_of_nodes(), edge_count(G))
              + load_bytes(H.number_of_nodes(), edge_count(H))) // 2
    degrees = {d for X in (G, H) for _, d in X.degree() if d > 0}
    for t in tests:
        try:
            need = peak_bytes(t, n, m, rrwp_steps=rrwp_steps, max_degree=max(degrees, default=0),
                              lcm_degrees=math.lcm(*degrees) if t == "rrwp" and degrees else None)
        except UnknownNameError:  # a test without a cost model yet
            continue
        require(need + graphs, f"{label_of(t)} on {n:,} nodes", max_memory=max_memory)


def require_explain(tests, G: nx.Graph, H: nx.Graph, max_nodes: int, max_memory: int | None) -> None:
    """Refuse, before any work, an ``--explain`` search whose peak memory is over the budget: the
    counts of every family pattern up to ``max_nodes`` vertices into G and H
    (:func:`wltools.hom.count.peak_bytes` of the costliest pattern into each graph, whose dense
    adjacency matrices are both kept for the search; one more per arithmetic the pattern sizes
    need). Tests without a family add nothing."""
    from .hom.dense import _adjacency_bytes, _dtype_of, peak_bytes
    from .hom.witness import graph_family_patterns
    from .runtime.memory import require

    patterns = {}
    for t in tests:
        for F in graph_family_patterns(t, max_nodes) or ():
            patterns.setdefault((F.number_of_nodes(), F.number_of_edges(), tuple(F.edges)), F)
    if not patterns:
        return
    need = 0
    for X in (G, H):
        n = X.number_of_nodes()
        delta = max((d for _, d in X.degree()), default=0)
        dtypes = {_dtype_of(n, delta, k) for k in range(1, max_nodes + 1)}
        need += max(peak_bytes(F, n, (), delta) for F in patterns.values())
        need += sum(_adjacency_bytes(n, d) for d in dtypes) - min(_adjacency_bytes(n, d) for d in dtypes)
    n = max(G.number_of_nodes(), H.number_of_nodes())
    require(need, f"--explain (homomorphism counts of patterns up to {max_nodes} vertices into G and H, "
            f"dense {n:,} x {n:,} matrices)", max_memory=max_memory)


def _label_in_child(G, conn) -> None:
    """Child process body of :func:`_forms_in_children`: send back the form, or what went wrong."""
    try:
        from .iso import canonical_form

        conn.send(("ok", canonical_form(G)))
    except MemoryError:
        conn.send(("memory", None))
    except WLToolsError as exc:
        conn.send(("error", str(exc)))
    except BaseException as exc:  # noqa: BLE001 - reported as one line by the parent
        conn.send(("fault", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _receive(conn, proc, deadline: float):
    """The form sent by one child before ``deadline`` (``time.monotonic``), or None."""
    import time

    if not conn.poll(max(0.0, deadline - time.monotonic())):
        return None
    try:
        status, value = conn.recv()
    except EOFError:
        proc.join(5)
        raise LabellingFailed(f"the canonical labelling process died (exit code {proc.exitcode})") from None
    if status == "memory":
        raise MemoryError
    if status == "error":
        raise LabellingFailed(value)
    if status == "fault":
        raise LabellingFailed(f"canonical labelling failed: {value}")
    return value


def _forms_in_children(G, H, timeout: float):
    """Both canonical forms, each computed in its own child process (in parallel where there are
    two cores), within ``timeout`` seconds for both; None when either runs over.

    Processes, not threads: bliss runs in C and cannot be interrupted, so an abandoned thread
    would keep a core and its memory until exit; killing a process frees both at once. The
    children are forked where possible (no copy of the graphs through a pipe), spawned elsewhere,
    and killed on timeout, on an interrupt, or on any error here."""
    import multiprocessing  # here, not at the top: only graphs above 256 nodes are labelled in children
    import time

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    deadline = time.monotonic() + timeout
    children = []
    try:
        for X in (G, H):
            receive, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_label_in_child, args=(X, send), daemon=True)
            proc.start()
            send.close()
            children.append((receive, proc))
        forms = []
        for receive, proc in children:
            form = _receive(receive, proc, deadline)
            if form is None:
                return None
            forms.append(form)
        return tuple(forms)
    finally:
        for receive, proc in children:
            if proc.is_alive():
                proc.kill()
            proc.join()
            receive.close()


def canonical_forms(G: nx.Graph, H: nx.Graph, timeout: float | None = None):
    """The canonical forms of ``G`` and ``H``, or None when the labelling ran over ``timeout``.

    Graphs of at most :data:`wltools.iso.NAUTY_MAX_NODES` nodes (nauty, milliseconds) are
    labelled in this process, as is everything when ``timeout`` is None; larger ones in two child
    processes (one per graph, in parallel) given ``timeout`` seconds for both, or, where both are
    Traces's, in its two dreadnaut processes, killed at the deadline
    (:func:`wltools.iso.canonical_forms`)."""
    from .iso import NAUTY_MAX_NODES, canonical_form, labeller
    from .iso import canonical_forms as forms_at_once

    if timeout is None or max(G.number_of_nodes(), H.number_of_nodes()) <= NAUTY_MAX_NODES:
        return canonical_form(G), canonical_form(H)
    if labeller(G) == labeller(H) == "traces":  # processes already: run at once, killed at the deadline
        forms = forms_at_once((G, H), timeout=timeout, validated=True)
        return None if forms is None else tuple(forms)
    return _forms_in_children(G, H, timeout)


def _decide(forms, witness: str | None, results) -> tuple[bool | None, str | None]:
    """``(isomorphic, witness)`` from an invariant's witness, the forms, or a distinguishing test."""
    if witness is not None:
        return False, witness
    if forms is not None:
        return forms[0].isomorphic(forms[1]), None
    for r in results:
        if r.distinguished:
            return False, f"distinguished by {r.test}"
    return None, None


@paused()  # large graphs: no full collector passes over them (wltools.runtime.collector)
def check_pair(G: nx.Graph, H: nx.Graph, tests, *, rrwp_steps: int | None = None, exact: bool = False,
               max_memory: int | None = None, iso: bool = True, iso_timeout: float | None = ISO_TIMEOUT,
               always_label_small: bool = False, progress: bool = False) -> CheckResult:
    """Run ``tests`` on the pair and decide isomorphism (see the module docstring).

    Parameters
    ----------
    G, H : nx.Graph
        Validated simple undirected graphs (:func:`wltools.graphs.load_graph`).
    tests : sequence of str
        Test names (:data:`wltools.refine.names.ALL_TESTS` or ``nK``).
    rrwp_steps : int, optional
        RRWP's K; values above ``n + 1`` are lowered to ``n + 1`` with a note (higher powers of
        the random-walk matrix add nothing, by Cayley-Hamilton).
    exact : bool
        Use the slow exact refinement path (``fast=False``).
    max_memory : int, optional
        Budget in bytes for the refusal before work (default: 80% of free memory).
    iso : bool
        False: no canonical labelling (the invariants are still compared).
    iso_timeout : float, optional
        Seconds for the labelling of graphs above 256 nodes; None, ``inf`` or at least
        :data:`MAX_ISO_TIMEOUT`: no limit (:func:`iso_budget`; NaN or <= 0: an error).
    always_label_small : bool
        Label graphs of at most 256 nodes even when an invariant already differs (``wltools iso``
        prints their certificates; milliseconds).
    progress : bool
        Show a refinement estimated at minutes (:func:`round_seconds`) as it runs: its memory and
        time estimate first, then progress on stderr (:func:`_refine_shown`).

    Raises
    ------
    ResourceLimitError
        A test or the labelling over the memory budget, before any work.
    LabellingFailed
        The labelling process failed or died.
    """
    from .iso import NAUTY_MAX_NODES
    from .iso.invariants import first_difference
    from .graphs.labels import pair_labels

    notes = []
    iso_timeout = iso_budget(iso_timeout)
    n = max(G.number_of_nodes(), H.number_of_nodes())
    if rrwp_steps is not None and rrwp_steps > n + 1 and "rrwp" in tests:
        notes.append(f"--rrwp-steps {rrwp_steps} lowered to n + 1 = {n + 1}: by Cayley-Hamilton "
                     f"the powers of M beyond M^{n} add nothing to RRWP-WL")
        rrwp_steps = n + 1
    if rrwp_steps is None and "rrwp" in tests:  # refine_pair's default K, made explicit for the record
        rrwp_steps = n
    pair_labels(G, H)  # labels on one graph only, or on some nodes only: one line, before any work
    require_tests(tests, G, H, rrwp_steps, max_memory)
    witness = first_difference(G, H)
    label = iso and (witness is None or (always_label_small and n <= NAUTY_MAX_NODES))
    if label:  # refuse over budget before any refinement work
        require_iso(G, "G", max_memory)
        require_iso(H, "H", max_memory)
    results = [_refine_shown(G, H, t, rrwp_steps, exact, progress) for t in tests]
    forms = canonical_forms(G, H, iso_timeout) if label else None
    isomorphic, iso_witness = _decide(forms, witness, results)
    status = "decided" if isomorphic is not None else ("undecided" if label else "not checked")
    return CheckResult(results, isomorphic, status, iso_witness, forms, iso_timeout, rrwp_steps, notes)


def explain_results(c: CheckResult, G: nx.Graph, H: nx.Graph, max_nodes: int = EXPLAIN_MAX_NODES) -> None:
    """Fill ``c.explanations``: for each test with a homomorphism family, the smallest family pattern
    (up to ``max_nodes`` vertices) whose counts into G and H differ (:func:`wltools.hom.witness.explain`:
    Zhang et al., ICLR 2024, Theorems 3.4-3.8). Raises ``TheoryViolation`` where a test that does not
    distinguish the graphs meets a pattern with different counts (a bug)."""
    from .hom.witness import CountCache, explain

    cache = CountCache(G, H)
    c.explanations = {r.test: explain(G, H, r.test, r.distinguished, max_nodes, cache) for r in c.results}


def _explained(c: CheckResult, r) -> dict:
    """The ``--explain`` fields of result ``r`` (none without ``--explain``)."""
    if c.explanations is None:
        return {}
    e = c.explanations.get(r.test)
    if e is None:
        return {"hom_witness": None, "hom_searched_up_to": None, "hom_family": "no known family"}
    return e.to_dict()


def _summary(spec: str, G: nx.Graph) -> dict:
    out = {"spec": spec, "n": G.number_of_nodes(), "m": edge_count(G)}
    kinds = _labels_of(G)
    if kinds:  # labelled graphs only: the unlabelled object is unchanged
        out["labels"] = kinds
    return out


def _labels_of(G: nx.Graph) -> str:
    """``"nodes"``, ``"edges"``, ``"nodes, edges"`` or ``""``: which labels ``G`` carries."""
    from .graphs.labels import EDGE_LABEL, NODE_LABEL, has_attribute

    kinds = [k for k, attr in (("node", NODE_LABEL), ("edge", EDGE_LABEL)) if has_attribute(G, attr, k)]
    return ", ".join(f"{k}s" for k in kinds)


def _labels_cell(G: nx.Graph) -> str:
    kinds = _labels_of(G)
    return f"labels: {kinds}" if kinds else ""


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    """Left-aligned columns separated by two spaces."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]


def check_dict(c: CheckResult, specs: tuple[str, str], graphs: tuple, exact: bool) -> dict:
    """The JSON object of ``wltools check --format json``."""
    return {
        "graphs": {"G": _summary(specs[0], graphs[0]), "H": _summary(specs[1], graphs[1])},
        "isomorphic": c.isomorphic,
        "certificates": c.certificates,
        "iso_witness": c.iso_witness,
        "iso_status": c.iso_status,
        "iso_timeout": c.iso_timeout,
        "exact": exact,
        "rrwp_steps": c.rrwp_steps,
        "results": [{**r.to_dict(), **_explained(c, r)} for r in c.results],
    }


def _undecided_line(c: CheckResult) -> str:
    """The verdict of a labelling stopped at its budget, and what may decide it: a larger budget,
    and where nauty's dreadnaut is missing, Traces (graphs above 1,000 nodes)."""
    from .iso import traces

    hint = "" if traces.available() else '; above 1,000 nodes Traces is far faster: pip install -e ".[traces]"'
    return (f"isomorphism undecided after {c.iso_timeout:g} s (canonical labelling stopped; "
            f"a larger --iso-timeout may decide it{hint})")


def _iso_line(c: CheckResult) -> str:
    """The last line of the text output: the isomorphism verdict and its evidence."""
    if c.isomorphic is None:
        if c.iso_status == "not checked":
            return "isomorphism not checked (--no-iso)"
        return _undecided_line(c)
    if c.forms is not None and c.iso_witness is None:
        fg, fh = c.forms
        methods = fg.method if fg.method == fh.method else f"{fg.method}/{fh.method}"
        certs = f"{methods} certificates {c.certificates['G']} vs {c.certificates['H']}"
    else:
        certs = c.iso_witness
    if c.isomorphic:
        return f"isomorphic: yes ({certs}); no test can distinguish isomorphic graphs"
    if not any(r.distinguished for r in c.results):
        return f"isomorphic: no ({certs}); the graphs differ, but no test run here tells"
    return f"isomorphic: no ({certs})"


def check_text(c: CheckResult, specs: tuple[str, str], graphs: tuple) -> str:
    """The text output of ``wltools check``: the graphs, a table of verdicts, the witnesses and
    the isomorphism line."""
    def cell(x) -> str:
        return "-" if x is None else str(x)

    lines = _table([(name, spec, f"n={X.number_of_nodes()}", f"m={edge_count(X)}",
                     _labels_cell(X))
                    for name, spec, X in zip("GH", specs, graphs)])
    lines.append("")
    rows = [("test", "verdict", "reason", "iteration", "iterations")]
    for r in c.results:
        verdict = "distinguished" if r.distinguished else "not distinguished"
        rows.append((r.test, verdict, r.reason, cell(r.iteration), cell(r.iterations)))
    lines += _table(rows)
    witnesses = [r for r in c.results if r.distinguished]
    if witnesses:
        lines += ["", "witnesses:"] + [f"  {r.test}: {r.witness}" for r in witnesses]
    if c.explanations is not None:
        lines += ["", "homomorphism witnesses (the smallest pattern of the test's family with different counts):"]
        lines += [f"  {t}: {'no known family' if e is None else e}" for t, e in c.explanations.items()]
    lines += ["", _iso_line(c)]
    return "\n".join(lines)


#: Largest canonical form given as graph6 by ``wltools iso --format json`` (graph6 takes
#: n^2/12 bytes).
CANONICAL_GRAPH6_MAX_NODES = 1000


def iso_dict(c: CheckResult, specs: tuple[str, str], graphs: tuple) -> dict:
    """The JSON object of ``wltools iso --format json``."""
    def graph6(form):
        return form.graph6() if form.n <= CANONICAL_GRAPH6_MAX_NODES and not form.labelled else None

    return {
        "graphs": {"G": _summary(specs[0], graphs[0]), "H": _summary(specs[1], graphs[1])},
        "isomorphic": c.isomorphic,
        "certificates": c.certificates,
        "canonical_graph6": None if c.forms is None else {"G": graph6(c.forms[0]), "H": graph6(c.forms[1])},
        "iso_witness": c.iso_witness,
        "iso_status": c.iso_status,
        "iso_timeout": c.iso_timeout,
    }


def iso_text(c: CheckResult) -> str:
    """The one line of ``wltools iso``."""
    if c.isomorphic is None:
        return _undecided_line(c)
    parts = []
    if c.certificates is not None:
        d = c.certificates
        parts.append(f"certificates {d['G']} {'=' if c.isomorphic else '!='} {d['H']}")
    if c.iso_witness is not None:
        parts.append(c.iso_witness)
    return f"{'isomorphic' if c.isomorphic else 'not isomorphic'} ({'; '.join(parts)})"
