"""The WL-family tests wltools knows: their names, their labels in tables, the RRWP default.

Thin views of the test registry (:mod:`wltools.wltests`, where each test is one object), kept so
that the CLI, the BREC runner and the claims import the lists they always did.

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

from ..wltests.ego import ego_radius
from ..wltests.registry import FAMILY_HELP, builtin_tests, get_test

#: Test names, weakest first: 1-WL; GD-WL with shortest-path distance, resistance distance or
#: RRWP (PPGT App. E Eq. 13, GRIT Eq. 4); 3-WL as 2-FWL. Every list here is a view of the registry
#: (:mod:`wltools.wltests`), by the group each test declares.
TESTS = tuple(t.name for t in builtin_tests("default"))

#: Tests outside the default tables (the BREC theory columns are :data:`TESTS`): EPWL, eigenspace
#: projection WL over the adjacency matrix or the Laplacian (:mod:`wltools.wltests.epwl`).
EXTRA_TESTS = tuple(t.name for t in builtin_tests("extra"))

#: Tests run only when named (never in a default list): 4-WL as 3-FWL, ``n^4`` work per round.
ON_REQUEST_TESTS = tuple(t.name for t in builtin_tests("on-request"))

#: The subgraph Weisfeiler-Lehman hierarchy (Zhang et al., ICML 2023), weakest first
#: (:mod:`wltools.wltests.subgraph_wl`). Run when named.
SUBGRAPH_WL_TESTS = tuple(t.name for t in builtin_tests("subgraph-wl"))

#: BREC's non-GNN baselines (Wang & Zhang, BREC Sec. 5, Table 2), run when named: S3, S4, N1, N2
#: (any radius as ``nK``, :func:`ego_radius`), M1, M2.
SUBGRAPH_BASELINE_TESTS = tuple(t.name for t in builtin_tests("baseline"))

#: Every built-in test name :func:`wltools.refine.refine_pair` accepts (and ``nK`` for any ``K >= 1``;
#: tests from outside: :func:`wltools.wltests.list_tests`).
ALL_TESTS = TESTS + EXTRA_TESTS + ON_REQUEST_TESTS + SUBGRAPH_WL_TESTS + SUBGRAPH_BASELINE_TESTS

#: Label of each built-in test in tables and reports (:func:`label_of` for any test).
TEST_LABELS = {t.name: t.label for t in builtin_tests()}

#: RRWP's ``K`` of the BREC theory tables: the number of channels ``I, M, ..., M^(K-1)`` (GRIT Eq. 1;
#: walks of 0 to K-1 steps), the K of ``rrwp:K`` and ``--rrwp-steps K``.
DEFAULT_RRWP_STEPS = 32


def may_exceed_3wl(name: str) -> bool:
    """Whether ``name`` is a test 3-WL does not bound (so "distinguished by it, not by 3-WL" is
    expected of it, not a fault): ``3fwl``, ``s4``, ``m2`` and every ``nK``.

    Examples
    --------
    >>> [may_exceed_3wl(t) for t in ("n5", "3wl", "rrwp")]
    [True, False, False]
    """
    return is_test_name(name) and get_test(name).beyond_3wl


def is_test_name(name: str) -> bool:
    """Whether ``name`` is a test :func:`wltools.refine.refine_pair` accepts: one of
    :data:`ALL_TESTS`, ``nK`` for any ``K >= 1``, or a test from outside.

    Examples
    --------
    >>> is_test_name("rd"), is_test_name("n7"), is_test_name("n07"), is_test_name("RD")
    (True, True, False, False)
    """
    from ..wltests.registry import is_test_name as registered

    return isinstance(name, str) and name == name.strip().lower() and ":" not in name and registered(name)


def label_of(name: str) -> str:
    """The label of a test in tables (``N3`` for ``n3``; the name itself if unknown).

    Examples
    --------
    >>> label_of("n5"), label_of("1wl"), label_of("wl0")
    ('N5', '1-WL', 'wl0')
    """
    return get_test(name).label if is_test_name(name) else name


#: What ``all`` means (:func:`parse_tests`): every test of :data:`ALL_TESTS` but the expensive
#: :data:`ON_REQUEST_TESTS` (4-WL, ``n^4`` work per round), which join only when named
#: (``all,3fwl``).
EVERY_TEST = tuple(t for t in ALL_TESTS if t not in ON_REQUEST_TESTS)

#: Tests defined on unlabelled graphs only (BREC's non-GNN baselines; and every ``nK``).
LABEL_FREE_TESTS = tuple(t.name for t in builtin_tests() if t.labels == "none" and ego_radius(t.name) is None)


def refuses_labels(name: str, node_labels: bool, edge_labels: bool) -> bool:
    """Whether :func:`wltools.refine.refine_pair` refuses test ``name`` on graphs with these labels
    (the labels its :class:`~wltools.wltests.WLTest` accepts: s3, s4, nK, m1, m2 refuse any label;
    EPWL refuses edge labels).

    Examples
    --------
    >>> [refuses_labels(t, True, False) for t in ("n5", "1wl")], refuses_labels("n5", False, False)
    ([True, False], False)
    """
    return get_test(name).refuses(node_labels, edge_labels)


def _choices() -> str:
    from ..wltests.registry import list_tests

    return f"{', '.join(list_tests())}, {FAMILY_HELP}, or all"


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
    >>> parse_tests("1wl, SPD,n5,1wl")
    ('1wl', 'spd', 'n5')
    >>> expensive = ON_REQUEST_TESTS[0]
    >>> parse_tests("all") == EVERY_TEST, expensive in parse_tests("all"), parse_tests(f"all,{expensive}")[-1] == expensive
    (True, False, True)
    >>> parse_tests(["n5", "RD"]), parse_tests(None, default=TESTS) == TESTS
    (('n5', 'rd'), True)
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
            out.append(get_test(n).name)  # an alias reads as its test
        else:
            raise UnknownNameError(f"{where}unknown test {n!r}; choose from {_choices()}")
    return tuple(dict.fromkeys(out))


def tests_help(default: str | None = None) -> str:
    """The help text of a ``--tests`` option, every name from this registry.

    Examples
    --------
    >>> all(t in tests_help() for t in ALL_TESTS), f"all,{ON_REQUEST_TESTS[0]}" in tests_help()
    (True, True)
    """
    text = (f"Comma-separated tests, or all. Names: {', '.join(TESTS)} (1-WL, GD-WL with SPD / RD / RRWP, "
            f"3-WL); {', '.join(EXTRA_TESTS)} (EPWL); {', '.join(SUBGRAPH_WL_TESTS)} (the subgraph WL "
            f"hierarchy); {', '.join(SUBGRAPH_BASELINE_TESTS)} and nK for any K (BREC's non-GNN baselines); "
            f"{', '.join(ON_REQUEST_TESTS)} (4-WL, n^4 work per round). 'all' is every test but "
            f"{', '.join(ON_REQUEST_TESTS)}; write all,{ON_REQUEST_TESTS[0]} to add it.")
    text += "".join(f" Installed from outside: {', '.join(p)}." for p in [_outside()] if p)
    return text + (f" Default: {default}." if default else "")


def _outside() -> list[str]:
    """Names of the tests from outside (registered at run time or installed plugins)."""
    from ..wltests.registry import list_tests

    return [t for t in list_tests() if t not in ALL_TESTS]


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
