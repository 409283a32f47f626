"""Calculator's formula: what the display holds and how it evaluates.

The formula is kept as the text the app reports (`formula`): functions read back as one
letter followed by an implicit open parenthesis (`c180` is cos(180), `l1234` is ln(1234)),
operators as `×`, `÷`, `−` (U+2212), `%`, `^`, `!`, `√`, constants as `π`, `e`. It is
evaluated by a small recursive-descent parser (no eval()): degrees by default, postfix
`!` and `%` (`50%28` is 0.5 × 28), implicit multiplication, unclosed parentheses closed
at the end. `result_preview` shows the live result, `=` moves it to `result_final`.
"""

from __future__ import annotations

import math

MINUS = "\u2212"

FUNCTIONS = {"s": "sin", "c": "cos", "t": "tan", "S": "asin", "C": "acos", "T": "atan",
             "l": "ln", "g": "log"}
"""Formula letter -> function; each letter carries an implicit open parenthesis."""
BINARY = "+" + MINUS + "×÷^"
OPENERS = BINARY + "√(" + "".join(FUNCTIONS)
"""Characters after which the formula is incomplete (trimmed for the live result)."""
STARTS = "0123456789.πe(√" + "".join(FUNCTIONS)
"""Characters that start an operand (implicit multiplication before them)."""


# -- evaluation -------------------------------------------------------------------------


class CalcError(ValueError):
    """kind: "zero" (division by zero), "nan" (domain), "syntax", "overflow"."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


class _Parser:
    def __init__(self, formula: str, degrees: bool):
        self.s = formula
        self.i = 0
        self.degrees = degrees

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def take(self) -> str:
        c = self.peek()
        self.i += 1
        return c

    def parse(self) -> float:
        if not self.s:
            raise CalcError("syntax")
        value = self.expr()
        if self.i != len(self.s):
            raise CalcError("syntax")
        return _finite(value)

    def expr(self) -> float:
        value = self.term()
        while self.peek() in ("+", MINUS):
            op = self.take()
            right = self.term()
            value = value + right if op == "+" else value - right
        return value

    def term(self) -> float:
        value = self.signed()
        while True:
            c = self.peek()
            if c in ("×", "÷"):
                self.take()
                right = self.signed()
                if c == "÷":
                    if right == 0:
                        raise CalcError("zero")
                    value /= right
                else:
                    value *= right
            elif c and c in STARTS:
                value *= self.signed()
            else:
                return _finite(value)

    def signed(self) -> float:
        c = self.peek()
        if c == MINUS:
            self.take()
            return -self.signed()
        if c == "√":
            self.take()
            value = self.signed()
            if value < 0:
                raise CalcError("nan")
            return math.sqrt(value)
        return self.power()

    def power(self) -> float:
        base = self.postfix()
        if self.peek() != "^":
            return base
        self.take()
        exponent = self.signed()
        if base == 0 and exponent < 0:
            raise CalcError("zero")
        if base < 0 and exponent != int(exponent):
            raise CalcError("nan")
        try:
            return _finite(math.pow(base, exponent))
        except OverflowError:
            raise CalcError("overflow") from None

    def postfix(self) -> float:
        value = self.primary()
        while self.peek() in ("!", "%"):
            if self.take() == "%":
                value /= 100
                continue
            if value < 0 or abs(value - round(value)) > 1e-9:
                raise CalcError("nan")
            if value > 170:
                raise CalcError("overflow")
            value = float(math.factorial(round(value)))
        return value

    def primary(self) -> float:
        c = self.peek()
        if c.isdigit() or c == ".":
            start = self.i
            while self.peek().isdigit() or self.peek() == ".":
                self.take()
            if self.peek() == "E":  # a result carried on after `=`: 1.5E20
                self.take()
                if self.peek() == MINUS:
                    self.take()
                while self.peek().isdigit():
                    self.take()
            digits = self.s[start:self.i]
            if digits.count(".") > 1:
                raise CalcError("syntax")
            try:
                return float(digits.replace(MINUS, "-")) if digits != "." else 0.0
            except ValueError:
                raise CalcError("syntax") from None
        if c == "π":
            self.take()
            return math.pi
        if c == "e":
            self.take()
            return math.e
        if c == "(" or c in FUNCTIONS:
            self.take()
            value = self.expr()
            if self.peek() == ")":
                self.take()
            elif self.peek():
                raise CalcError("syntax")
            return value if c == "(" else self.function(FUNCTIONS[c], value)
        raise CalcError("syntax")

    def function(self, name: str, x: float) -> float:
        if name in ("sin", "cos", "tan"):
            return _trig(name, x, self.degrees)
        if name in ("asin", "acos", "atan"):
            if name != "atan" and not -1 <= x <= 1:
                raise CalcError("nan")
            y = getattr(math, name)(x)
            return _snap(math.degrees(y) if self.degrees else y)
        if x <= 0:
            raise CalcError("nan")
        return math.log(x) if name == "ln" else math.log10(x)


def _finite(value: float) -> float:
    if math.isnan(value):
        raise CalcError("nan")
    if math.isinf(value):
        raise CalcError("overflow")
    return value


def _snap(value: float) -> float:
    """Drop the last bits of floating-point noise (cos 60° is 0.5, sin 180° is 0)."""
    return 0.0 if abs(value) < 1e-14 else round(value, 14)


def _trig(name: str, x: float, degrees: bool) -> float:
    if degrees:
        turn = x % 360
        if name == "sin" and turn in (0, 180):
            return 0.0
        if name in ("cos", "tan") and turn in (90, 270):
            if name == "tan":
                raise CalcError("nan")
            return 0.0
        if name == "tan" and turn in (0, 180):
            return 0.0
        x = math.radians(x)
    return _snap(getattr(math, name)(x))


def evaluate(formula: str, degrees: bool = True) -> float:
    """The value of a formula in the app's notation; raises CalcError."""
    return _Parser(formula, degrees).parse()


def format_result(value: float) -> str:
    """As the result display shows it: up to 12 significant digits, `E` exponents, U+2212."""
    if value == 0:
        return "0"
    text_ = f"{abs(value):.12g}"
    if "e" in text_:
        mantissa, exponent = text_.split("e")
        text_ = f"{mantissa}E{int(exponent)}"
    return (MINUS if value < 0 else "") + text_.replace("-", MINUS)


def trimmed(formula: str) -> str:
    """The formula without its trailing operators and open functions."""
    while formula and formula[-1] in OPENERS:
        formula = formula[:-1]
    return formula


def preview(formula: str, degrees: bool) -> str:
    """The live result: shown once the formula is more than a plain number."""
    body = trimmed(formula)
    if not body or all(c.isdigit() or c == "." for c in body):
        return ""
    try:
        return format_result(evaluate(body, degrees))
    except CalcError:
        return ""
