"""Rules about the athlete's life and tastes: family, job, shifts, schedule, other sports, likes.

Context facts (confidence 0.7, category context) carry an explicit topic tag (`context:job`,
`context:kids`, `context:shift work`...), so a newer fact on the same topic ("works as a
teacher" after "works as a nurse") replaces the older one while different topics live side by
side; `vault.domain.text.entity_tags` alone would give both "works night shifts" and "works as a nurse"
the same broad `context:work` tag and let one archive the other. Likes and dislikes share a
`topic:<thing>` tag, so "dislikes intervals" replaces "likes intervals".
"""

from __future__ import annotations

import re
from dataclasses import replace

from vault.domain.lexicon import sports
from vault.domain.lexicon.jobs import FIELDS_OF_WORK, SCHOOL_KINDS, WORKPLACES
from vault.domain.text import entity_tags
from vault.domain.vocabulary import Category
from vault.extraction.clauses import AS_QUOTE, Clause
from vault.extraction.findings import GIVEN_UP, Finding, Memo
from vault.extraction.lexicon import (
    ACTIVITY_AGENTS,
    JOBS,
    LIKE_OBJECTS,
    OTHER_SPORTS,
    SPORT_GERUNDS,
    VERB_RX,
    all_matches,
    alternation,
    compile_table,
)
from vault.extraction.pii import proper_noun
from vault.extraction.words import indefinite

CONTEXT, PREFERENCE = 0.7, 0.7

_KIDS = (
    r"kids|children|sons?|daughters?|baby|babies|toddlers?|twins"
    r"|little ones|boys|girls|newborn|step(?:son|daughter)s?"
)
# "my own children's book" names a kind of book: a classifying genitive, no child.
_CLASSIFIED = (
    r"books?|hospital|museum|menu|author|show|program|programme|charity|ministry|literature"
    r"|theat(?:er|re)|choir|clothing|section|stories|story"
)
# "my baby brother", "my baby sister", "my girls' night": the kin word qualifies another person
_NOT_A_CHILD = r"(?:brothers?|sisters?|bro|sis|cousins?|daddy|mama|night|trip|weekend)"
# Words for a child that also name friends or a partner ("me and my girls went to brunch", "my
# baby is coming home from deployment"): a child only where the sentence says so.
_AMBIGUOUS_KIN = frozenset({"baby", "babies", "girls", "boys"})
_CHILD_CUE = re.compile(
    r"\b(?:years? old|year-old|months? old|month-old|weeks? old|little|born|school|daycare"
    r"|nursery|nap|naps|bedtime|diapers?|nappy|nappies|toddler|teething|crawling|homework"
    r"|grade|kindergarten|preschool|stroller|pram|feeding|bottle|one|two|three|four|five"
    r"|pregnant|pregnancy|expecting|due|ultrasound|cravings|newborn|crib|cot"
    r"|\d+)\b"
)
# "like my kids" / "as my own children" compares: said of cats, pupils, a team
_KIDS_MINE = re.compile(
    # a kin noun as the predicate of "be" compares ("they're my babies", said of pets)
    rf"(?<!like )(?<!as )(?<!'re )(?<!'s )(?<! are )(?<! is )\b(?:my|our) (?!fur |furry |puppy |grand )"
    rf"(?:\w+ )?(?:{_KIDS})\b(?!'s (?:{_CLASSIFIED})\b)(?! {_NOT_A_CHILD}\b)"
    # the possessive reaches over a conjunction: "my wife and kids", "my husband and two sons"
    rf"|\b(?:my|our) (?:wife|husband|partner|hubby|girlfriend|boyfriend) and (?:\w+ )?(?:{_KIDS})\b"
)
# "my kids" said by a teacher, a coach or a nanny are the children they look after.
# A kin noun that names a relation ("my son", "my stepdaughters") is a child of one's own,
# wherever the sentence is set: "my son is in high school" is no pupil.
_RELATION = re.compile(r"^(?:step-?)?(?:sons?|daughters?)$")
_KIDS_AT_WORK = re.compile(
    r"\b(?:teach\w*|class(?:room)?|students?|pupils?|grade|kindergarten|preschool|daycare"
    r"|nursery|school|team|coach\w*|camp|nanny|babysit\w*|patients?|working with)\b"
)
_KIDS_OF_MY_OWN = re.compile(r"\b(?:my own|of my own|our own)\b|\bi (?:have|'ve got|have got)\b")
# "have been" is the auxiliary of a progressive or a passive, never a possession: "I have been
# seeing more children in my classroom", "we've been working with kids".
_PERFECT = r"(?!been\b)"
_KIDS_HAVE = re.compile(
    rf"\b(?:i|we|and)(?: have got|'ve got| have| got) {_PERFECT}(?:\w+ ){{0,3}}?(?:{_KIDS})\b"
    r"|\b(?:i|we)(?: have got|'ve got| have) an? (?:little |baby |\d+[- ]year[- ]old )?(?:boy|girl)"
    r"(?: named| called|,| and| who|$)"
)
_PET = r"dog|doggy|doggie|dogs|cat|kitty|cats|fur|furbaby|plant|puppy|pet|pets|horse|bird|chicken"
_PARENT = re.compile(
    r"\b(?:mum|mom|mother|dad|father|parent) of (?:\w+)|\b(?:single|stay[- ]at[- ]home|working"
    r"|busy)"
    r" (?:mum|mom|dad|parent)\b(?! (?:household|home|family|families))"
    # a pet's or a plant's "mom" is no parent: "a doggy mom", "a proud cat dad"
    rf"|\b(?:i'm|as) a (?!(?:{_PET})\b)(?:\w+ )?(?!(?:{_PET})\b)(?:mum|mom|dad|parent)\b"
)
_KIDS_AROUND = re.compile(
    r"\bthe (?:kids|children|baby)\b|\bnew baby\b|\bschool run\b"
    r"|^kids (?:are |were )?(?:in bed|asleep|at school|off school|home|sick|up)\b"
    r"|^kids (?:had|have|got) (?!(?:so|such|no)\b)"
)
_NO_KIDS = re.compile(rf"\b(?:don't|do not|no|without) (?:have )?(?:any )?(?:{_KIDS})\b")

_JOB = "|".join(re.escape(job) for job in JOBS)
# Words before a title that say how good, not what kind ("a much better cook"), or that the
# title is a pastime ("a competitive body builder"): no job then.
_NOT_TITLE = (
    r"(?!(?:much|way|far|better|good|great|bad|terrible|decent|pretty|big|huge|best|worse"
    r"|worst|amazing|awesome|excellent|okay|ok|body|wannabe|aspiring|future|former|ex|retired"
    # a pastime or a skill, not a job: "a keen baker", "a hopeless cook", "an amateur photographer"
    r"|hopeless|lousy|awful|horrible|mediocre|poor|amateur|hobby|home(?! (?:health|care)\b)|keen"
    r"|avid|passionate|expert"
    # a job one has not got: "an unemployed teacher", "a volunteer coach"
    r"|unemployed|jobless|laid-off|laid off|out-of-work|volunteer|recovering"
    r"|enthusiastic|self-taught|budding"
    r")\b)"
)
# Words that join phrases, and possessives: what is before them is no part of the title ("a
# patient at a physio"), and a title after a possessive is the possessor's ("Priya's nanny").
_NOT_LINK = (
    r"(?!(?:at|in|on|of|for|with|from|to|by|a|an|the|and|but|who|that|my|your|his|her|our|their"
    r"|its|me|you|him|them|like|about|than|as|so|after|before|since|when|while|if|until|because"
    r"|each|every|some|this|these|those|any|no|is|are|was|were|i)\b|[\w-]+'s\b)"
)
# "A little", "a bit", "a tad" before an adjective is a degree, not an article and a noun: "I'm
# a little stiff after physio" names no physio of mine.
_DEGREE = r"(?!(?:little|bit|tad|lot|wee)\b)"
# The words that narrow a title to a kind of work: the place, the field, the stage or subject
# of school, the sport ("a hospital pharmacist", "a first grade teacher", "a tennis coach").
# Only these are kept: any other word before a title may describe the person ("a proud
# nurse", "an unemployed teacher", "a zombie nurse for Halloween").
_TITLE_KIND = re.compile(
    rf"(?:{'|'.join(WORKPLACES)}|{'|'.join(FIELDS_OF_WORK)}|{'|'.join(SCHOOL_KINDS)}"
    rf"|{alternation(OTHER_SPORTS)})"
)
# The title list appears once: the ways to introduce a title are one alternation in front of it
# (the list spelled out for each made this the costliest pattern to compile).
_JOB_NAMED = re.compile(
    rf"(?:\b(?:i'm|i am) (?:(?:also|actually|currently|now|still|just|really|officially) )*(?:a |an )"
    rf"|\b(?:job|work|working|career|employed) as (?:a |an )?"
    rf"|\bas (?:a |an )|\bmy job is (?:a |an )?|\bbeing (?:a |an )|\b(?:i have|i've|i've got) a"
    rf" (?:side |second |part[- ]time |full[- ]time |day )?job as (?:a |an )?)"
    rf"{_DEGREE}(?P<mods>(?:{_NOT_TITLE}{_NOT_LINK}[\w'-]+ ){{0,3}}?)(?P<a>{_JOB})\b"
    # the title ends its phrase: "a farmer's daughter", "a doctor who fan", "a pilot program"
    r"(?!'s|-(?!-)| (?:fan|fans|program|programme|wannabe|wife|husband|son|daughter|kid|pet)\b)"
    r"|\bi (?:work|am working|'m working) as (?:a |an )(?P<e>[a-z]{3,}(?: (?!(?:at|in|for|and|but"
    r"|so|with|on|to|from|because|since|who|which|that|during|now|here|there|today|again|too"
    r")\b)[a-z]{3,}){0,2})\b"
)
_WORKPLACE = re.compile(
    r"\bi(?: work| am working|'m working|'ve been working| have been working)(?: full[- ]time"
    r"| part[- ]time)? (?P<p>in|at|on) (?P<a>a|an|the)"
    rf" (?P<w>(?:[a-z-]+ ){{0,2}}?(?:{'|'.join(WORKPLACES)}))\b"
    r"|\bi(?: work| am working|'m working|'ve been working| have been working) in (?:the (?=(?:\S+ ){1,2}(?:business|industry|sector|field|world)\b))?"
    # "it", "law", "research", "science", "design" only after "work in": "I'm in it" is no job
    rf"(?P<d>it|law|research|science|design|{'|'.join(FIELDS_OF_WORK)})\b"
    r"|\bi work (?:on )?(?:my |our |the |\w+'s |\w+s' )?(?:family |parents' |parents )?(?P<f>farms?)\b"
    r"|\b(?:i'm|i am|i serve|i'm serving) in the (?P<mod>\w+ )?(?P<m>army|navy|air force|military|marines"
    r"|police)\b"
)
_STUDENT = re.compile(
    r"\b(?:i'm|i am) (?:still |currently )?in (?:high school|middle school|junior high|college"
    r"|grad school|university|uni|(?:the )?\d+(?:st|nd|rd|th) grade|(?:the )?(?:first|second|third"
    r"|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth) grade)\b"
    r"|\b(?:i'm|i am) (?:a |an )?(?:high school|college|university) (?:freshman|sophomore|junior"
    r"|senior)\b"
    r"|\b(?:i'm|i am) (?:currently )?studying (?:\w+ ){0,3}?at (?:a |the )?(?:\w+ ){0,2}?"
    r"(?:university|college|school|uni)\b"
)
# A job that ended is not the athlete's job ("lost my job as a banker yesterday").
_JOB_ENDED = re.compile(
    r"\b(?:lost|quit|left|leaving|lose|losing) (?:my|the) (?:\w+ )?job\b|\blaid off\b|\bfired\b"
    r"|\bmade redundant\b|\bformer\b|\bex-|\bused to (?:be|work)\b|\bwant(?:ed)? to be"
    r"|\bdream(?:ed|s)? of (?:being|becoming)|\bstudying to be|\bmy dream\b|\bdream job\b"
    r"|\b(?:imagine|idea of|thought of|think of|thinking of|thinking about|think about|thought"
    r" about|would like|would love|would enjoy|done|quit|stopped|stop) being\b"
)
_NOT_WORKING = re.compile(
    r"\b(?:i'm|i am) (?:currently )?(?:not working|out of work|unemployed|between jobs|on disability)"
    r"|\bi (?:don't|do not) (?:have|currently have) a job\b|\bi can't work\b"
)
_STUDYING = re.compile(
    r"\b(?:i'm|i am) (?:\w+ )?studying to be(?:come)?\b|\b(?:i'm|i am) an? (?:\w+ ){1,2}major\b"
    r"|\b(?:i'm|i am) (?:still )?in (?:school|grad school)\b|\bi'm (?:a )?(?:freshman|sophomore"
    r"|junior|senior) (?:in|at) (?:high school|college|university)"
)
# The speaker's work before a bare "as a": "I work twelve hour shifts as a pediatric nurse".
_AT_WORK = re.compile(
    r"\bi (?:\w+ )?(?:work|works|'m working|am working|'ve been working|have been working)\b"
)
# A role given, not paid: "I volunteer as a coach", "volunteering as a nurse".
_VOLUNTEERED = re.compile(r"\bvolunteer(?:s|ed|ing)? (?:\w+ )?as\b")
# A wish, a plan or a loss just before the title's frame: "I'd love to work as", "I hope to
# work as", "I miss being a".
_WISHED = re.compile(
    r"\b(?:(?:i'd|i would|would|we'd) (?:love|like)|want|wants|wanna|hope|hoping|plan|planning"
    r"|dream|dreaming|aspire|intend|try|trying|going|is|was) to\s*$|\bmiss(?:ed)?\s*$"
    # a job still to come: "I'm going to be working as", "I will be working as"
    r"|\b(?:going to be|will be)\s*$"
)
# Before "a job as", "work as": a job looked for, hoped for, begun later or lost ("I'm looking
# for work as", "I'd love a job as", "starting my career as", "I miss my job as").
_LOOKED_FOR = re.compile(
    # ("I love my job as a nurse" is a job: only a wish loves one not had yet)
    r"\b(?:looking for|look for|find|finding|apply(?:ing)? for|applied for|get|getting|land"
    r"|landing|(?:i'd|i would|would|we'd) (?:love|like)|miss|missed|seeking|seek|start|starting"
    r"|begin|beginning)"
    r"\s+(?:a |an |my |the |some |new |full[- ]time |part[- ]time |old )*$"
)
# Sport for pay is work: "I'm a professional tennis player", "a semi-pro golfer".
_PRO_ATHLETE = re.compile(
    r"\b(?:i'm|i am) (?:(?:also|actually|currently|now|still|just|really|officially) )*an? "
    rf"(?P<t>(?:semi-?pro(?:fessional)?|professional|pro) (?:(?:{alternation(OTHER_SPORTS)}"
    r"|baseball|softball|volleyball|golf|hockey|rugby|badminton|poker|disc golf) player|runner"
    r"|cyclist|swimmer|triathlete|athlete|rower|wrestler|boxer|golfer|disc golfer|skater|skier"
    r"|snowboarder|surfer|dancer|climber|bodybuilder|jockey|skateboarder|tennis player))"
    # the title ends the phrase and the clause: "a professional golfer's wife", "a pro hiker at
    # this point", "a professional dancer in my dreams" are no job
    r"(?!'s|-)(?=\s*(?:$|[.,!?;]|(?:and|but|so|who|since)\b))"
)
_RETIRED = re.compile(
    r"\b(?:i'm|i am|i've been|been) (?:now |recently |happily )?retired\b|\bretired now\b"
    # a retired nurse, a retired police officer: the title says what one was; a retired runner
    # or skier gave up a sport, not work, and a semi-retired one still works
    r"|\b(?:i'm|i am) (?:now )?an? (?:happily |fully |recently )?retired "
    r"(?!(?:pro |professional |competitive |elite |amateur )?(?:runner|cyclist|swimmer|rider"
    rf"|racer|athlete|triathlete|jogger|rower|sprinter|marathoner|{alternation(ACTIVITY_AGENTS)})"
    r"\b)"
)

_NIGHTS = re.compile(
    r"\bnight shifts?|\bnights? duty|\bwork(?:ing|s)? nights\b|\bon nights\b|\bnight worker"
)
_SHIFTS = re.compile(
    r"\bshift ?work(?:er)?|\bwork(?:ing|s)? (?:[\w-]+ ){0,4}?shifts\b"
    r"|\brotating shifts|\bon shifts|\bdo shifts"
)
_BUSY = re.compile(
    r"\bbusy (?:schedule|life|job|lifestyle|period)|\b(?:i|life|work|things|everything|schedule|it)"
    r"(?:'m| am| is| are|'s|'s been| has been| have been|'ve been) (?:so |really |very |super "
    r"|crazy"
    r" |pretty |quite |insanely |absolutely |just )?"
    r"(?:busy|hectic|swamped|packed)\b|\bhectic\b|\btime[- ]poor"
    r"|\bmy (?:work )?schedule is (?:really |so |very |pretty |quite )?(?:full|packed|tight)\b"
    r"|\b(?:life|work|things|schedule|my week)(?:'s| is|'s been| has been) (?:so |really |very "
    r"|pretty |quite |absolutely |just )?(?:crazy|insane|nuts|mad|manic|chaotic)\b"
    r"|\btime is (?:tight|limited|short)|\bshort on time|\b(?:barely|hardly) (?:have|get"
    r"|find) (?:any |the )?time"
    r"|\bnot much (?:free )?time|\blimited time|\bjuggling"
)
_LIFESTYLE_TABLE = (  # (pattern, fact, topic tag)
    (
        (
            r"\bdesk (?:job|based|bound)|\b(?:sit|sitting) (?:at (?:a|my) desk|all day|\d+ hours)"
            r"|\boffice job|\bwork in an office|\boffice[- ]based|\boffice worker"
        ),
        "has a desk job",
        "desk job",
    ),
    (
        r"\b(?:work|working) from home|\bwfh\b|\bremote (?:job|worker)|\bwork remotely",
        "works from home",
        "home office",
    ),
    (
        r"\blong hours\b|\b(?:\d{2}|sixty|fifty)[- ]hour (?:work ?)?weeks?",
        "works long hours",
        "hours",
    ),
    (
        (
            r"\btravel(?:l?ing|s)? (?:a lot |lots |loads |constantly |often |frequently |regularly )?"
            r"(?:for work|for my job|with work|on business)|\bbusiness trips\b|\bon the road a lot"
        ),
        "travels often for work",
        "travel",
    ),
    (
        (
            r"\b(?:cycle|bike|ride) (?:in )?to (?:work|the office)"
            r"|\bcommute (?:by|on (?:my|the|a)) bike|\b(?:bike|cycle) commut\w*"
        ),
        "commutes by bike",
        "commute",
    ),
    (
        r"\brun (?:in )?to (?:work|the office)|\brun[- ]commut\w*",
        "run-commutes to work",
        "commute",
    ),
    (
        r"\blong commute|\bcommute (?:is )?(?:long|\d+ ?(?:min|minutes|hours?))",
        "has a long commute",
        "commute",
    ),
)
_LIFESTYLE = tuple((re.compile(rx), fact, topic) for rx, fact, topic in _LIFESTYLE_TABLE)
_TEMPORARY = re.compile(
    r"\b(?:this|next) (?:week|weekend|month)|\btoday\b|\btomorrow\b|\btonight\b"
)

_OTHER_T = compile_table(OTHER_SPORTS)
_OTHER = alternation(OTHER_SPORTS)
_OTHER_SPORT = re.compile(
    rf"\b(?:i|we) (?:also |sometimes |regularly |often |still )?(?:do|practi[cs]e|play|go|train"
    rf"|teach|coach|instruct|hit) "
    rf"(?:some |a bit of |a little |a lot of |lots of |more )?(?:to )?(?P<a>{_OTHER})\b"
    rf"|\bi also (?P<b>{_OTHER})\b|^(?P<c>yoga|pilates|crossfit|climbing|bouldering|tennis"
    rf"|football|5-a-side"
    r" football|strength training|martial arts) (?:on|every|once|twice|\d|helps|keeps|classes"
    r"|sessions)"
    r"|\b(?:i'm|i am) (?:a |an )(?:\w+ )?(?P<d>climber|boulderer|hiker|skier|yogi|tennis player"
    r"|footballer)"
)
_AGENT_SPORT = {
    "climber": "climbing",
    "boulderer": "climbing",
    "hiker": "hiking",
    "skier": "skiing",
    "yogi": "yoga",
    "tennis player": "tennis",
    "footballer": "football",
}
_ENDURANCE = sports.ENDURANCE

_LIKE_T = compile_table(LIKE_OBJECTS)
_DISLIKE = re.compile(
    r"\b(?:hate|hates|dislike|dislikes|loathe|detest|can't stand|cannot stand|can't bear"
    r"|(?:not|never) (?:a |the )?(?:big |huge )?fan of|not keen on|(?:don't|do not"
    r"|can't) (?:really )?(?:do|handle)"
    r"|(?:don't|do not|doesn't) (?:really )?(?:like|enjoy|love)|not a morning person"
    r"|least favou?rite"
    r"|nemesis|kryptonite)\b|\bbores? me\b|\bboring\b|\bsucks?\b"
)
_LIKE = re.compile(
    r"\b(?:love|loves|like|likes|enjoy|enjoys|adore|big fan of|huge fan of|a fan of|into|fan of"
    r"|prefer|prefers)\b"
    r"|\bfavou?rite\b"
)
_EVENING = re.compile(r"\b(?:evenings?|at night|night runs?|late runs?|after dark)\b")
_NOT_LIKE = re.compile(
    r"\b(?:would|i'd) (?:like|love)|\b(?:like|love) to try\b|\blooks? like|\bfeels? like|\blike a\b"
)


def _fact(rule: str, clause: Clause, at: int, text: str, topic: str) -> Finding:
    return Finding(
        rule,
        (clause.index, at),
        Category.CONTEXT,
        text,
        CONTEXT,
        tags=frozenset({f"context:{topic}"}),
    )


def family(clause: Clause, memo: Memo) -> list[Finding]:
    """Family: "my kids", "we have three kids", "single dad", "the kids are in bed" -> has kids."""
    text = clause.text
    if _NO_KIDS.search(text) or clause.remote_past:
        return []
    mine = _KIDS_MINE.search(text)
    kin = mine.group(0).split()[-1] if mine else ""
    at_work = _KIDS_AT_WORK.search(clause.context or text) and not _KIDS_OF_MY_OWN.search(text)
    if at_work and not _RELATION.match(kin):
        mine = None  # a teacher's "my kids" are the class; "my son" is always one's own child
        kin = ""
    if kin in _AMBIGUOUS_KIN and not _CHILD_CUE.search(clause.context or text):
        mine = None  # "going out with my girls tonight": friends, perhaps
    if mine and not re.search(r"\w+'s (?:\w+ )?(?:kids|children)", text):
        # "my kids" takes for granted that the speaker has kids, whoever the clause is about
        found = _fact("family", clause, mine.start(), "has kids", "kids")
        return [replace(found, presupposed=True)]
    if not clause.asserts or clause.negated:
        return []
    match = _KIDS_HAVE.search(text) or _PARENT.search(text)
    if match:
        return [_fact("family", clause, match.start(), "has kids", "kids")]
    around = _KIDS_AROUND.search(text)
    if around is None:
        return []
    if _KIDS_AT_WORK.search((memo.message or clause.context or text).replace(around.group(0), " ")):
        return []  # "the kids" of a message about a classroom or a team are the pupils
    # "the kids are in bed" may be a teacher's or a nanny's kids: believed once repeated
    return [replace(_fact("family", clause, around.start(), "has kids", "kids"), confidence=0.45)]


def job(clause: Clause, memo: Memo) -> list[Finding]:
    """Job from "I work as a nurse", "I'm a teacher"; also "is a student", "is retired"."""
    if not clause.asserts:
        return []
    idle = None if clause.remote_past else _NOT_WORKING.search(clause.text)
    if idle:  # "I'm not working right now": the negation is the fact
        # study is a slot of its own: "I'm still in high school, so I don't have a job" is a
        # student who is not working
        return [job_finding(clause, idle.start(), "is not working", 1)]
    if clause.negated:
        return []
    student = _STUDENT.search(clause.text) or _STUDYING.search(clause.text)
    if student:  # "I'm still in high school" is now, whatever the remote-past words say
        return [study_finding("job", clause, student.start(), 1)]
    if clause.remote_past or _JOB_ENDED.search(clause.text):
        return []
    retired = _RETIRED.search(clause.text)
    if retired:
        return [job_finding(clause, retired.start(), "is retired", 2)]
    athlete = _PRO_ATHLETE.search(clause.text)
    if athlete:
        title = athlete.group("t")
        return [job_finding(clause, athlete.start(), f"works as {indefinite(title)} {title}", 2)]
    match = _JOB_NAMED.search(clause.text)
    sought = match and match.group(0).startswith(("job", "work", "career"))
    if match and sought and _LOOKED_FOR.search(clause.text, 0, match.start()):
        return []  # "I'm looking for work as a nurse", "starting my career as a therapist"
    if match and _WISHED.search(clause.text, 0, match.start()):
        return []  # "I'd love to work as a nurse", "my dream is to work as a vet": no job yet
    if match and AS_QUOTE.match(clause.text, match.start()):
        return []  # "as a lawyer would say", "as a friend of mine told me": someone else
    if match and match.group(0).startswith("as ") and _role_of_another(clause.text, match.start()):
        return []  # "I bet you meet people as a waitress": the role is the other subject's
    if match is None:
        place = _WORKPLACE.search(clause.text)
        if place is None:
            return []
        if place.group("f"):
            text = "works on a farm"
        elif place.group("d"):
            field = place.group("d")
            text = f"works in {field.upper() if field in {'it', 'hr'} else field}"
        elif place.group("m"):
            if place.group("mod") and proper_noun(place.group("mod").strip(), clause.raw):
                return []  # "I'm in the Salvation Army": a named body, not the armed forces
            text = f"works in the {place.group('m')}"
        else:
            article = (
                place.group("a")
                if place.group("a") == "the"
                else ("an" if place.group("w")[0] in "aeiou" else "a")
            )
            text = f"works {place.group('p')} {article} {place.group('w')}"
            # the workplace as written passes the name guard ("the Smith Dental clinic")
            words = " ".join(filter(None, (place.group("a"), place.group("w"))))
            return [replace(job_finding(clause, place.start(), text, 1), captured=words)]
        return [job_finding(clause, place.start(), text, 1)]
    title = match.group("a") or match.group("e")
    if match.group("e") and not _TITLE_HEAD.search(title):
        field = _FIELD.match(title)  # "I work as a tech support" -> works in tech support
        if field:
            return [job_finding(clause, match.start(), f"works in {field.group(0)}", 1)]
        if _NOT_ROLE.search(title):
            return []  # "I work as a team": how, not what
        # whatever "I work as a ..." names is a role: "a waitress", "a museum tour guide"
    if title.startswith("customer service"):
        return [job_finding(clause, match.start(), "works in customer service", 2)]
    if title == "student":
        return [study_finding("job", clause, match.start(), 2)]
    if _VOLUNTEERED.search(clause.text[: match.end()]):
        return []  # "I volunteer as a youth soccer coach": a role, not a job
    mods = (match.group("mods") or "").strip()
    kind = _kind_of_title(mods)
    at_work = _AT_WORK.search(clause.text, 0, match.start())
    if mods != kind and match.group(0).startswith("as ") and not at_work:
        # a bare "as a" with a word of its own is often another's role or a wish ("following
        # in his footsteps as a world war vet", "trying to make it big as a folk musician")
        return []
    if kind:  # "a hospital pharmacist", "a high school math teacher" (a math teacher)
        title = f"{kind} {title}"
    found = job_finding(clause, match.start(), f"works as {indefinite(title)} {title}", 2)
    return [replace(found, captured=title) if match.group("e") else found]


def _kind_of_title(mods: str) -> str:
    """The words just before a title that narrow it to a kind of work (`_TITLE_KIND`): the
    last two, or else the last one when it is alone or follows other kind words ("a high school
    math teacher" is a math teacher). After any other word the last one may be half of a
    compound ("a coffee shop barista", "a social media manager"), so the title stays bare."""
    words = mods.split()
    if len(words) >= 2 and _TITLE_KIND.fullmatch(" ".join(words[-2:])):
        return " ".join(words[-2:])
    if not words or not _TITLE_KIND.fullmatch(words[-1]):
        return ""
    before = words[:-1]
    if before and not any(_TITLE_KIND.fullmatch(" ".join(before[-n:])) for n in (1, 2)):
        return ""
    return words[-1]


# A bare "as a <role>" is the role of the nearest person before it: "I work nights as a nurse"
# and "a huge accomplishment for me as an engineer" are the speaker's; "I bet you meet people
# as a waitress" is the listener's, "it can be tough to make a living as a professor" anyone's
# ("it" with a verb: a dummy subject, a generic claim).
_SUBJECTS = re.compile(
    r"\b(?P<self>i|i'm|i've|i'd|i'll|we|we're|we've|we'd|we'll|me|myself|us|ourselves)\b"
    r"|\b(?:you|you're|you've|you'd|you'll|he|he's|she|she's|they|they're|they've|one|people"
    r"|someone|somebody|anyone|anybody|everyone|everybody|him|her|them)\b"
    r"|\bit(?:'s| is| can| could| was| must| would| will| may| might)\b"
)


# Words that take a person as the one the "as a" phrase describes: "proud of her as a
# paramedic", "for me as an engineer", "I see him as a mentor".
_DESCRIBES = re.compile(
    r"\b(?:proud of|see|saw|seen|know|knew|known|regard|regarded|treat|treated|hire|hired"
    r"|think of|thought of|consider|considered|for|picture|imagine|respect|trust)\s+$"
)
_OBJECT_WORDS = frozenset(
    {
        "me",
        "us",
        "myself",
        "ourselves",
        "him",
        "her",
        "them",
        "people",
        "someone",
        "somebody",
        "anyone",
        "anybody",
        "everyone",
        "everybody",
        "you",
    }
)
_ADVERB_GAP = re.compile(
    r"^(?:\s*(?:daily|every|each|day|all|now|too|also|really|always|here"
    r"|there|today|well|often|sometimes|a|lot|mostly|usually))*\s*$"
)


def _role_of_another(text: str, at: int) -> bool:
    """Whether the "as a" role at `at` is someone else's: the role of the clause's subject, or
    of the person a verb like "proud of" or "see" takes ("proud of her as a paramedic"). A
    person who is only the object of the speaker's verb ("I help people as a nurse", "I'm
    telling you as a nurse") does not take the role."""
    for found in reversed(list(_SUBJECTS.finditer(text, 0, at))):
        word = found.group(0)
        object_place = word in _OBJECT_WORDS and _ADVERB_GAP.match(text[found.end() : at])
        if object_place and not _DESCRIBES.search(text, 0, found.start()):
            continue  # the object of the speaker's verb: the subject is further back
        return found.group("self") is None
    return False


# What "I work as a ..." may name that is no role: a manner, a unit, a favour.
_NOT_ROLE = re.compile(
    r"\b(?:team|group|unit|pair|family|whole|hobby|favou?r|side|way|result|bonus|rule|matter"
    r"|means|part|kind|sort|type|lot|bit|form)$"
)
# A free-text title must end in a word for a person's role, else it is a field or a fragment.
_TITLE_HEAD = re.compile(
    r"(?:er|or|ist|ian|ant|ent|man|woman|nurse|chef|cook|aide|assistant|rep|agent|officer|guard"
    r"|clerk|teller|nanny|coach|medic|tech|technician|worker|trainer|instructor|director|head"
    r"|lead|associate|specialist|administrator|surgeon|analyst)$"
)
_FIELD = re.compile(
    r"(?:tech|technical|it|customer|sales|marketing|retail|hospitality|finance|admin|support"
    r"|customer service|tech support|it support)(?: support| service| sales)?$"
)


def job_finding(
    clause: Clause, at: int, text: str, priority: int = 1, captured: str | None = None
) -> Finding:
    """A job fact; one per message (a title beats a workplace: "I work at a school, I'm a
    teacher" is a teacher). Being retired or out of work is the job slot's value too: a new job
    replaces it, and it replaces the job. `captured` is the speaker's words the fact copies,
    for the name guard ("I work at the Mary Smith clinic" names a person)."""
    return Finding(
        "job",
        (clause.index, at),
        Category.CONTEXT,
        text,
        CONTEXT,
        tags=frozenset({"context:job"}),
        slot="job",
        priority=priority,
        captured=captured,
    )


STUDENT = "is a student"
"""The study fact: its own slot and topic (`context:study`), beside the job's."""


def study_finding(rule: str, clause: Clause, at: int, priority: int) -> Finding:
    """`is a student`: study is not a job's slot. A person studies and works at once ("I'm a
    nursing student and work weekends as a waitress"), so neither replaces the other, in one
    message (`slot`) or in memory (the `context:study` topic); a new study replaces an old one,
    a new job an old job."""
    return Finding(
        rule,
        (clause.index, at),
        Category.CONTEXT,
        STUDENT,
        CONTEXT,
        tags=frozenset({"context:study"}),
        slot="study",
        priority=priority,
    )


_STUDY_ENDED = re.compile(
    r"\bi (?:just |recently |finally |already )?(?:graduated|finished (?:college|school|uni"
    r"|university|grad school|my degree|my studies|my masters|my phd)|dropped out|left (?:college"
    r"|school|uni|university))\b"
    r"|\b(?:i'm|i am) (?:no longer|not) (?:a student|in (?:school|college|uni|university))"
    r"(?: anymore| any more)?\b"
    r"|\b(?:i'm|i am) (?:finally |all )?done with (?:school|college|uni|university)\b"
)


def study_ended(clause: Clause, memo: Memo) -> list[Finding]:
    """Leaving study retracts `is a student` ("I graduated last month", "I'm not a student
    anymore"): study has its own slot, so a new job does not end it by itself."""
    if clause.question or clause.hypothetical or clause.subject.value != "self":
        return []
    match = _STUDY_ENDED.search(clause.text)
    if match is None:
        return []
    return [
        Finding(
            "study_ended",
            (clause.index, match.start()),
            Category.CONTEXT,
            retract_tags=frozenset({"context:study"}),
            slot="study",
            priority=3,
        )
    ]


def work_pattern(clause: Clause, memo: Memo) -> list[Finding]:
    """Night shifts, shift work, a busy schedule, desk job, home working, travel, commuting."""
    if not clause.asserts or clause.negated or clause.remote_past or _TEMPORARY.search(clause.text):
        return []
    text, found = clause.text, []
    shift = _NIGHTS.search(text)
    if shift:
        found.append(_fact("shift_work", clause, shift.start(), "works night shifts", "shift work"))
    elif (shift := _SHIFTS.search(text)) is not None:
        found.append(_fact("shift_work", clause, shift.start(), "works shifts", "shift work"))
    busy = _BUSY.search(text)
    if busy:
        found.append(_fact("busy_schedule", clause, busy.start(), "busy schedule", "schedule"))
    for pattern, fact, topic in _LIFESTYLE:
        match = pattern.search(text)
        if match:
            found.append(_fact("lifestyle", clause, match.start(), fact, topic))
    return found


def other_sport(clause: Clause, memo: Memo) -> list[Finding]:
    """Side sports: "I also do climbing", "I do pilates", "I play football" -> also does <sport>."""
    if not clause.asserts or clause.negated or clause.remote_past:
        return []
    match = _OTHER_SPORT.search(clause.text)
    if match is None:
        return []
    if GIVEN_UP.search(clause.text[: match.end()]):
        return []  # "I'm a former skier": a sport given up
    if match.group("d"):
        sport = _AGENT_SPORT[match.group("d")]
    else:
        word = match.group("a") or match.group("b") or match.group("c")
        sport = next(value for _, value in all_matches(_OTHER_T, word))
    if sport in _ENDURANCE and not re.search(r"\balso\b", clause.text[: match.end()]):
        return []  # "I swim" is the primary-sport rule's; only "I also swim" is a side sport
    return [_fact("other_sport", clause, match.start(), f"also does {sport}", sport)]


# A thing liked may be where something else happens: the object of a preposition of place
# ("the feeling of flying on the track", "a picnic in the hills") is liked only when a training
# verb or session word leads to it ("running on the track", "intervals on the track").
_PLACE_PREPOSITION = re.compile(
    r"\b(?:on|at|in|to|near|around|by|along|onto|into|from|off|across) (?:the |a |an |my |our"
    r" |some |this |that )?$"
)
_TRAINING = re.compile(
    rf"\b(?:{VERB_RX}|{alternation(SPORT_GERUNDS)}|train\w*|work(?:ing)? out|workouts?|intervals"
    r"|reps|laps|miles|sessions?|sprints?|sprinting|walk\w*|hik\w*|climb\w*|lift\w*)\b"
)


_COMPANY = re.compile(r"(?:with|in) (?:a |the )?(?:group|club|others)\b")


def _a_place(scope: str, match: re.Match[str]) -> bool:
    """True when `match` is the place of a preposition that no training word leads to."""
    if "gym" in match.group(0):
        return False  # a gym is where training happens: going to it is training
    before = scope[: match.start()]
    # "connect with others who enjoy gaming": company a training word leads to is a taste
    placed = _PLACE_PREPOSITION.search(before) or _COMPANY.match(match.group(0))
    return bool(placed) and not _TRAINING.search(before)


def likes(clause: Clause, memo: Memo) -> list[Finding]:
    """Tastes: "I love intervals" -> likes intervals; "I hate treadmills" -> dislikes treadmill."""
    text = clause.text
    if not clause.asserts or clause.remote_past or clause.one_off:
        return []
    dislike = _DISLIKE.search(text)
    like = None if dislike or clause.negated or _NOT_LIKE.search(text) else _LIKE.search(text)
    verb = dislike or like
    if verb is None:
        return []
    scope = (
        text
        if re.search(r"favou?rite|bores?|boring|sucks?|nemesis|kryptonite", verb.group(0))
        else text[verb.start() :]
    )
    things = [value for match, value in all_matches(_LIKE_T, scope) if not _a_place(scope, match)]
    if dislike and re.search(r"\bmornings?\b|morning person", scope):
        things.append("early mornings")
    elif dislike and _EVENING.search(scope):
        # a stated dislike of a time of day is a time preference, tagged time:evening
        return [
            Finding(
                "dislike",
                (clause.index, verb.start()),
                Category.TIME_PREFERENCE,
                "dislikes evening sessions",
                PREFERENCE,
                tags=frozenset({"time:evening"}),
            )
        ]
    word = "dislikes" if dislike else "likes"
    return [
        Finding(
            "dislike" if dislike else "like",
            (clause.index, verb.start()),
            Category.PREFERENCE,
            f"{word} {thing}",
            PREFERENCE,
            tags=entity_tags(f"{word} {thing}", Category.PREFERENCE) | {f"topic:{thing}"},
        )
        for thing in dict.fromkeys(things)
    ]


RULES = (family, job, study_ended, work_pattern, other_sport, likes)
