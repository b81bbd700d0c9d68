"""Shared subprocess plumbing of the benchmarks that run one measurement per child process
(``fwl3_bench.py``, ``refine_bench.py``): reading ``/proc/<pid>/status``, resetting the peak
resident set, and watching a child against a time and a memory limit."""
from __future__ import annotations

import threading
import time


def status_kib(pid: str | int, field: str) -> int | None:
    """``field`` (``VmRSS``, ``VmHWM``, ...) of ``/proc/<pid>/status`` in KiB; None where absent."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def reset_peak_rss() -> bool:
    """Reset this process's peak resident set (VmHWM; Linux >= 4.0); False where not possible."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def watch(proc, *, limit: float, max_rss: int, poll: float, build_limit: float | None = None):
    """Read ``proc``'s stdout and stderr lines until it ends, killing it once ``limit`` seconds have
    passed since it printed READY (status ``timeout``), before READY past ``build_limit`` seconds
    (``build-timeout``) or above ``max_rss`` bytes resident (``memory``). Returns ``(stdout lines,
    stderr lines, monotonic time of READY or None, status or None, largest resident bytes seen)``."""
    out: list[str] = []
    err: list[str] = []
    readers = [threading.Thread(target=lambda: out.extend(proc.stdout), daemon=True),
               threading.Thread(target=lambda: err.extend(proc.stderr), daemon=True)]
    for t in readers:
        t.start()
    start, ready, status, rss_max = time.monotonic(), None, None, 0
    while proc.poll() is None:
        time.sleep(poll)
        now = time.monotonic()
        if ready is None and any(x.startswith("READY") for x in out):
            ready = now
        rss = (status_kib(proc.pid, "VmRSS") or 0) * 1024
        rss_max = max(rss_max, rss)
        if rss > max_rss:
            status = "memory"
        elif ready is not None and now - ready > limit:
            status = "timeout"
        elif ready is None and build_limit is not None and now - start > build_limit:
            status = "build-timeout"
        if status:
            proc.kill()
            break
    proc.wait()
    for t in readers:
        t.join(timeout=5)
    return out, err, ready, status, rss_max
