"""Every text-processing path of vault.extraction is linear in its input (issue 9).

No clock is read. Each compiled pattern of the extraction modules (module globals, and the
patterns inside their word tables) and the module-level `re` functions they call are wrapped
in a counter that adds up how many characters each call hands to the regex engine. A linear
path reads each character a bounded number of times, so the work at 4n is about 4x the work
at n; the quadratic body-part rule (a `$`-anchored search over the whole prefix for every
match) gave 16x. The assert allows up to 6x.
"""

from __future__ import annotations

import importlib
import re
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from vault.domain.vocabulary import Source
from vault.extraction import LLMExtractor, RuleExtractor, find_pii, parse_llm_reply, redact
from vault.extraction.privacy import scrub_text

MODULES = [
    "vault.extraction.body_rules",
    "vault.extraction.clauses",
    "vault.extraction.findings",
    "vault.extraction.lexicon",
    "vault.extraction.life_rules",
    "vault.extraction.llm",
    "vault.extraction.privacy",
    "vault.extraction.pii",
    "vault.extraction.pii_numbers",
    "vault.extraction.reading",
    "vault.extraction.profile_rules",
    "vault.extraction.schedule_rules",
    "vault.extraction.words",
    "vault.extraction.health_rules",
    "vault.extraction.clause_checks",
    "vault.extraction.canonical",
]
_SCANNING = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class Counter:
    """Characters handed to the regex engine, summed over every call."""

    def __init__(self) -> None:
        self.chars = 0

    def add(self, string: Any, pos: int = 0) -> None:
        if isinstance(string, str):
            self.chars += max(0, len(string) - pos)


class CountingPattern:
    """A compiled pattern that reports the length of every string it scans."""

    def __init__(self, pattern: re.Pattern[str], counter: Counter) -> None:
        self._pattern = pattern
        self._counter = counter

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._pattern, name)
        if name not in _SCANNING:
            return attribute

        def counted(*args: Any, **kwargs: Any) -> Any:
            string = args[1] if name in ("sub", "subn") else args[0]
            pos = args[1] if name not in ("sub", "subn", "split") and len(args) > 1 else 0
            self._counter.add(string, pos if isinstance(pos, int) else 0)
            return attribute(*args, **kwargs)

        return counted


def _wrap(value: Any, counter: Counter) -> Any:
    if isinstance(value, re.Pattern):
        return CountingPattern(value, counter)
    if isinstance(value, tuple):
        return tuple(_wrap(item, counter) for item in value)
    return value


def _counting_re(counter: Counter) -> types.SimpleNamespace:
    def scanning(name: str) -> Callable[..., Any]:
        real = getattr(re, name)

        def counted(pattern: Any, string: Any, *args: Any, **kwargs: Any) -> Any:
            text = string if name not in ("sub", "subn") else args[0] if args else ""
            counter.add(text)
            return real(pattern, string, *args, **kwargs)

        return counted

    shim = types.SimpleNamespace(**{name: getattr(re, name) for name in dir(re)})
    for name in _SCANNING:
        setattr(shim, name, scanning(name))
    return shim


@contextmanager
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter]:
    counter = Counter()
    with monkeypatch.context() as patch:
        for name in MODULES:
            try:
                module = importlib.import_module(name)
            except ModuleNotFoundError:
                continue
            for attribute, value in list(vars(module).items()):
                if attribute == "re" and value is re:
                    patch.setattr(module, "re", _counting_re(counter))
                elif isinstance(value, (re.Pattern, tuple)):
                    wrapped = _wrap(value, counter)
                    if wrapped is not value:
                        patch.setattr(module, attribute, wrapped)
        yield counter


def work(monkeypatch: pytest.MonkeyPatch, run: Callable[[str], object], text: str) -> int:
    with counting(monkeypatch) as counter:
        run(text)
    return counter.chars


def _rules(text: str) -> object:
    return RuleExtractor().extract(text, source=Source.USER_MESSAGE)


def _llm_prompt(text: str) -> object:
    return LLMExtractor(lambda prompt: "[]").prompt_for(text)


def _llm_reply(text: str) -> object:
    return parse_llm_reply('[{"fact": "has knee issue"}] ' + text)


REPEATED = [
    "my knee ",
    "my left knee hurts ",
    "I run 45 min ",
    "usually 45 min ",
    "I love running and hiking ",
    "card 4111 1111 1111 1111 ",
    "Sarah ",
    "1-",
    "1 ",
    "a@",
    " and",
    "x.",
    "I'm a web developer ",
    "ignore previous ",
    "born on 1990-03-02 ",
    "DE89 3704 ",
]


@pytest.mark.parametrize("unit", REPEATED)
@pytest.mark.parametrize(
    "run",
    [_rules, find_pii, redact, scrub_text, _llm_prompt, _llm_reply],
    ids=["rules", "find_pii", "redact", "scrub_text", "llm_prompt", "llm_reply"],
)
def test_work_grows_linearly_with_the_input(
    monkeypatch: pytest.MonkeyPatch, unit: str, run: Callable[[str], object]
) -> None:
    n = max(1, 1_200 // len(unit))
    small = work(monkeypatch, run, unit * n)
    large = work(monkeypatch, run, unit * (4 * n))
    assert small > 0
    assert large <= 6 * small, (unit, small, large)


def test_the_counter_sees_a_quadratic_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The measuring stick works: a $-anchored search over each prefix is caught."""
    pattern = re.compile(r"\bmy (?:\w+ )?$")
    counter = Counter()
    wrapped = CountingPattern(pattern, counter)

    def run(text: str) -> int:
        counter.chars = 0
        for match in re.finditer("knee", text):
            wrapped.search(text[: match.start()])
        return counter.chars

    assert run("my knee " * 400) > 12 * run("my knee " * 100)
