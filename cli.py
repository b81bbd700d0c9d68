"""wltools command line: a thin click layer over library calls.

Every command's docstring is its help text. Errors of our own types (``wltools.errors``) are
caught here and printed as one line ``error: ...`` with exit code 2.
"""

from __future__ import annotations

import click

from wltools.errors import WLToolsError


class ReportedError(click.ClickException):
    """A library error shown to a person as one line, exit code 2."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class _Group(click.Group):
    """Click group that turns library errors into :class:`ReportedError`."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except WLToolsError as exc:
            raise ReportedError(str(exc)) from exc


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="wltools")
def cli() -> None:
    """Expressivity and isomorphism testing for graph learning."""


@cli.group(cls=_Group)
def brec() -> None:
    """The BREC benchmark: data integrity, theoretical verdicts, model runs and reports."""


@cli.group(cls=_Group)
def claims() -> None:
    """Verify the papers' theoretical claims, with witnesses."""


# === section: check / iso (owner: graphs & refinement) ===

# === end section: check / iso ===

# === section: brec verify-data / theory (owner: BREC dataset & theory) ===

# === end section: brec verify-data / theory ===

# === section: brec run / report (owner: BREC runner) ===

# === end section: brec run / report ===

# === section: claims (owner: claims) ===

# === end section: claims ===


def main() -> None:
    """Console-script entry point."""
    cli()


if __name__ == "__main__":
    main()
