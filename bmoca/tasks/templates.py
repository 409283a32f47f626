"""The `${...}` templates of task families, filled with an instance's values.

    instruction: "create an alarm at ${time.text}"
    success: {logcat: {..., regex: "nextUserAlarmTime(.*?)${time.hhmm}:00"}}
    expert: [..., {set_time: {hour: "${time.hour}", minute: "${time.minute}"}}]
    setup: [{clock: {at: "2015-12-31 ${(time.hour + 3) % 24:02d}:00:00"}}]

A string that is one placeholder alone becomes the value itself (an int stays an int);
otherwise each placeholder is formatted into the text, with an optional format spec
after a colon. A placeholder is a small expression: names of parameters, attributes
(`time.hour`), integers and strings, `+ - * // %`, unary minus and indexing by a constant;
anything else is an error naming the field, never code that runs.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Any

from bmoca.tasks.spec import TaskError

_PLACEHOLDER = re.compile(r"\$\{([^{}]*)\}")


def fill(template: Any, values: Mapping[str, Any], where: str = "template") -> Any:
    """`template` (nested lists, mappings and strings) with every placeholder filled."""
    if isinstance(template, str):
        return _fill_text(template, values, where)
    if isinstance(template, Mapping):
        return {key: fill(value, values, f"{where}.{key}") for key, value in template.items()}
    if isinstance(template, list | tuple):
        return [fill(item, values, f"{where}[{i}]") for i, item in enumerate(template)]
    return template


def _fill_text(text: str, values: Mapping[str, Any], where: str) -> Any:
    whole = _PLACEHOLDER.fullmatch(text.strip())
    if whole is not None and ":" not in whole.group(1):
        return evaluate(whole.group(1), values, where)

    def one(match: re.Match) -> str:
        expr, _, spec = match.group(1).partition(":")
        value = evaluate(expr, values, where)
        try:
            return format(value, spec)
        except (TypeError, ValueError) as exc:
            raise TaskError(f"{where}: ${{{match.group(1)}}}: {exc}") from None

    return _PLACEHOLDER.sub(one, text)


_OPERATORS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
              ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
              ast.Mod: lambda a, b: a % b}


def evaluate(expr: str, values: Mapping[str, Any], where: str = "template") -> Any:
    """One placeholder's expression (see the module's docstring); TaskError if it is not
    one, or names what the family does not have."""
    try:
        tree = ast.parse(expr.strip(), mode="eval")
        return _eval(tree.body, values)
    except SyntaxError:
        raise TaskError(f"{where}: ${{{expr}}} is not an expression") from None
    except _Unsupported as exc:
        raise TaskError(f"{where}: ${{{expr}}}: {exc}") from None
    except (AttributeError, KeyError, IndexError, TypeError, ZeroDivisionError) as exc:
        raise TaskError(f"{where}: ${{{expr}}}: {type(exc).__name__}: {exc}") from None


class _Unsupported(Exception):
    pass


def _eval(node: ast.AST, values: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | str):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in values:
            raise _Unsupported(f"no parameter {node.id!r}; parameters are "
                               f"{', '.join(values) or 'none'}")
        return values[node.id]
    if isinstance(node, ast.Attribute) and not node.attr.startswith("_"):
        return getattr(_eval(node.value, values), node.attr)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_eval(node.left, values), _eval(node.right, values))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, values)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return _eval(node.value, values)[node.slice.value]
    raise _Unsupported(f"{type(node).__name__} is not allowed in a placeholder")
