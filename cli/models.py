"""`wltools models list`: the models the runner knows by name."""

from __future__ import annotations

import click
from cli.common import Group, table


@click.group(cls=Group)
def models() -> None:
    """Models the BREC runner knows by name: built-in and installed plugins."""


@models.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--load-plugins", is_flag=True,
              help="Import the installed plugins to show their bounds (by default they are listed unloaded).")
def models_list(fmt: str, load_plugins: bool) -> None:
    """List built-in models and plugins (entry-point group wltools.models) with bound and presets.

    Plugins are listed by name and entry point without being imported; --load-plugins imports
    them to show their bounds (one that cannot be loaded shows why).

    Any other model runs by reference: wltools brec run --model PATH.py:ATTR (docs/your-model.md).
    """
    import json

    from brec_runner.models.source import list_model_sources

    rows = list_model_sources(load_plugins=load_plugins)
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    lines = [("name", "kind", "bound", "presets", "source")]
    lines += [(r["name"], r["kind"], r["bound"] or "unknown", ",".join(r["presets"]) or "-", r["source"])
              for r in rows]
    click.echo("\n".join(table(lines)))
