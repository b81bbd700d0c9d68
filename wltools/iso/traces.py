"""Canonical labelling of large sparse graphs by Traces, through nauty's ``dreadnaut`` program.

Traces (McKay & Piperno, "Practical graph isomorphism, II", J. Symb. Comput. 60, 2014, Sec. 6)
searches the individualisation-refinement tree breadth first with experimental paths, which keeps
it near-linear on graphs whose refinement becomes discrete after one individualised vertex, such
as random regular graphs: a random 3-regular graph of 100,000 nodes takes about 6 s here, where
bliss takes about 100 s (``benchmarks/results/iso_scale.json``). pynauty wraps dense nauty only,
so Traces is run as the ``dreadnaut`` program of nauty 2.8, the one the ``passagemath-nauty`` wheel
ships as a static executable (``pip install -e ".[traces]"``), or any ``dreadnaut`` named by the
environment variable :data:`DREADNAUT_ENV` or found on ``PATH``.

One labelling is one ``dreadnaut`` process reading a script from a file (``At`` Traces mode, ``c``
canonical labelling, the graph in ``g`` format, the colour partition ``f=[...]`` of a labelled
graph, ``x`` run, ``b`` write the canonical labelling) and writing to another, so that several run
at once (:func:`start`, :meth:`Run.result`) and a run over its time budget is killed with nothing
left behind. Only the labelling ``lab`` (``lab[i]`` is the node at canonical position ``i``) is
read back; the canonical edges are computed from it by :mod:`wltools.iso`. Small graphs share a
process (:func:`start_batch`, :meth:`Run.results`): the script then holds one graph after
another, each set up by ``n=`` (which empties the graph and resets the partition to the unit
one), run and written after its own marker; starting a process costs more than labelling a
graph of a few hundred nodes (2 to 9 ms against well under 1 ms).

Examples
--------
>>> import networkx as nx
>>> if available():
...     lab = labelling(4, [(0, 1), (1, 2), (2, 3)])
...     assert sorted(lab) == [0, 1, 2, 3]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from functools import lru_cache

from wltools.errors import WLToolsError

__all__ = ["DREADNAUT_ENV", "TracesFailed", "dreadnaut_path", "available", "Run", "start", "start_batch",
           "labelling"]

#: Environment variable naming a ``dreadnaut`` executable to use instead of the wheel's.
DREADNAUT_ENV = "WLTOOLS_DREADNAUT"

#: The marker written just before the canonical labelling in dreadnaut's output.
_MARK = b"<<wltools-lab>>"


class TracesFailed(WLToolsError):
    """dreadnaut exited with an error or wrote no canonical labelling."""


@lru_cache(maxsize=1)
def _wheel_dreadnaut() -> str | None:
    """The ``dreadnaut`` executable installed by the ``passagemath-nauty`` wheel, or None."""
    from importlib import metadata

    try:
        files = metadata.files("passagemath-nauty") or ()
    except metadata.PackageNotFoundError:
        return None
    for f in files:
        if f.name == "dreadnaut" and f.parent.name == "bin":
            path = str(f.locate())
            if os.access(path, os.X_OK):
                return path
    return None


def dreadnaut_path() -> str | None:
    """The ``dreadnaut`` to run: :data:`DREADNAUT_ENV` if set (an empty value turns Traces off),
    else the ``passagemath-nauty`` wheel's, else ``dreadnaut`` or Debian's ``nauty-dreadnaut`` on
    ``PATH``; None when there is none."""
    named = os.environ.get(DREADNAUT_ENV)
    if named is not None:
        return named or None
    return _wheel_dreadnaut() or shutil.which("dreadnaut") or shutil.which("nauty-dreadnaut")


def available() -> bool:
    """Whether a ``dreadnaut`` program is there to run Traces."""
    return dreadnaut_path() is not None


def _script(n: int, edges, cells) -> bytes:
    """dreadnaut's input: Traces mode, no automorphisms or level markers written, canonical
    labelling on; the graph (:func:`_segment`); quit."""
    return _batch_script([(n, edges, cells)])


def _batch_script(graphs) -> bytes:
    """dreadnaut's input for several graphs ``(n, edges, cells)``: the options once, then each
    graph's :func:`_segment`, then quit."""
    return b"At -a -m c " + b"".join(_segment(*g) for g in graphs) + b"q\n"


def _segment(n: int, edges, cells) -> bytes:
    """One graph: its order (``n=``, which also empties the graph and resets the partition); its
    edges (one ``u:v`` per edge, undirected: ``u:`` makes ``u`` the current vertex and ``v`` its
    neighbour; no ``;``, which moves to the next vertex and past the last one ends the graph, so
    that the edges after ``(n - 1):v;`` would be read as commands); the ordered partition
    ``cells`` (lists of nodes) if given; run; the marker and the labelling."""
    parts = [f"n={n} g\n".encode()]
    edges = edges.tolist() if hasattr(edges, "tolist") else edges
    parts.append("".join(map("{0[0]}:{0[1]}\n".format, edges)).encode())
    parts.append(b".\n")
    if cells:
        parts.append(("f=[" + "|".join(",".join(map(str, c)) for c in cells) + "]\n").encode())
    parts.append(b'x\n"' + _MARK + b'\\n" b\n')
    return b"".join(parts)


class Run:
    """One dreadnaut process labelling one graph (:func:`start`) or several (:func:`start_batch`);
    ``graphs``: ``(n, edges, cells)`` each."""

    def __init__(self, graphs, executable: str | None = None):
        exe = executable or dreadnaut_path()
        if exe is None:
            raise TracesFailed("Traces needs nauty's dreadnaut: pip install -e \".[traces]\"")
        self.ns = [n for n, _, _ in graphs]
        self.n = self.ns[0]
        self._labs: list | None = None
        self._dir = tempfile.TemporaryDirectory(prefix="wltools-traces-")
        script = os.path.join(self._dir.name, "in.dre")
        with open(script, "wb") as f:
            f.write(_batch_script(graphs))
        self._out_path = os.path.join(self._dir.name, "out.txt")
        with open(script, "rb") as fin, open(self._out_path, "wb") as fout:
            try:
                self._proc = subprocess.Popen([exe], stdin=fin, stdout=fout, stderr=subprocess.STDOUT)
            except OSError as exc:
                self._dir.cleanup()
                raise TracesFailed(f"cannot run dreadnaut ({exe}): {exc}") from None

    def result(self, deadline: float | None = None) -> list[int] | None:
        """The labelling (of the first graph), waiting until ``deadline`` (``time.monotonic``) at
        most; None, and the process killed, when it runs over."""
        labs = self.results(deadline)
        return None if labs is None else labs[0]

    def results(self, deadline: float | None = None) -> list[list[int]] | None:
        """The labelling of every graph, in order (:meth:`result`); read once, then kept."""
        if self._labs is not None:
            return self._labs
        try:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                code = self._proc.wait(timeout)
            except subprocess.TimeoutExpired:
                return None
            with open(self._out_path, "rb") as f:
                out = f.read()
            self._labs = _parse_all(out, self.ns, code)
            return self._labs
        finally:
            self.close()

    def close(self) -> None:
        """Kill the process if it still runs and remove its files."""
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        self._dir.cleanup()


def _parse_all(out: bytes, ns, code: int) -> list[list[int]]:
    """The labellings written after the markers, one per order of ``ns``."""
    if code != 0 or _MARK not in out:
        tail = out[-300:].decode("ascii", "replace").strip().splitlines()
        raise TracesFailed(f"dreadnaut (Traces) exited with code {code}: {tail[-1] if tail else 'no output'}")
    chunks = out.split(_MARK)[1:]
    if len(chunks) != len(ns):
        raise TracesFailed("dreadnaut (Traces) wrote no canonical labelling")
    return [_labelling_in(chunk, n) for chunk, n in zip(chunks, ns)]


def _labelling_in(chunk: bytes, n: int) -> list[int]:
    """The first ``n`` integers of ``chunk``, checked a permutation of ``0..n-1``."""
    tokens = chunk.split(maxsplit=n)[:n]
    try:
        lab = list(map(int, tokens))
    except ValueError:
        raise TracesFailed("dreadnaut (Traces) wrote no canonical labelling") from None
    if len(lab) != n or len(set(lab)) != n or (n and (min(lab) < 0 or max(lab) >= n)):
        raise TracesFailed("dreadnaut (Traces) wrote a labelling that is not a permutation")
    return lab


def start(n: int, edges, cells=None) -> Run:
    """Start labelling the graph on nodes ``0..n-1`` with these edges; ``cells``: an ordered
    partition of the nodes (the canonical labelling respects it, as nauty's does)."""
    return Run([(n, edges, cells)])


def start_batch(graphs) -> Run:
    """Start labelling several graphs ``(n, edges, cells)`` (as :func:`start`) in one process, one
    after the other; :meth:`Run.results` gives their labellings in order."""
    return Run(list(graphs))


def labelling(n: int, edges, cells=None, timeout: float | None = None) -> list[int] | None:
    """Traces's canonical labelling ``lab`` (``lab[i]``: the node at position ``i``), or None when
    it runs over ``timeout`` seconds."""
    run = start(n, edges, cells)
    return run.result(None if timeout is None else time.monotonic() + timeout)
