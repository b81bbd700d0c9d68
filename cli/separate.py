"""``wltools separate A B``: the smallest certified pair that test B distinguishes and test A does not
(:mod:`wltools.hierarchy.separate`)."""

from __future__ import annotations

import json

import click

from cli.common import ReportedError, check_output_file, write_text

__all__ = ["separate_cmd", "hierarchy_cmd"]


def _brec_candidates():
    from brec_runner.runs.dataset import load_pairs

    return [(f"BREC pair {p.id} ({p.category})", p.g, p.h) for p in load_pairs()]


def _write(out: str, record: dict) -> list[str]:
    from pathlib import Path

    files = {"certificate.json": json.dumps(record, indent=2) + "\n"}
    if record.get("found"):
        files |= {"G.g6": record["G"] + "\n", "H.g6": record["H"] + "\n"}
        if record.get("pattern"):
            files["pattern.g6"] = record["pattern"] + "\n"
    targets = [Path(out) / name for name in files]
    for t in targets:
        check_output_file("--out", t)
    Path(out).mkdir(parents=True, exist_ok=True)
    for t, text in zip(targets, files.values()):
        write_text(t, text)
    return [str(t) for t in targets]


@click.command("separate")
@click.argument("a")
@click.argument("b")
@click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Time budget of the search; when it runs out, the coverage searched so far is printed.")
@click.option("--max-vertices", type=click.IntRange(min=2), default=64, show_default=True,
              help="Largest candidate graph tried (vertices of each graph of a pair).")
@click.option("--brec/--no-brec", default=True, show_default=True,
              help="Also try BREC's 400 pairs (after the constructed ones of the same size).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help="Folder to write certificate.json, G.g6, H.g6 (and pattern.g6) into.")
@click.option("--draw", "draw_path", default=None, metavar="FILE",
              help="Draw the pair found (.png, .svg or .pdf), coloured by B at its separating round, beside the "
                   "pattern F with both homomorphism counts.")
def separate_cmd(a: str, b: str, max_seconds: float, max_vertices: int, brec: bool, fmt: str,
                 out: str | None, draw_path: str | None) -> None:
    """The smallest certified pair that test B distinguishes and test A does not.

    Tries Fürer pairs over the patterns of B's homomorphism family outside A's (where both have one),
    all graphs up to 7 vertices with equal 1-WL colours, Fürer pairs over small graphs, and BREC's
    pairs, smallest first. The certificate re-checks every claim: A's verdict run to stability, B's
    round and witness, a pattern's homomorphism counts from two counters, non-isomorphism. When
    nothing is found, it says what was searched (never that A is at least as strong as B).

    Example: wltools separate 1wl 3wl
    """
    from wltools.errors import WLToolsError
    from wltools.hierarchy import separate

    a, b = a.strip().lower(), b.strip().lower()
    if out:  # before any work: the folder (never into what the project ships) and each file in it
        from pathlib import Path

        from wltools.runtime.shipped import refuse_shipped

        refuse_shipped("--out", out, error=ReportedError)
        for name in ("certificate.json", "G.g6", "H.g6", "pattern.g6"):
            check_output_file("--out", Path(out) / name)
    if draw_path:  # refused before any work: a folder, an unknown format, an undrawable test
        from wltools.draw.figure import check_target

        try:
            check_target(draw_path, (), b)
        except WLToolsError as exc:
            raise ReportedError(str(exc)) from None
        check_output_file("--draw", draw_path)
    try:
        result = separate(a, b, pairs=_brec_candidates() if brec else (), max_seconds=max_seconds,
                          max_vertices=max_vertices)
    except WLToolsError as exc:
        raise ReportedError(str(exc)) from None
    record = result.to_dict()
    click.echo(json.dumps(record, indent=2) if fmt == "json" else str(result))
    if draw_path and record["found"]:
        from wltools.hierarchy.draw import draw_certificate
        from wltools.runtime.atomic import atomic_path

        with atomic_path(draw_path, error=ReportedError) as tmp:
            try:
                draw_certificate(result, tmp)
            except WLToolsError as exc:
                raise ReportedError(str(exc)) from None
        click.echo(f"drawing: {draw_path}", err=True)
    if out:
        written = _write(out, record)
        if fmt == "text":
            click.echo(f"wrote {', '.join(written)}")


def _stopped_sweep(out: str | None):
    """The sweep ``wltools hierarchy --out OUT`` left in OUT/hierarchy.json, to resume (one line,
    exit 2, when there is none, it is damaged, or it finished)."""
    from pathlib import Path

    from wltools.hierarchy.table import Hierarchy

    if not out:
        raise ReportedError("--resume needs --out: the folder of the sweep to go on with")
    path = Path(out) / "hierarchy.json"
    if not path.is_file():
        raise ReportedError(f"--resume: no sweep to resume in {out} ({path} does not exist)")
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        h = Hierarchy.from_dict(record)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ReportedError(f"--resume: {path} is damaged or not a hierarchy record ({type(exc).__name__})") from None
    if not h.fingerprint:
        raise ReportedError(f"--resume: {path} was written before sweeps could resume; run it again without --resume")
    if h.complete:
        raise ReportedError(f"--resume: the sweep in {out} finished (nothing left to resume)")
    return h


@click.command("hierarchy")
@click.option("--tests", "tests_text", required=True,
              help="Comma list of tests to place (at least two), or all (every test but 3fwl; all,3fwl adds it).")
@click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=300.0, show_default=True,
              help="Time budget of the sweep over candidate pairs; the coverage says where it stopped.")
@click.option("--max-vertices", type=click.IntRange(min=2), default=64, show_default=True,
              help="Largest candidate graph tried (vertices).")
@click.option("--brec/--no-brec", default=False, show_default=True, help="Also sweep BREC's 400 pairs.")
@click.option("--format", "fmt", type=click.Choice(["markdown", "json"]), default="markdown", show_default=True)
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help="Folder to write hierarchy.md, hierarchy.json and hierarchy.png (the Hasse diagram) into.")
@click.option("--against-brec", "brec_table", type=click.Path(exists=True, dir_okay=False), default=None,
              metavar="VERDICTS_CSV", help="A BREC theory table (verdicts.csv of wltools brec theory): say which "
              "tests it cannot tell apart that the certified pairs here separate.")
@click.option("--resume", is_flag=True, default=False,
              help="Go on with the sweep in --out that its time budget stopped (same --tests, --max-vertices and "
              "--brec), with a new budget of --max-seconds.")
def hierarchy_cmd(tests_text: str, max_seconds: float, max_vertices: int, brec: bool, fmt: str,
                  out: str | None, brec_table: str | None, resume: bool) -> None:
    """Every pair of TESTS placed from evidence: incomparable, strictly weaker, or equal on everything
    searched, each "not weaker" with its smallest certified pair (as wltools separate certifies it).

    "Weaker" is an observation on the pairs searched (the coverage is printed), not a theorem.

    Example: wltools hierarchy --tests 1wl,spd,rd,3wl --out hierarchy
    (then, if the budget stopped it: the same command with --resume)
    """
    from pathlib import Path

    from wltools.errors import WLToolsError
    from wltools.hierarchy.table import draw_hasse, hierarchy
    from wltools.refine.names import parse_tests

    names = ("hierarchy.md", "hierarchy.json", "hierarchy.png")
    if out:
        from wltools.runtime.shipped import refuse_shipped

        refuse_shipped("--out", out, error=ReportedError)
        for name in names:
            check_output_file("--out", Path(out) / name)
    try:
        tests = parse_tests(tests_text, command="hierarchy --tests")
        stopped = _stopped_sweep(out) if resume else None
        h = hierarchy(tests, pairs=_brec_candidates() if brec else (), max_seconds=max_seconds,
                      max_vertices=max_vertices, progress=lambda line: click.echo(line, err=True), resume=stopped)
        if brec_table:
            from wltools.hierarchy.sources import brec_notes

            h.notes += brec_notes(set(h.certificates), brec_table, tests)
    except WLToolsError as exc:
        raise ReportedError(str(exc)) from None
    record = h.to_dict()
    text = h.markdown()
    click.echo(json.dumps(record, indent=2) if fmt == "json" else text)
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        write_text(Path(out) / names[0], text)
        write_text(Path(out) / names[1], json.dumps(record, indent=2) + "\n")
        draw_hasse(h, Path(out) / names[2])
        click.echo(f"wrote {', '.join(str(Path(out) / n) for n in names)}", err=True)
