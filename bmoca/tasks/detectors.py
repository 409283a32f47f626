"""Success detectors: small checks that read the phone only through the Device contract.

A task's success expression is a tree of these, written in its data file:

    logcat        a regex over log messages since the episode's reset, with a tag:priority filter
    ui            an attribute of a UI element, found by resource-id or a UiSelector-style match
    shell         a shell command's output, captured by a regex and compared
    sqlite        a query on an app database pulled from the phone
    shared_prefs  a key of an app's shared-preferences XML pulled from the phone
    answer        the agent's answer (the `answer` action), compared as text, number, set
                  or time of day (`bmoca.tasks.answers`)
    claimed       the agent's status claim: `complete` or `infeasible`
    all/any/not   combinators
    ever/never    over the episode: a part held at some step / at no step so far
    before        over the episode: [a, b], a held at a step no later than b first did

`shell` comparisons may refer to the value the command printed at reset (`"$reset"`), so a
task such as "increase the alarm volume" means "above its value at the start", whatever
the configuration's default is. Each check returns a verdict and a line of trace saying
what it saw, which the environment reports in `info["detector"]`.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bmoca.device.contract import Device, DeviceError
from bmoca.formats.hierarchy import parse as parse_dump
from bmoca.tasks import answers
from bmoca.tasks.answers import Claims

if TYPE_CHECKING:
    from lxml import etree

RESET = "$reset"
"""In a `shell` comparison: the value the command printed right after the reset."""

PRIORITIES = "VDIWEF"
_EPOCH_LINE = re.compile(r"^\s*\d+\.\d+\s+\d+\s+\d+\s+([VDIWEFS])\s+(.*?)\s*: (.*)$")


class DetectorError(ValueError):
    """A success expression that is malformed; the message names the offending field."""


@dataclass
class Verdict:
    ok: bool
    trace: list[str] = field(default_factory=list)
    parts: tuple[bool, ...] = ()
    """For `all`: whether each part holds (a long-horizon task's sub-goals)."""


class History:
    """The steps at which the parts of an episode's trajectory detectors first held. The
    environment keeps one per episode and moves `step` on before each check; a check
    outside an episode gets a fresh one, so `ever` means "now" there."""

    def __init__(self) -> None:
        self.step = 0
        self.first_held: dict[int, int] = {}

    def note(self, part: Detector, held: bool) -> int | None:
        """Record that `part` holds now (if it does); the step it first held, or None."""
        key = id(part)
        if held and key not in self.first_held:
            self.first_held[key] = self.step
        return self.first_held.get(key)

    def positions(self, root: Detector) -> tuple[tuple[int, int], ...]:
        """(position of the part in `root`'s pre-order walk, the step it first held): the
        record without object identities, to store it outside this process."""
        where = {id(part): n for n, part in enumerate(walk(root))}
        return tuple(sorted((where[key], step) for key, step in self.first_held.items()
                            if key in where))

    @classmethod
    def at(cls, root: Detector, step: int, positions: tuple[tuple[int, int], ...]) -> History:
        """The history `positions` stored, for the parts of `root` (the same expression)."""
        parts = walk(root)
        history = cls()
        history.step = step
        for position, first in positions:
            if not 0 <= position < len(parts):
                raise ValueError(f"history position {position} is outside the success "
                                 f"expression ({len(parts)} parts)")
            history.first_held[id(parts[position])] = first
        return history


def walk(root: Detector) -> list[Detector]:
    """`root` and its parts in pre-order, each object once."""
    seen: dict[int, Detector] = {}
    stack = [root]
    while stack:
        part = stack.pop()
        if id(part) not in seen:
            seen[id(part)] = part
            stack.extend(reversed(part.children()))
    return list(seen.values())


class Probe:
    """What detectors may look at during one check, read lazily and at most once."""

    def __init__(self, device: Device, reset_values: Mapping[str, str] | None = None,
                 hierarchy: str | None = None, claims: Claims | None = None,
                 history: History | None = None):
        self.device = device
        self.reset_values = dict(reset_values or {})
        self.claims = claims or Claims()
        """What the agent has said in the episode (none when judged outside one)."""
        self.history = history if history is not None else History()
        """When the parts of trajectory detectors held (a fresh one: only this check)."""
        self._hierarchy = hierarchy
        self._root: etree._Element | None = None
        self._logcat: dict[str, list[tuple[str, str, str]]] = {}

    def hierarchy(self) -> etree._Element:
        if self._root is None:
            if self._hierarchy is None:
                self._hierarchy = self.device.dump_hierarchy()
            self._root = parse_dump(self._hierarchy)
        return self._root

    def log_messages(self, filter_spec: str) -> list[tuple[str, str, str]]:
        """(priority, tag, message) of every line since the reset that passes `TAG:P`."""
        if filter_spec not in self._logcat:
            out, code = self.device.shell(f"logcat -d -v epoch -s {filter_spec}")
            if code != 0:
                raise DeviceError(f"logcat failed ({code}): {out.strip()}")
            lines = []
            for line in out.splitlines():
                m = _EPOCH_LINE.match(line)
                if m:
                    lines.append((m.group(1), m.group(2), m.group(3)))
            self._logcat[filter_spec] = lines
        return self._logcat[filter_spec]

    def shell(self, cmd: str) -> str:
        out, _code = self.device.shell(cmd)
        return out


class Detector:
    """A node of a success expression."""

    def check(self, probe: Probe) -> Verdict:
        raise NotImplementedError

    def capture(self, probe: Probe, into: dict[str, str]) -> None:
        """Record what this detector needs from the state at reset (only `shell` needs any)."""

    def children(self) -> tuple[Detector, ...]:
        """The detectors this one combines (none for a primitive)."""
        return ()

    def describe(self) -> str:
        raise NotImplementedError


# -- primitives --------------------------------------------------------------------------


@dataclass
class Logcat(Detector):
    """B-MoCA's log detector: `re.match` on the message part of lines passing `filter`."""

    filter: str
    regex: str

    def __post_init__(self) -> None:
        tag, sep, prio = str(self.filter).rpartition(":")
        if not isinstance(self.filter, str) or not sep or not tag or len(prio) != 1 \
                or prio not in PRIORITIES:
            raise DetectorError(f"logcat.filter must be TAG:P with P one of {PRIORITIES}, "
                                f"got {self.filter!r}")
        self._pattern = _compile(self.regex, "logcat.regex")

    def check(self, probe: Probe) -> Verdict:
        tag = self.filter.rpartition(":")[0]
        lines = [m for m in probe.log_messages(self.filter) if m[1] == tag]
        for _prio, _tag, message in lines:
            if self._pattern.match(message):
                return Verdict(True, [f"{self.describe()}: matched {message!r}"])
        return Verdict(False, [f"{self.describe()}: no match in {len(lines)} line(s)"])

    def describe(self) -> str:
        return f"logcat[{self.filter}] /{self.regex}/"


_UI_ATTRS = {
    "text": "text", "content-desc": "content-desc", "resource-id": "resource-id",
    "class": "class", "checked": "checked", "selected": "selected", "enabled": "enabled",
    "focused": "focused", "clickable": "clickable", "checkable": "checkable",
    "displayed": None,  # Appium: present in the dump means displayed
}
_SELECTORS = {"id": "resource-id", "text": "text", "desc": "content-desc", "class": "class"}


@dataclass
class Ui(Detector):
    """An element found by resource-id (`id`) or a UiSelector-style match, and one attribute.

    `by` is id | text | text_contains | text_matches | desc | desc_contains | class.
    Without a comparison the element only has to exist. With `count`, exactly that many
    elements must be picked (and pass the comparison, if one is given): the tabs of
    Chrome's tablet tab strip, which has no count of its own.
    """

    by: str
    value: str
    attr: str = "text"
    equals: str | None = None
    startswith: str | None = None
    contains: str | None = None
    matches: str | None = None
    strip_spaces: bool = False
    """Compare with spaces removed (the dialer's contact name vs. a formatted number)."""
    count: int | str | None = None
    """Exactly this many elements must be picked; a digit string (a family's filled-in
    placeholder) is read as its number."""

    def __post_init__(self) -> None:
        # a UI attribute is text: a number written in YAML (or a family's placeholder that
        # fills in an int) is compared as the text it reads as
        for name in ("value", "equals", "startswith", "contains"):
            value = getattr(self, name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                setattr(self, name, str(value))
        if self.count is not None:
            if isinstance(self.count, bool) or not isinstance(self.count, int | str) or not (
                    str(self.count).isdigit()):
                raise DetectorError(f"ui.count must be a whole number, got {self.count!r}")
            self.count = int(self.count)
        base = str(self.by).split("_")[0]
        if base not in _SELECTORS or self.by not in (base, f"{base}_contains", f"{base}_matches"):
            raise DetectorError(f"ui.by must be one of id, text, text_contains, text_matches, "
                                f"desc, desc_contains, desc_matches, class; got {self.by!r}")
        if self.attr not in _UI_ATTRS:
            raise DetectorError(f"ui.attr {self.attr!r} unknown; one of {', '.join(_UI_ATTRS)}")
        if self.matches is not None:
            _compile(self.matches, "ui.matches")
        if self.by.endswith("_matches"):
            _compile(self.value, "ui.value")

    def _selected(self, root: etree._Element) -> list[etree._Element]:
        """The nodes `by` and `value` pick, in document order. The attribute and the kind
        of match are worked out once per check, not once per node (a check visits every
        node of the dump, and `validate` checks after every step)."""
        key = _SELECTORS[self.by.split("_")[0]]
        value = self.value
        if self.by.endswith("_contains"):
            return [n for n in root.iter("node") if value in n.get(key, "")]
        if self.by.endswith("_matches"):
            fullmatch = re.compile(value).fullmatch
            return [n for n in root.iter("node") if fullmatch(n.get(key, "")) is not None]
        return [n for n in root.iter("node") if n.get(key, "") == value]

    def _passes(self, node: etree._Element) -> tuple[bool, str]:
        actual = "true" if self.attr == "displayed" else node.get(self.attr, "")
        if self.strip_spaces:
            actual = actual.replace(" ", "")
        return ((self.equals is None or actual == self.equals)
                and (self.startswith is None or actual.startswith(self.startswith))
                and (self.contains is None or self.contains in actual)
                and (self.matches is None or re.search(self.matches, actual) is not None),
                actual)

    def check(self, probe: Probe) -> Verdict:
        root = probe.hierarchy()
        nodes = self._selected(root)
        if self.count is not None:
            found = sum(1 for node in nodes if self._passes(node)[0])
            return Verdict(found == self.count,
                           [f"{self.describe()}: {found} element(s)"])
        if not nodes:
            return Verdict(False, [f"{self.describe()}: no such element"])
        comparisons = (self.equals, self.startswith, self.contains, self.matches)
        if all(c is None for c in comparisons):
            return Verdict(True, [f"{self.describe()}: element exists"])
        seen = []
        for node in nodes:
            passed, actual = self._passes(node)
            seen.append(actual)
            if passed:
                return Verdict(True, [f"{self.describe()}: {self.attr}={actual!r}"])
        return Verdict(False, [f"{self.describe()}: {self.attr} was {seen!r}"])

    def describe(self) -> str:
        want = " ".join(f"{k}={v!r}" for k, v in (("equals", self.equals), (
            "startswith", self.startswith), ("contains", self.contains),
            ("matches", self.matches)) if v is not None)
        if self.count is not None:
            want = f"{want} count={self.count}".lstrip()
        return f"ui[{self.by}={self.value!r}].{self.attr} {want}".rstrip()


_COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "equals": lambda a, b: a == b,
    "not_equals": lambda a, b: a != b,
    "greater": lambda a, b: a > b,
    "less": lambda a, b: a < b,
    "at_least": lambda a, b: a >= b,
    "at_most": lambda a, b: a <= b,
}


@dataclass
class Shell(Detector):
    """Run `cmd`, take the first group of `regex` (or the whole match) and compare it.

    Operands are compared as numbers when both parse as numbers, else as strings. An
    operand `"$reset"` is the value captured by the same command right after the reset.
    """

    cmd: str
    regex: str = r"^(.*)$"
    compare: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._pattern = _compile(self.regex, "shell.regex", flags=re.MULTILINE)
        if not isinstance(self.compare, Mapping):
            raise DetectorError(f"shell.compare must be a mapping such as {{greater: $reset}}, "
                                f"got {self.compare!r}")
        unknown = set(self.compare) - set(_COMPARISONS)
        if unknown:
            raise DetectorError(f"shell comparison {sorted(unknown)} unknown; "
                                f"use {', '.join(_COMPARISONS)}")

    @property
    def key(self) -> str:
        return f"shell:{self.cmd}"

    def _read(self, probe: Probe) -> str | None:
        m = self._pattern.search(probe.shell(self.cmd))
        if not m:
            return None
        value = m.group(1) if m.groups() else m.group(0)
        return None if value is None else value.strip()

    def capture(self, probe: Probe, into: dict[str, str]) -> None:
        if RESET in (str(v) for v in self.compare.values()):
            value = self._read(probe)
            if value is None:
                raise DeviceError(f"at reset `{self.cmd}` printed nothing matching /{self.regex}/")
            into[self.key] = value

    def check(self, probe: Probe) -> Verdict:
        value = self._read(probe)
        if value is None:
            return Verdict(False, [f"{self.describe()}: output did not match /{self.regex}/"])
        for op, operand in self.compare.items():
            target = probe.reset_values.get(self.key) if str(operand) == RESET else str(operand)
            if target is None:
                return Verdict(False, [f"{self.describe()}: no value recorded at reset"])
            a, b = _coerce(value), _coerce(target)
            if type(a) is not type(b):
                a, b = str(a), str(b)
            if not _COMPARISONS[op](a, b):
                return Verdict(False, [f"{self.describe()}: {value} is not {op} {target}"])
        return Verdict(True, [f"{self.describe()}: {value}"])

    def describe(self) -> str:
        cmp = " ".join(f"{k} {v}" for k, v in self.compare.items())
        return f"shell[{self.cmd}] {cmp}".rstrip()


@dataclass
class SqliteRow(Detector):
    """Pull the database at `path`, run `query`; succeed when it returns at least one row
    (or none, with `expect: none`). Parameters are bound, never formatted in."""

    path: str
    query: str
    params: Sequence[Any] = ()
    expect: str = "rows"

    def __post_init__(self) -> None:
        if self.expect not in ("rows", "none"):
            raise DetectorError(f"sqlite.expect must be 'rows' or 'none', got {self.expect!r}")
        if not isinstance(self.query, str) or not self.query.lstrip().lower().startswith("select"):
            raise DetectorError("sqlite.query must be a SELECT")

    def check(self, probe: Probe) -> Verdict:
        try:
            data = probe.device.pull(self.path)
        except DeviceError as exc:
            return Verdict(False, [f"{self.describe()}: cannot pull ({exc})"])
        try:
            rows = _select(data, self.query, tuple(self.params))
        except sqlite3.DatabaseError as exc:
            return Verdict(False, [f"{self.describe()}: {exc}"])
        ok = bool(rows) if self.expect == "rows" else not rows
        return Verdict(ok, [f"{self.describe()}: {len(rows)} row(s)"])

    def describe(self) -> str:
        return f"sqlite[{self.path}] {self.query} -> {self.expect}"


def _select(data: bytes, query: str, params: tuple) -> list:
    """Run `query` on a pulled database file, read from memory rather than written to a
    temporary file: the same rows and the same errors, without the disk. A write-ahead-log
    file is read as a rollback-journal one (its -wal file is not pulled either way)."""
    if len(data) >= 20 and data[18:20] == b"\x02\x02":
        data = data[:18] + b"\x01\x01" + data[20:]
    conn = sqlite3.connect(":memory:")
    try:
        if data:  # an empty file is an empty database; deserialize refuses zero bytes
            conn.deserialize(data)
        return conn.execute(query, params).fetchall()
    finally:
        conn.close()


@dataclass
class SharedPref(Detector):
    """An entry of an Android shared-preferences file: `<element name=...>` and its
    `value` attribute (booleans, ints) or its text (strings)."""

    path: str
    name: str
    element: str = "string"
    equals: str | None = None
    text_equals: str | None = None

    def check(self, probe: Probe) -> Verdict:
        from lxml import etree

        try:
            root = etree.fromstring(probe.device.pull(self.path))
        except (DeviceError, etree.XMLSyntaxError) as exc:
            return Verdict(False, [f"{self.describe()}: cannot read ({exc})"])
        for node in root.iter(self.element):
            if node.get("name") != self.name:
                continue
            value, text = node.get("value"), node.text or ""
            ok = ((self.equals is None or value == self.equals)
                  and (self.text_equals is None or text == self.text_equals))
            return Verdict(ok, [f"{self.describe()}: value={value!r} text={text!r}"])
        return Verdict(False, [f"{self.describe()}: no <{self.element} name={self.name!r}>"])

    def describe(self) -> str:
        return f"shared_prefs[{self.path}] {self.element} {self.name}"


@dataclass
class Answer(Detector):
    """The agent's last answer gives `equals` under `compare` (`bmoca.tasks.answers`); or,
    with `read` ({cmd, regex}), gives what the regex captures from a shell command's output
    on the phone: a reference the configuration decides (About phone's model is
    `getprop ro.product.model`), which no instance's parameters know."""

    equals: Any = None
    compare: str = "text"
    tolerance: float = 0.0
    among: list[Any] | None = None
    """For `set`: every item an answer could name (then a sentence naming some counts)."""
    read: Mapping[str, str] | None = None

    def __post_init__(self) -> None:
        if (self.equals is None) == (self.read is None):
            raise DetectorError("answer takes one of equals or read")
        if self.read is not None:
            if not isinstance(self.read, Mapping) or set(self.read) != {"cmd", "regex"}:
                raise DetectorError("answer.read takes {cmd, regex}")
            self._read_regex = _compile(self.read["regex"], "answer.read.regex", re.MULTILINE)
        if self.among is not None and (self.compare != "set" or not isinstance(
                self.among, list | tuple) or not self.among):
            raise DetectorError("answer.among goes with compare: set, as a non-empty list")
        if self.compare not in answers.COMPARISONS:
            raise DetectorError(f"answer.compare must be one of "
                                f"{', '.join(answers.COMPARISONS)}, got {self.compare!r}")
        if not isinstance(self.tolerance, int | float) or self.tolerance < 0:
            raise DetectorError(f"answer.tolerance must be a number >= 0, got {self.tolerance!r}")

    @property
    def key(self) -> str:
        return f"answer:{self.read['cmd']}" if self.read is not None else ""

    def _reference(self, probe: Probe) -> str | None:
        found = self._read_regex.search(probe.shell(self.read["cmd"]))
        return None if found is None else found.group(1).strip()

    def capture(self, probe: Probe, into: dict[str, str]) -> None:
        """The phone's reference is read once, at reset (the configuration fixes it), not
        by a shell command at every judged step."""
        if self.read is not None:
            value = self._reference(probe)
            if value is None:
                raise DeviceError(f"at reset `{self.read['cmd']}` printed nothing matching "
                                  f"/{self.read['regex']}/")
            into[self.key] = value

    def check(self, probe: Probe) -> Verdict:
        given = probe.claims.answer
        expected = self.equals
        if self.read is not None:
            expected = probe.reset_values.get(self.key)
            if expected is None:  # judged outside an episode: read it now
                expected = self._reference(probe)
            if expected is None:
                return Verdict(False, [f"{self.describe()}: {self.read['cmd']!r} printed no match"])
        ok = answers.matches(given, expected, self.compare, self.tolerance, self.among)
        said = "no answer" if given is None else f"answered {given!r}"
        if self.read is not None:
            said += f", the phone's is {expected!r}"
        return Verdict(ok, [f"{self.describe()}: {said}"])

    def describe(self) -> str:
        within = f" within {self.tolerance:g}" if self.tolerance else ""
        wanted = f"read by {self.read['cmd']!r}" if self.read is not None else repr(self.equals)
        return f"answer {self.compare} {wanted}{within}"


@dataclass
class Claimed(Detector):
    """The agent's status claim is `status` (`complete` or `infeasible`)."""

    status: str

    def __post_init__(self) -> None:
        if self.status not in ("complete", "infeasible"):
            raise DetectorError(f"claimed.status must be complete or infeasible, "
                                f"got {self.status!r}")

    def check(self, probe: Probe) -> Verdict:
        said = probe.claims.status
        return Verdict(said == self.status, [f"{self.describe()}: the agent claimed {said}"])

    def describe(self) -> str:
        return f"claimed {self.status}"


# -- combinators ---------------------------------------------------------------------------


@dataclass
class All(Detector):
    """True when every part is; every part is checked, so the trace shows them all."""

    parts: list[Detector]
    word = "all"

    def check(self, probe: Probe) -> Verdict:
        trace, held = [], []
        for part in self.parts:
            verdict = part.check(probe)
            trace += verdict.trace
            held.append(verdict.ok)
        return Verdict(all(held), trace, tuple(held))

    def capture(self, probe: Probe, into: dict[str, str]) -> None:
        for part in self.parts:
            part.capture(probe, into)

    def children(self) -> tuple[Detector, ...]:
        return tuple(self.parts)

    def describe(self) -> str:
        return f"{self.word}(" + ", ".join(p.describe() for p in self.parts) + ")"


@dataclass
class Any_(All):
    """True when one part is; stops at the first that is."""

    word = "any"

    def check(self, probe: Probe) -> Verdict:
        trace = []
        for part in self.parts:
            verdict = part.check(probe)
            trace += verdict.trace
            if verdict.ok:
                return Verdict(True, trace)
        return Verdict(False, trace)


@dataclass
class Not(Detector):
    part: Detector

    def check(self, probe: Probe) -> Verdict:
        verdict = self.part.check(probe)
        return Verdict(not verdict.ok, [f"not: {line}" for line in verdict.trace])

    def capture(self, probe: Probe, into: dict[str, str]) -> None:
        self.part.capture(probe, into)

    def children(self) -> tuple[Detector, ...]:
        return (self.part,)

    def describe(self) -> str:
        return f"not({self.part.describe()})"


@dataclass
class Ever(Detector):
    """`part` held at some step of the episode so far (checked at every step)."""

    part: Detector
    word = "ever"

    def _first(self, probe: Probe) -> tuple[int | None, list[str]]:
        verdict = self.part.check(probe)
        return probe.history.note(self.part, verdict.ok), verdict.trace

    def check(self, probe: Probe) -> Verdict:
        first, trace = self._first(probe)
        said = "never held" if first is None else f"first held at step {first}"
        return Verdict(first is not None, [f"{self.word}: {said}; now: {line}" for line in trace])

    def capture(self, probe: Probe, into: dict[str, str]) -> None:
        self.part.capture(probe, into)

    def children(self) -> tuple[Detector, ...]:
        return (self.part,)

    def describe(self) -> str:
        return f"{self.word}({self.part.describe()})"


@dataclass
class Never(Ever):
    """`part` held at no step of the episode so far: a rule about the path."""

    word = "never"

    def check(self, probe: Probe) -> Verdict:
        verdict = super().check(probe)
        return Verdict(not verdict.ok, verdict.trace)


@dataclass
class Before(Detector):
    """`first` held at a step no later than the one at which `then` first held."""

    first: Detector
    then: Detector

    def check(self, probe: Probe) -> Verdict:
        a = self.first.check(probe)
        b = self.then.check(probe)
        at_a = probe.history.note(self.first, a.ok)
        at_b = probe.history.note(self.then, b.ok)
        ok = at_a is not None and at_b is not None and at_a <= at_b
        return Verdict(ok, [f"before: first at step {at_a}, then at step {at_b}",
                            *a.trace, *b.trace])

    def capture(self, probe: Probe, into: dict[str, str]) -> None:
        self.first.capture(probe, into)
        self.then.capture(probe, into)

    def children(self) -> tuple[Detector, ...]:
        return (self.first, self.then)

    def describe(self) -> str:
        return f"before({self.first.describe()}, {self.then.describe()})"


# -- parsing -------------------------------------------------------------------------------

_PRIMITIVES: dict[str, type[Detector]] = {
    "logcat": Logcat, "ui": Ui, "shell": Shell, "sqlite": SqliteRow, "shared_prefs": SharedPref,
    "answer": Answer, "claimed": Claimed,
}


_COMBINATORS = ("all", "any", "not", "ever", "never", "before")


def parse(spec: Any, where: str = "success") -> Detector:
    """Build a detector from its data form; errors name the path inside the expression."""
    if not isinstance(spec, Mapping) or len(spec) != 1:
        raise DetectorError(f"{where}: expected a mapping with one key (one of "
                            f"{', '.join([*_PRIMITIVES, *_COMBINATORS])}), got {spec!r}")
    (kind, body), = spec.items()
    if kind in ("all", "any"):
        if not isinstance(body, list) or not body:
            raise DetectorError(f"{where}.{kind}: expected a non-empty list")
        parts = [parse(p, f"{where}.{kind}[{i}]") for i, p in enumerate(body)]
        return All(parts) if kind == "all" else Any_(parts)
    if kind == "not":
        return Not(parse(body, f"{where}.not"))
    if kind in ("ever", "never"):
        part = parse(body, f"{where}.{kind}")
        return Ever(part) if kind == "ever" else Never(part)
    if kind == "before":
        if not isinstance(body, list) or len(body) != 2:
            raise DetectorError(f"{where}.before: expected [first, then], two detectors")
        return Before(parse(body[0], f"{where}.before[0]"), parse(body[1], f"{where}.before[1]"))
    cls = _PRIMITIVES.get(kind)
    if cls is None:
        raise DetectorError(f"{where}: unknown detector {kind!r}; use "
                            f"{', '.join([*_PRIMITIVES, *_COMBINATORS])}")
    if not isinstance(body, Mapping):
        raise DetectorError(f"{where}.{kind}: expected a mapping of fields, got {body!r}")
    try:
        return cls(**body)
    except TypeError as exc:
        fields = ", ".join(f.name for f in cls.__dataclass_fields__.values())
        raise DetectorError(f"{where}.{kind}: {exc}; fields are {fields}") from None
    except DetectorError as exc:
        raise DetectorError(f"{where}.{kind}: {exc}") from None


def _compile(pattern: str, what: str, flags: int = 0) -> re.Pattern:
    try:
        return re.compile(pattern, flags)
    except re.error as exc:
        raise DetectorError(f"{what} is not a valid regex ({exc}): {pattern!r}") from None


def _coerce(value: str) -> float | str:
    try:
        return float(value)
    except ValueError:
        return value
