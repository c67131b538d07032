"""Long multi-session coaching conversations with questions, generated from templates (seeded).

Each conversation is ~30 sessions of ~16-20 turns (athlete and coach), a session every 2-4 days.
Among the filler (small talk and coaching chatter that reuses the same sport words on purpose),
some athlete turns state an *event* (a run with a friend, a purchase, a pain, a race, a meal).
Every event comes back as one question whose answer is that turn. Questions are paraphrased:
they rarely repeat the turn's words ("trainers" vs "shoes", "jog" vs "run", "calf" vs "leg"),
and some point at time ("last week", "in May", "before the race", "yesterday") where the same
kind of event happened more than once.

Two question phrasings exist per event kind: set "dev" (tuned on) and set "blind" (never looked
at while tuning; the blind conversations also use other seeds). `generate(seed, split)` returns
{"conversations": [...], "questions": [...]} as plain data; `python tools/episode_corpus.py`
writes tests/data/episodes/{dev,blind}.json.
"""

from __future__ import annotations

import json
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

PEOPLE = [
    "Priya",
    "Marco",
    "Lena",
    "Tomasz",
    "Aiko",
    "Dev",
    "Sofia",
    "Jonas",
    "Mei",
    "Omar",
    "Hannah",
    "Luca",
    "Nadia",
    "Felix",
    "Ines",
]
PLACES = [
    "the canal towpath",
    "Victoria Park",
    "the river loop",
    "the old railway path",
    "Hampstead Heath",
    "the harbour wall",
    "the forest trail",
    "the university track",
    "Battersea Park",
    "the reservoir path",
]
SHOES = [
    "Hoka Clifton",
    "Nike Pegasus",
    "Saucony Ride",
    "Brooks Ghost",
    "Asics Novablast",
    "New Balance 1080",
    "On Cloudmonster",
]
BODY = ["calf", "knee", "hamstring", "shin", "achilles", "hip", "ankle"]
FOODS = [
    "a big bowl of pasta",
    "rice and grilled chicken",
    "a mushroom risotto",
    "sweet potato curry",
    "pancakes with honey",
    "a bagel with peanut butter",
]
RACES = ["the Riverside 10k", "the city half marathon", "the Harbour 5k", "the Forest trail race"]
WORKOUTS = ["hill repeats", "a tempo run", "800m intervals", "a long run", "a fartlek session"]
FEELINGS_BAD = ["my legs felt like lead", "I was completely flat", "I felt sluggish the whole way"]
FEELINGS_GOOD = ["I felt really strong", "it felt easy and smooth", "I was flying"]

# each event kind: athlete turn variants (the corpus) and question variants per split
EVENTS: dict[str, dict[str, list[str]]] = {
    "run_with": {
        "turn": [
            "Did a slow jog along {place} with {person} this morning, we chatted the whole way",
            "{person} joined me for an easy jog around {place}, nice to have company",
            "Went jogging with {person} at {place}, kept it conversational",
        ],
        "dev": [
            "Who did I go running with at {place}?",
            "Which friend ran with me around {place}?",
        ],
        "blind": [
            "Remind me who came along on my run at {place}",
            "Who kept me company running by {place}?",
        ],
    },
    "shoes": {
        "turn": [
            "Picked up a new pair of {shoe} trainers at the shop today, they feel bouncy",
            "Finally bought the {shoe} trainers I had my eye on",
            "Got myself some {shoe} sneakers, first run in them tomorrow",
        ],
        "dev": ["Which shoes did I buy?", "What running shoes did I get?"],
        "blind": [
            "What brand of shoe did I purchase recently?",
            "Which new shoes have I been trying out?",
        ],
    },
    "pain": {
        "turn": [
            "My {body} was aching badly after {workout}, had to stop early",
            "Tweaked my {body} during {workout}, it's sore today",
            "Felt a sharp twinge in the {body} halfway through {workout}",
        ],
        "dev": [
            "What got hurt during {workout}?",
            "Which part of my leg was in pain after {workout}?",
        ],
        "blind": [
            "Where did I feel pain doing {workout}?",
            "What injury did I pick up in {workout}?",
        ],
    },
    "race_feel": {
        "turn": [
            "Raced {race} yesterday, {feeling_bad}, finished way off my target",
            "{race} did not go well, {feeling_bad} from the start",
        ],
        "dev": ["How did I feel in {race}?", "How did {race} go?"],
        "blind": ["What was my experience at {race}?", "Was {race} a good one for me?"],
    },
    "pre_race_meal": {
        "turn": [
            "Had {food} for dinner tonight, carb loading for tomorrow",
            "Dinner was {food}, trying to fuel up properly",
        ],
        "dev": ["What did I eat before the race?", "What was my dinner before the race?"],
        "blind": [
            "What meal did I have the night before the race?",
            "How did I fuel up before the race?",
        ],
    },
    "workout_feel": {
        "turn": [
            "Did {workout} at {place}, {feeling_good}",
            "Session today was {workout} at {place}, {feeling_good}",
        ],
        "dev": ["How did {workout} feel last week?", "How did I feel doing {workout} last week?"],
        "blind": [
            "What was {workout} like for me last week?",
            "Last week's {workout}: how was it?",
        ],
    },
    "coffee": {
        "turn": [
            "Had a double espresso before the session and felt jittery the whole time",
            "Tried a strong coffee right before training, stomach was upset after",
        ],
        "dev": [
            "Did caffeine before training cause problems?",
            "What happened when I drank coffee before a run?",
        ],
        "blind": [
            "Any bad experience with caffeine before exercise?",
            "How did espresso before a workout work out?",
        ],
    },
    "sleep": {
        "turn": [
            "Only slept four hours because of the baby, skipped the planned session",
            "Terrible night, barely slept, so I missed training today",
        ],
        "dev": ["Why did I skip training?", "What made me miss a session?"],
        "blind": ["What was the reason I didn't train that day?", "Why was a workout missed?"],
    },
}

FILLER_USER = [
    "Legs feel okay today, nothing special to report",
    "Work was busy so the run was short",
    "I think I'm getting fitter, the easy runs feel easier",
    "What should I do tomorrow?",
    "Is it fine to run two days in a row?",
    "The weather was grim, rain all morning",
    "Had a rest day, just stretched a bit",
    "Could we add more strength work?",
    "My watch died halfway so no data today",
    "Thinking about signing up for another race",
    "Felt a bit tired but nothing hurts",
    "Did some yoga in the evening",
    "I ran easy for forty minutes",
    "Should I worry about my pace?",
    "Knees feel fine",
    "Going to the gym later for weights",
    "Quick jog at lunch, nothing special",
    "Not much to report, normal week",
    "I want to improve my long run",
    "How many runs per week is sensible?",
    "The track was busy so I ran on the road",
    "I ate well today",
    "My friend wants to start running too",
    "Slept okay last night",
]
FILLER_COACH = [
    "Good, keep the easy runs truly easy.",
    "Let's plan a recovery day tomorrow.",
    "How did your legs feel on the hills?",
    "Remember to fuel before long runs.",
    "Try to sleep at least seven hours before hard sessions.",
    "Nice work, consistency matters.",
    "Let's keep an eye on that pain if it comes back.",
    "Next week we'll add some intervals.",
    "Shoes matter, rotate pairs if you can.",
    "Race day is about pacing, start slow.",
    "A tempo run should feel comfortably hard.",
    "Stretch your calves after running.",
    "Coffee is fine for most people, test it in training.",
    "Who do you usually run with?",
    "Where do you like to run?",
    "How is your knee holding up?",
]


def _fill(template: str, slots: dict[str, str]) -> str:
    return template.format(**slots)


def conversation(
    seed: int, split: str, index: int
) -> tuple[dict[str, object], list[dict[str, object]]]:
    rng = random.Random(seed * 1000 + index)
    start = datetime(2025, 3, 3, 7, 0, tzinfo=timezone.utc) + timedelta(days=rng.randrange(0, 60))
    sessions = 30
    turns: list[dict[str, object]] = []
    questions: list[dict[str, object]] = []
    day = start
    session_days = []
    for _ in range(sessions):
        session_days.append(day)
        day = day + timedelta(days=rng.choice([2, 3, 3, 4]))
    end = session_days[-1] + timedelta(days=1, hours=10)  # questions are asked the next day
    race_session = rng.randrange(12, sessions - 6)
    race = rng.choice(RACES)
    # plan events: session index -> list of (kind, slots, question needs)
    plan: dict[int, list[tuple[str, dict[str, str]]]] = {}
    used_people = rng.sample(PEOPLE, 6)
    for person in used_people[:4]:
        place = rng.choice(PLACES)
        plan.setdefault(rng.randrange(sessions), []).append(
            ("run_with", {"person": person, "place": place})
        )
    shoe_session = rng.randrange(sessions)
    plan.setdefault(shoe_session, []).append(("shoes", {"shoe": rng.choice(SHOES)}))
    for workout in rng.sample(WORKOUTS, 3):
        plan.setdefault(rng.randrange(sessions), []).append(
            ("pain", {"body": rng.choice(BODY), "workout": workout})
        )
    plan.setdefault(race_session, []).append(
        ("race_feel", {"race": race, "feeling_bad": rng.choice(FEELINGS_BAD)})
    )
    plan.setdefault(race_session - 1, []).append(("pre_race_meal", {"food": rng.choice(FOODS)}))
    # a meal on another day is a distractor for "before the race"
    plan.setdefault(rng.randrange(2, race_session - 3), []).append(
        ("meal_other", {"food": rng.choice(FOODS)})
    )
    # the same workout twice: long ago and last week (the question asks about last week)
    workout = rng.choice(WORKOUTS)
    last_week = [i for i, d in enumerate(session_days) if _in_last_week(d, end)]
    plan.setdefault(rng.randrange(3, 12), []).append(
        (
            "workout_old",
            {
                "workout": workout,
                "place": rng.choice(PLACES),
                "feeling_good": rng.choice(FEELINGS_BAD),
            },
        )
    )
    if last_week:
        plan.setdefault(rng.choice(last_week), []).append(
            (
                "workout_feel",
                {
                    "workout": workout,
                    "place": rng.choice(PLACES),
                    "feeling_good": rng.choice(FEELINGS_GOOD),
                },
            )
        )
    plan.setdefault(rng.randrange(sessions), []).append(("coffee", {}))
    plan.setdefault(rng.randrange(sessions), []).append(("sleep", {}))
    for s, moment in enumerate(session_days):
        events = plan.get(s, [])
        count = rng.randrange(16, 21)
        slots = sorted(rng.sample(range(0, count, 2), min(len(events), count // 2)))
        when = moment
        for t in range(count):
            when = when + timedelta(minutes=rng.randrange(1, 4))
            role = "user" if t % 2 == 0 else "assistant"
            text = rng.choice(FILLER_USER if role == "user" else FILLER_COACH)
            answer_of = None
            if role == "user" and t in slots:
                kind, values = events[slots.index(t)]
                text, answer_of = _event_turn(rng, kind, values, split)
            turn_id = f"c{seed}-{index}-s{s}-t{t}"
            turns.append({"id": turn_id, "role": role, "text": text, "at": when.isoformat()})
            if answer_of is not None:
                questions.append(
                    {
                        "question": answer_of,
                        "answers": [turn_id],
                        "kind": kind,
                        "conversation": f"c{seed}-{index}",
                    }
                )
    return (
        {"id": f"c{seed}-{index}", "asked_at": end.isoformat(), "turns": turns},
        [q for q in questions if q["question"]],
    )


def _in_last_week(moment: datetime, now: datetime) -> bool:
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    monday = today - timedelta(days=today.weekday())
    return monday - timedelta(days=7) <= moment < monday


def _event_turn(
    rng: random.Random, kind: str, values: dict[str, str], split: str
) -> tuple[str, str | None]:
    if kind == "meal_other":
        return f"Dinner was {values['food']}, nothing special", None
    if kind == "workout_old":
        spec = EVENTS["workout_feel"]
        return _fill(rng.choice(spec["turn"]), values), None
    spec = EVENTS[kind]
    text = _fill(rng.choice(spec["turn"]), values)
    question = _fill(rng.choice(spec[split]), values)
    return text[0].upper() + text[1:], question


def generate(seeds: list[int], split: str, per_seed: int = 2) -> dict[str, object]:
    conversations, questions = [], []
    for seed in seeds:
        for index in range(per_seed):
            conv, qs = conversation(seed, split, index)
            conversations.append(conv)
            questions.extend(qs)
    return {"split": split, "seeds": seeds, "conversations": conversations, "questions": questions}


SPLITS = {"dev": [1, 2, 3], "blind": [101, 102, 103]}


def main(target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for split, seeds in SPLITS.items():
        data = generate(seeds, split)
        (target / f"{split}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        turns = sum(len(c["turns"]) for c in data["conversations"])  # type: ignore[arg-type,index]
        print(
            f"{split}: {len(data['conversations'])} conversations, {turns} turns, "  # type: ignore[arg-type]
            f"{len(data['questions'])} questions"
        )  # type: ignore[arg-type]


if __name__ == "__main__":
    main(
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(__file__).resolve().parents[1] / "tests/data/episodes"
    )
