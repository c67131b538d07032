"""Text as the privacy rules read it, with the way back to the text as written.

A person reads `4111\u200b1111`, `ana＠example．com` and `іgnоre` (Cyrillic і and о) as a card
number, an e-mail address and "ignore"; a pattern does not. `read(text)` gives the text the
patterns match (Unicode NFKC, format characters such as zero-width spaces and soft hyphens
removed, every space one space, every dash `-`, and letters that only look Latin folded to the
Latin letter) and, for each of its characters, where it came from in the text as written, so a
redaction replaces exactly what the writer typed and leaves every other character alone.

Confusable letters come from Unicode's confusables table (UTS #39) as the well-kept
`confusable_homoglyphs` package ships it; only letters whose look-alike is an ASCII letter are
folded (a Cyrillic `З` looks like the digit 3, but folding it would make numbers out of words).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

# Dashes and minus signs NFKC keeps apart: one hyphen-minus for the patterns.
_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")
# Apostrophes people type for a contraction ("password’s"): one ASCII apostrophe.
_APOSTROPHES = frozenset("\u2018\u2019\u02bc\u02b9\u2032\uff07")
_LATIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# Per character, not per text: bounded by the letters Unicode has, and never holds a text.
_FOLDED: dict[str, str] = {}


@dataclass(frozen=True)
class Reading:
    """`text` as read, and `origin[i]`: the index in the written text of `text[i]`."""

    text: str
    origin: tuple[int, ...] | None  # None: read == written (plain ASCII)
    written_length: int

    def written_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the written text that `text[start:end]` was read from."""
        if self.origin is None:
            return start, end
        begin = self.origin[start] if start < len(self.origin) else self.written_length
        if end <= start:
            return begin, begin
        last = self.origin[end - 1]
        # a written character that became several read ones ends after its last one
        return begin, last + 1


def _fold_letter(char: str) -> str:
    """The ASCII letter `char` is a look-alike of, or `char`."""
    found = _FOLDED.get(char)
    if found is not None:
        return found
    folded = char
    if char.isalpha():
        from confusable_homoglyphs import confusables  # only for text that is not ASCII

        hits = confusables.is_confusable(char, greedy=True, preferred_aliases=["latin"]) or []
        for hit in hits:
            for glyph in hit.get("homoglyphs", ()):
                if glyph["c"] in _LATIN:
                    folded = glyph["c"]
                    break
            if folded != char:
                break
    _FOLDED[char] = folded
    return folded


def read(text: str) -> Reading:
    """The text the privacy patterns match, with its way back (see the module docstring).

    Plain ASCII text is read as written (the common case costs nothing).
    """
    if text.isascii():
        return Reading(text, None, len(text))
    chars: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        for part in unicodedata.normalize("NFKC", char):
            category = unicodedata.category(part)
            if category == "Cf":
                continue
            if category in ("Zs", "Zl", "Zp"):
                part = " "
            elif part in _DASHES:
                part = "-"
            elif part in _APOSTROPHES:
                part = "'"
            elif not part.isascii() and category in ("Ll", "Lu", "Lt", "Lo"):
                part = _fold_letter(part)
            chars.append(part)
            origin.append(index)
    return Reading("".join(chars), tuple(origin), len(text))


def normalized(text: str) -> str:
    """`read(text).text`: idempotent; plain ASCII text is unchanged."""
    return read(text).text
