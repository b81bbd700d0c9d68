"""Test-session settings shared by the whole suite."""

import contextlib
import os
import sys
from pathlib import Path

import pytest

# tests/brec_sample.py (the representative part of BREC) is imported by test modules as brec_sample
sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_configure(config):
    """Refuse ``--dist loadgroup`` where pytest-xdist's grouping has no effect: pytest-xdist up to
    3.8 marks each ``xdist_group`` test's node id for the scheduler through ``item._nodeid``, which
    pytest 9.2 no longer reads, so the groups are silently spread over the workers
    (pytest-dev/pytest-xdist#1386) and their shared fixtures and memos (suite verdicts, one Ray
    instance, one reference run) built once per worker. pyproject.toml pins pytest below 9.2."""
    if getattr(config.option, "dist", "no") != "loadgroup" or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    import xdist
    from packaging.version import Version

    if Version(pytest.__version__) >= Version("9.2") and Version(xdist.__version__) <= Version("3.8"):
        raise pytest.UsageError(f"xdist_group has no effect with pytest {pytest.__version__} and pytest-xdist "
                                f"{xdist.__version__}: install pytest < 9.2 (pyproject.toml's test extra)")


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """Point wltools' disk cache (encodings, theory verdicts) at a fresh directory for the session.

    Tests then never read a developer's warm ``~/.cache/wltools`` (or stale entries in it), and a
    local run costs what a clean CI machine pays. Tests that need their own cache still set
    ``WLTOOLS_CACHE`` with ``monkeypatch``.
    """
    patch = pytest.MonkeyPatch()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # one cache for the run's workers: each verdict computed once
        cache = tmp_path_factory.getbasetemp().parent / "wltools-cache"
        cache.mkdir(exist_ok=True)
    else:
        cache = tmp_path_factory.mktemp("wltools-cache")
    patch.setenv("WLTOOLS_CACHE", str(cache))
    yield
    patch.undo()


@pytest.fixture(scope="session")
def brec_theory(_isolated_cache):
    """``brec_theory(test, ids=None) -> {id: record}``: the theory verdicts of one WL test on BREC
    pairs (all 400 by default) through :func:`brec_runner.reports.theory.theory_verdicts` and the session's
    cache, so every test that reads them (counts, inclusions, the committed table, the claims)
    pays for each (test, pair) once per test process."""
    from brec_runner.reports.theory import theory_verdicts

    memo: dict = {}
    locks = Path(os.environ["WLTOOLS_CACHE"]) / "test-locks"
    locks.mkdir(exist_ok=True)

    def get(test: str, ids=None) -> dict:
        key = (test, None if ids is None else tuple(ids))
        if key not in memo:
            with _one_worker_at_a_time(locks / f"theory-{test}.lock"):  # the others then read the cache
                memo[key] = {pid: rec[test] for pid, rec in theory_verdicts([test], ids=ids).items()}
        return memo[key]

    return get


@contextlib.contextmanager
def _one_worker_at_a_time(path: Path):
    """An exclusive lock on ``path`` across the run's xdist workers (``fcntl.flock``; no lock where
    ``fcntl`` is missing): a worker that needs a test's BREC verdicts while another computes them
    waits, then reads them from the shared cache, instead of computing them a second time."""
    try:
        import fcntl
    except ImportError:  # not POSIX: each worker computes what it needs
        yield
        return
    with path.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def brec_verdicts(brec_theory):
    """``brec_verdicts(test, ids=None) -> {id: distinguished}`` (:func:`brec_theory`)."""
    return lambda test, ids=None: {pid: bool(r["distinguished"]) for pid, r in brec_theory(test, ids).items()}
