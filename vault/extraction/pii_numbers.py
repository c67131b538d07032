"""Phone numbers, payment cards and IBANs in free text, validated by well-kept libraries.

Patterns only find where a number could be; whether it is one is the libraries' call:
- phone numbers: `phonenumbers` (Google's libphonenumber metadata) parses each digit run in
  international form (`+44 ...`, `0044 ...`) and in the national forms of `PHONE_REGIONS`; a
  run it calls a valid number there is a phone, whatever its separators (`07911123456`,
  `(212) 555-1234`, `030/1234567`). Runs it does not know are still a phone when they look
  like one to a person (a leading `+` or trunk `0`, punctuation between groups, 9+ digits
  in one run, or a phone word just before: `call`, `tel`, `mobile`, ...).
- cards: `stdnum.luhn` on 13-19 digits after separators are folded (any one to three
  characters that are neither letters nor digits between groups: `4111~1111~1111~1111`).
  Groups of fewer than four digits (`400 400 400 400`, training sets) count only after a card
  word (`card`, `visa`, `cc`, ...).
- IBANs: `stdnum.iban` (mod 97 and the country's length) after dots, dashes, slashes and
  spaces between groups are folded; any letter case.

Every function takes the *read* text (`vault.extraction.reading`) and returns (start, end)
spans in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import phonenumbers
from stdnum import iban as stdnum_iban
from stdnum import luhn
from stdnum.iso7064 import mod_97_10

# Where national formats are tried, in order. Each region costs one parse of a digit run (about
# 30 µs); text without a run of 7+ digits costs nothing.
PHONE_REGIONS = ("US", "GB", "DE", "FR", "ES", "IT", "NL", "IN", "AU", "BR", "PL", "IE")

# Regions whose numbers have no trunk prefix and 9 digits: a bare 9-digit run there is as often
# an order number or an id as a phone, so it counts only with separators or a phone word.
_SEPARATED_ONLY = frozenset({"ES", "IT", "PL"})

_RUN = re.compile(r"(?<![\d+])\+?\(?\d[\d().\-\t /]*\d")
_PHONE_WORD = re.compile(
    r"(?:\b(?:call|phone|tel|telephone|mobile|mob|cell|cellphone|fax|whatsapp|text|sms|ring"
    r"|number|no|num|contact|reach)\b\.?\s*(?:me\s+)?(?:at|on|is|:|#)?\s*)$",
    re.IGNORECASE,
)
# links that open a chat or a call with a number, written without its "+":
# "wa.me/447911123456", "tel:447911123456", "api.whatsapp.com/send?phone=447911123456"
_DIAL_LINK = re.compile(
    r"(?:\bwa\.me/|\b(?:tel|sms|callto|viber|whatsapp):(?://)?|[?&](?:phone|number|tel)=)$",
    re.IGNORECASE,
)
_DATE_LIKE = re.compile(r"^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$|^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$")
_YEAR_RANGE = re.compile(r"^(?:1[89]|20)\d\d ?- ?(?:1[89]|20)?\d\d$")


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


# Regions where mobile numbers are written without the trunk prefix: an Indian mobile is ten
# digits starting 6-9 ("9876543210"), rarely "09876543210".
_MOBILE_WITHOUT_TRUNK = frozenset({"IN"})
_MOBILE_TYPES = frozenset(
    {phonenumbers.PhoneNumberType.MOBILE, phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE}
)
# A word naming an identifier just before a digit run: the run is that id, not a phone
# ("activity 9123456789", "order #4155552671"), unless it is written in international form.
_ID_WORD = re.compile(
    r"\b(?:activity|activities|workout|segment|route|id|ids|ref|reference|order|invoice|ticket"
    r"|tracking|bib|isbn|session|strava|garmin)\b\s*(?:#|no\.?|number|id|:)?\s*$",
    re.IGNORECASE,
)


def _national_regions(digits: str) -> list[str]:
    """The regions whose national form `digits` can be: where numbers are dialled with a trunk
    prefix ("0" in most of Europe), a national number starts with it; without that rule German
    numbering alone would take "400 400 400 400 400" (a set of intervals) for a phone. Where
    mobiles are written without it (`_MOBILE_WITHOUT_TRUNK`), a mobile number may omit it."""
    regions = []
    for region in PHONE_REGIONS:
        metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
        if (
            metadata is not None
            and metadata.national_prefix == "0"
            and digits[:1] != "0"
            and region not in _MOBILE_WITHOUT_TRUNK
        ):
            continue
        regions.append(region)
    return regions


def _valid_national(value: str, digits: str, region: str) -> bool:
    number = phonenumbers.parse(value, region)
    if not phonenumbers.is_valid_number(number):
        return False
    if region in _MOBILE_WITHOUT_TRUNK and digits[:1] != "0":
        return phonenumbers.number_type(number) in _MOBILE_TYPES
    return True


def _calling_code_first(value: str, digits: str) -> bool:
    """A number written with its country calling code but no `+` ("91 98765 43210", "44 7911
    123456"): the first group is a calling code and the rest a valid number of that country."""
    first = re.match(r"\(?(\d{1,3})\)?[ .\-/]", value)
    if first is None or len(digits) < 10:
        return False
    code = int(first.group(1))
    if phonenumbers.region_code_for_country_code(code) == "ZZ":
        return False
    return phonenumbers.is_valid_number(phonenumbers.parse("+" + digits))


def _is_phone(value: str, before: str) -> bool:
    digits = _digits(value)
    if not 7 <= len(digits) <= 15 or _DATE_LIKE.match(value) or _YEAR_RANGE.match(value):
        return False
    dialled = _DIAL_LINK.search(before) is not None and not value.startswith(("+", "00"))
    international = value.startswith("+") or value.startswith("00") or dialled
    if not international and _ID_WORD.search(before[-30:]):
        return False
    try:
        if dialled:  # a link that dials: its digits are the whole international number
            number = phonenumbers.parse("+" + digits)
            if phonenumbers.is_valid_number(number):
                return True
        elif international:
            number = phonenumbers.parse("+" + digits[2:] if value.startswith("00") else value)
            if phonenumbers.is_possible_number(number):
                return True
        else:
            bare = value.isdigit()
            for region in _national_regions(digits):
                if bare and region in _SEPARATED_ONLY:
                    continue
                if _valid_national(value, digits, region):
                    return True
            if not bare and _calling_code_first(value, digits):
                return True
    except phonenumbers.NumberParseException:
        pass
    if _PHONE_WORD.search(before[-30:]):
        return True
    # a run libphonenumber does not know is a phone when it is shaped like one to a person:
    # a trunk 0 or a leading ( before the area code, or the 3-3-4 North American grouping;
    # not ranges ("130-140"), dates, scores or ISBNs
    shaped = value.startswith(("0", "(")) or re.fullmatch(r"\(?\d{3}\)?[-. ]\d{3}[-. ]\d{4}", value)
    return bool(shaped) and not re.fullmatch(r"\d{1,4}(?:\.\d{1,4})+", value)


def dialled(text: str, start: int) -> bool:
    """The digits at `start` follow a link that dials them ("wa.me/", "tel:", "?phone=")."""
    return _DIAL_LINK.search(text[max(0, start - 30) : start]) is not None


def phones(text: str) -> Iterator[tuple[int, int]]:
    for match in _RUN.finditer(text):
        value = match.group(0).rstrip(" \t(.-/")
        start, end = match.start(), match.start() + len(value)
        if (
            start
            and text[start - 1].isalpha()
            and not _PHONE_WORD.search(text[max(0, start - 30) : start] + " ")
        ):
            continue  # part of a word or a code ("A1234567"), not a number of its own
        if end < len(text) and (text[end].isalnum() or text[end] in ":_"):
            continue  # a time ("12:30"), a unit ("5000m"), or an identifier
        if start and text[start - 1] in ".:,/" and start > 1 and text[start - 2].isdigit():
            continue  # the tail of a decimal, a time or a path
        if _is_phone(value, text[max(0, start - 30) : start]):
            yield start, end


_GROUPS = re.compile(r"\d+(?:(?:[^\w\n]|_){1,3}\d+)*")
_CARD_WORD = re.compile(
    r"\b(?:card|cards|visa|mastercard|master card|amex|american express|maestro|discover"
    r"|cc|credit|debit|cvv|cvc)\b",
    re.IGNORECASE,
)


def cards(text: str) -> Iterator[tuple[int, int]]:
    for match in _GROUPS.finditer(text):
        groups = [
            (m.start() + match.start(), m.end() + match.start())
            for m in re.finditer(r"\d+", match.group(0))
        ]
        if sum(end - start for start, end in groups) < 13:
            continue
        cue = _CARD_WORD.search(text[max(0, match.start() - 40) : match.start()]) is not None
        yield from _card_windows(text, groups, cue)


def _card_windows(text: str, groups: list[tuple[int, int]], cue: bool) -> Iterator[tuple[int, int]]:
    """The longest runs of consecutive groups that form a Luhn-valid card number (a window
    never holds more than 19 digits, so a long list of numbers costs linear time)."""
    first = 0
    while first < len(groups):
        lasts, digits = [], ""
        for last in range(first, len(groups)):
            start, end = groups[last]
            digits += text[start:end]
            if len(digits) > 19:
                break
            lasts.append((last, digits))
        found = None
        for last, window in reversed(lasts):
            if len(window) < 13 or len(set(window)) == 1:
                continue
            sizes = [e - s for s, e in groups[first : last + 1]]
            if not cue and min(sizes[:-1] or sizes) < 4:
                continue
            if luhn.is_valid(window):
                found = last
                break
        if found is None:
            first += 1
            continue
        yield groups[first][0], groups[found][1]
        first = found + 1


_IBAN_START = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?:[ .\-_/]{0,2}[A-Za-z0-9]{1,4}){3,9}")


def _iban(compact: str) -> bool:
    """stdnum's IBAN check (mod 97 and the country's format), or, for a country whose format
    it does not know or a number typed with a wrong length for it, the mod-97 check alone
    (ISO 7064, what every IBAN carries): a checksum that holds is no accident, when the IBAN
    opens with a country's code."""
    if stdnum_iban.is_valid(compact):
        return True
    if not (15 <= len(compact) <= 34 and compact[:2].isalpha() and compact[2:4].isdigit()):
        return False
    if compact[:2] not in phonenumbers.SUPPORTED_REGIONS:
        return False  # no country: "AB123456 lol anyone" passes mod 97 once in 97 cuts
    moved = compact[4:] + compact[:4]
    return mod_97_10.is_valid("".join(str(int(ch, 36)) for ch in moved))


def ibans(text: str) -> Iterator[tuple[int, int]]:
    for match in _IBAN_START.finditer(text):
        value = match.group(0)
        cuts = [m.end() for m in re.finditer(r"[A-Za-z0-9]+", value)]
        for cut in reversed(cuts):
            compact = re.sub(r"[^A-Za-z0-9]", "", value[:cut]).upper()
            if len(compact) >= 15 and _iban(compact):
                yield match.start(), match.start() + cut
                break
