"""Every threshold, cap and length of the vault, in one place.

The engine guide and the athlete-memory plan: caps 15 / 5 / 5, prompt floor 0.5, drop below 0.3, ~174 prompt tokens.
The oasis-memory design: +0.1 per repetition, x0.95 per unreinforced week after 7 days.
The M13 spec: high after 3 occurrences, archive kept 90 days.
Migrations never import this module: each revision spells out the numbers it shipped with.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

# -- confidence
ACTIVE_FLOOR = 0.3  # below this a fact is archived as `decayed` (the engine guide "drop < 0.3")
PROMPT_FLOOR = 0.5  # only facts this confident reach the MEMORY block (the engine guide)
HIGH = 0.8  # level `high` at or above; also the floor of a fact seen 3+ times
MEDIUM = 0.5  # level `medium` at or above
BOOST = 0.1  # a repeated fact gains this much (the oasis-memory design upsert)
HIGH_OCCURRENCES = 3  # the M13 spec: 3+ occurrences make a memory high-confidence
CONFIDENCE_DIGITS = 6  # confidences are rounded half-even to this many decimals

# -- decay (the oasis-memory design): x0.95 per full week unreinforced, after the first 7 days
DECAY_FACTOR = 0.95
DECAY_PERIOD = timedelta(days=7)
# Durable facts decay slower (issue 12): who the athlete is (kids, job, sport, level) and what
# they train for outlive a ten-week break; transient ones keep the coach guide's weekly x0.95.
DURABLE_DECAY_FACTOR = 0.99  # half-life about 69 weeks
GOAL_DECAY_FACTOR = 0.98  # half-life about 34 weeks

# -- caps (the engine guide hard caps)
MAX_FACTS = 15
MAX_PATTERNS = 5
MAX_NOTES = 5
MAX_LIST_ITEMS = 5  # patterns, and notes, each

# -- archive (the M13 spec)
ARCHIVE_RETENTION_DAYS = 90

# -- prompt (the athlete-memory plan §7)
PROMPT_BUDGET_TOKENS = 174
EPISODE_BUDGET = 160  # tokens of the episodic-memory design's KNOWLEDGE + PAST EXPERIENCE sections

# -- episodes and reference knowledge (the episodic-memory design)
EPISODE_CAP = 100_000  # per owner; the oldest leave for episode_archive as `capped`
EPISODE_ARCHIVE_RETENTION_DAYS = 90

# -- lengths
ATHLETE_ID_MAX = 128
FACT_TEXT_MAX = 200
ITEM_TEXT_MAX = 300
SOURCE_REF_MAX = 200
EXTRACTOR_MAX = 100
CONFLICT_KEY_MAX = 60
TAG_MAX = 60
EPISODE_TEXT_MAX = 20_000
EPISODE_TYPE_MAX = 40
REF_MAX = 200  # an app's own reference id of an episode
EVIDENCE_MAX = 500  # the words a fact was read from (one clause, or a note's line)
KNOWLEDGE_KIND_MAX = 40
KNOWLEDGE_NAME_MAX = 200
META_KEYS_MAX = 32  # metadata keys on one episode
META_VALUE_MAX = 200

# -- what one call may carry (docs/reliability.md); more is InvalidInput, unread
TAGS_MAX = 20  # entity tags on one fact or retraction
TEXT_INPUT_MAX = 10_000  # characters of one item's text before white space is folded
ITEMS_PER_CALL = 200  # candidates in one merge
# times vault accepts on input (observed_at, now): a fact observed before 1900 or after 2500 is
# a typo or an attack, and the ends of Python's calendar overflow when converted to UTC
TIME_MIN = datetime(1900, 1, 1, tzinfo=timezone.utc)
TIME_MAX = datetime(2500, 1, 1, tzinfo=timezone.utc)
