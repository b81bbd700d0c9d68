"""Where a result came from: package versions, git revision, host and hardware.

The one definition of the provenance recorded beside every committed output (run directories,
theory tables, claim reports, benchmarks). Nothing here imports torch: its version is read from
the installed package metadata, and its thread count is reported only when torch is already loaded.

Examples
--------
>>> env = environment()
>>> sorted(env)
['git_revision', 'hardware', 'hostname', 'platform', 'python', 'versions']
>>> "numpy" in env["versions"]
True
"""

from __future__ import annotations

import importlib.metadata as md
import os
import platform
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["PACKAGES", "package_versions", "git_revision", "hardware", "environment"]

#: Packages whose versions are recorded (distribution names).
PACKAGES = ("wltools", "torch", "torch_geometric", "numpy", "scipy", "networkx", "pynauty")

_ROOT = Path(__file__).resolve().parent.parent


def package_versions(packages=PACKAGES) -> dict[str, str | None]:
    """Installed version of each package (None when absent), from package metadata.

    Examples
    --------
    >>> package_versions(["no-such-package-xyz"])
    {'no-such-package-xyz': None}
    """
    out: dict[str, str | None] = {}
    for pkg in packages:
        try:
            out[pkg] = md.version(pkg)
        except md.PackageNotFoundError:
            try:
                out[pkg] = md.version(pkg.replace("_", "-"))
            except md.PackageNotFoundError:
                out[pkg] = None
    return out


def git_revision() -> str | None:
    """``HEAD`` of the source checkout, with ``+dirty`` when tracked files changed; None outside git."""
    try:
        head = subprocess.run(["git", "-C", str(_ROOT), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=5)
        dirty = subprocess.run(["git", "-C", str(_ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    rev = head.stdout.strip() or None
    return f"{rev}+dirty" if rev and dirty.stdout.strip() else rev


def hardware(device: str | None = None) -> dict[str, Any]:
    """Machine, processor, logical CPUs; torch threads when torch is loaded; the CUDA device name
    when ``device`` is a CUDA device."""
    hw: dict[str, Any] = {"machine": platform.machine(), "processor": platform.processor() or None,
                          "cpu_count": os.cpu_count()}
    torch = sys.modules.get("torch")
    if torch is not None:
        hw["torch_threads"] = torch.get_num_threads()
        if device is not None and str(device).startswith("cuda") and torch.cuda.is_available():
            hw["cuda_device"] = torch.cuda.get_device_name(torch.device(device))
            hw["cuda_version"] = torch.version.cuda
    return hw


def environment(device: str | None = None) -> dict[str, Any]:
    """Python, platform, package versions, git revision, host name and :func:`hardware`."""
    return {"python": platform.python_version(), "platform": platform.platform(),
            "versions": package_versions(), "git_revision": git_revision(),
            "hostname": socket.gethostname(), "hardware": hardware(device)}
