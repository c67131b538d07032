"""The kinds the held-out check (tools/privacy_blind) found the filter missing, in many spellings:
national mobiles written without a trunk prefix, calling codes without `+`, birth dates after
birth words of other languages, credentials named for something ("the password for X - it's
..."), addresses with their postcode and town, surnames after a given name in lower or upper
case; and what is not personal data of the same shapes (ids after an id word, races, titles,
places, splits). Property-based: hypothesis writes the spellings."""

from __future__ import annotations

import re

import phonenumbers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vault.extraction.privacy import names_cut, redact_speech, text_problem

DIGITS = "0123456789"


def _speech_keeps_none_of(text: str, piece: str) -> None:
    redacted, kinds = redact_speech(text)
    assert kinds, text
    assert piece not in redacted, (text, redacted)
    assert text_problem(text) is not None, text


@st.composite
def indian_mobiles(draw: st.DrawFn) -> str:
    number = draw(st.sampled_from("6789")) + "".join(
        draw(st.lists(st.sampled_from(DIGITS), min_size=9, max_size=9))
    )
    parsed = phonenumbers.parse(number, "IN")
    if phonenumbers.number_type(parsed) not in (
        phonenumbers.PhoneNumberType.MOBILE,
        phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE,
    ):
        number = "9876543210"  # a block the numbering plan leaves unassigned
    return number


@settings(max_examples=150, deadline=None)
@given(
    number=indian_mobiles(),
    form=st.sampled_from(["{n}", "{a} {b}", "+91 {a} {b}", "91 {a} {b}", "0{n}", "91-{n}"]),
    before=st.sampled_from(["", "message ", "ping ", "I'm on ", "it's "]),
    after=st.sampled_from(["", " after the run", " is mine", "."]),
)
def test_an_indian_mobile_is_a_phone_in_every_spelling(
    number: str, form: str, before: str, after: str
) -> None:
    written = form.format(n=number, a=number[:5], b=number[5:])
    _speech_keeps_none_of(f"{before}{written}{after}", number[5:])
    assert number[:5] not in redact_speech(f"{before}{written}{after}")[0]


@settings(max_examples=60, deadline=None)
@given(
    number=st.sampled_from(["7911 123456", "30 12345678", "6 12 34 56 78", "11 91234 5678"]),
    code=st.sampled_from(["44", "49", "33", "55"]),
)
def test_a_calling_code_without_plus_still_makes_a_phone(number: str, code: str) -> None:
    text = f"reach me on {code} {number}"
    if phonenumbers.is_valid_number(phonenumbers.parse("+" + code + number.replace(" ", ""))):
        _speech_keeps_none_of(text, number)


MONTHS = {
    "de": (["geboren am", "mein Geburtstag ist am", "geb."], ["März", "Mai", "Dezember"], ". "),
    "fr": (["née le", "né le", "date de naissance :"], ["mars", "juin", "décembre"], " "),
    "es": (["nacido el", "nacida el", "mi cumpleaños es el"], ["marzo", "mayo", "enero"], " de "),
    "it": (["nato il", "nata il", "data di nascita:"], ["marzo", "maggio", "giugno"], " "),
    "pt": (["nascido em", "nascida em", "meu aniversário é"], ["março", "maio", "junho"], " de "),
    "nl": (["geboren op", "mijn verjaardag is"], ["maart", "mei", "juni"], " "),
}


@settings(max_examples=120, deadline=None)
@given(
    language=st.sampled_from(sorted(MONTHS)),
    pick=st.integers(0, 2),
    day=st.integers(1, 28),
    year=st.integers(1940, 2010),
    with_year=st.booleans(),
)
def test_a_birth_date_after_a_birth_word_of_another_language_is_redacted(
    language: str, pick: int, day: int, year: int, with_year: bool
) -> None:
    cues, months, joiner = MONTHS[language]
    cue, month = cues[pick % len(cues)], months[pick]
    date = f"{day}{joiner}{month}" + (
        f"{' de ' if joiner == ' de ' else ' '}{year}" if with_year else ""
    )
    _speech_keeps_none_of(f"{cue} {date}", month)


@settings(max_examples=60, deadline=None)
@given(
    day=st.integers(1, 28),
    month=st.integers(1, 12),
    year=st.integers(40, 99),
    mark=st.sampled_from([".", "/", "-"]),
)
def test_b_dot_before_a_whole_numeric_date_is_born(
    day: int, month: int, year: int, mark: str
) -> None:
    date = f"{day}{mark}{month}{mark}{year}"
    _speech_keeps_none_of(f"b. {date}", date)


@settings(max_examples=120, deadline=None)
@given(
    word=st.sampled_from(["password", "pin", "passcode", "login"]),
    what=st.sampled_from(["TrainingPeaks", "the garmin account", "my strava", "the locker"]),
    glue=st.sampled_from([" - it's ", " is ", ": ", " — it is ", "'s ", " => "]),
    secret=st.sampled_from(["tempo-tuesday-7", "Hunter2!", "4821", "Zq9xx#", "s3cret"]),
)
def test_a_credential_named_for_something_is_redacted(
    word: str, what: str, glue: str, secret: str
) -> None:
    if word == "pin" and not secret.isdigit():
        return
    _speech_keeps_none_of(f"the {word} for {what}{glue}'{secret}'", secret)


@settings(max_examples=80, deadline=None)
@given(
    street=st.sampled_from(
        [
            "Hauptstraße 5",
            "Calle Mayor 10",
            "14 MG Road",
            "8 avenue des Champs-Élysées",
            "Av. Paulista, 1578",
            "12 rue de la Paix",
            "Via Roma 15",
        ]
    ),  # fmt: skip
    postcode=st.sampled_from(["10115", "28013", "560001", "75002", "20121"]),
    town=st.sampled_from(["Berlin", "Madrid", "Bengaluru", "Paris", "Milano"]),
    order=st.booleans(),
)
def test_an_address_is_redacted_with_its_postcode_and_town(
    street: str, postcode: str, town: str, order: bool
) -> None:
    tail = f"{postcode} {town}" if order else f"{town} {postcode}"
    text = f"I live at {street}, {tail}"
    redacted, kinds = redact_speech(text)
    assert kinds == ("address",), text
    assert postcode not in redacted and street.split()[-1] not in redacted, redacted


@settings(max_examples=80, deadline=None)
@given(
    relation=st.sampled_from(["my wife", "her husband", "coach", "my friend"]),
    given_name=st.sampled_from(["sarah", "mike", "priya", "anna", "john"]),
    surname=st.sampled_from(["jenkins", "o'brien", "sharma", "keller", "lopez"]),
    upper=st.booleans(),
)
def test_memory_keeps_no_name_in_any_case_after_a_relation_word(
    relation: str, given_name: str, surname: str, upper: bool
) -> None:
    name = f"{given_name} {surname}"
    name = name.upper() if upper else name
    text = f"{relation} {name} says to rest more"
    assert text_problem(text) is None  # a relation word's name is cut, not refused
    cut = names_cut(text)
    assert cut is not None and given_name not in cut.lower() and surname not in cut.lower()


NOT_PERSONAL = [
    "strava activity 11234567890 was the long run",
    "see activity 9123456789 for the tempo",
    "Garmin activity 15234987612 shows the splits",
    "order #9876543210 arrived",
    "training for the Boston marathon",
    "the London Marathon on 21 April went well",
    "signed up for the Comrades 2025",
    "listening to Fahrenheit 451 on easy runs",
    "ran down Main Street to the park",
    "the 10k on 5th Avenue was fast",
    "cycled Route 66 for a week",
    "splits 4:31 4:29 4:35 4:40 4:28",
    "I had to reset my password today, so annoying",
    "passwords are annoying",
    "I was born in 1990",
    "zones 120 135 150 165 180",
    "HR 49 123 456 789",
]


def test_ids_races_titles_places_and_splits_are_not_personal_data() -> None:
    for text in NOT_PERSONAL:
        assert redact_speech(text) == (text, ()), text
        assert text_problem(text) is None, text
        assert names_cut(text) is None, text


def test_a_name_with_a_number_after_it_is_still_a_name() -> None:
    assert text_problem("runs with Sarah 3 times a week") == "names another person"


@settings(max_examples=60, deadline=None)
@given(
    verb=st.sampled_from(["watched", "re-watched", "binge-watched", "streaming", "streamed"]),
    title=st.sampled_from(["21 Jump Street", "84 Charing Cross Road", "10 Downing Street"]),
    where=st.sampled_from(["I live at", "send it to", "we moved to", "meet me at"]),
)
def test_what_is_watched_or_read_is_a_title_and_where_one_lives_an_address(
    verb: str, title: str, where: str
) -> None:
    assert redact_speech(f"we {verb} {title} last night") == (f"we {verb} {title} last night", ())
    assert redact_speech(f"{where} {title} tomorrow")[1] == ("address",)


def test_a_surname_in_a_persons_place_is_a_name_even_with_a_number_after_it() -> None:
    for text in ["train with Smith 3 times a week", "running with Jenkins 2 days a week"]:
        assert text_problem(text) == "names another person", text


def test_what_a_card_or_sign_reads_is_still_an_address() -> None:
    assert redact_speech("my card reads 221 Baker Street")[1] == ("address",)


@settings(max_examples=120, deadline=None)
@given(
    named=st.sampled_from(["ssn is", "ssn", "passport", "passport no.", "license", "id card is"]),
    number=st.sampled_from(["078-05-1120", "533380006", "DL 12345678", "AB123456", "X1234567"]),
    after=st.lists(
        st.sampled_from(["dont", "tell", "anyone", "and", "more", "ok", "thanks", "lol", "it"]),
        min_size=1,
        max_size=4,
    ),
)
def test_a_document_number_is_cut_alone_and_the_words_after_it_stay(
    named: str, number: str, after: list[str]
) -> None:
    words = " ".join(after)
    redacted, kinds = redact_speech(f"{named} {number} {words}")
    assert kinds == ("document",)
    assert redacted == f"{named} [document] {words}"


@settings(max_examples=120, deadline=None)
@given(
    before=st.sampled_from(["my insta is", "tag", "dm me on insta", "follow", "its"]),
    handle=st.from_regex(r"@[a-z]{2,8}\.(?:[a-z]{0,3}[0-9]{1,3}|runs|running|art)", fullmatch=True),
    after=st.sampled_from(["", " lol", " in the pic", " pls"]),
)
def test_a_handle_with_a_dot_is_no_email_and_leaves_the_word_before_it(
    before: str, handle: str, after: str
) -> None:
    text = f"{before} {handle}{after}"
    assert redact_speech(text) == (text, ())


def test_an_address_spaced_around_its_at_and_dot_is_still_an_email() -> None:
    for text in (
        "write to ana @ gmail . com",
        "ana.k @ example.org",
        "mail me: bo@foo.k88",
        "ana.k @ seznam.cz",
        "jo @ firma.co.za",
        "ana.k@ outlook.com.tr",
        "write jo @gmail.com",
        "my email: ana.smith @acme-corp.com",
        "write to j.doe @uni.edu",
        "me: ana.k88 @company.net, call me",
    ):
        redacted, kinds = redact_speech(text)
        assert kinds == ("email",), text
        assert "@" not in redacted, redacted


@settings(max_examples=80, deadline=None)
@given(
    region=st.sampled_from(["GB", "US", "DE", "IN", "BR", "ES", "AU"]),
    link=st.sampled_from(
        ["wa.me/{n}", "https://wa.me/{n}", "tel:{n}", "https://api.whatsapp.com/send?phone={n}"]
    ),
    before=st.sampled_from(["", "whatsapp me ", "msg me here "]),
)
def test_the_number_of_a_link_that_dials_it_is_a_phone(region: str, link: str, before: str) -> None:
    example = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    digits = phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.E164)[1:]
    _speech_keeps_none_of(before + link.format(n=digits), digits)


def test_digits_in_a_link_that_dials_nothing_stay_as_written() -> None:
    for text in ("see https://example.com/item/447911123456", "https://shop.com/o?id=447911123456"):
        assert redact_speech(text) == (text, ())


@settings(max_examples=150, deadline=None)
@given(
    code=st.from_regex(r"[A-Z]{2}[0-9]{6,8}", fullmatch=True).filter(
        lambda c: c[:2] not in phonenumbers.SUPPORTED_REGIONS
    ),
    after=st.lists(st.sampled_from(["lol", "anyone", "ok", "thanks", "here", "now"]), min_size=2),
)
def test_a_code_and_the_words_after_it_are_no_iban_without_a_country(
    code: str, after: list[str]
) -> None:
    words = " ".join(after)
    redacted, _kinds = redact_speech(f"the code {code} {words}")
    assert redacted.endswith(words), redacted


@pytest.mark.parametrize(
    "text",
    [
        "policy number AB12 CDEF 3456 thanks",
        "my id number is X12 ABCD 9876",
        "membership number 1234 ABCD",
        "account number 1234 5678 ABCD 9012 ok",
        "member # 98 HJKL 7765",
        "tax number 12 3456 ABCDE 78",
        "insurance number ABCD 123456 ok",
        "my passport number is ab12 cdef 3456",
        "Passport number: 1234 5678 ABCDEFG",
        "my passport numbers are AB1234567 and CD7654321",
    ],
)
def test_a_document_number_in_groups_of_capitals_and_digits_is_cut_whole(text: str) -> None:
    redacted, kinds = redact_speech(text)
    assert kinds == ("document",)
    assert not any(ch.isdigit() for ch in redacted), redacted
    assert not re.search(r"\b[A-Z]{4,}\b", redacted), redacted
