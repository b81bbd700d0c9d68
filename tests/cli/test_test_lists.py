"""Every command chooses tests one way (issue 34, item 2): a comma list or ``all`` read by
:func:`wltools.refine.names.parse_tests`, help texts listing every registered name, unknown names
refused with one line listing the valid ones."""

import re

import pytest
from click.testing import CliRunner

from cli import cli
from wltools.errors import UnknownNameError
from wltools.refine.names import ALL_TESTS, EVERY_TEST, ON_REQUEST_TESTS, TESTS, parse_tests


def _run(*args):
    return CliRunner().invoke(cli, list(args))


def test_parse_tests_lists_all_and_refusals():
    assert parse_tests("1wl, SPD,swl-vs,1wl") == ("1wl", "spd", "swl-vs")
    assert parse_tests("all") == EVERY_TEST and set(EVERY_TEST) | set(ON_REQUEST_TESTS) == set(ALL_TESTS)
    assert "3fwl" not in parse_tests("all") and parse_tests("all,3fwl") == EVERY_TEST + ("3fwl",)
    assert parse_tests("n5,all")[0] == "n5" and parse_tests(None, default=TESTS) == TESTS
    for bad in ("4wl", "1wl,", "n0", "all,nope", ""):
        if bad == "1wl,":
            assert parse_tests(bad) == ("1wl",)
            continue
        with pytest.raises(UnknownNameError) as e:
            parse_tests(bad, command="x")
        assert "\n" not in str(e.value) and all(t in str(e.value) for t in ALL_TESTS)
    with pytest.raises(UnknownNameError):
        parse_tests(None)


@pytest.mark.parametrize("command", [["check"], ["brec", "theory"], ["suite", "theory"], ["dataset"],
                                     ["brec", "run"], ["suite", "run"]])
def test_help_lists_every_registered_test(command):
    text = re.sub(r"-\s+", "-", " ".join(_run(*command, "--help").output.split()))  # wrapped at hyphens
    missing = [t for t in ALL_TESTS if not re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", text)]
    assert not missing, (command, missing)


def test_check_takes_a_comma_list():
    r = _run("check", "petersen", "petersen", "--test", "1wl,spd,swl-vs", "--no-iso")
    assert r.exit_code == 0, r.output
    rows = [line.split()[0] for line in r.output.splitlines() if line.split()[:1] in (["1wl"], ["spd"], ["swl-vs"])]
    assert rows == ["1wl", "spd", "swl-vs"]


def test_check_default_is_the_five_tests_and_all_is_every_test():
    default = _run("check", "cycle:6", "cycle:3+cycle:3", "--no-iso", "--format", "json")
    every = _run("check", "cycle:6", "cycle:3+cycle:3", "--no-iso", "--format", "json", "--test", "all")
    assert default.exit_code == every.exit_code == 0
    import json

    assert [r["test"] for r in json.loads(default.output)["results"]] == list(TESTS)
    assert [r["test"] for r in json.loads(every.output)["results"]] == list(EVERY_TEST)


def test_check_all_leaves_out_tests_that_refuse_labels():
    pytest.importorskip("rdkit")
    r = _run("check", "smiles:CCO", "smiles:OCC", "--test", "all", "--no-iso")
    assert r.exit_code == 0, r.output
    assert "left out of all" in r.stderr and "s3" in r.stderr and "\ns3 " not in r.stdout and "\n3wl " in r.stdout
    named = _run("check", "smiles:CCO", "smiles:OCC", "--test", "s3", "--no-iso")
    assert named.exit_code == 2 and named.output.startswith("error: ")


@pytest.mark.parametrize("command", [["check", "petersen", "petersen", "--test"], ["dataset", "NCI1K", "--tests"],
                                     ["brec", "theory", "--tests"], ["suite", "theory", "CSL", "--tests"]])
def test_unknown_test_is_one_line_listing_the_names(command):
    r = _run(*command, "1wl,4wl")
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), r.output
    assert "'4wl'" in lines[0] and all(t in lines[0] for t in ALL_TESTS)


@pytest.mark.parametrize("test, option, message", [("sswl", ["--max-seconds", "1e-9"], "--max-seconds"),
                                                   ("3fwl", ["--max-memory", "100K"], "--max-memory")])
def test_dataset_refuses_a_pairwise_test_by_estimate(tmp_path, test, option, message):
    """Reading the graphs needs about 80 KiB, 3-FWL's largest pair about 170 KiB."""
    import networkx as nx

    path = tmp_path / "g.g6"
    path.write_text("".join(nx.to_graph6_bytes(G, header=False).decode()
                            for G in (nx.cycle_graph(6), nx.path_graph(6), nx.star_graph(5))))
    r = _run("dataset", str(path), "--tests", f"1wl,{test}", "--quiet", *option)
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith(f"error: {test} on g.g6"), r.output
    assert message in lines[0]


def test_dataset_max_seconds_must_be_a_number():
    for bad in ("nan", "0", "-1"):
        r = _run("dataset", "NCI1K", "--tests", "sswl", "--max-seconds", bad)
        assert r.exit_code == 2 and "--max-seconds" in r.output
