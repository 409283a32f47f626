"""Gboard's suggestion strip: three candidates for the word being typed, or, with no word
under way, the strip's tools (the features menu, clipboard, settings, voice typing).

Gboard predicts from its language model and what the user typed before; here the candidates
are completions of the word being typed from a fixed English word list ranked by frequency
(`WORDS`), the same on every run. Other languages show the typed word alone. The left slot
is the typed word as typed (in quotes when it is not a known word), the middle one the best
completion, the right one the next; tapping one replaces the word with it and a space.
"""

from __future__ import annotations

WORDS = tuple(dict.fromkeys((
    "the of and to in is you that it he was for on are as with his they at be this have "
    "from or one had by word but not what all were we when your can said there use an each "
    "which she do how their if will up other about out many then them these so some her "
    "would make like him into time has look two more write go see number no way could "
    "people my than first water been call who oil its now find long down day did get come "
    "made may part alarm airplane amazon android apple apps battery bluetooth brightness "
    "calendar call camera chrome clock contact contacts dark data display email find gmail "
    "google hello hi home image instagram internet location maps message messages mode "
    "morning music network news night note open phone photo photos picture play please "
    "restaurant search send settings share snapseed song sound text thanks timer today "
    "tomorrow video volume walmart weather wifi wikipedia youtube"
).split()))
_RANK = {word: i for i, word in enumerate(WORDS)}


def current_word(text: str) -> str:
    """The word being typed: the letters after the last space."""
    return text.rsplit(" ", 1)[-1] if text and not text.endswith(" ") else ""


def candidates(text: str, english: bool) -> list[str]:
    """The strip's three slots, left to right ("" for an empty slot); [] when no word is
    being typed (the strip shows its tools)."""
    word = current_word(text)
    if not word:
        return []
    if not english or not word.isalpha():
        return ["", word, ""]
    lowered = word.lower()
    completions = sorted((w for w in WORDS if w.startswith(lowered) and w != lowered),
                         key=_RANK.__getitem__)
    if word[0].isupper():
        completions = [w.capitalize() for w in completions]
    known = lowered in _RANK
    typed = word if known else f"\u201c{word}\u201d"
    middle = completions[0] if completions else (word if known else "")
    right = completions[1] if len(completions) > 1 else ""
    if middle == word:
        typed = ""
    return [typed, middle, right]


def accept(text: str, suggestion: str) -> str:
    """The field's text once `suggestion` replaces the word being typed (quotes dropped)."""
    word = current_word(text)
    chosen = suggestion.strip("\u201c\u201d")
    return text[: len(text) - len(word)] + chosen + " "
