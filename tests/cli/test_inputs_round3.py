"""Round three of the careless-user faults (issue 45): inputs with one meaning, estimates before
allocation, clear messages. Each test asserts the right number from an independent reference, or a
refusal: exit 2 and one ``error:`` line."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

import cli


def _run(*args: str):
    return CliRunner().invoke(cli.cli, [str(a) for a in args])


def _refused(result, *needles: str) -> str:
    """The one error line of a refusal (exit 2), holding every needle."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def _commands(group: click.Group, path=()):
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*path, name))
        else:
            yield (*path, name), cmd


_SINGLE = [(path, opt.opts[0], opt.is_flag) for path, cmd in _commands(cli.cli) for opt in cmd.params
           if isinstance(opt, click.Option) and not opt.multiple and not opt.count and opt.name != "help"]


# ---- 1. repeated options ----------------------------------------------------------------------

def test_a_repeated_root_is_refused_not_the_last_one_kept():
    """The issue's case: ``--root 0 --root 1`` counted for root 1 alone (15) and said nothing."""
    _refused(_run("hom", "cycle:4", "petersen", "--root", "0", "--root", "1"), "--root given twice", "0, then 1")
    one = _run("hom", "cycle:4", "petersen", "--root", "1")
    # by hand: Petersen is 3-regular of girth 5, so a closed 4-walk at v only goes back and forth:
    # v-a-v-b-v (3 * 3 = 9) or v-a-x-a-v with x != v (3 * 2 = 6): 15
    assert one.exit_code == 0 and one.output.strip().endswith("= 15"), one.output


@pytest.mark.parametrize("path, option, flag", _SINGLE, ids=[f"{' '.join(p)} {o}" for p, o, _ in _SINGLE])
def test_every_single_value_option_given_twice_is_refused(path, option, flag):
    """Audit of every command: an option that holds one value, given twice, is one line naming it
    (before any other check: the values need not even be valid)."""
    twice = [option, option] if flag else [option, "x", option, "y"]
    _refused(_run(*path, *twice), f"{option} given twice")


def test_repeatable_options_say_so_in_their_help():
    multiple = [(p, o) for p, cmd in _commands(cli.cli) for o in cmd.params
                if isinstance(o, click.Option) and o.multiple]
    assert multiple  # --category, --set, can-count --root
    for path, opt in multiple:
        assert "repeat" in (opt.help or "").lower(), (path, opt.opts)


def test_a_key_set_twice_is_refused():
    from cli.common import parse_set

    assert parse_set(("lr=0.1", "layers=3")) == {"lr": 0.1, "layers": 3}
    with pytest.raises(click.BadParameter, match="lr is set twice"):
        parse_set(("lr=0.1", "lr=0.2"))


# ---- 6. unclear messages ----------------------------------------------------------------------

@pytest.mark.parametrize("args", [("patterns", "--test", "foo", "--max-nodes", "3"),
                                  ("can-count", "cycle:4", "--test", "foo")])
def test_an_unknown_test_lists_the_tests_with_a_family(args):
    from wltools.hom.families import FAMILY_TESTS

    _refused(_run(*args), "unknown test 'foo'", ", ".join(FAMILY_TESTS))


def test_explain_max_nodes_without_explain_is_refused():
    _refused(_run("check", "petersen", "petersen", "--test", "1wl", "--explain-max-nodes", "3"),
             "--explain-max-nodes needs --explain")
    ok = _run("check", "petersen", "petersen", "--test", "1wl", "--explain", "--explain-max-nodes", "3")
    assert ok.exit_code == 0 and "up to 3 vertices" in ok.output, ok.output
