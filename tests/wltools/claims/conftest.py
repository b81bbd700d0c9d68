"""Inputs of the claims (``wltools.claims.inputs``) for the tests: the BREC pairs, and theory
verdicts computed by ``refine_pair`` directly (no disk cache). pytest runs with
``--import-mode=importlib``, so tests get these through fixtures."""

import pytest

from wltools.refine import refine_pair


@pytest.fixture(scope="session")
def brec():
    """Every BREC pair, in id order (the ``pairs`` input)."""
    from brec_runner.runs.dataset import load_pairs

    return load_pairs()


@pytest.fixture
def refine_theory(brec):
    """``make(refine=refine_pair)`` -> a ``theory_verdicts(test, ids, rrwp_steps)`` callable that
    refines the BREC pairs with ``refine`` and records every call in ``.calls``."""

    def make(refine=refine_pair):
        calls = []

        def theory_verdicts(test, ids, rrwp_steps=None):
            calls.append((test, list(ids), rrwp_steps))
            kw = {} if rrwp_steps is None else {"rrwp_steps": rrwp_steps}
            return {i: refine(brec[i].g, brec[i].h, test, **kw).distinguished for i in ids}

        theory_verdicts.calls = calls
        return theory_verdicts

    return make
