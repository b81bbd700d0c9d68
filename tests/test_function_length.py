"""Issue 28 item 7: no function in wltools/, brec_runner/ or cli/ has more than 80 lines of code
(its docstring not counted: a long parameter list documented in full is not a long function)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 80


def _code_lines(node: ast.FunctionDef) -> int:
    body = node.body
    doc = 0
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
            and isinstance(body[0].value.value, str):
        doc = body[0].end_lineno - body[0].lineno + 1
    return node.end_lineno - node.lineno + 1 - doc


def _long_functions() -> list[str]:
    files = [*sorted((ROOT / "cli").rglob("*.py")), *sorted((ROOT / "wltools").rglob("*.py")), *sorted((ROOT / "brec_runner").rglob("*.py"))]
    out = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _code_lines(node) > LIMIT:
                out.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({_code_lines(node)} lines)")
    return out


def test_no_function_above_80_lines_of_code():
    assert _long_functions() == []


def test_the_count_sees_a_long_function(tmp_path):
    """The measure is not vacuous: a generated 81-line function is counted as 81 lines."""
    src = "def f():\n    '''doc\n    more'''\n" + "".join(f"    x{i} = {i}\n" for i in range(80))
    node = ast.parse(src).body[0]
    assert _code_lines(node) == 81
