"""Shared helpers of the refinement tests."""

import sys
import tracemalloc
from pathlib import Path

import pytest

# the independent slow references (references.py) are imported by the test modules as `references`
sys.path.insert(0, str(Path(__file__).resolve().parent))

from wltools.refine import refine_pair


@pytest.fixture
def refine_peak():
    """``refine_peak(G, H, test, warm)``: tracemalloc's peak of ``refine_pair(G, H, test)``, after
    one untraced run on the pair ``warm`` (imports and caches outside the trace)."""

    def peak(G, H, test, warm):
        refine_pair(*warm, test)
        tracemalloc.start()
        try:
            refine_pair(G, H, test)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    return peak
