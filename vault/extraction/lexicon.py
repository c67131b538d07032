"""The rule extractor's word tables: surface forms on the left, canonical wording on the right.

Every table is ordered: longer, more specific forms come first ("half marathon" before
"marathon"), and `first_match` / `all_matches` respect that order.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from vault.domain.lexicon import body, jobs

Table = Sequence[tuple[str, str]]  # (regex over normalised lower-case text, canonical value)

# Sports the athlete trains in, by verb, agent noun and gerund.
SPORT_VERBS: Table = (
    (r"run|jog", "running"),
    (r"ride|bike|cycle", "cycling"),
    (r"swim", "swimming"),
    (r"row", "rowing"),
)
SPORT_AGENTS: Table = (
    (r"runners?|joggers?", "running"),
    (r"cyclists?|bikers?|riders?|roadies?", "cycling"),
    (r"swimmers?", "swimming"),
    (r"triathletes?", "triathlon"),
    (r"rowers?", "rowing"),
)
SPORT_GERUNDS: Table = (
    (r"trail running|running|jogging", "running"),
    (
        (
            r"cycling|biking|riding(?! (?:horses?|a horse|my horse|(?:a |my |the )?(?:motor\w*|bus|train"
            r"|scooter|skateboard|waves?)))|road cycling|mountain biking"
        ),
        "cycling",
    ),
    (r"swimming", "swimming"),
    (r"triathlons?|tri", "triathlon"),
    (r"rowing", "rowing"),
)

# Regex pieces for "I (mostly) run": the sport verbs and the habit adverbs that may precede them.
VERB_RX = r"(?:run|jog|ride|bike|cycle|swim|row)"
ADVERBS_RX = (
    r"(?:(?:mostly|mainly|usually|normally|generally|typically|primarily|regularly|just|only|now"
    r"|really|often|always|tend to|try to|still|mostly just|mainly just) )*"
)

# Sports done on the side ("also does climbing").
OTHER_SPORTS: Table = (
    (r"climbing|bouldering|climb|boulder", "climbing"),
    (r"yoga", "yoga"),
    (r"pilates", "pilates"),
    (r"crossfit", "crossfit"),
    (
        (
            r"strength training|strength work|strength sessions?|weight training|weights|lifting"
            r"|lift|the gym|gym"
        ),
        "strength training",
    ),
    (r"5-a-side football|five-a-side|football|5-a-side", "football"),
    # the word said: "football" alone is soccer to some and gridiron to others
    (r"soccer", "soccer"),
    (r"tennis", "tennis"),
    (r"squash", "squash"),
    (r"hiking|hike", "hiking"),
    (r"skiing|ski", "skiing"),
    (r"martial arts|bjj|jiu jitsu|judo|karate|kickboxing", "martial arts"),
    (r"boxing", "boxing"),
    (r"basketball", "basketball"),
    (r"dancing|dance", "dance"),
    (r"swimming|swim", "swimming"),
    (r"cycling|biking|riding|cycle|bike|ride", "cycling"),
    (r"running|jogging|run|jog", "running"),
    (r"rowing|row", "rowing"),
)

# Activities a person does, by how people name them after "I like to ..." / "I love ...":
# verbs, gerunds and nouns. A verb with an object that is not the activity ("run a school",
# "ride my motorbike", "walk my dog") is no activity, so each form says what may follow.
ACTIVITIES: Table = (
    (
        (
            r"(?:ride|riding|ride on) (?:(?:my|a|the|our|all kinds of) )?horses?|horse ?back riding"
            r"|horse riding|equestrian"
        ),
        "horse riding",
    ),
    (
        (
            r"mountain bik(?:e|es|ing)|(?:ride|riding) (?:my |a |our |their )?bikes?|bike rides?"
            r"|bik(?:e|es|ing)(?! (?:shop|store|lane|to work))|cycl(?:e|es|ing)(?! to work)"
            r"|road cycling|spin(?:ning)? class(?:es)?"
        ),
        "cycling",
    ),
    (
        (
            r"trail running|run(?:s|ning)?(?! (?:a|an|my|our|the|his|her|errands|out of|into"
            r"|for office|late|around|away)\b)|jog(?:s|ging)?"
        ),
        "running",
    ),
    (r"swim(?:s|ming)?(?! (?:suit|wear))|laps in the pool", "swimming"),
    (r"hik(?:e|es|ing)|trekking|backpacking", "hiking"),
    (
        (
            r"(?:long |brisk |nature )?walks?(?! (?:my|the|our|his|her|dogs?)\b)"
            r"|walking(?! (?:my|the|our|his|her|dogs?)\b)|power walking"
        ),
        "walking",
    ),
    (r"(?:\w+[- ])?danc(?:e|es|ing)(?: lessons| classes)?|ballet|zumba", "dance"),
    (r"yoga", "yoga"),
    (r"pilates", "pilates"),
    (r"crossfit", "crossfit"),
    (
        (
            r"lift(?:ing)? weights|weight ?lifting|(?:go(?:ing)? to )?the gym|gym|strength training"
            r"|body ?build(?:ing|er)|powerlifting"
        ),
        "strength training",
    ),
    (r"work(?:ing)? ?out|workouts?|exercis(?:e|es|ing)", "working out"),
    (r"cardio", "cardio"),
    (r"ping ?pong|table tennis", "table tennis"),
    (r"tennis", "tennis"),
    (r"basketball", "basketball"),
    (r"soccer", "soccer"),
    (r"football", "football"),
    (r"softball", "softball"),
    (r"pickle ?ball", "pickleball"),
    (r"racquet ?ball", "racquetball"),
    (r"squash", "squash"),
    (r"(?:ultimate )?frisbee|ultimate", "ultimate frisbee"),
    (r"scuba(?: diving)?|diving", "scuba diving"),
    (r"hiit|circuit training|bootcamp|boot camp", "hiit"),
    (r"baseball", "baseball"),
    (r"volleyball", "volleyball"),
    (r"golf(?:ing)?", "golf"),
    (r"(?:ice |field )?hockey", "hockey"),
    (r"rugby", "rugby"),
    (r"badminton", "badminton"),
    (r"ski(?:s|ing)?", "skiing"),
    (r"snowboard(?:s|ing)?", "snowboarding"),
    (r"surf(?:s|ing)?", "surfing"),
    (r"skateboard(?:s|ing)?", "skateboarding"),
    # "skate" alone may be on ice, on rollers or on a board
    (r"(?:ice |roller |figure )?skat(?:e|es|ing)", "skating"),
    (r"kayak(?:s|ing)?|canoe(?:s|ing)?|paddl(?:e|ing)", "kayaking"),
    (r"rock climbing|climb(?:s|ing)?|boulder(?:s|ing)?", "climbing"),
    (r"box(?:es|ing)?|kickboxing", "boxing"),
    (r"martial arts|karate|judo|taekwondo|jiu[- ]?jitsu|bjj|kung fu|mma", "martial arts"),
    (r"gymnastics", "gymnastics"),
    (r"wrestl(?:e|ing)", "wrestling"),
    (r"row(?:s|ing)?", "rowing"),
    # the gerunds only: "fish" and "bowl" are also a food and a dish ("I like fish")
    (r"(?:fly |deep[- ]sea |ice )?fishing", "fishing"),
    (r"bowling", "bowling"),
)
# People named after an activity ("I'm an avid kayaker").
ACTIVITY_AGENTS: Table = (
    (r"skateboarders?|skaters?", "skateboarding"),
    (r"kayakers?", "kayaking"),
    (r"hikers?", "hiking"),
    (r"walkers?", "walking"),
    (r"dancers?", "dance"),
    (r"climbers?|boulderers?", "climbing"),
    (r"skiers?", "skiing"),
    (r"surfers?", "surfing"),
    (r"yogis?", "yoga"),
    (r"golfers?", "golf"),
    (r"body ?builders?|weight ?lifters?|lifters?", "strength training"),
    (r"gymnasts?", "gymnastics"),
    (r"tennis players?", "tennis"),
    (r"soccer players?", "soccer"),
    (r"footballers?", "football"),
    (r"basketball players?", "basketball"),
    (
        r"(?:workout|fitness|gym) (?:enthusiasts?|junkies?|fanatics?|nuts?|rats?|buffs?)",
        "working out",
    ),
)

# Proper nouns inside the tables (marathon cities): names of places, never "known words".
PLACE_WORDS = frozenset(
    {
        "boston",
        "berlin",
        "chicago",
        "nyc",
        "york",
        "tokyo",
        "london",
        "valencia",
        "rotterdam",
        "paris",
        "amsterdam",
        "seville",
        "sevilla",
        "frankfurt",
        "barcelona",
        "dublin",
        "vienna",
        "sydney",
        "honolulu",
        "houston",
        "philadelphia",
        "munich",
        "hamburg",
        "milan",
        "rome",
    }
)
_CITIES = "|".join(sorted(PLACE_WORDS - {"york"}) + ["new york"])

# Race goals (the engine guide's goal slot).
GOALS: Table = (
    (r"half[- ]?ironman|70\.3", "half ironman"),
    (
        (
            r"ultra ?marathons?|ultras?|50 ?k|100 ?k|50 ?mile(?:r|s)?"
            r"|100 ?mile(?:r|s)?(?! ride)"
        ),
        "ultra",
    ),
    (
        (
            r"half[- ]?marathons?|half[- ]?mara|(?<!and )(?:a|the|my first|my)(?: \w+)? half(?! (?:an"
            r"|hour|of|the|way|term|price|time))"
            r"|21(?:\.1)? ?k|13\.1|great north run"
        ),
        "half marathon",
    ),
    (r"full ironman|ironman|140\.6", "ironman"),
    (r"marathons?|mara|42(?:\.2)? ?k|26\.2", "marathon"),
    # world marathon majors named alone ("running Berlin", "qualify for Boston")
    (
        (
            rf"(?<=for )(?:the )?(?:{_CITIES})(?! (?:half|10k|5k|tri))"
            rf"|(?<=running )(?:{_CITIES})(?! (?:half|10k|5k|tri))"
            rf"|(?<=before )(?:the )?(?:{_CITIES})(?! (?:half|10k|5k|tri))"
        ),
        "marathon",
    ),
    (r"(?:sprint|olympic|olympic distance|standard distance)? ?(?:triathlon|tri)\b", "triathlon"),
    (r"10 ?km?\b|ten ?k\b", "10k"),
    (r"5 ?km?\b|five ?k\b", "5k"),
    (r"century(?: ride)?|100 mile ride", "century ride"),
    (r"sportive|gran ?fondo|fondo", "sportive"),
    (
        (
            r"lose (?:some |a bit of )?weight|lose \d+ ?(?:kg|kgs|kilos|lbs?|pounds)|weight loss"
            r"|drop (?:some )?weight"
        ),
        "weight loss",
    ),
)

# The body parts, by how athletes write them: the shared vocabulary (vault.domain.lexicon.body).
BODY_PARTS: Table = tuple((part.forms, part.label) for part in body.PARTS)

# Time of day -> the bucket used in "prefers <bucket> sessions".
TIME_TERMS: Table = (
    (
        (
            r"early mornings?|mornings?|mornin|sunrise|dawn|first thing|before work|early bird"
            r"|early riser|morning person|early"
        ),
        "morning",
    ),
    (r"lunch ?times?|lunch ?breaks?|lunch|midday|noon", "lunchtime"),
    (r"afternoons?", "afternoon"),
    (
        (
            r"evenings?|after work|night owl|evening person|after dark|late at night|at night|nights"
            r"|after (?:the )?kids are (?:in bed|asleep)|late"
        ),
        "evening",
    ),
)

# Things an athlete likes or dislikes ("likes intervals", "dislikes treadmill").
LIKE_OBJECTS: Table = (
    (r"hill (?:repeats|reps|sessions?|work|training)|hilly routes?|(?<!tree )hills?", "hills"),
    (r"intervals?|interval (?:sessions?|training|work)", "intervals"),
    (r"tempos?(?: runs?| sessions?| work)?|threshold (?:runs?|sessions?|work)", "tempo runs"),
    (r"long runs?", "long runs"),
    (r"long rides?", "long rides"),
    (r"treadmills?|dreadmill", "treadmill"),
    (
        r"(?:the )?track(?! (?:my|of|your|and field))(?: sessions?| work| workouts?)?",
        "track sessions",
    ),
    (
        r"trail running|trail runs?|trails(?! mix)|trail(?! (?:shoes|mix))|off[- ]road",
        "trail running",
    ),
    (
        (
            r"group (?:runs?|rides?|sessions?)|club (?:runs?|rides?|sessions?)|(?:with|in) (?:a"
            r"|the) group"
            r"|(?:with|in) (?:a|the) club|with others|(?:runs?|running|rides?|riding) with (?:my )?"
            r"(?:friends|colleagues|mates|buddies|the club|my club|a crew|the crew)"
        ),
        "group runs",
    ),
    (r"easy (?:runs?|miles|days)", "easy runs"),
    (r"speed ?work|speed sessions?", "speed work"),
    (
        (r"strength (?:training|work|sessions?)|the gym|gym sessions?|weights|lifting"),
        "strength training",
    ),
    (r"racing|races", "racing"),
    (r"turbo|zwift|indoor (?:rides?|riding|trainer|cycling)", "indoor riding"),
    (r"open water", "open water swimming"),
    (r"(?:the )?heat|hot weather|humidity", "hot weather"),
    (r"(?:the )?cold(?! water)|cold weather", "cold weather"),
    (r"(?:the )?rain|wet weather", "rain"),
)

# Sessions whose effect the athlete describes ("long runs leave them exhausted").
SESSIONS: Table = (
    (r"hill (?:repeats|reps|sessions?|work)|hills", "hills"),
    (r"intervals?|interval sessions?|reps", "intervals"),
    (r"tempos?(?: runs?| sessions?| work)?|threshold (?:runs?|sessions?|work)", "tempo runs"),
    (r"long runs?", "long runs"),
    (r"long rides?", "long rides"),
    (r"speed ?work|speed sessions?", "speed work"),
    (r"track (?:sessions?|work|workouts?)", "track sessions"),
    (r"races|racing", "races"),
    (r"hard (?:sessions?|workouts?|days|efforts?)", "hard sessions"),
    (r"high (?:mileage|volume)|big (?:weeks|mileage)", "high mileage"),
    (r"strength (?:training|work|sessions?)|weights", "strength training"),
)
STATES: Table = (
    (
        (
            r"exhausted|wrecked|destroyed|knackered|dead|drained|wiped(?: out)?|cooked|shattered|smashed"
            r"|spent|fried|broken|trashed|ruined|flat"
        ),
        "exhausted",
    ),
    (r"tired|fatigued|sleepy|sluggish", "tired"),
    (r"sore|achy|stiff|doms", "sore"),
    (r"energi[sz]ed|buzzing|great|fresh|amazing|alive|pumped|strong", "energized"),
)

# Jobs named after "I'm a ...": the shared vocabulary (vault.domain.lexicon.jobs).
JOBS = jobs.JOBS


def compile_table(table: Table) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Compile each surface form as a whole-word pattern."""
    return tuple((re.compile(rf"(?<![\w-])(?:{rx})(?![\w-])"), value) for rx, value in table)


def all_matches(
    table: tuple[tuple[re.Pattern[str], str], ...], text: str
) -> Iterator[tuple[re.Match[str], str]]:
    """Every non-overlapping match of any row, earlier rows winning an overlap, in text order."""
    # One flag per character taken: checking an overlap costs the match's length, not the
    # number of earlier matches, so a text naming a part thousands of times stays linear.
    taken = bytearray(len(text))
    found: list[tuple[re.Match[str], str]] = []
    for pattern, value in table:
        for match in pattern.finditer(text):
            start, end = match.span()
            if start == end or 1 in taken[start:end]:
                continue
            taken[start:end] = b"\x01" * (end - start)
            found.append((match, value))
    yield from sorted(found, key=lambda pair: pair[0].start())


def first_match(table: tuple[tuple[re.Pattern[str], str], ...], text: str) -> str | None:
    """The canonical value of the earliest match in `text`, or None."""
    return next((value for _, value in all_matches(table, text)), None)


def alternation(table: Table) -> str:
    """One regex alternation of every surface form in `table`."""
    return "|".join(f"(?:{rx})" for rx, _ in table)
