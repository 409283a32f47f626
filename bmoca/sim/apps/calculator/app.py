"""Calculator (`com.google.android.calculator`): the Pixel calculator's display and keypads.

The formula and its evaluation are in `formula.py`.

Layout: the display, a row of scientific keys with the panel's expand arrow
(`collapse_expand`), two more rows of scientific keys when the panel is open (the arrow,
or a left swipe on the keypad, opens it; a right swipe closes it), then the numeric pad.
As in Android's calculator the keypad is never mirrored: digits keep their LTR layout in
right-to-left languages.
"""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, App, Context, Swipe
from bmoca.sim.apps.calculator.formula import (
    BINARY,
    FUNCTIONS,
    MINUS,
    OPENERS,
    CalcError,
    evaluate,
    format_result,
    preview,
    trimmed,
)
from bmoca.sim.ui.view import MATCH, WRAP, View, column, frame, row, text

PACKAGE = "com.google.android.calculator"
ACTIVITY = "com.android.calculator2.Calculator"


def cid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


TYPED_OPERANDS = {**{d: d for d in "0123456789"}, ".": ".", ",": ".", "(": "(", "e": "e",
                  "E": "e", "p": "π", "P": "π", "π": "π"}
"""KeyMaps.keyForChar for characters that start or continue an operand."""
TYPED_OPERATORS = {"+": "+", "-": MINUS, "*": "×", "/": "÷", ")": ")", "^": "^", "!": "!",
                   "%": "%"}
"""KeyMaps.keyForChar for the operators: `*` and `/` are the × and ÷ keys."""


PHONE_ADVANCED_ROWS = (("sqrt", "pi", "pow", "fact", "expand"),
                       ("mode", "sin", "cos", "tan", "inv"),
                       ("lparen", "rparen", "ln", "log", "e"))
"""The phone's advanced keys: the first row always, the other two when the drawer is open."""
TABLET_ADVANCED_ROWS = (("inv", "mode", ""), ("sin", "cos", "tan"), ("ln", "log", "fact"),
                        ("pi", "e", "pow"), ("lparen", "rparen", "sqrt"))
"""The sw600dp panel, three keys a row as the app's large-screen layout has it (its empty
cell is where that layout's % sits; this app's % is on the numeric pad)."""


# -- the activity ------------------------------------------------------------------------


class Calculator(Activity):
    def __init__(self, intent):
        super().__init__(intent)
        self.formula = ""
        self.result = ""
        """What `result_final` shows after `=` (a value or an error), else empty."""
        self.error = False
        self.degrees = True
        self.inverse = False
        self.expanded = False

    # -- input ------------------------------------------------------------------------
    def _fresh(self) -> None:
        """A key that starts an operand after `=` starts a new formula."""
        if self.result and not self.error:
            self.formula = ""
        self.result, self.error = "", False

    def operand(self, chars: str) -> None:
        self._fresh()
        if chars == ".":
            number = ""
            for c in reversed(self.formula):
                if not (c.isdigit() or c == "."):
                    break
                number = c + number
            if "." in number:
                return
        self.formula += chars

    def operator(self, op: str) -> None:
        if self.result and not self.error:
            self.formula = self.result
        self.result, self.error = "", False
        if op in BINARY and op != MINUS:
            if not self.formula or self.formula[-1] in "(√" + "".join(FUNCTIONS):
                return
            while self.formula and self.formula[-1] in BINARY:
                self.formula = self.formula[:-1]
        elif op == MINUS and self.formula.endswith(("+", MINUS)):
            self.formula = self.formula[:-1]
        elif op in "!%" and (not self.formula or self.formula[-1] in OPENERS):
            return
        self.formula += op

    def delete(self) -> None:
        self.result, self.error = "", False
        self.formula = self.formula[:-1]

    def clear(self) -> None:
        self.formula, self.result, self.error = "", "", False

    def equals(self) -> None:
        body = trimmed(self.formula)
        if not body or self.result:
            return
        try:
            self.result, self.error = format_result(evaluate(body, self.degrees)), False
        except CalcError as exc:
            self.result, self.error = f"calc.error.{exc.kind}", True

    # -- a keyboard ---------------------------------------------------------------------
    def on_key_char(self, ctx: Context, char: str) -> bool:
        """Calculator.onKeyUp: a typed character is the key KeyMaps.keyForChar names, `=`
        evaluates; whitespace and characters that name no key are dropped."""
        if char == "=":
            self.equals()
        elif char in TYPED_OPERANDS:
            self.operand(TYPED_OPERANDS[char])
        elif char in TYPED_OPERATORS:
            self.operator(TYPED_OPERATORS[char])
        return True

    def on_key(self, ctx: Context, key: str) -> bool:
        """ENTER evaluates and DEL deletes, as the `=` and delete keys do."""
        if key == "ENTER":
            self.equals()
        elif key == "DEL":
            self.delete()
        return True

    # -- views ------------------------------------------------------------------------
    def on_swipe(self, ctx: Context, swipe: Swipe) -> bool:
        if swipe.direction in ("left", "right") and not ctx.system.sw600dp:
            self.expanded = swipe.direction == "left"
            return True
        return False

    def build(self, ctx: Context) -> View:
        colors = _colors(ctx.theme.dark)
        rtl = ctx.rtl
        shown_result = ctx.t(self.result) if self.error else self.result
        live = "" if self.result else preview(self.formula, self.degrees)
        end = "start" if rtl else "end"  # numbers stay right-aligned in every language
        display = column(
            row(text(ctx.t("calc.deg") if self.degrees else ctx.t("calc.rad"), id=cid("deg_rad"),
                     text_size=14, text_color=colors["muted"], width=MATCH, align=end),
                text("INV" if self.inverse else "", id=cid("inv_indicator"), text_size=14,
                     text_color=colors["muted"], visible=self.inverse, width=60),
                height=28, padding=(16, 4, 16, 0), mirror=False),
            View(cls="android.widget.HorizontalScrollView", id=cid("formula_container"),
                 width=MATCH, height=0, weight=1, children=[
                     text(self.formula, cls="android.widget.TextView", id=cid("formula"),
                          text_size=48 if not self.result else 30, width=MATCH, height=MATCH,
                          min_text_size=20,
                          text_color=colors["text"] if not self.result else colors["muted"],
                          align=end, padding=(16, 0, 16, 0), text_direction="ltr",
                          include_font_padding=False),
                 ]),
            # the final result takes the live result's place (one slot, as in the app): the
            # formula keeps its room above it, even on a 700 dpi phone's short display
            frame(text(live, id=cid("result_preview"), text_size=30, text_color=colors["muted"],
                       width=MATCH, height=56, align=end, padding=(16, 0, 16, 0),
                       text_direction="ltr", include_font_padding=False),
                  text(shown_result, id=cid("result_final"), text_size=48, width=MATCH, height=72,
                       text_color=colors["error"] if self.error else colors["text"], align=end,
                       padding=(16, 0, 16, 0), visible=bool(self.result), text_direction="ltr",
                       include_font_padding=False),
                  cls="", width=MATCH, height=WRAP),
            cls="android.widget.LinearLayout", id=cid("display"), width=MATCH, height=0,
            weight=0.9 if not self.expanded else 0.7, bg=colors["display"], elevation=4,
            padding=(0, 8, 0, 8),
        )
        if ctx.system.sw600dp:  # the pads side by side, no drawer to slide
            numeric = self._numeric(ctx, colors)
            numeric.width, numeric.height, numeric.weight = 0, MATCH, 4
            pad = row(numeric, self._advanced(ctx, colors, tablet=True),
                      cls="android.widget.LinearLayout", id=cid("pad_pager"), width=MATCH,
                      height=0, weight=1.6, mirror=False)
        else:
            pad = column(self._advanced(ctx, colors), self._numeric(ctx, colors),
                         cls="android.widget.LinearLayout", id=cid("pad_pager"), width=MATCH,
                         height=0, weight=1.6, on_swipe=lambda s: self.on_swipe(ctx, s))
        return column(display, pad, cls="android.widget.LinearLayout", id=cid("main_calculator"),
                      width=MATCH, height=MATCH, bg=colors["display"])

    def _key(self, ctx: Context, name: str, label: str, desc: str, action, colors: dict,
             fg: str = "key_text", size: float = 30, weight: float = 1.0, icon: str | None = None,
             cls: str = "android.widget.Button", held=None) -> View:
        """A key (PadButtonStyle: no font padding, as the display's DisplayTextStyle);
        `held` is what a long press does (only DEL has one: other keys are not
        long-clickable, so on Android a long press on them clicks when the finger lifts)."""
        def tapped() -> None:
            action()

        return View(cls=cls, id=cid(name), text=label, desc=desc, clickable=True,
                    focusable=True, width=0, weight=weight, height=MATCH, text_size=size,
                    text_color=colors[fg], align="center", on_click=tapped, icon=icon,
                    icon_color=colors[fg], icon_size=26, long_clickable=held is not None,
                    on_long_click=held, include_font_padding=False)

    def _advanced_keys(self, ctx: Context, colors: dict) -> dict[str, View]:
        """The advanced panel's keys by the phone's layout name (`sin` is `fun_sin` or, with
        INV, `fun_arcsin`): the phone's drawer and the tablet's panel arrange the same keys."""
        t = ctx.t

        def k(name, label, desc_key, action, size=22, **kw):
            return self._key(ctx, name, label, t(desc_key), action, colors, fg="adv_text",
                             size=size, **kw)

        def fun(letter):
            return lambda: self.operand(letter)

        inv = self.inverse
        return {
            "sqrt": k("op_sqrt", "√", "calc.sqrt", lambda: self.operand("√")),
            "pi": k("const_pi", "π", "calc.pi", lambda: self.operand("π")),
            "pow": k("op_pow", "^", "calc.power", lambda: self.operator("^")),
            "fact": k("op_fact", "!", "calc.factorial", lambda: self.operator("!")),
            "mode": k("toggle_mode", t("calc.rad") if self.degrees else t("calc.deg"),
                      "calc.to_rad" if self.degrees else "calc.to_deg", self._toggle_mode,
                      size=18),
            "sin": k("fun_arcsin" if inv else "fun_sin", "sin⁻¹" if inv else "sin",
                     "calc.arcsin" if inv else "calc.sin", fun("S" if inv else "s"), size=18),
            "cos": k("fun_arccos" if inv else "fun_cos", "cos⁻¹" if inv else "cos",
                     "calc.arccos" if inv else "calc.cos", fun("C" if inv else "c"), size=18),
            "tan": k("fun_arctan" if inv else "fun_tan", "tan⁻¹" if inv else "tan",
                     "calc.arctan" if inv else "calc.tan", fun("T" if inv else "t"), size=18),
            "inv": k("toggle_inv", "INV", "calc.inv_hide" if inv else "calc.inv_show",
                     self._toggle_inv, size=18),
            "lparen": k("lparen", "(", "calc.lparen", lambda: self.operand("(")),
            "rparen": k("rparen", ")", "calc.rparen", lambda: self.operator(")")),
            "ln": k("fun_exp" if inv else "fun_ln", "eˣ" if inv else "ln",
                    "calc.exp" if inv else "calc.ln", fun("e^") if inv else fun("l"), size=18),
            "log": k("fun_10pow" if inv else "fun_log", "10ˣ" if inv else "log",
                     "calc.10pow" if inv else "calc.log", fun("10^") if inv else fun("g"),
                     size=18),
            "e": k("const_e", "e", "calc.e", lambda: self.operand("e")),
        }

    def _advanced(self, ctx: Context, colors: dict, tablet: bool = False) -> View:
        keys = self._advanced_keys(ctx, colors)
        if tablet:  # layout-sw600dp: the whole panel, three keys a row, always shown
            grid = TABLET_ADVANCED_ROWS
            for key in keys.values():  # the pad is layoutDirection="ltr": "(" stays "("
                key.text_direction = "ltr"
        else:
            grid = PHONE_ADVANCED_ROWS[:3 if self.expanded else 1]
            keys["expand"] = self._key(
                ctx, "collapse_expand", "",
                ctx.t("calc.collapse") if self.expanded else ctx.t("calc.expand"),
                self._toggle_panel, colors, fg="adv_text",
                icon="expand_less" if self.expanded else "expand_more",
                cls="android.widget.ImageButton")
        rows = [row(*[keys[name] if name else View(cls="", width=0, weight=1, height=MATCH)
                      for name in names], height=0, weight=1, mirror=False) for names in grid]
        panel = column(*rows, cls="android.widget.LinearLayout", id=cid("pad_advanced"),
                       width=MATCH, height=0, weight=len(rows) * 0.75, bg=colors["advanced"],
                       padding=(8, 4, 8, 4))
        if tablet:
            panel.width, panel.height, panel.weight = 0, MATCH, 3
            panel.padding = (8, 8, 8, 8)
        return panel

    def _numeric(self, ctx: Context, colors: dict) -> View:
        t = ctx.t

        def digit(n: str) -> View:
            return self._key(ctx, f"digit_{n}", n, n, lambda: self.operand(n), colors)

        def op(name, label, desc_key, action, fg="op_text", **kw):
            return self._key(ctx, name, label, t(desc_key), action, colors, fg=fg, **kw)

        digits = column(
            row(op("clr", "AC", "calc.clear", self.clear, fg="op_text", size=24),
                op("op_pct", "%", "calc.percent", lambda: self.operator("%")),
                # Calculator.onLongClick: holding DEL clears the whole formula
                op("del", "", "calc.delete", self.delete, icon="backspace",
                   cls="android.widget.ImageButton", held=self.clear),
                height=0, weight=1, mirror=False),
            *[row(*[digit(str(n)) for n in r], height=0, weight=1, mirror=False)
              for r in ((7, 8, 9), (4, 5, 6), (1, 2, 3))],
            row(self._key(ctx, "digit_0", "0", "0", lambda: self.operand("0"), colors, weight=2),
                op("dec_point", ".", "calc.point", lambda: self.operand("."), fg="key_text"),
                height=0, weight=1, mirror=False),
            cls="android.widget.LinearLayout", id=cid("pad_numeric"), width=0, weight=3,
            height=MATCH, bg=colors["numeric"], padding=(8, 8, 0, 8))
        operators = column(
            op("op_div", "÷", "calc.divide", lambda: self.operator("÷")),
            op("op_mul", "×", "calc.multiply", lambda: self.operator("×")),
            op("op_sub", MINUS, "calc.minus", lambda: self.operator(MINUS)),
            op("op_add", "+", "calc.plus", lambda: self.operator("+")),
            # Android 10's Calculator (7.x) keeps "=" in the operator column like the other
            # operators; the round accent "=" belongs to a later design generation
            frame(op("eq", "=", "calc.equals", self.equals, fg="eq_text"),
                  cls="android.widget.FrameLayout", width=MATCH, height=0, weight=1),
            cls="android.widget.LinearLayout", id=cid("pad_operator"), width=0, weight=1,
            height=MATCH, bg=colors["operator"], padding=(0, 8, 8, 8))
        for child in operators.children[:4]:
            child.width, child.height, child.weight = MATCH, 0, 1
        eq = operators.children[4].children[0]
        eq.width, eq.height, eq.weight = MATCH, MATCH, 0
        return row(digits, operators, cls="android.widget.LinearLayout", width=MATCH, height=0,
                   weight=5, mirror=False)

    def _toggle_panel(self) -> None:
        self.expanded = not self.expanded

    def _toggle_mode(self) -> None:
        self.degrees = not self.degrees

    def _toggle_inv(self) -> None:
        self.inverse = not self.inverse


def _colors(dark: bool) -> dict:
    if dark:
        return {"display": (32, 33, 36), "text": (232, 234, 237), "muted": (154, 160, 166),
                "error": (242, 139, 130), "numeric": (41, 42, 45), "operator": (53, 54, 58),
                "advanced": (32, 61, 58), "key_text": (232, 234, 237),
                "op_text": (138, 180, 248), "adv_text": (128, 203, 196), "eq_text": (138, 180, 248)}
    return {"display": (255, 255, 255), "text": (32, 33, 36), "muted": (95, 99, 104),
            "error": (217, 48, 37), "numeric": (67, 67, 67), "operator": (99, 99, 99),
            "advanced": (29, 233, 182), "key_text": (255, 255, 255),
            "op_text": (255, 255, 255), "adv_text": (33, 33, 33),
            "eq_text": (255, 255, 255)}


class CalculatorApp(App):
    package = PACKAGE
    label_key = f"app.{PACKAGE}"
    uid = 10104
    activities = {ACTIVITY: Calculator}
