"""The WL-family tests wltools knows: their names, their labels in tables, the RRWP default.

The one definition of these constants, imported by :mod:`wltools.refine`, the CLI, the BREC runner
and the claims. Pure constants: importing this module imports nothing.

Every command that takes tests reads them with :func:`parse_tests` (a comma list or ``all``) and
writes its help with :func:`tests_help`, so names and help never disagree with this registry.

Examples
--------
>>> [TEST_LABELS[t] for t in TESTS]
['1-WL', 'SPD-WL', 'RD-WL', 'RRWP-WL', '3-WL']
>>> [TEST_LABELS[t] for t in EXTRA_TESTS]
['EPWL', 'EPWL-L']
"""

__all__ = ["TESTS", "EXTRA_TESTS", "ON_REQUEST_TESTS", "SUBGRAPH_WL_TESTS", "ALL_TESTS", "TEST_LABELS",
           "DEFAULT_RRWP_STEPS", "SUBGRAPH_BASELINE_TESTS", "ego_radius", "is_test_name", "label_of",
           "may_exceed_3wl", "EVERY_TEST", "parse_tests", "tests_help", "LABEL_FREE_TESTS", "refuses_labels", "bound_help"]

#: Test names, weakest first: 1-WL; GD-WL with shortest-path distance, resistance distance or
#: RRWP (PPGT App. E Eq. 13, GRIT Eq. 4); 3-WL as 2-FWL.
TESTS = ("1wl", "spd", "rd", "rrwp", "3wl")

#: Tests outside the default tables (the BREC theory columns are :data:`TESTS`): EPWL, eigenspace
#: projection WL over the adjacency matrix or the Laplacian ``D - A`` (Zhang, Zhao & Maron 2024;
#: Gai et al. 2025), exact through walk counts (:mod:`wltools.refine.epwl`).
EXTRA_TESTS = ("epwl", "epwl-lap")

#: Tests run only when named (never in a default list): 4-WL as the 3-dimensional folklore WL
#: test (:mod:`wltools.refine.fwl3`), ``n^4`` work per round.
ON_REQUEST_TESTS = ("3fwl",)

#: The subgraph Weisfeiler-Lehman hierarchy (Zhang, Feng, Du, He & Wang, ICML 2023), weakest first
#: (a partial order: :data:`wltools.refine.swl.HIERARCHY`): SWL, PSWL with VS / SV pooling, GSWL,
#: SSWL, the localised folklore tests LFWL(2), SLFWL(2) (:mod:`wltools.refine.swl`). Run when named.
SUBGRAPH_WL_TESTS = ("swl-vs", "swl-sv", "pswl-vs", "pswl-sv", "gswl", "sswl", "lfwl2", "slfwl2")

#: BREC's non-GNN baselines (Wang & Zhang, BREC Sec. 5, Table 2; ``Non-GNNs/utils.py``), run when
#: named: 1-WL from per-node counts of connected induced 3- / 4-node subgraphs (S3, S4,
#: :mod:`wltools.refine.substructure`), from the class of the radius-1 / radius-2 ego network (N1,
#: N2; any radius as ``nK``, :func:`ego_radius`; :mod:`wltools.refine.ego`), and the multiset of
#: 1-WL classes of the graph with one node / an ordered node pair marked (M1, M2,
#: :mod:`wltools.refine.marking`).
SUBGRAPH_BASELINE_TESTS = ("s3", "s4", "n1", "n2", "m1", "m2")

#: Every test name :func:`wltools.refine.refine_pair` accepts (and ``nK`` for any ``K >= 1``).
ALL_TESTS = TESTS + EXTRA_TESTS + ON_REQUEST_TESTS + SUBGRAPH_WL_TESTS + SUBGRAPH_BASELINE_TESTS

#: Label of each test in tables and reports.
TEST_LABELS = {"1wl": "1-WL", "spd": "SPD-WL", "rd": "RD-WL", "rrwp": "RRWP-WL", "3wl": "3-WL",
               "epwl": "EPWL", "epwl-lap": "EPWL-L", "3fwl": "4-WL (3-FWL)",
               "swl-vs": "SWL(VS)", "swl-sv": "SWL(SV)", "pswl-vs": "PSWL(VS)", "pswl-sv": "PSWL(SV)",
               "gswl": "GSWL", "sswl": "SSWL", "lfwl2": "LFWL(2)", "slfwl2": "SLFWL(2)",
               "s3": "S3", "s4": "S4", "n1": "N1", "n2": "N2", "m1": "M1", "m2": "M2"}

#: RRWP's ``K`` of the BREC theory tables: the number of channels ``I, M, ..., M^(K-1)`` (GRIT Eq. 1;
#: walks of 0 to K-1 steps), the K of ``rrwp:K`` and ``--rrwp-steps K``.
DEFAULT_RRWP_STEPS = 32


#: Tests not bounded by 3-WL: 4-WL; S4 (3-WL does not count 4-cliques or 4-cycles per node); the
#: ego-network tests (an ego network's isomorphism class is beyond 3-WL: N1 separates strongly
#: regular pairs with equal parameters); M2 (two marked nodes, bounded by 4-WL only). BREC's
#: counts show each of them separating pairs 3-WL does not (``brec theory``; the claim
#: ``subgraph-hierarchy`` shows S4, N1, N2 incomparable with 3-WL).
_BEYOND_3WL = ("3fwl", "s4", "m2")


def may_exceed_3wl(name: str) -> bool:
    """Whether ``name`` is a test 3-WL does not bound (so "distinguished by it, not by 3-WL" is
    expected of it, not a fault): ``3fwl``, ``s4``, ``m2`` and every ``nK``.

    Examples
    --------
    >>> [may_exceed_3wl(t) for t in ("3fwl", "s4", "n1", "n5", "m2", "m1", "s3", "sswl", "rrwp")]
    [True, True, True, True, True, False, False, False, False]
    """
    return name in _BEYOND_3WL or ego_radius(name) is not None


def ego_radius(name: str) -> int | None:
    """``K`` of the ego-network test ``nK`` (``"n3"`` -> 3, any ``K >= 1``), else None.

    Examples
    --------
    >>> ego_radius("n3"), ego_radius("n1"), ego_radius("n0"), ego_radius("1wl")
    (3, 1, None, None)
    """
    if (isinstance(name, str) and len(name) > 1 and name[0] == "n" and name[1:].isascii()
            and name[1:].isdigit() and int(name[1:]) >= 1):
        return int(name[1:])
    return None


def is_test_name(name: str) -> bool:
    """Whether ``name`` is a test :func:`wltools.refine.refine_pair` accepts: one of
    :data:`ALL_TESTS` or ``nK`` for any ``K >= 1``.

    Examples
    --------
    >>> is_test_name("s4"), is_test_name("n7"), is_test_name("n07"), is_test_name("m3")
    (True, True, False, False)
    """
    return name in ALL_TESTS or (ego_radius(name) is not None and name == f"n{ego_radius(name)}")


def label_of(name: str) -> str:
    """The label of a test in tables (``N3`` for ``n3``; the name itself if unknown).

    Examples
    --------
    >>> label_of("s3"), label_of("n5"), label_of("1wl")
    ('S3', 'N5', '1-WL')
    """
    if name in TEST_LABELS:
        return TEST_LABELS[name]
    k = ego_radius(name)
    return f"N{k}" if k is not None else name


#: What ``all`` means (:func:`parse_tests`): every test of :data:`ALL_TESTS` but the expensive
#: :data:`ON_REQUEST_TESTS` (4-WL, ``n^4`` work per round), which join only when named
#: (``all,3fwl``).
EVERY_TEST = tuple(t for t in ALL_TESTS if t not in ON_REQUEST_TESTS)

#: BREC's non-GNN baselines are defined on unlabelled graphs and refuse labels
#: (:func:`wltools.refine.refine_pair`); EPWL refuses edge labels only.
LABEL_FREE_TESTS = ("s3", "s4", "m1", "m2")


def refuses_labels(name: str, node_labels: bool, edge_labels: bool) -> bool:
    """Whether :func:`wltools.refine.refine_pair` refuses test ``name`` on graphs with these labels
    (s3, s4, nK, m1, m2 refuse any label; EPWL refuses edge labels).

    Examples
    --------
    >>> [refuses_labels(t, True, False) for t in ("s3", "n2", "epwl", "1wl")]
    [True, True, False, False]
    >>> refuses_labels("epwl-lap", False, True), refuses_labels("s4", False, False)
    (True, False)
    """
    if name in LABEL_FREE_TESTS or ego_radius(name) is not None:
        return node_labels or edge_labels
    return edge_labels and name in EXTRA_TESTS


def _choices() -> str:
    return f"{', '.join(ALL_TESTS)}, nK (any K >= 1), or all"


def parse_tests(text, *, command: str = "", default: tuple | None = None) -> tuple[str, ...]:
    """The tests named by ``text``: a comma list of names of :data:`ALL_TESTS` (and ``nK``), where
    ``all`` stands for :data:`EVERY_TEST` (every test but 3fwl, which joins only when named:
    ``all,3fwl``). Case and spaces are ignored, repeats dropped, the order kept. ``text`` may also
    be a sequence of such strings; ``None`` gives ``default``. The one reader of test lists of every
    command (``check --test``, ``brec theory --tests``, ``suite theory --tests``, ``dataset --tests``).

    Raises :class:`~wltools.errors.UnknownNameError` with one line listing the valid names
    (``command`` names the option in it).

    Examples
    --------
    >>> parse_tests("1wl, SPD,swl-vs,1wl")
    ('1wl', 'spd', 'swl-vs')
    >>> parse_tests("all") == EVERY_TEST, "3fwl" in parse_tests("all"), parse_tests("all,3fwl")[-1]
    (True, False, '3fwl')
    >>> parse_tests(["n3", "m1"]), parse_tests(None, default=TESTS) == TESTS
    (('n3', 'm1'), True)
    >>> parse_tests("1wl,4wl", command="check --test")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wltools.errors.UnknownNameError: check --test: unknown test '4wl'; choose from 1wl, spd, ..., nK (any K >= 1), or all
    """
    from ..errors import UnknownNameError

    where = f"{command}: " if command else ""
    if text is None:
        if default is None:
            raise UnknownNameError(f"{where}no tests given; choose from {_choices()}")
        return tuple(default)
    parts = [text] if isinstance(text, str) else list(text)
    names = [n.strip().lower() for part in parts for n in str(part).split(",") if n.strip()]
    if not names:
        raise UnknownNameError(f"{where}empty list of tests; choose from {_choices()}")
    out: list[str] = []
    for n in names:
        if n == "all":
            out.extend(EVERY_TEST)
        elif is_test_name(n):
            out.append(n)
        else:
            raise UnknownNameError(f"{where}unknown test {n!r}; choose from {_choices()}")
    return tuple(dict.fromkeys(out))


def tests_help(default: str | None = None) -> str:
    """The help text of a ``--tests`` option, every name from this registry.

    Examples
    --------
    >>> "slfwl2" in tests_help() and "m2" in tests_help() and "all,3fwl" in tests_help()
    True
    """
    text = (f"Comma-separated tests, or all. Names: {', '.join(TESTS)} (1-WL, GD-WL with SPD / RD / RRWP, "
            f"3-WL); {', '.join(EXTRA_TESTS)} (EPWL); {', '.join(SUBGRAPH_WL_TESTS)} (the subgraph WL "
            f"hierarchy); {', '.join(SUBGRAPH_BASELINE_TESTS)} and nK for any K (BREC's non-GNN baselines); "
            f"{', '.join(ON_REQUEST_TESTS)} (4-WL, n^4 work per round). 'all' is every test but "
            f"{', '.join(ON_REQUEST_TESTS)}; write all,{ON_REQUEST_TESTS[0]} to add it.")
    return text + (f" Default: {default}." if default else "")


def bound_help() -> str:
    """The help text of ``--bound`` (``brec run``, ``suite run``), every name from this registry.

    Examples
    --------
    >>> all(t in bound_help() for t in ALL_TESTS)
    True
    """
    return (f"The WL test bounding your model from above: one of {', '.join(ALL_TESTS)}, nK (any K >= 1); "
            "rrwp:K for RRWP-WL with K channels; LOWER,UPPER for a class between two tests; "
            "default: the factory's wl_bound attribute, else unknown.")
