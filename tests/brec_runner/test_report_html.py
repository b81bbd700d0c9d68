"""The self-contained HTML report and the pair drawings of a report (brec_runner.reports.html_page,
brec_runner.reports.figures), notebook display of reports, and the page rendered in a real browser."""

import base64
import io
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fake_runs import unit_record, write_run

from brec_runner.reports.figures import draw_report_pairs, figure_pairs, render_pair_figures
from brec_runner.reports.html_page import SECTIONS, markdown_to_html, report_html, write_html
from brec_runner.reports.report import Report, build_report, format_report
from brec_runner.runs.protocol import Protocol
from wltools.errors import WLToolsError

CATEGORY = {0: "basic", 1: "basic", 2: "basic", 60: "regular"}
_MODEL_OF_BOUNDS = {"1wl": "sgformer", "3wl": "graph_transformer"}


def _run(d, upper, verdicts):
    """A run directory as runs write them; ``verdicts``: pair id -> distinguished (seed 0)."""
    cfg = {"model": _MODEL_OF_BOUNDS[upper], "preset": "small", "model_overrides": {}, "protocol": Protocol().to_dict(),
           "device_type": "cpu", "device": "cpu",
           "theory": {"theory": {"lower": "1wl", "upper": upper, "class": "test class", "note": ""}, "published": None}}
    return write_run(d, cfg, [unit_record(pid, 0, dist, category=CATEGORY[pid]) for pid, dist in verdicts.items()])


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WLTOOLS_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def missed_run(tmp_path):
    """Bound 3-WL (separates every Basic pair): pairs 1, 2 missed, 0 realised."""
    return _run(tmp_path / "missed", "3wl", {0: True, 1: False, 2: False})


@pytest.fixture
def beyond_run(tmp_path):
    """Bound 1-WL (separates no BREC pair): pairs 0 and 60 separated beyond it."""
    return _run(tmp_path / "beyond", "1wl", {0: True, 1: False, 60: True})


class _Page(HTMLParser):
    """Section ids, image sources, external references and the text of a page."""

    def __init__(self):
        super().__init__()
        self.sections, self.images, self.external, self.text, self.tags = [], [], [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "section":
            self.sections.append(a.get("id"))
        if tag == "img":
            self.images.append(a["src"])
        for key in ("src", "href"):
            if a.get(key) and not a[key].startswith(("data:", "#")):
                self.external.append(a[key])
        if tag in ("script", "link", "iframe"):
            self.external.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def _parse(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    return page


def test_figure_pairs_come_from_the_report(missed_run, beyond_run):
    assert figure_pairs(build_report([missed_run])) == {"missed": [1, 2], "beyond": []}
    rep = build_report([beyond_run])
    assert figure_pairs(rep) == {"missed": [], "beyond": [0, 60]}
    figs = render_pair_figures(rep, limit=1)
    assert [(f.id, f.kind, f.test) for f in figs] == [(0, "beyond", "1wl")]
    assert figs[0].png[:8] == b"\x89PNG\r\n\x1a\n"


def test_figures_of_a_suite_run():
    # a suite run's report names its suite: pairs come from wltools.suites (CSL pair 9: 41 nodes)
    rep = {"suite": "csl", "theory": {"upper": "3wl"}, "pairs_by_class": {"unrealised": [9], "beyond_theory": []}}
    (fig,) = render_pair_figures(rep)
    assert (fig.id, fig.kind, fig.test, fig.file_name) == (9, "missed", "3wl", "pair-009-missed-3wl.png")
    assert fig.png[:8] == b"\x89PNG\r\n\x1a\n"
    assert render_pair_figures({"theory": {"upper": None}, "pairs_by_class": {}}) == []  # no bound, nothing
    with pytest.raises(WLToolsError, match="not drawable"):
        render_pair_figures({"theory": {"upper": "3fwl"}, "pairs_by_class": {"unrealised": [0]}})


def test_html_page_has_every_section_and_is_self_contained(missed_run, tmp_path):
    rep = build_report([missed_run])
    path = write_html(rep, tmp_path / "report.html")
    page = _parse(path.read_text(encoding="utf-8"))
    assert page.sections == list(SECTIONS)
    assert page.external == []  # nothing fetched: opens offline
    # the chart and one drawing per missed pair, inlined PNGs that decode
    assert len(page.images) == 1 + 2
    for src in page.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    text = " ".join(page.text)
    # the table is the Markdown report's own: same cells
    md_rows = [ln for ln in format_report(rep, "md").splitlines() if ln.startswith("| basic")]
    cells = [c.strip() for c in md_rows[0].strip("|").split("|")]
    assert all(c in text for c in cells)
    assert "Pairs missed although the declared bound separates them (2)" in text
    assert "pair 1, missed although the declared bound separates them, coloured by 3wl" in text


def test_html_of_several_reports_and_without_bound(missed_run, beyond_run):
    reps = [build_report([missed_run]), build_report([beyond_run])]
    page = _parse(report_html(reps, figures=False))
    assert page.sections == list(SECTIONS) + [f"{s}-2" for s in SECTIONS]
    assert "Pair drawings not made." in " ".join(page.text)


def test_markdown_to_html_escapes():
    out = markdown_to_html("a <b> & **c**\n\n| x | y |\n|---|---|\n| <1> | 2 |")
    assert "&lt;b&gt; &amp; <strong>c</strong>" in out and "<td>&lt;1&gt;</td>" in out


def test_figures_folder_written_and_refusals(missed_run, tmp_path):
    rep = build_report([missed_run])
    figs = draw_report_pairs(rep, tmp_path / "figs", [missed_run])
    names = sorted(p.name for p in (tmp_path / "figs").iterdir())
    assert names == ["pair-001-missed-3wl.png", "pair-002-missed-3wl.png"] == sorted(f.path.name for f in figs)
    before = sorted(p.name for p in Path(missed_run).iterdir())
    with pytest.raises(WLToolsError, match="run directory"):
        draw_report_pairs(rep, missed_run, [missed_run])
    assert sorted(p.name for p in Path(missed_run).iterdir()) == before
    (tmp_path / "file").write_text("x")
    with pytest.raises(WLToolsError, match="is a file, not a folder"):
        draw_report_pairs(rep, tmp_path / "file", [missed_run])


def test_report_notebook_display(missed_run):
    report = Report.from_run_dirs([missed_run])
    assert report._repr_markdown_() == report.to_markdown()
    page = _parse(report._repr_html_())
    assert page.sections == ["summary", "table", "pairs"] and "table" in page.tags
    try:
        import pandas  # noqa: F401
    except ImportError:
        from wltools.draw.display import OptionalDependencyError

        with pytest.raises(OptionalDependencyError, match="pip install pandas"):
            report.to_dataframe()
    else:
        df = report.to_dataframe()
        assert list(df["category"]) == ["basic", "total"] and int(df["pairs"][0]) == 3


def test_theory_report_display():
    from brec_runner.reports.theory_report import run_theory

    th = run_theory(["1wl", "3wl"], ids=[0, 1])
    md = th._repr_markdown_()
    assert "| basic | 0 / 2 | 2 / 2 |" in md and "## Runtime" not in md
    assert "<td>basic</td><td>0 / 2</td><td>2 / 2</td>" in th._repr_html_()
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pip install pandas"):
            th.to_dataframe()
    else:  # one row per (pair, test); "no iteration" is missing, not a string
        df = th.to_dataframe()
        assert len(df) == 4 and list(df["distinguished"]) == [0, 1, 0, 1] and df["iteration"].isna().sum() == 2


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


def test_page_renders_in_headless_chromium(missed_run, tmp_path):
    browser = _chromium()
    if browser is None:
        pytest.skip("headless Chromium not installed (Debian package 'chromium'; .ci/run installs it)")
    np = pytest.importorskip("numpy")
    from matplotlib.image import imread

    page = write_html(build_report([missed_run]), tmp_path / "report.html", limit=1)
    shot = tmp_path / "shot.png"
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--screenshot={shot}",
           "--window-size=1200,1800", "--user-data-dir=" + str(tmp_path / "profile"), page.resolve().as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert shot.exists(), f"no screenshot (exit {proc.returncode}): {proc.stderr[-500:]}"
    img = imread(io.BytesIO(shot.read_bytes()), format="png")[..., :3]
    assert img.shape[:2] == (1800, 1200)
    assert float(img.std()) > 0.05  # not blank: text, table, chart and drawings
    # the table's shaded header and the coloured bars are there: many distinct colours
    assert len(np.unique((img.reshape(-1, 3) * 255).astype(int), axis=0)) > 50
    keep = os.environ.get("WLTOOLS_KEEP_SCREENSHOT")
    if keep:  # for a person to look at
        shutil.copy(shot, keep)


# --- wltools brec report --html / --figures ---


def _cli(*args):
    from click.testing import CliRunner

    import cli

    return CliRunner().invoke(cli.cli, [str(a) for a in args])


def _one_error_line(result, needle):
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr


def test_cli_report_html_and_figures(missed_run, tmp_path):
    page, figs = tmp_path / "out" / "report.html", tmp_path / "figs"
    (tmp_path / "out").mkdir()
    result = _cli("brec", "report", missed_run, "--html", page, "--figures", figs)
    assert result.exit_code == 0, result.output
    assert _parse(page.read_text(encoding="utf-8")).sections == list(SECTIONS)
    assert sorted(p.name for p in figs.iterdir()) == ["pair-001-missed-3wl.png", "pair-002-missed-3wl.png"]
    assert "| basic | 3 |" in result.stdout  # the report itself is still printed


def test_cli_report_refuses_run_files_and_folders(missed_run, tmp_path):
    before = {p.name: p.read_bytes() for p in Path(missed_run).iterdir()}
    _one_error_line(_cli("brec", "report", missed_run, "--no-theory", "--html", Path(missed_run) / "results.jsonl"),
                    "would overwrite the run's records")
    _one_error_line(_cli("brec", "report", missed_run, "--no-theory", "--figures", missed_run),
                    "would overwrite the run's records")
    _one_error_line(_cli("brec", "report", missed_run, "--no-theory", "--html", tmp_path), "is a folder")
    (tmp_path / "f").write_text("x")
    _one_error_line(_cli("brec", "report", missed_run, "--no-theory", "--figures", tmp_path / "f"), "not a folder")
    _one_error_line(_cli("brec", "report", missed_run, "--no-theory", "--out", tmp_path / "r.html", "--html",
                         tmp_path / "r.html"), "same file")
    assert {p.name: p.read_bytes() for p in Path(missed_run).iterdir()} == before
