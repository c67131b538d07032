"""Where personal data sits in a text, by kind: the finders every privacy rule shares.

`find(text)` reads the text first (`vault.extraction.reading`: NFKC, format characters gone,
look-alike letters folded) and returns `Span`s in that read text, earliest first, one per piece:
email, credential, url, card, iban, birthdate, document, phone, address, name. Which kinds a
field may hold, and whether a hit refuses or redacts, is the caller's rule
(`vault.extraction.privacy`).

Every pattern starts only where a token starts and every repetition is bounded, so a hostile
20,000-character message costs linear time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from vault.extraction import pii_numbers
from vault.extraction.clauses import KNOWN_WORDS


@dataclass(frozen=True)
class Span:
    """Where a piece of personal data sits in a (read) text, and what kind it is."""

    kind: str
    start: int
    end: int


# -- e-mail addresses, also spelled with words: "ana at example dot com", "ana(at)example.com"
_AT_WORD = r"(?:\s*@\s*|\s*[\(\[\{<]\s*at\s*[\)\]\}>]\s*|\s+at\s+)"
_DOT_WORD = r"(?:\s*[\(\[\{<]\s*dot\s*[\)\]\}>]\s*|\s+dot\s+)"
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}\s?@\s?[\w-]{1,63}(?:\s?\.\s?[\w-]{1,63}){1,4}")
_EMAIL_WORDS = re.compile(
    rf"(?<![\w.+-])[\w.+-]{{1,64}}{_AT_WORD}[\w-]{{1,63}}(?:(?:{_DOT_WORD}|\.)[\w-]{{1,63}}){{1,4}}",
    re.IGNORECASE,
)
_TLDS = frozenset(
    """
    com org net edu gov io co uk de fr es it nl be ch at se no dk fi pl pt ie eu us ca au nz in
    br mx ru jp cn me info biz app dev ai ly tv xyz online mail email gmail
    """.split()  # noqa: SIM905 - a word list reads better as text
)


_AT_OR_DOT_WORD = re.compile(r"\b(?:at|dot)\b", re.IGNORECASE)


# Where "name at host.com" is an address, not a website ("my blog at myruns.io")
_MAIL_HOSTS = frozenset(
    """
    gmail googlemail yahoo hotmail outlook live msn icloud me mac proton protonmail pm gmx web
    aol mail email yandex zoho fastmail hey tutanota posteo orange free btinternet comcast
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_AT_SPLIT = re.compile(_AT_WORD, re.IGNORECASE)
# Words before a bare " at " that say where, not whose mailbox ("my blog at myruns.io").
_NOT_A_MAILBOX = frozenset(
    """
    blog site website web page shop store me us him her them you it this that home work school
    online app out up look looking check one is are am was were be been live lives living
    stay stayed meet meeting work works worked job run runs ran found find available open
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_SPELLED = re.compile(r"[\(\[\{<]\s*(?:at|dot)|\bdot\b", re.IGNORECASE)


def _emails(text: str) -> list[Span]:
    spans = []
    if "@" in text:
        spans = [
            Span("email", m.start(), m.end())
            for m in _EMAIL.finditer(text)
            if _attached(m.group(0))
        ]
    lowered = text.lower()
    if ("at" not in lowered and "dot" not in lowered) or _AT_OR_DOT_WORD.search(text) is None:
        return spans
    for match in _EMAIL_WORDS.finditer(text):
        written = match.group(0)
        if re.split(r"\W+", written.rstrip())[-1].lower() not in _TLDS:
            continue
        local, host = _AT_SPLIT.split(written, maxsplit=1)
        host_words = {w.lower() for w in re.split(r"\W+", host) if w}
        # "ana at example dot com", "ana(at)example.com", "ana at example.org" are addresses;
        # "my blog at myruns.io", "find me at myruns.io" name a website
        if (
            _SPELLED.search(written)
            or host_words & _MAIL_HOSTS
            or (len(local) > 1 and local.lower() not in _NOT_A_MAILBOX)
        ):
            spans.append(Span("email", match.start(), match.end()))
    return spans


def _attached(written: str) -> bool:
    """An address, unless it is a handle after a word: "my insta is @ana.k88" has a space
    before its "@", none after it, and no mail domain's ending; "ana @acme-corp.com", "ana @
    gmail.com" and "ana@ outlook.com" are addresses (an "@name.de" handle is taken for one:
    the safer mistake)."""
    before, _, host = written.partition("@")
    if not before[-1:].isspace() or host[:1].isspace():
        return True
    labels = [w.lower() for w in re.split(r"\W+", host) if w]
    return bool(labels) and (labels[-1] in _TLDS or bool(set(labels) & _MAIL_HOSTS))


# -- links
_LINK = re.compile(r"(?<![\w./@-])(?:[a-z][a-z0-9+.-]{1,20}://|www\.)[^\s<>\"\]]+", re.IGNORECASE)
_DOMAIN = re.compile(r"(?<![\w.@-])[\w-]+(?:\.[\w-]+)+(?:/[^\s<>\"]*)?")
_WEB_TLDS = frozenset("com org net io co uk de fr es it nl app me ly ai dev".split())  # noqa: SIM905
_TRAILING = ".,;:!?)]'"


_DOTTED = re.compile(r"\w\.[A-Za-z]")


def _urls(text: str) -> list[Span]:
    if "://" not in text and _DOTTED.search(text) is None:
        return []
    spans = [
        Span("url", m.start(), m.start() + len(m.group(0).rstrip(_TRAILING)))
        for m in _LINK.finditer(text)
    ]
    for match in _DOMAIN.finditer(text):
        value = match.group(0).rstrip(_TRAILING)
        host = value.split("/", 1)[0]
        if host.rsplit(".", 1)[-1].lower() in _WEB_TLDS and not host.replace(".", "").isdigit():
            spans.append(Span("url", match.start(), match.start() + len(value)))
    return spans


# -- credentials: the value after a secret's name ("password's hunter2", "PIN - 4821")
_PASSWORD = r"(?:pass ?words?|passcodes?|passphrases?|passwd|pwd|pw|pass)"
_ACCOUNT = (
    r"(?:log-?ins?|user ?names?|user ?ids?|api[ _-]?keys?|secret(?: key)?|access (?:key|token)"
    r"|auth(?:entication)? tokens?|tokens?|security (?:code|answer)|cvv|cvc)"
)
_PIN = r"(?:pin codes?|pin numbers?|pin nos?|pins?)"
# What stands between a secret's name and its value: a verb or a contraction ("'s", "is",
# "it's", "it is"), a mark (":", "=", "-", "->"), each a whole word, after an optional
# qualifier naming what the secret is for ("the password for TrainingPeaks - it's ...",
# "the pin to the locker is ...").
_QUALIFIER = (
    r"(?:\s+(?:for|to|of|on)(?:\s+(?:the|my|our|your))?\s+[\w.-]{1,40}"
    r"(?:\s+(?!(?:is|was|are|were|it'?s)\b)[\w.-]{1,40})?)?"
)
_GLUE = r"(?:\s*(?:'s\b|\b(?:it'?s|it is|is|was|are|were)\b|=>|=|:|-+>?)\s*){1,3}"
_CREDENTIAL = re.compile(
    rf"\b(?P<word>{_PASSWORD}|{_ACCOUNT}|{_PIN})\b{_QUALIFIER}(?P<glue>{_GLUE}|\s+)"
    rf"(?P<value>[\"'(<\[]?[^\s\"')>\]]{{1,100}})",
    re.IGNORECASE,
)
# A password described, not given: "my password is wrong", "the pin was reset".
_DESCRIBES = frozenset(
    """
    a an the my your his her our their its this that same different new old wrong right
    incorrect correct reset changed expired forgotten locked saved stored required needed
    missing invalid valid weak strong long short too not still now ok okay fine case sensitive
    hard easy simple secure safe there here in on at for of with what which how why written
    protected manager managers also just really very so gone lost stolen hacked leaked
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_DETERMINERS = frozenset("a an the my your his her our their its this that".split())  # noqa: SIM905
_API_KEY = re.compile(
    r"(?<![\w-])(?:sk-[A-Za-z0-9_-]{16,200}|ghp_[A-Za-z0-9]{30,60}|AKIA[0-9A-Z]{16}"
    r"|xox[abpr]-[A-Za-z0-9-]{10,200}|AIza[0-9A-Za-z_-]{30,40})(?![\w-])"
)
_LONG_TOKEN = re.compile(
    r"(?<![\w-])(?=[A-Za-z_-]{0,80}\d)(?=\d{0,80}[A-Za-z])[\w-]{32,200}(?![\w-])"
)


def _secret_value(word: str, glue: str, value: str) -> bool:
    core = value.strip("\"'()<>[].,;!?")
    if not core:
        return False
    lowered_word = word.lower()
    is_pin = lowered_word.startswith("pin") or lowered_word in ("cvv", "cvc")
    if is_pin:
        return core.isdigit() and 3 <= len(core) <= 12
    typed = any(mark in glue for mark in ":=->")
    secretish = (
        any(ch.isdigit() for ch in core) or not core.isalpha() or (core[1:] != core[1:].lower())
    )
    quoted = value[:1] in "\"'(<["
    # a determiner ends no description ("my password is A!!!": "a" needs a noun after it)
    if core.lower() in _DETERMINERS and value.rstrip("\"')>]") != core:
        secretish = True
    written = value.strip("\"'()<>[]")
    # punctuation before or inside the letters is no word's ("!Aa!", "Aa!b")
    secretish = secretish or not written.rstrip(".,;!?").isalpha()
    if not glue.strip():  # "my password hunter2": only a value no word could be
        # its length counts the punctuation a password may end with ("00!!", "Aa!!")
        short_word = len(core) < 3 and written != core
        return (
            (secretish or short_word)
            and len(written) >= 3
            and re.match(_PASSWORD, lowered_word) is not None
        )
    if typed or quoted or secretish:
        return core.lower() not in _DESCRIBES or secretish
    # "password is hunter": a plain word after is/was is the password unless it describes one;
    # secrets named in the plural are talked about, not given ("passwords are annoying")
    plural = lowered_word.endswith(("words", "codes", "phrases"))
    return (
        re.match(_PASSWORD, lowered_word) is not None
        and core.lower() not in _DESCRIBES
        and not plural
    )


# Cheap first looks (substring tests run in C): most texts name no secret at all.
_SECRET_HINTS = ("pass", "pw", "pin", "log", "user", "key", "token", "secret", "cv", "code")
_SECRET_WORD = re.compile(
    r"\b(?:pass|pw|pin|log|user|api|secret|access|auth|token|security|cvv|cvc)", re.IGNORECASE
)
_KEY_PREFIXES = ("sk-", "ghp_", "AKIA", "xox", "AIza")
_LONG_RUN = re.compile(r"[\w-]{32}")


def _secrets(text: str) -> list[Span]:
    spans = []
    lowered = text.lower()
    named = any(h in lowered for h in _SECRET_HINTS) and _SECRET_WORD.search(text) is not None
    matches = _CREDENTIAL.finditer(text) if named else ()
    for match in matches:
        if _secret_value(match.group("word"), match.group("glue"), match.group("value")):
            end = match.end("value")
            while end > match.start("value") and text[end - 1] in ".,;!?":
                end -= 1
            spans.append(Span("credential", match.start("value"), end))
    if any(prefix in text for prefix in _KEY_PREFIXES):
        spans += [Span("credential", m.start(), m.end()) for m in _API_KEY.finditer(text)]
    if _LONG_RUN.search(text) is not None:
        spans += [Span("credential", m.start(), m.end()) for m in _LONG_TOKEN.finditer(text)]
    return spans


# -- dates of birth: a birth word, then a date in digits or words ("DOB 3/2/90", "born on the
# third of March nineteen ninety", "birthday's 12.03")
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
    # the months of the languages whose birth words follow (de, nl, fr, es, it, pt)
    r"|januar[iy]?|februar[iy]?|m\u00e4rz|maart|mai|mei|juni|juli|augustus|oktober|dezember"
    r"|janvier|f\u00e9vrier|mars|avril|juin|juillet|ao\u00fbt|septembre|octobre|novembre"
    r"|d\u00e9cembre|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre"
    r"|octubre|noviembre|diciembre|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre"
    r"|ottobre|dicembre|janeiro|fevereiro|mar\u00e7o|maio|junho|julho|setembro|outubro"
    r"|novembro|dezembro)(?:\.|\b)"
)
_NUMBER_WORD = (
    r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen"
    r"|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty"
    r"|seventy|eighty|ninety|hundred|thousand|first|second|third|fourth|fifth|sixth|seventh"
    r"|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth"
    r"|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)"
)
_DAY_OR_YEAR = r"(?:\d{1,4}(?:st|nd|rd|th)?)"
_DATE_PART = rf"(?:{_MONTH}|{_DAY_OR_YEAR}|{_NUMBER_WORD}(?:-{_NUMBER_WORD})?)"
_NUMERIC_DATE = r"\d{1,4}[./-]\d{1,2}(?:[./-]\d{2,4})?"
_BIRTH_CUE = (
    r"(?:born|birthday|birth day|b-?day|birthdate|birth date|date of birth|d\.?o\.?b\.?"
    r"|geboren|geb\.|geburtstag|geburtsdatum|verjaardag|n[ée]e?|date de naissance"
    r"|anniversaire|nacid[oa]|cumplea\u00f1os|fecha de nacimiento|nat[oa]|compleanno"
    r"|nascid[oa]|anivers\u00e1rio|data de nascimento|data di nascita)"
)
# The words between a birth word and its date, in the same languages ("born on the", "geboren
# am", "née le", "nacido el", "nato il", "nascido em").
_BIRTH_GLUE = (
    r"(?:'s|\b(?:is|was|on|in|at|the|of|am|den|op|le|el|il|em|en|de|del|di|du|no|na|ist|est"
    r"|es|\u00e9|\u00e8)\b|:|-|=)"
)
# "b. 3.3.88": the abbreviation reads as "born" only before a whole numeric date.
_BORN_ABBREVIATION = re.compile(r"(?<![\w.])b\.\s?(?P<date>\d{1,2}[./-]\d{1,2}[./-]\d{2,4})\b")
_BIRTH = re.compile(
    rf"\b{_BIRTH_CUE}(?:\s*{_BIRTH_GLUE}\s*){{0,4}}\s*"
    rf"(?P<date>{_NUMERIC_DATE}|{_DATE_PART}(?:(?:\s*,\s*|[./-]?\s+|[./-])(?:(?:the|of|de|del|di|du)\s+)?{_DATE_PART}){{0,7}})",
    re.IGNORECASE,
)
_MONTH_ONLY = re.compile(rf"^{_MONTH}$", re.IGNORECASE)


_BIRTH_HINT = re.compile(rf"\b{_BIRTH_CUE}", re.IGNORECASE)


_BIRTH_HINTS = (
    "born", "birth", "bday", "b-day", "dob", "d.o.b", "geb", "n\u00e9", "nee", "nacid", "nato",
    "nata", "naissance", "anniversaire", "verjaardag", "cumplea", "nacimiento", "compleanno",
    "nascid", "nascita", "anivers", "nascimento",
)  # fmt: skip


def _birthdates(text: str) -> list[Span]:
    spans: list[Span] = []
    if "b." in text:
        spans += [
            Span("birthdate", m.start("date"), m.end("date"))
            for m in _BORN_ABBREVIATION.finditer(text)
        ]
    lowered = text.lower()
    if not any(hint in lowered for hint in _BIRTH_HINTS) or _BIRTH_HINT.search(text) is None:
        return spans
    for match in _BIRTH.finditer(text):
        date = match.group("date")
        words = re.split(r"[\s,./-]+", date.lower())
        has_month = any(_MONTH_ONLY.match(w) for w in words)
        has_number = any(
            re.fullmatch(rf"{_DAY_OR_YEAR}|{_NUMBER_WORD}(?:-{_NUMBER_WORD})?", w, re.IGNORECASE)
            for w in words
        )
        numeric = re.fullmatch(_NUMERIC_DATE, date) is not None
        if (has_month and has_number) or numeric:
            spans.append(Span("birthdate", match.start("date"), match.end("date")))
    return spans


# -- document numbers after their name ("passport number X1234567", "SSN 123-45-6789")
_DOCUMENT = re.compile(
    r"\b(?:(?:passport|driv(?:er'?s|ing) licen[cs]e|licen[cs]e|id card|identity card"
    r"|national id|social security|ssn|nhs|national insurance|tax(?:payer)? id|sort code"
    r"|routing)(?: (?:numbers?\b|no\b\.?|num\b|#|code\b))?"
    r"|(?:id|document|insurance|policy|membership|member|account|acct|tax)"
    r" (?:numbers?\b|no\b\.?|num\b|#))(?: is|:| =|'s| are)? ?#? ?"
    # a space goes on with the number only before a group of it: one with a digit in its
    # first four characters ("AB 12 34 56"), letters followed by such a group ("ab12 cdef
    # 3456"), or capitals ("1234 5678 ABCD"); so "078-05-1120 dont tell anyone" ends at the
    # number
    r"(?P<value>(?=[A-Za-z0-9 -]{0,24}\d)[A-Za-z0-9]"
    r"(?:[A-Za-z0-9-]| (?=[A-Za-z]{0,3}\d|[A-Za-z]{1,8} [A-Za-z]{0,3}\d|(?-i:[A-Z]{1,8})\b))"
    r"{3,30}[A-Za-z0-9])",
    re.IGNORECASE,
)
_SSN = re.compile(r"(?<![\d-])\d{3}([- ])\d{2}\1\d{4}(?![\d-])")


_DOCUMENT_HINTS = (
    "passport", "licen", "ssn", "nhs", "insurance", "tax", "sort code", "routing", "account",
    "acct", "member", "policy", "document", "id ", "id:", "id#", "id number",
)  # fmt: skip


def _documents(text: str) -> list[Span]:
    lowered = text.lower()
    if not any(hint in lowered for hint in _DOCUMENT_HINTS):
        return [Span("document", m.start(), m.end()) for m in _SSN.finditer(text)]
    spans = [
        Span("document", m.start("value"), m.end("value"))
        for m in _DOCUMENT.finditer(text)
        if sum(ch.isdigit() for ch in m.group("value")) >= 4
    ]
    return spans + [Span("document", m.start(), m.end()) for m in _SSN.finditer(text)]


# -- street addresses, in English and in the forms of other languages
_HOUSE = r"\d{1,5}(?:\s?[a-zA-Z])?\b"
_NUMBER_MARK = r"(?:(?:nr|no|n[º°o]|num|#)\.?\s*)?"
_STREET_AFTER = re.compile(  # "221b Baker Street", "12 Hauptstraße"
    rf"\b{_HOUSE},? (?P<name>(?:[^\W\d_][\w'-]* ){{1,3}})(?P<type>street|st|road|rd|avenue|ave"
    r"|lane|ln|drive|dr|boulevard|blvd|way|court|ct|place|pl|terrace|crescent|close|square|sq"
    r"|strasse|stra\u00dfe|str|gasse|weg|allee|platz)\b\.?",
    re.IGNORECASE,
)
# Street words that are also ordinary words ("a 4 hour drive", "6 square feet", "top 10 place"):
# an address only when the street's name is capitalised ("12 Ocean Drive").
_PLAIN_STREET_WORDS = frozenset(
    "drive dr way court ct place pl close square sq st ln lane".split()  # noqa: SIM905
)
_STREET_SUFFIX = re.compile(  # "Hauptstraße 5", "Kerkstraat 12a", "Storgatan 3", "Nørregade 4"
    r"\b[^\W\d_]{2,40}(?:stra(?:ss|\u00df)e|str\.|gasse|weg|allee|platz|damm|ufer|straat"
    r"|laan|gracht|plein|steeg|gade|vej|gatan|v\u00e4gen|veien|gata|utca|katu)"
    rf"\s*{_NUMBER_MARK}{_HOUSE}",
    re.IGNORECASE,
)
_PARTICLE = r"(?:de|del|della|delle|dei|di|da|do|dos|das|la|le|les|du|des|el|los|las|y|e|van|von)"
_ROMANCE_STREET = (  # words that name a street only in another language: any case
    r"(?:rue|calle|carrer|avenida|rua|travessa|pra\u00e7a|piazza|piazzale|viale|vicolo|strada"
    r"|chemin|impasse|ulica|ul\.|aleja|al\.|stra(?:ss|\u00df)e)"
)
_AMBIGUOUS_STREET = (  # also English words ("via email 2 times"): the name must be capitalised
    r"(?:[Vv]ia|[Pp]lace|[Pp]laza|[Cc]orso|[Ll]argo|[Aa]venue|[Bb]oulevard|[Aa]ll\u00e9e"
    r"|[Pp]aseo|[Cc]amino|[Cc]haus?s\u00e9e|[Pp]lac|[Pp]ra\u00e7a|[Qq]uai|[Cc]ours"
    r"|[Aa]v\.|[Aa]vda\.|[Bb]d\.?|[Bb]lvd\.?)"
)
_STREET_NAME_THEN_NUMBER = re.compile(
    rf"\b(?:(?i:{_ROMANCE_STREET})(?:\s+(?i:{_PARTICLE}))*(?:\s+[^\W\d_][\w'-]*){{1,4}}"
    rf"|{_AMBIGUOUS_STREET}(?:\s+(?i:{_PARTICLE}))*(?:\s+[^\W\d_a-z][\w'-]*)(?:\s+[^\W\d_][\w'-]*){{0,3}})"
    rf",?\s+{_NUMBER_MARK}{_HOUSE}"
)
_NUMBER_THEN_STREET_NAME = re.compile(  # "10 rue de la Paix", "3, calle Mayor"
    rf"\b{_HOUSE},?\s+(?:(?i:{_ROMANCE_STREET})(?:\s+(?i:{_PARTICLE}))*(?:\s+[^\W\d_][\w'-]*){{1,3}}"
    # "8 avenue des Champs-Élysées", "5 boulevard Haussmann": a street word that is also
    # English, then a capitalised name
    rf"|{_AMBIGUOUS_STREET}(?:\s+(?i:{_PARTICLE}))*\s+[^\W\d_a-z][\w'-]*(?:\s+[^\W\d_][\w'-]*){{0,2}})"
)
# What follows a street and number in an address: its postcode and town ("Calle Mayor 10,
# 28013 Madrid", "14 MG Road, Bengaluru 560001", "Hauptstraße 5, 10115 Berlin").
_TOWN_AFTER = re.compile(
    r",?\s*(?:\d{4,6}\s+[^\W\d_a-z][\w'-]*|[^\W\d_a-z][\w'-]*\s+\d{4,6}(?!\d))"
)
# Cheap first looks: most texts hold no street word at all, and the patterns above start at
# every word.
_SUFFIXES = (
    "stra", "str.", "gasse", "weg", "allee", "platz", "damm", "ufer", "laan", "gracht", "plein",
    "steeg", "gade", "vej", "gatan", "v\u00e4gen", "veien", "gata", "utca", "katu",
)  # fmt: skip
_SUFFIX_HINT = re.compile(
    r"(?:stra(?:ss|\u00df)e|str\.|gasse|weg|allee|platz|damm|ufer|straat|laan|gracht|plein|steeg"
    r"|gade|vej|gatan|v\u00e4gen|veien|gata|utca|katu)\s*(?:(?:nr|no|n[\u00ba\u00b0o]|num|#)\.?\s*)?\d"
)
_STREET_WORD_HINT = re.compile(
    rf"\b(?:{_ROMANCE_STREET}|via|place|plaza|corso|largo|avenue|boulevard|all\u00e9e|paseo"
    r"|camino|chauss?\u00e9e|plac|quai|cours|av\.|avda\.|bd\b|blvd)"
)
_POSTCODE = re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b")


# What is watched or streamed is a title, not where someone lives ("we watched 21 Jump
# Street", "binged Coronation Street"): the verb right before the words decides.
_TITLE_VERB_BEFORE = re.compile(
    r"\b(?:(?:re-?|binge[- ]?)?watch(?:ed|es|ing)?|binged|stream(?:ed|s|ing)?"
    r"|episodes? of|season \d+ of)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


def _is_title(text: str, span: Span) -> bool:
    return bool(_TITLE_VERB_BEFORE.search(text[max(0, span.start - 30) : span.start]))


def _addresses(text: str) -> list[Span]:
    spans = [
        Span("address", m.start(), m.end())
        for m in _STREET_AFTER.finditer(text)
        if m.group("type").lower() not in _PLAIN_STREET_WORDS
        or all(word[0].isupper() for word in m.group("name").split())
    ]
    spans = [span for span in spans if not _is_title(text, span)]
    lowered = text.lower()
    patterns = []
    if any(s in lowered for s in _SUFFIXES) and _SUFFIX_HINT.search(lowered):
        patterns.append(_STREET_SUFFIX)
    if _STREET_WORD_HINT.search(lowered):
        patterns += [_STREET_NAME_THEN_NUMBER, _NUMBER_THEN_STREET_NAME]
    for pattern in patterns:
        spans += [Span("address", m.start(), m.end()) for m in pattern.finditer(text)]
    spans += [Span("address", m.start(), m.end()) for m in _POSTCODE.finditer(text)]
    return _joined([_with_town(text, span) for span in spans])


def _with_town(text: str, span: Span) -> Span:
    """The address span grown over the postcode and town written right after it (not past the
    end of a sentence)."""
    if text[span.end - 1] == ".":
        return span
    town = _TOWN_AFTER.match(text, span.end)
    return Span(span.kind, span.start, town.end()) if town else span


def _joined(spans: list[Span]) -> list[Span]:
    """Overlapping readings of one address ("10 rue de la Paix, 75002" is both number-then-
    street and street-then-number) as one span, so no piece of it is left out."""
    joined: list[Span] = []
    for span in sorted(spans, key=lambda s: s.start):
        if joined and span.start < joined[-1].end:
            last = joined[-1]
            joined[-1] = Span(last.kind, last.start, max(last.end, span.end))
        else:
            joined.append(span)
    return joined


# -- other people's names (memory text only: speech may name anyone)
_CAPITALISED = re.compile(
    r"\b(?:(?:Mr|Mrs|Ms|Dr|Miss)\.? )?[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?\b(?!')|\b[A-Z][a-z]+(?='s\b)"
)
_VERB_AFTER = re.compile(
    r"(?:'s\b|\s+(?:is|was|has|had|and|runs|rides|swims|does|did|says|said|thinks|wants|prefers"
    r"|likes|loves|hates|got|goes|went|ran|trains|will|would|can)\b)"
)
# Capitalised words that are never someone's name.
_ALLOWED = frozenset(
    """
    i january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday christmas easter xmas
    strava garmin zwift peloton trainerroad wahoo polar suunto coros parkrun ironman nike
    user athlete coach prefers works runs rides swims trains has is likes dislikes loves hates
    enjoys wants plans recovers does also often usually typical primary goal level struggles
    lives tends needs responds finds gets feels was had recently currently new old main
    """.split()  # noqa: SIM905 - a word list reads better as text
)


def _at_sentence_start(text: str, start: int) -> bool:
    while start > 0 and text[start - 1].isspace():
        start -= 1
    return start == 0 or text[start - 1] in '.!?:;\n"('


# Nouns that name places, routes and events, never people ("Main Street", "5th Avenue",
# "Route 66"), and what follows a capitalised word that names a race or a title rather than a
# person: a place or event noun ("Boston marathon") or a number ("Comrades 2025",
# "Fahrenheit 451").
_PLACE_NOUNS = frozenset(
    """
    street st road rd avenue ave lane boulevard blvd route highway park trail lake river bridge
    hill mountain mount square station stadium track beach canal forest valley marathon half
    ultra race run triathlon ironman sportive parkrun gran fondo cup championship championships
    games open classic challenge series
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_THING_AFTER = re.compile(r"\s+(?:\d|(?P<noun>[A-Za-z]+)\b)")
# What follows a word is read in a window of this many characters (the longest surname or
# place noun and the space before it fit), so checking every word of a text stays linear.
_LOOKAHEAD = 40


def _following(text: str, end: int) -> str:
    return text[end : end + _LOOKAHEAD]


_PERSON_BEFORE = re.compile(
    r"\b(?:with|and|by|told|asked|met|called|named|coach|friend|buddy|partner)\s+$", re.IGNORECASE
)


def _names_a_thing(text: str, match: re.Match[str]) -> bool:
    """Whether the capitalised word is a place, a route, a race or a title, not a person: it is
    a place noun itself, or a number or a place noun follows it, and no given-name list knows
    it ("runs with Sarah 3 times" still names Sarah)."""
    word = match.group(0).lower()
    if word in _PLACE_NOUNS:
        return True
    if _PERSON_BEFORE.search(text[max(0, match.start() - 20) : match.start()]):
        return False  # "trains with Smith 3 times a week": a person's place in the sentence
    after = _THING_AFTER.match(_following(text, match.end()))
    if after is None or (after.group("noun") and after.group("noun").lower() not in _PLACE_NOUNS):
        return False
    return not _given_name(word)


def _is_name(text: str, match: re.Match[str]) -> bool:
    word = match.group(0)
    bare = re.sub(r"^(?:Mr|Mrs|Ms|Dr|Miss)\.? ", "", word)
    if bare != word:
        return True
    lowered = bare.lower()
    if lowered in _ALLOWED or lowered in KNOWN_WORDS or lowered.rstrip("s") in KNOWN_WORDS:
        return False
    if _names_a_thing(text, match):
        return False
    if _at_sentence_start(text, match.start()):
        return bool(_VERB_AFTER.match(text, match.end()))
    return True


# A word where a person goes ("runs with john", "RUNS WITH JOHN", "john says ..."): read as a
# name when the given-name list of `gender_guesser` knows it, whatever its case.
_PERSON_SLOT = re.compile(
    r"\b(?:with|and|told|tells|asked|met|meets|called|named|by|friend|buddy|partner|wife"
    r"|husband|girlfriend|boyfriend|brother|sister|mum|mom|dad|son|daughter|colleague|coach)"
    r"\s+(?P<after>[a-z]{2,20}|[A-Z]{2,20})\b(?!')"
    r"|(?:^|[.!?;:]\s*)(?P<before>[a-z]{2,20}|[A-Z]{2,20})(?='s\b|\s+(?:says|said|thinks|told"
    r"|wants|runs|rides|swims|trains|and i|is my|was my)\b)",
    re.IGNORECASE,
)
# Given names that are also everyday English words in a coach's memory ("with max effort",
# "long run", "will", "may"): never read as a name when not capitalised.
_ALSO_WORDS = frozenset(
    """
    max min long easy hard will may can an sun run bay mark bill art rich rose hope joy faith
    grace june july august summer winter autumn dawn river hunter chase sky pat ray gene drew
    jack guy miles lane hill park dale glen wood stone bell king earl lee young page trail
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_GIVEN_NAMES: list[object] = []  # the detector, loaded on first use (about 1.5 s, 4 MB)


def names_a_person(words: str) -> bool:
    """Whether `words` (an employer, a place, a team as the speaker wrote it) name a person: a
    title ("Dr Patel") or a given name the name list knows, in any case ("John Smith",
    "sarah's bakery")."""
    if re.match(r"(?:Mr|Mrs|Ms|Dr|Miss|Prof)\.?\s", words, re.IGNORECASE):
        return True
    named = re.findall(r"[^\W\d_]+", words.split("'")[0])
    if any(word.lower() in _PLACE_NOUNS for word in named):
        return False  # "Maple Street Deli" is a place
    return any(_given_name(word) for word in named)


def captures_a_name(captured: str, written: str) -> bool:
    """Whether the words a frame copied into a fact (`captured`, as the rules read them, in
    lower case) name someone in `written`, the clause as the speaker wrote it. Decided by where
    each word stands, not by a list of brands:

    - a title ("Dr Okafor") or a possessive of a given name the name list knows, in any case
      ("allergic to maria's cat"), names someone;
    - a word capitalised where no sentence starts is a proper noun: a person's when the name
      list knows it ("my job as John's assistant", "Maria Lopez"), when it is a possessive ("the
      Nakamura's garage") or when it modifies the common noun that heads the phrase, as a family
      name does ("the Johnson house", "the Smith Dental clinic", "my Henderson plumbing
      business"); a proper noun (or a run of them) that heads its phrase is the name of a
      business or a place ("the Starbucks I work at", "my job at the Home Depot");
    - a lower-case word is a common noun where the clause's letter case says anything ("my
      candy shop" names no Candy); where it says nothing (no capital but at a sentence's start,
      or all in capitals), a word the name list knows names someone in a family name's place:
      a possessive, or after "the" before the head noun ("the johnson house where i work").
    """
    if re.match(r"(?:mr|mrs|ms|dr|miss|prof)\b", captured, re.IGNORECASE):
        return True
    words = re.findall(r"[a-z][a-z'&-]*", captured.lower())
    uninformative = not re.search(r"[a-z]", written) or not _capital_inside(written)
    for at, word in enumerate(words):
        stem = word.split("'")[0]
        possessive = word != stem
        if possessive and stem and _given_name(stem):
            return True
        if not stem or stem == "i":
            continue
        later = words[at + 1 :]
        for match in re.finditer(rf"\b{re.escape(stem)}\b", written, re.IGNORECASE):
            said = match.group(0)
            if _proper_noun_at(written, match):
                if possessive or _modifies(written, match.end(), later) or _given_name(said):
                    return True
                if _a_family(written, match):
                    return True
            elif (
                uninformative
                and (possessive or (bool(later) and _THE_BEFORE.search(written, 0, match.start())))
                and _given_name(stem)
            ):
                return True
    return False


def _a_family(written: str, match: re.Match[str]) -> bool:
    """A plural proper noun alone after "the" names a family ("I work for the Hendersons",
    "my job at the Nguyens"). A one-word brand spelt with an s reads the same ("the
    Starbucks") and is refused with them: a person's name in memory costs more than a shop's."""
    said = match.group(0)
    if not (said.endswith("s") and not said.endswith("ss") and len(said) > 3):
        return False
    if not _THE_BEFORE.search(written, 0, match.start()):
        return False
    return not re.match(r"\s+[A-Z]", written[match.end() :])  # one word, not "the Home Depot"


def _proper_noun_at(written: str, match: re.Match[str]) -> bool:
    said = match.group(0)
    return (
        said[0].isupper()
        and not said.isupper()
        and not _at_sentence_start(written, match.start())
        and not _proper_adjective(said)
    )


def proper_noun(word: str, written: str) -> bool:
    """Whether `word` is written in `written` as a proper noun: capitalised where no sentence
    starts, and no country's initials or demonym ("the Salvation Army", not "the US Army")."""
    return any(
        _proper_noun_at(written, match)
        for match in re.finditer(rf"\b{re.escape(word)}\b", written, re.IGNORECASE)
    )


# The rest of a run of capitalised words ("Smith Dental", "Home Depot"), then the next word.
_RUN_THEN_WORD = re.compile(r"(?:\s+[A-Z][\w'&-]*)*\s+(?P<next>[a-z][\w'&-]*)")


def _modifies(written: str, end: int, later: list[str]) -> bool:
    """Whether the proper noun ending at `end` modifies a common noun the capture goes on to:
    its run of capitalised words is followed by a lower-case word of the capture, as a family
    name before "house" or "clinic" is ("the Smith Dental clinic"); a run that heads its phrase
    ("the Home Depot", "Whole Foods") names a business or a place."""
    after = _RUN_THEN_WORD.match(written, end)
    return after is not None and after.group("next").lower() in later


_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)


def _capital_inside(written: str) -> bool:
    """Whether `written` capitalises a word where no sentence starts (a name, a brand; not
    "I", which keyboards capitalise by themselves): its letter case then tells a proper noun
    from a common one."""
    return any(
        not _at_sentence_start(written, m.start()) for m in re.finditer(r"\b[A-Z][a-z]", written)
    )


def _proper_adjective(word: str) -> bool:
    """A capitalised word that names no one: a country's initials ("US", "UK") or a demonym
    the name list does not know ("British", "American"; "Brian" stays a name)."""
    if word.isupper() and len(word) <= 3:
        return True
    return bool(re.search(r"(?:ish|ian|an|ese)$", word)) and not _given_name(word)


def _given_name(word: str) -> bool:
    lowered = word.lower()
    if lowered in _ALSO_WORDS or lowered in _ALLOWED or lowered in KNOWN_WORDS:
        return False
    if not _GIVEN_NAMES:
        import gender_guesser.detector  # only for memory text with a word where a person goes

        _GIVEN_NAMES.append(gender_guesser.detector.Detector(case_sensitive=False))
    detector: Any = _GIVEN_NAMES[0]
    return bool(detector.get_gender(lowered) != "unknown")


# The word after a given name written in lower or upper case, when it is a surname of the same
# case ("mike o'brien", "SARAH JENKINS"): not a word of the coach's vocabulary, not a verb's form.
_SURNAME_AFTER = re.compile(r" (?P<word>[a-z][a-z'-]{1,30}|[A-Z][A-Z'-]{1,30})\b")


def _with_surname(text: str, start: int, end: int) -> int:
    after = _SURNAME_AFTER.match(_following(text, end))
    if after is None:
        return end
    word = after.group("word")
    given = text[start:end]
    same_case = word.isupper() == given.isupper()
    lowered = word.lower()
    if (
        not same_case
        or lowered in KNOWN_WORDS
        or lowered in _ALLOWED
        or lowered in _PLACE_NOUNS
        or (word.islower() and lowered.endswith(("ed", "ing")))
    ):
        return end
    return end + after.end()


def _names(text: str) -> list[Span]:
    spans = [
        Span("name", m.start(), m.end()) for m in _CAPITALISED.finditer(text) if _is_name(text, m)
    ]
    for match in _PERSON_SLOT.finditer(text):
        group = "after" if match.group("after") else "before"
        word = match.group(group)
        if not (word[0].isupper() and word[1:].islower()) and _given_name(word):
            start, end = match.start(group), match.end(group)
            spans.append(Span("name", start, _with_surname(text, start, end)))
    return spans


ALL_KINDS = (
    "email", "credential", "url", "card", "iban", "birthdate", "document", "phone", "address",
    "name",
)  # fmt: skip


_DIGIT = re.compile(r"\d")


def find(text: str, kinds: frozenset[str] | tuple[str, ...] = ALL_KINDS) -> list[Span]:
    """Every piece of personal data of `kinds` in `text` (already read), earliest first.

    Earlier kinds win an overlap: an e-mail's domain is not also a URL.
    """
    found: list[Span] = []
    wanted = set(kinds)
    if "email" in wanted:
        found += _emails(text)
    if "credential" in wanted:
        found += _secrets(text)
    links = _urls(text) if ("url" in wanted or "/" in text or "www" in text) else []
    if "url" in wanted:
        found += links
    has_digit = _DIGIT.search(text) is not None
    if has_digit and "card" in wanted:
        found += [Span("card", s, e) for s, e in pii_numbers.cards(text)]
    if has_digit and "iban" in wanted:
        found += [Span("iban", s, e) for s, e in pii_numbers.ibans(text)]
    if has_digit and "birthdate" in wanted:
        found += _birthdates(text)
    if has_digit and "document" in wanted:
        found += _documents(text)
    if has_digit and "phone" in wanted:
        found += [Span("phone", s, e) for s, e in pii_numbers.phones(text)]
    if has_digit and "address" in wanted:
        found += _addresses(text)
    if "birthdate" in wanted and not has_digit:
        found += _birthdates(text)  # dates in words
    if "name" in wanted:
        found += _names(text)
    spans: list[Span] = []
    covered = bytearray(len(text))
    linked = bytearray(len(text))
    if "url" not in wanted:  # a link is no phone number, whatever digits its path holds ...
        for link in links:
            linked[link.start : link.end] = b"\x01" * (link.end - link.start)
    for span in found:
        # ... except the number of a link that dials it ("wa.me/447911123456", "tel:...")
        in_link = 1 in linked[span.start : span.end]
        if in_link and not (span.kind == "phone" and pii_numbers.dialled(text, span.start)):
            continue
        if span.end > span.start and 1 not in covered[span.start : span.end]:
            spans.append(span)
            covered[span.start : span.end] = b"\x01" * (span.end - span.start)
    return sorted(spans, key=lambda s: s.start)
