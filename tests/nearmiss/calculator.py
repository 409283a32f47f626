"""Calculator: each formula task's near misses (the neighbouring digit, stopped one key short)
and other right paths (typed on the keyboard, a slip undone with DEL, cleared and retyped);
the two means by other formulas."""

from __future__ import annotations

from conftest import bounds, nodes

P = "com.google.android.calculator:id/"


COMPONENT = "com.google.android.calculator/com.android.calculator2.Calculator"


KEYS = {**{str(d): f"digit_{d}" for d in range(10)}, "+": "op_add", "−": "op_sub",
        "×": "op_mul", "÷": "op_div", "%": "op_pct", ".": "dec_point", "=": "eq",
        "!": "op_fact", "π": "const_pi", "√": "op_sqrt", "^": "op_pow", "(": "lparen",
        ")": "rparen", "c": "fun_cos", "l": "fun_ln", "e": "const_e", "s": "fun_sin",
        "t": "fun_tan", "g": "fun_log", "C": "clr", "D": "del", "R": "toggle_mode"}


def find(device, name: str):
    found = nodes(device.dump_hierarchy(), resource_id=P + name)
    return found[0] if found else None


def tap(device, name: str) -> None:
    node = find(device, name)
    if node is None and name in {"lparen", "rparen", "fun_cos", "fun_ln", "const_e", "fun_sin",
                                 "fun_tan", "fun_log", "toggle_mode", "toggle_inv"}:
        tap(device, "collapse_expand")
        node = find(device, name)
    assert node is not None, f"no {name} on screen"
    left, top, right, bottom = bounds(node)
    device.tap((left + right) // 2, (top + bottom) // 2)


def type_keys(device, keys: str) -> None:
    for key in keys:
        tap(device, KEYS[key])


ROWS: list = []
