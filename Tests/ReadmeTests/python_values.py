"""Runs one Python block of a README and checks the values its comments show.

    python3 python_values.py BLOCK.py

A README writes Python as a reader would type it into an interpreter: an
expression, then its value in a comment, on the same line or the next one::

    cfg.properties("https://example.com/messages/new")
    # {'context': 'modal', 'pull_to_refresh_enabled': False}   a new dict, JSON types kept
    props.pull_to_refresh_enabled, props.animated  # (True, True)

For every top-level expression statement (not a call of print) whose comment
starts with a Python literal, the value must equal that literal; prose after
the literal is ignored, and a comment that starts with anything else (`# a
read-only Mapping`) is only prose. The block runs as one script, so state
flows from line to line as in the interpreter. Prints one line per value
checked to standard error (`value N: ok`), and exits 1 on the first mismatch.
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from typing import Any, Dict, List, Optional, Tuple


def literal_prefix(comment: str) -> Optional[Tuple[str, Any]]:
    """The longest prefix of `comment` (cut at a space or ';') that is a Python
    literal, with its value; None when the comment starts with prose."""
    text = comment.strip()
    cuts = sorted({len(text)} | {i for i, c in enumerate(text) if c in " ;"}, reverse=True)
    for cut in cuts:
        candidate = text[:cut].rstrip(" ;")
        if not candidate:
            continue
        try:
            return candidate, ast.literal_eval(candidate)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None


def comments_by_line(source: str) -> Dict[int, Tuple[str, bool]]:
    """Line number -> (comment text without '#', whether it is alone on its line)."""
    found: Dict[int, Tuple[str, bool]] = {}
    lines = source.split("\n")
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            alone = not lines[row - 1][:col].strip()
            found[row] = (tok.string[1:], alone)
    return found


def is_print(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"


def expectations(tree: ast.Module, source: str) -> List[Tuple[ast.Expr, str, Any]]:
    """The top-level expression statements whose comment shows a value."""
    comments = comments_by_line(source)
    found = []
    for node in tree.body:
        if not isinstance(node, ast.Expr) or is_print(node.value):
            continue
        end = node.end_lineno or node.lineno
        comment = None
        if end in comments and not comments[end][1]:
            comment = comments[end][0]
        elif end + 1 in comments and comments[end + 1][1]:
            comment = comments[end + 1][0]
        if comment is None:
            continue
        literal = literal_prefix(comment)
        if literal is not None:
            found.append((node, literal[0], literal[1]))
    return found


def main(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        source = f.read()
    tree = ast.parse(source, filename=path)
    checks = {id(node): (shown, value) for node, shown, value in expectations(tree, source)}
    scope: Dict[str, Any] = {"__name__": "__main__"}
    checked = 0
    for node in tree.body:
        if id(node) in checks:
            assert isinstance(node, ast.Expr)
            code = compile(ast.Expression(node.value), path, "eval")
            actual = eval(code, scope)  # noqa: S307 - the README's own code
            shown, expected = checks[id(node)]
            checked += 1
            if actual != expected or type(actual) is not type(expected) and not _same_kind(actual, expected):
                print(f"{path}:{node.lineno}: the README shows {shown}, the code gives {actual!r}", file=sys.stderr)
                return 1
            print(f"value {checked}: ok (line {node.lineno})", file=sys.stderr)
        else:
            exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), scope)  # noqa: S102
    return 0


def _same_kind(actual: Any, expected: Any) -> bool:
    """A Mapping shown as a dict literal, a list shown as a list: equal is enough
    when both are containers (bool vs int is not: True is not shown as 1)."""
    scalars = (bool, int, float, str, bytes, type(None))
    return not isinstance(actual, scalars) and not isinstance(expected, scalars)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
