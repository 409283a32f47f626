"""Calculator: each formula task's near misses (the neighbouring digit, stopped one key short)
and other right paths (typed on the keyboard, a slip undone with DEL, cleared and retyped);
the two means by other formulas."""

from __future__ import annotations

from conftest import bounds, nodes

from nearmiss.common import fails, passes, shell, start
from nearmiss.launches import open_app_rows

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



def keyed(keys: str):
    """Open the app and tap the keys (by resource-id)."""
    def play(device) -> None:
        start(device, COMPONENT)
        type_keys(device, keys)
    return play


TYPED = str.maketrans({"×": "*", "÷": "/", "−": "-"})


def typed(keys: str, enter: bool = False):
    """Open the app and type on the hardware keyboard instead of tapping buttons."""
    def play(device) -> None:
        start(device, COMPONENT)
        shell(device, f"input text '{keys.translate(TYPED)}'")
        if enter:
            shell(device, "input keyevent KEYCODE_ENTER")
    return play


def neighbour(keys: str) -> str:
    """The same keys with the last digit one higher."""
    i = max(i for i, ch in enumerate(keys) if ch.isdigit())
    return keys[:i] + str((int(keys[i]) + 1) % 10) + keys[i + 1:]


# task -> the keys of its formula (c: cos, l: ln; the expert's `=` where it has one)
FORMULAS = {
    "compute_50%_of_28_('50%28')": "50%28=", "input_'1+1'": "1+1",
    "input_'10!÷(2!x8!)'": "10!÷(2!×8!)", "input_'17×23'": "17×23", "input_'2+24÷3'": "2+24÷3",
    "input_'3×5'": "3×5", "input_'5!÷(2!x3!)'": "5!÷(2!×3!)", "input_'cos(180)'": "c180",
    "input_'cos(60)'": "c60", "input_'ln(1234)'": "l1234", "input_1": "1",
    "input_factorial_of_6": "6!", "input_square_root_of_25": "√25",
    "input_the_formula_for_computing_sum_of_the_first_5_Fibonacci_numbers": "1+1+2+3+5",
    "input_the_formula_for_computing_sum_of_the_first_5_prime_numbers": "2+3+5+7+11",
    "input_the_formula_for_converting_45_degrees_to_radians_('45xπ÷180')": "45×π÷180",
}
KEYBOARD = set("0123456789+×÷−().!%")


def formula_rows(task_id: str, keys: str) -> list:
    body = keys.rstrip("=")
    rows = [fails(task_id, "neighbouring_digit", keyed(neighbour(keys))),
            fails(task_id, "one_key_short", keyed(body[:-1] + keys[len(body):])),
            passes(task_id, "slip_at_the_end_deleted", keyed(body + "7D" + keys[len(body):])),
            passes(task_id, "slip_at_the_start_deleted", keyed("9×DD" + keys))]
    if set(body) <= KEYBOARD:
        rows.append(passes(task_id, "typed_on_the_keyboard", typed(body)))
    return rows


def task(name: str) -> str:
    return f"calculator/{name}_in_Calculator"


GEO = task("compute_the_geometric_mean_of_3,_4,_and_5")
HARM = task("compute_the_harmonic_mean_of_4_and_5")

ROWS = [
    *open_app_rows("calculator/open_Calculator", "com.google.android.calculator",
                   "com.google.android.deskclock"),
    *[row for name, keys in FORMULAS.items() for row in formula_rows(task(name), keys)],
    fails(task("input_'17×23'"), "operands_swapped", keyed("23×17")),
    fails(task("input_'2+24÷3'"), "the_neighbouring_operator", keyed("2+24×3")),
    fails(GEO, "arithmetic_mean", keyed("(3+4+5)÷3=")),
    fails(GEO, "square_root_not_cube_root", keyed("(3×4×5)^(1÷2)=")),
    passes(GEO, "cube_root_of_60_typed", typed("60^(1/3)", enter=True)),
    passes(GEO, "the_preview_without_equals", keyed("(3×4×5)^(1÷3)")),
    fails(HARM, "arithmetic_mean", keyed("(4+5)÷2=")),
    fails(HARM, "the_neighbouring_number", keyed("2÷(1÷4+1÷6)=")),
    passes(HARM, "two_ab_over_a_plus_b", keyed("2×4×5÷(4+5)=")),
    passes(HARM, "typed_on_the_keyboard", typed("2/(1/4+1/5)", enter=True)),
]
