"""wltools command line: a thin click layer over library calls.

Every command's docstring is its help text. Errors of our own types (``wltools.errors``) are
caught by the group class (:class:`cli.common.Group`) and printed as one line ``error: ...`` with
exit code 2. One module per command or group: ``pairs`` (check, iso), ``brec``, ``suite``,
``dataset``, ``claims``, ``models``, ``patterns`` (patterns, can-count).
"""

from __future__ import annotations

import click

from cli import brec, claims, compare, count, dataset, hom, models, pairs, patterns, separate, suite
from cli.common import Group, ReportedError

__all__ = ["ReportedError", "cli", "main"]


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="wltools")
def cli() -> None:
    """Expressivity and isomorphism testing for graph learning."""


for _command in (pairs.check, pairs.iso, brec.brec, suite.suite, dataset.dataset_cmd, claims.claims, models.models,
                 hom.hom, patterns.patterns_cmd, patterns.can_count_cmd, count.count, separate.separate_cmd,
                 separate.hierarchy_cmd):
    cli.add_command(_command)
brec.brec.add_command(compare.brec_compare, "compare")
suite.suite.add_command(compare.suite_compare, "compare")


def _stdout_gone() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of a full or closed stdout adds
    no second message on the way out."""
    import os
    import sys

    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError):
        pass


def main() -> None:
    """Console-script entry point.

    Output that cannot be written is no traceback: stdout on a full device (``> /dev/full``, a full
    disk or quota) is one ``error:`` line on stderr and exit 2; a reader that stops early
    (``| head``, a broken pipe) ends the command quietly (exit 1 from click, or 2). stdout is
    flushed inside the guard, since a full device shows only when the buffer is written. Any other
    OS error that reaches this boundary is one line too.
    """
    import errno
    import sys

    from cli import quiet_imports

    quiet_imports.install()  # igraph without matplotlib.pyplot (1.5 CPU-s), in this process only
    try:
        try:
            cli.main(prog_name="wltools")
        finally:
            sys.stdout.flush()
    except OSError as exc:
        if exc.filename:  # a file's error: stdout was flushed in the finally above
            print(f"error: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        else:  # stdout's: nothing more can go there, not even the interpreter's last flush
            _stdout_gone()
            if exc.errno != errno.EPIPE:
                print(f"error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()