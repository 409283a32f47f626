"""The Calculator app, driven as an agent would: taps at element centres from the dump."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import bounds, launch
from nearmiss.calculator import COMPONENT, find, tap, type_keys

import bmoca.configs
import bmoca.device
from bmoca.sim.apps.calculator.formula import CalcError, evaluate, format_result
from bmoca.tasks import load_file


def calculator(config: str = "test_env_100"):
    return launch(COMPONENT, config)


def text_of(device, name: str) -> str | None:
    node = find(device, name)
    return None if node is None else node.get("text")


@pytest.fixture(scope="module")
def tasks():
    return load_file("bmoca/tasks/data/calculator.yaml")


@pytest.mark.parametrize("keys, formula, result", [
    ("1", "1", ""),
    ("1+1", "1+1", "2"),
    ("3×5", "3×5", "15"),
    ("2+24÷3", "2+24÷3", "10"),
    ("17×23", "17×23", "391"),
    ("50%28", "50%28", "14"),
    ("6!", "6!", "720"),
    ("√25", "√25", "5"),
    ("c180", "c180", "−1"),
    ("c60", "c60", "0.5"),
    ("l1234", "l1234", "7.11801620447"),
    ("10!÷(2!×8!)", "10!÷(2!×8!)", "45"),
    ("5!÷(2!×3!)", "5!÷(2!×3!)", "10"),
    ("0+1+1+2+3", "0+1+1+2+3", "7"),
    ("2+3+5+7+11", "2+3+5+7+11", "28"),
    ("45×π÷180", "45×π÷180", "0.785398163397"),
    ("(3×4×5)^(1÷3", "(3×4×5)^(1÷3", "3.91486764117"),
    ("2÷(1÷4+1÷5", "2÷(1÷4+1÷5", "4.44444444444"),
])
def test_task_formulas_and_results(keys, formula, result):
    device = calculator()
    type_keys(device, keys)
    assert text_of(device, "formula") == formula
    assert text_of(device, "result_preview") == result
    assert find(device, "result_final") is None
    if result:
        tap(device, "eq")
        assert text_of(device, "formula") == formula  # the formula stays after =
        assert text_of(device, "result_final") == result
        assert text_of(device, "result_preview") == ""


def test_task_file(tasks):
    assert len(tasks) == 19
    assert [t.id for t in tasks if t.representative] == ["calculator/input_'cos(180)'_in_Calculator"]


def test_clr_and_del():
    device = calculator()
    assert find(device, "clr") is not None and find(device, "del") is not None
    assert find(device, "clr").get("content-desc") == "clear"
    assert find(device, "del").get("content-desc") == "delete"
    type_keys(device, "12+3")
    tap(device, "del")
    assert text_of(device, "formula") == "12+"
    assert text_of(device, "result_preview") == ""  # a plain number has no live result
    type_keys(device, "4+")
    assert text_of(device, "result_preview") == "16"  # trailing operator ignored
    tap(device, "clr")
    assert text_of(device, "formula") == ""
    assert find(device, "clr") is not None  # always present
    type_keys(device, "1+2=")
    assert text_of(device, "result_final") == "3"
    type_keys(device, "×4")  # an operator carries the result on
    assert text_of(device, "formula") == "3×4"
    type_keys(device, "=5")  # a digit starts afresh
    assert text_of(device, "formula") == "5"


def hold(device, name: str) -> None:
    left, top, right, bottom = bounds(find(device, name))
    device.long_press((left + right) // 2, (top + bottom) // 2)


def test_holding_del_clears_and_holding_a_key_types_it():
    """Calculator.onLongClick: only DEL is long-clickable (holding it clears the formula);
    any other key clicks when the finger lifts."""
    device = calculator()
    assert find(device, "del").get("long-clickable") == "true"
    assert find(device, "digit_7").get("long-clickable") == "false"
    type_keys(device, "12+3")
    hold(device, "digit_7")
    assert text_of(device, "formula") == "12+37"
    hold(device, "del")
    assert text_of(device, "formula") == ""


@pytest.mark.parametrize("config", ["test_env_100", "test_env_108", "test_env_109"])
def test_the_formula_stays_on_screen_after_equals(config):
    """The final result takes the live result's slot, so even a 700 dpi phone's short
    display keeps the formula shown above it."""
    device = calculator(config)
    device.input_text("17*23")
    device.press("ENTER")
    assert text_of(device, "formula") == "17×23"
    assert text_of(device, "result_final") == "391"
    assert bounds(find(device, "formula"))[3] <= bounds(find(device, "result_final"))[1]


def test_input_rules():
    device = calculator()
    type_keys(device, "1..5")
    assert text_of(device, "formula") == "1.5"
    type_keys(device, "C×2+×3")
    assert text_of(device, "formula") == "2×3"  # no leading ×; × replaces +


def test_advanced_panel_by_arrow_and_by_swipe():
    device = calculator()
    assert find(device, "op_sqrt") is not None and find(device, "fun_cos") is None
    arrow = find(device, "collapse_expand")
    assert arrow.get("content-desc") == "Expand"
    tap(device, "collapse_expand")
    for name in ("toggle_inv", "toggle_mode", "fun_sin", "fun_cos", "fun_tan", "fun_ln",
                 "fun_log", "op_fact", "const_pi", "const_e", "op_pow", "op_sqrt", "lparen",
                 "rparen"):
        assert find(device, name) is not None, name
    assert find(device, "fun_cos").get("content-desc") == "cosine"
    assert find(device, "collapse_expand").get("content-desc") == "Collapse"
    tap(device, "collapse_expand")
    assert find(device, "fun_cos") is None
    pad = bounds(find(device, "pad_numeric"))
    y = (pad[1] + pad[3]) // 2
    device.swipe(pad[2] - 10, y, pad[0] + 10, y)
    assert find(device, "fun_cos") is not None
    device.swipe(pad[0] + 10, y, pad[2] - 10, y)
    assert find(device, "fun_cos") is None


def test_inverse_and_radians():
    device = calculator()
    tap(device, "collapse_expand")
    tap(device, "toggle_inv")
    assert find(device, "fun_sin") is None and find(device, "fun_arcsin") is not None
    tap(device, "fun_arcsin")
    type_keys(device, "1")
    assert text_of(device, "formula") == "S1"
    assert text_of(device, "result_preview") == "90"
    tap(device, "toggle_inv")
    type_keys(device, "C")
    assert text_of(device, "deg_rad") == "DEG"
    tap(device, "toggle_mode")
    assert text_of(device, "deg_rad") == "RAD"
    type_keys(device, "cπ")
    assert text_of(device, "result_preview") == "−1"


def test_division_by_zero_shows_the_error():
    device = calculator()
    type_keys(device, "1÷0")
    assert text_of(device, "result_preview") == ""
    tap(device, "eq")
    assert text_of(device, "result_final") == "Can't divide by 0"
    assert text_of(device, "formula") == "1÷0"
    type_keys(device, "D5")  # editing goes on from the formula
    assert text_of(device, "formula") == "1÷5"
    assert text_of(device, "result_preview") == "0.2"


@pytest.mark.parametrize("formula, value", [
    ("2×(3+4)", 14), ("2(3+4)", 14), ("(1+2)(3+4)", 21), ("((2+3)×2", 10), ("2π", 2 * np.pi),
    ("−2^2", -4), ("2^3^2", 512), ("100+10%", 100.1), ("√4^2", 4), ("3!!", 720), ("c0", 1),
    ("s30", 0.5), ("t45", 1), ("g1000", 3), ("le", 1), ("1.5E3+1", 1501),
])
def test_evaluation(formula, value):
    assert evaluate(formula) == pytest.approx(value)


@pytest.mark.parametrize("formula, kind", [
    ("1÷0", "zero"), ("1÷(2−2)", "zero"), ("√(−1)", "nan"), ("l0", "nan"), ("(−1)!", "nan"),
    ("2.5!", "nan"), ("t90", "nan"), ("171!", "overflow"), ("()", "syntax"), ("1)", "syntax"),
    ("×2", "syntax"), ("", "syntax"),
])
def test_evaluation_errors(formula, kind):
    with pytest.raises(CalcError) as info:
        evaluate(formula)
    assert info.value.kind == kind


def test_result_format():
    assert format_result(-1.0) == "−1"
    assert format_result(1e20) == "1E20"
    assert format_result(1.5e-7) == "1.5E−7"
    assert format_result(2432902008176640000.0) == "2.43290200818E18"
    assert format_result(0.1 + 0.2) == "0.3"


def test_arabic_configuration():
    device = calculator("test_env_109")
    assert find(device, "clr").get("content-desc") == "محو"
    # the keypad is not mirrored: 7 8 9 left to right
    xs = [bounds(find(device, f"digit_{d}"))[0] for d in (7, 8, 9)]
    assert xs == sorted(xs)
    type_keys(device, "c180")
    assert text_of(device, "formula") == "c180"
    assert text_of(device, "result_preview") == "−1"


def test_dark_theme_renders_differently():
    light = calculator()
    dark = calculator()
    out, code = dark.shell("cmd uimode night yes")
    assert code == 0, out
    dark.shell(f"am start -n {COMPONENT}")
    assert find(dark, "formula") is not None
    a, b = light.screenshot(), dark.screenshot()
    assert a.shape == b.shape
    assert np.abs(a.astype(int) - b.astype(int)).mean() > 20


def test_launch_logs_start_proc():
    device = bmoca.device.connect("sim", config=bmoca.configs.get("test_env_100"))
    device.shell(f"am start -n {COMPONENT}")
    log, _ = device.shell("logcat -d ActivityManager:I *:S")
    assert "Start proc" in log and "com.google.android.calculator" in log


# -- a keyboard: typed text and key events reach the calculator -----------------------------------

def _typed(*commands: str):
    """Open Calculator, then run `input text` / `input keyevent` commands."""
    def attempt(device):
        device.shell(f"am start -n {COMPONENT}")
        for command in commands:
            out, code = device.shell(f"input {command}")
            assert code == 0, out
    attempt.__name__ = " / ".join(commands)
    return attempt


def test_typed_text_and_keys_edit_and_evaluate_the_formula():
    device = calculator()
    device.shell("input text '12+3*4-6/2'")
    assert find(device, "formula").get("text") == "12+3×4−6÷2"
    device.shell("input keyevent KEYCODE_DEL KEYCODE_NUMPAD_3 KEYCODE_ENTER")
    assert find(device, "result_final").get("text") == "22"
    device.shell("input text '(2.5)^2='")                   # a typed operand starts anew
    assert find(device, "result_final").get("text") == "6.25"


@pytest.mark.parametrize("config", ["test_env_100", "test_env_109"])
def test_calculator_tasks_pass_by_typing_and_near_misses_fail(config):
    from conftest import run_attempts

    run_attempts("calculator/input_'17×23'_in_Calculator",
                 [_typed("text 17*23"), _typed("keyevent KEYCODE_1 KEYCODE_7 KEYCODE_STAR "
                                               "KEYCODE_2 KEYCODE_3")], expect=True, config=config)
    run_attempts("calculator/input_'17×23'_in_Calculator",
                 [_typed("text 17+23"), _typed("text 17*234", "keyevent KEYCODE_DEL KEYCODE_DEL")],
                 expect=False, config=config)
    run_attempts("calculator/compute_the_harmonic_mean_of_4_and_5_in_Calculator",
                 [_typed("text '2/(1/4+1/5)'", "keyevent KEYCODE_ENTER"),
                  _typed("text '2*4*5/(4+5)='")], expect=True, config=config)

    def typed_on_home(device):  # no window takes key events there: nothing is typed
        device.shell("input text 17*23")
        device.shell(f"am start -n {COMPONENT}")

    run_attempts("calculator/input_'17×23'_in_Calculator", [typed_on_home], expect=False,
                 config=config)
