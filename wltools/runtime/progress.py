"""Progress of long work: a bar on a terminal, one line per stage otherwise.

Every long loop of the project (refining BREC's pairs, training a model's units, verifying data,
drawing pairs) reports through :func:`progress_bar`. On a terminal (``stderr.isatty()``) it is a
``tqdm`` bar with ETA and running counts; when stderr is a file or a pipe (a log, CI) a bar would
write a carriage-return update per step (the README's main job logged 433 KB of them), so it is a
:class:`StageLine` instead: nothing while the stage runs and one line when it ends, e.g.
``wltools: refine: 2000 runs in 41.3 s (distinguished=270)``. ``enabled=False`` (``--quiet``)
writes nothing at all.

Both kinds take the same calls: iteration over an iterable, ``update(n)``, ``set_postfix(...)``,
``set_description(text)``, ``write(line)``, ``close()`` and ``with``.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from typing import Any, Callable, Iterable, Iterator, TextIO

__all__ = ["progress_bar", "StageLine", "on_terminal", "timed_stage"]


def on_terminal(stream: TextIO | None = None) -> bool:
    """Whether ``stream`` (default stderr) is a terminal, or the stderr of a Jupyter kernel (whose
    cells show a live bar); a stream without ``isatty`` is not."""
    stream = sys.stderr if stream is None else stream
    if stream is sys.stderr and type(stream).__module__.startswith("ipykernel"):
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # no isatty, or closed
        return False


class StageLine:
    """The bar's stand-in off a terminal: counts what it is told and writes one line on ``close``
    (none when disabled). ``write`` passes a message (a failed unit, a warning) through at once, as
    ``tqdm.write`` does, enabled or not."""

    def __init__(self, iterable: Iterable | None = None, *, total: int | None = None, desc: str = "",
                 unit: str = "it", enabled: bool = True, file: TextIO | None = None):
        if total is None and hasattr(iterable, "__len__"):
            total = len(iterable)
        self.iterable, self.total, self.desc, self.unit = iterable, total, desc, unit
        self.enabled, self.file = enabled, file
        self.n, self.postfix, self._t0, self._closed = 0, "", time.perf_counter(), False

    def __iter__(self):
        for item in self.iterable:
            yield item
            self.n += 1
        self.close()

    def __enter__(self) -> "StageLine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix(self, ordered_dict: dict | None = None, refresh: bool = True, **kwargs: Any) -> None:
        items = {**(ordered_dict or {}), **kwargs}
        self.postfix = ", ".join(f"{k}={v}" for k, v in items.items())

    def set_description(self, desc: str | None = None, refresh: bool = True) -> None:
        pass  # the stage keeps the name it started with: per-step descriptions are bar-only detail

    def write(self, line: str) -> None:
        print(line, file=self.file or sys.stderr, flush=True)  # a message, not progress: even when disabled

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.enabled:
            units = self.unit if self.n == 1 else self.unit + "s"
            of = f" of {self.total}" if self.total is not None and self.total != self.n else ""
            extra = f" ({self.postfix})" if self.postfix else ""
            print(f"wltools: {self.desc}: {self.n}{of} {units} in {time.perf_counter() - self._t0:.1f} s{extra}",
                  file=self.file or sys.stderr, flush=True)


def progress_bar(iterable: Iterable | None = None, *, total: int | None = None, desc: str = "", unit: str = "it",
                 enabled: bool = True, file: TextIO | None = None, **tqdm_options: Any):
    """A ``tqdm`` bar on ``file`` (default stderr) when it is a terminal and ``enabled``; else a
    :class:`StageLine` (one line at the end when ``enabled``, nothing when not).

    ``tqdm_options`` (``leave``, ``dynamic_ncols``, ...) go to the bar only. A bar's ``write``
    prints above the bar (``tqdm.write``).

    Examples
    --------
    >>> import io
    >>> log = io.StringIO()
    >>> bar = progress_bar(total=3, desc="refine", unit="run", file=log)
    >>> for _ in range(3): bar.update(1)
    >>> bar.set_postfix(distinguished=2); bar.close()
    >>> log.getvalue().split(" in ")[0], log.getvalue().rstrip().endswith("s (distinguished=2)")
    ('wltools: refine: 3 runs', True)
    """
    stream = sys.stderr if file is None else file
    if enabled and on_terminal(stream):
        from tqdm.auto import tqdm  # a widget in a notebook, the text bar on a terminal

        bar = tqdm(iterable, total=total, desc=desc, unit=unit, file=stream, **tqdm_options)
        bar.write = lambda line: tqdm.write(line, file=stream)  # same call as StageLine.write
        return bar
    return StageLine(iterable, total=total, desc=desc, unit=unit, enabled=enabled, file=file)


@contextlib.contextmanager
def timed_stage(desc: str, estimate: str, seconds: float | None, *, enabled: bool = True,
                file: TextIO | None = None, tick: float = 1.0) -> Iterator[Callable[[str], None]]:
    """Progress of one long step that reports nothing from inside (a refinement whose rounds the
    caller cannot see): one line first, ``wltools: DESC: ESTIMATE``, then on a terminal a bar of
    elapsed seconds against ``seconds`` (the estimate; ticked by a thread every ``tick`` seconds,
    so its ETA is the estimate's), off a terminal the :class:`StageLine` at the end
    (``wltools: DESC: 1 stage in 523.1 s``). ``enabled=False`` writes nothing. It yields
    ``note(text)``, which writes ``wltools: DESC: TEXT`` (above the bar on a terminal): what the
    step reports of itself on the way (a refinement's rounds, :func:`wltools.refine.kernel.round_progress`).

    Examples
    --------
    >>> import io
    >>> log = io.StringIO()
    >>> with timed_stage("3fwl on 30 nodes", "about 40 MiB, 1 s a round", 4.0, file=log) as note:
    ...     note("round 1: 80 colours")
    >>> lines = log.getvalue().splitlines()
    >>> lines[:2], lines[2].startswith("wltools: 3fwl on 30 nodes: 1 stage in ")
    (['wltools: 3fwl on 30 nodes: about 40 MiB, 1 s a round', 'wltools: 3fwl on 30 nodes: round 1: 80 colours'], True)
    """
    stream = sys.stderr if file is None else file
    if not enabled:
        yield lambda text: None
        return
    print(f"wltools: {desc}: {estimate}", file=stream, flush=True)
    if not on_terminal(stream):
        with StageLine(total=1, desc=desc, unit="stage", file=stream) as line:
            yield lambda text: line.write(f"wltools: {desc}: {text}")
            line.update(1)
        return
    total = max(1, round(seconds)) if seconds else None
    bar = progress_bar(total=total, desc=desc, unit="s", file=stream, leave=False,
                       bar_format="{desc}: {elapsed} elapsed, estimate {total} s {bar}")
    stop = threading.Event()

    def ticker() -> None:
        while not stop.wait(tick):
            bar.update(tick if total is None or bar.n + tick <= total else 0)

    thread = threading.Thread(target=ticker, daemon=True)
    thread.start()
    try:
        yield lambda text: bar.write(f"wltools: {desc}: {text}")
    finally:
        stop.set()
        thread.join()
        bar.close()
