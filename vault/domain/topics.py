"""Topics of a conversation: the words and short phrases its people used (seed 004's
`conversation_topics`), found per episode when it is written.

RAKE's candidate rule (Rose et al., 2010): a candidate is a run of content words between
stopwords and punctuation. Runs of 1..3 words are kept (longer runs are cut into their
trailing three), each word at least 3 letters and without a digit ("6:55am", "5th", a code);
chat filler ("wow", "cool", "awesome"; the interjections and shorthand of chat: "ugh", "brb",
"tbh") and a leading "Name:" are dropped. What nobody said as
a word is no topic: links, vault's own redaction marks ("[email]") and an app's placeholders
in angle brackets ("<Media omitted>") are taken out first. Chat spellings are read as the
words they spell: a letter held for emphasis is read as the word it holds ("sooo" and "cooool"
are filler, "loooong" is "long"),
and a contraction written without its apostrophe ("ive", "thats", "dont") is no topic. Pure and
fast (about 20 us a message): it runs in every write of episodes. Measured alternatives are
in docs/recall.md.
"""

from __future__ import annotations

import re

from vault.domain.episode_query import STOPWORDS

TOPIC_MAX = 100  # characters of one topic (the episode_topics.topic column)
PER_EPISODE = 6  # phrases kept from one episode at most (and twice as many topics in all)
PHRASE_WORDS = 3

_SPEAKER = re.compile(r"^[^\W\d_][\w .'-]{0,40}:\s")
_BREAK = re.compile(r"[.!?,;:()\[\]{}\"\u201c\u201d/\\|\n]+")
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)?")
_NOT_SAID = re.compile(
    r"(?:[a-z][a-z0-9+.-]{1,20}://|www\.)\S+"  # a link
    r"|\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,6}/\S*"  # a link without its scheme: "wa.me/44..."
    r"|\[[a-z_]+\]"  # vault's redaction marks
    r"|<[^<>\n]{1,40}>",  # an app's placeholder: "<Media omitted>"
    re.IGNORECASE,
)
_HELD = re.compile(r"(.)\1{2,}")  # "sooo", "yesss": a letter held for emphasis
_MAY_HOLD_UNSAID = re.compile(r"[/\[<]|www\.")  # a link, a redaction mark, a placeholder
# contractions written without their apostrophe: an auxiliary and its "n't" ("dont", "didnt",
# "cant", "wont"), a pronoun and its "'ve", "'re", "'m" or "'s" ("ive", "youre", "im",
# "thats"). Closed classes of the grammar, so "sore", "form", "met" or "others" stay words
_AUXILIARIES = frozenset(
    "do does did is are was were have has had would could should ca wo must need".split()  # noqa: SIM905
)
_PRONOUNS = frozenset(
    "i you we they he she it that there here what who where let".split()  # noqa: SIM905
)
_CONTRACTED = frozenset(
    [aux + "nt" for aux in _AUXILIARIES]  # "dont", "cant" ("ca"), "wont" ("wo"); not "cat"
    + [pronoun + end for pronoun in _PRONOUNS for end in ("ve", "re", "m", "s")]
)
FILLER = frozenset(
    """
    wow cool awesome amazing great nice good glad sounds sound yeah yes yep nope okay hey hello
    thanks thank really super totally definitely absolutely pretty lot lots much many way kind
    sort bit stuff actually honestly literally maybe probably sure awesome fun happy excited
    hope hoping feel feeling felt think thought guess want wanted going gonna wanna got let
    make made keep kept tell told share shared take took see saw look looks looking new old
    great wonderful incredible fantastic lovely glad proud thing things lol haha omg also
    always never every everything something anything nothing someone everyone people person
    went go goes come came done given found hear heard now check continue happened doing
    know knew say saying mean means love loved like liked need needed try tried able
    lmao lmfao rofl brb btw idk tbh ngl imo imho smh ikr tho thx pls plz wyd hbu ttyl omw
    ugh hmm yay aww oops
    """.split()  # noqa: SIM905 - a word list reads better as text
)


def topics(text: str) -> list[str]:
    """The topics of one message, lower-cased, each once: its phrases of several words, then
    every word of its phrases, in order."""
    body = _SPEAKER.sub("", text, count=1)
    if _MAY_HOLD_UNSAID.search(body):  # most messages hold no link, mark or placeholder
        body = _NOT_SAID.sub(" . ", body)
    lowered = body.lower().replace("\u2019", "'")
    held = _HELD.search(lowered) is not None
    found: list[str] = []
    for piece in _BREAK.split(lowered):
        run: list[str] = []
        for word in (*_WORD.findall(piece), ""):
            if _is_topic_word(word, held):
                run.append(_HELD.sub(r"\1", word) if held else word)  # "loooong": "long"
                continue
            if run:
                found.append(" ".join(run[-PHRASE_WORDS:])[:TOPIC_MAX])
                run = []
    # a phrase counts for each of its words too ("camping plans" is about camping); a lone
    # past form ("happened", "joined") is what was done, not what it was about
    phrases = [p for p in dict.fromkeys(found) if " " in p][:PER_EPISODE]
    singles = [w for p in found for w in p.split() if not (w.endswith("ed") and len(w) > 4)]
    return [*phrases, *dict.fromkeys(singles)][: PER_EPISODE * 2]


def _is_topic_word(word: str, held: bool) -> bool:
    # letters only: no digit ("55am", "5th"), no apostrophe ("don't" is a stopword's form)
    if len(word) < 3 or not word.isalpha() or word in STOPWORDS or word in FILLER:
        return False
    if word in _CONTRACTED:
        return False
    if held and _HELD.search(word):  # "sooo" is "so", "cooool" is "cool": filler either way
        return not (
            _said_nothing(_HELD.sub(r"\1\1", word)) or _said_nothing(_HELD.sub(r"\1", word))
        )
    return True


def _said_nothing(word: str) -> bool:
    return word in STOPWORDS or word in FILLER


def topic_keys(text: str) -> list[str]:
    """Every topic a question could name: its phrases, their runs of adjacent words and each
    content word ("lake trips" -> "lake trips", "lake", "trips")."""
    found: dict[str, None] = {}
    for phrase in topics(text):
        words = phrase.split()
        for start in range(len(words)):
            for end in range(start + 1, len(words) + 1):
                found[" ".join(words[start:end])] = None
    return list(found)
