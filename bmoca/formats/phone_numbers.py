"""Phone numbers as the Android 10 dialer shows them, region US.

The dialpad's `digits` field reformats the whole input after every key, the way
libphonenumber's AsYouTypeFormatter does for the US (through Android's
PhoneNumberFormattingTextWatcher), and the in-call screen shows that text unchanged
(PhoneNumberUtils.formatNumber returns a number that already holds separators as it is).
The rules below reproduce that formatter's results for the US metadata of the Android 10
era and the B-MoCA reference table (`223-4458`, `(264) 451-193`, `1234578`, ...):

- formatting starts once four digits are typed (three digits are shown as typed);
- a number that starts with 2-9 is a local number `NXX-XXXX` up to seven digits, then
  an area-code number `(NPA) NXX-XXXX`, filled in as the digits come (`(264) 451-193`);
- N11 service codes (`311311`, `411`, `911`) and numbers that start with 0 or 11 match no
  US pattern and stay as typed (`11489`);
- a leading trunk prefix `1` followed by 2-9 is set apart (`1 `); the local pattern is not
  used after it, and the rest is grouped only once it is a full ten-digit number
  (`1 202-456-1111`; `1234578` shows as `1 234578`);
- more digits than a pattern holds, or any `*`, `#`, `+`, `,` or `;`, turn formatting off:
  the input is shown exactly as typed.
"""

from __future__ import annotations

import re

DIALABLE = "0123456789*#+,;"
"""Characters a dial string may hold (PhoneNumberUtils.isDialable, with pause and wait)."""

EMERGENCY_NUMBERS = ("911", "112")
"""The emergency numbers of a US emulator with a SIM (ril.ecclist)."""


def digits_of(text: str) -> str:
    """The dial string in a formatted number: drops spaces, dashes and parentheses."""
    return "".join(c for c in text if c in DIALABLE)


def is_phone_number(text: str) -> bool:
    """Whether a label is a bare phone number (apps wrap those in an LTR bidi span, so
    `(650) 555-0101` is not reordered in Arabic or Urdu)."""
    stripped = text.strip()
    return bool(digits_of(stripped)) and all(c in DIALABLE or c in " ()-" for c in stripped)


def number_direction(text: str) -> str:
    """The android:textDirection a label gets: "ltr" for a bare phone number, else ""."""
    return "ltr" if is_phone_number(text) else ""


def _local(digits: str) -> str:
    """A number that starts with 2-9 and has no trunk prefix (4-10 digits)."""
    if len(digits) <= 7:
        return f"{digits[:3]}-{digits[3:]}"
    area, rest = digits[:3], digits[3:]
    return f"({area}) {rest[:3]}-{rest[3:]}" if len(rest) > 3 else f"({area}) {rest}"


def format_as_you_type(text: str) -> str:
    """What the dialpad shows after `text` has been typed (its separators are ignored)."""
    dial = digits_of(text)
    if not dial or any(not c.isdigit() for c in dial):
        return dial
    if len(dial) < 4:
        return dial
    if dial[0] == "1" and dial[1] not in "01":
        national = dial[1:]
        if len(national) == 10 and national[1:3] != "11":
            return f"1 {national[:3]}-{national[3:6]}-{national[6:]}"
        return dial if len(national) > 10 else f"1 {national}"
    if dial[0] in "01" or dial[1:3] == "11" or len(dial) > 10:
        return dial
    return _local(dial)


def is_emergency(number: str) -> bool:
    """PhoneNumberUtils.isEmergencyNumber for the US: an exact match of the dial string."""
    return digits_of(number) in EMERGENCY_NUMBERS


def tel_uri_number(uri: str) -> str:
    """The number in a `tel:` URI (`tel:202-456-1111` -> `202-456-1111`), percent-decoded."""
    body = uri[4:] if uri.lower().startswith("tel:") else uri
    return re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), body)
