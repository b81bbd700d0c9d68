"""Test-session settings shared by the whole suite."""

import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """Point wltools' disk cache (encodings, theory verdicts) at a fresh directory for the session.

    Tests then never read a developer's warm ``~/.cache/wltools`` (or stale entries in it), and a
    local run costs what a clean CI machine pays. Tests that need their own cache still set
    ``WLTOOLS_CACHE`` with ``monkeypatch``.
    """
    patch = pytest.MonkeyPatch()
    patch.setenv("WLTOOLS_CACHE", str(tmp_path_factory.mktemp("wltools-cache")))
    yield
    patch.undo()
