"""The BREC theory table's notes say why it has both a `regular` and a `regular140` row and what
RRWP's K is, and the committed table (reports/brec-theory/README.md) carries the notes the code
writes."""

from pathlib import Path

from brec_runner.reports import theory_report as tr
from brec_runner.runs.dataset import CATEGORY_IDS, load_pairs

ROOT = Path(__file__).resolve().parents[2]


def test_the_notes_explain_the_rows_and_rrwps_k():
    rep = tr.run_theory(["1wl", "rrwp"], 5, ids="60,360", use_cache=False)
    md = tr.markdown_summary(rep)
    assert "| regular | 0 / 1 | " in md and "| regular140 | 0 / 2 | " in md
    assert "`regular` (100 pairs)" in md and "`regular140` (140 pairs: 60-159 with `4vertex` 360-379" in md
    assert "`rrwp (K=5)`: RRWP-WL with K = 5 channels I, M, ..., M^(K-1) (GRIT Eq. 1" in md
    # the ids the note names are the categories' ids in the data
    assert list(CATEGORY_IDS["regular"]) == list(range(60, 160)) and list(CATEGORY_IDS["4vertex"]) == list(range(360, 380))
    assert list(CATEGORY_IDS["regular140"]) == list(range(60, 160)) + list(range(360, 400))
    assert [p.id for p in load_pairs(categories=["distance_regular"])] == list(range(380, 400))


def test_the_committed_table_carries_the_notes():
    text = (ROOT / "reports" / "brec-theory" / "README.md").read_text()
    assert tr._ROW_NOTES + tr._RRWP_NOTE.format(K=32) in text


def test_rrwps_k_is_the_channel_count_of_the_models_encoding_everywhere():
    """`rrwp:K` in `wltools models list` (and the K of a run's report) is the number of RRWP
    channels the model's own transform attaches (I, M, ..., M^(K-1)), as the notes and the tests
    page say: PPGT's brec preset 33 (32 walk steps plus the identity), GRIT's 21."""
    import networkx as nx
    from click.testing import CliRunner
    from torch_geometric.utils import from_networkx

    import cli
    from wltools.models import create_transform

    listed = CliRunner().invoke(cli.cli, ["models", "list"])
    assert listed.exit_code == 0, listed.output
    bound = {line.split()[0]: line.split()[2] for line in listed.output.splitlines()[1:]}
    data = from_networkx(nx.path_graph(3))
    for name, k in (("ppgt", 33), ("grit", 21)):
        assert bound[name] == f"rrwp:{k}"
        assert create_transform(name)(data.clone()).rrwp.shape[1] == k


def test_old_runs_bound_reads_k_from_the_config_and_agrees_with_the_transform():
    """A run directory written before bounds were recorded gets its built-in model's bound, K read
    from the config (no model code): PPGT small = 16 walk steps + the identity = 17 channels, GRIT
    small 8, with overrides applied; the same K as the transform a run would build."""
    from brec_runner.configs import theory_bound
    from wltools.models import create_transform

    for run, k in (({"model": "ppgt", "preset": "small"}, 17), ({"model": "grit", "preset": "small"}, 8),
                   ({"model": "ppgt", "model_overrides": {"rrwp_steps": 4}}, 5)):
        bound = theory_bound(run)
        assert bound["upper"] == "rrwp" and bound["rrwp_steps"] == k
        assert create_transform(run["model"], run.get("preset") or "brec",
                                **run.get("model_overrides", {})).walk_length == k
    assert theory_bound({"model": "graphormer"})["rrwp_steps"] is None
