"""`wltools models list`: the models the runner knows by name."""

from __future__ import annotations

import click
from cli.common import Group, table


@click.group(cls=Group)
def models() -> None:
    """Models the BREC runner knows by name: built-in and installed plugins."""


@models.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def models_list(fmt: str) -> None:
    """List built-in models and plugins (entry-point group wltools.models) with bound and presets.

    Any other model runs by reference: wltools brec run --model PATH.py:ATTR (docs/your-model.md).
    """
    import json

    from brec_runner.model_source import list_model_sources

    rows = list_model_sources()
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    lines = [("name", "kind", "bound", "presets", "source")]
    lines += [(r["name"], r["kind"], r["bound"] or "unknown", ",".join(r["presets"]) or "-", r["source"])
              for r in rows]
    click.echo("\n".join(table(lines)))
