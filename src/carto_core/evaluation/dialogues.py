"""A conversational-recall set: generated multi-session dialogues and questions about them.

Each dialogue session is a run of turns between a person and an assistant, written as
`turns.jsonl` rows (`turn-<session>-<n>`). Facts about the person's life and work are told in
*evidence* turns; questions, asked weeks to months later, paraphrase them (other words for the
same thing, a few shared ones), and the rest of the home is distractors: the same topics
mentioned without the answer, chit-chat, and (optionally) a generated year of coding work.

Categories (as in long-term conversational memory benchmarks):

- `single`: one evidence turn holds the answer; sometimes the answer is the assistant's reply
  and only the person's question before it shares words with the query.
- `temporal`: the fact changed over time; the question asks for the latest (or the first)
  state, and only that turn counts.
- `multi-hop`: the answer needs two turns told in different sessions; each is expected
  (hit: either one in the top k; recall@10: the share of both found).
- `open`: an open question whose evidence is every turn on a theme (two to four).

Forty-one variants share no phrasing: `a` (utterance rows, one per speaker, among a year of
coding work), `b` (carto's own turn shape, the person's message and the reply in one row, other
templates and names, no coding background), `c` (`evaluation.dialogue_c`: written apart,
other topics and questions, longer messages and replies, many one-exchange sessions and a few
long ones over 400 days, rows joined as the Claude transcript reader joins them), `d`
(`evaluation.dialogue_d`: written apart again, questions that mostly share no word with their
answer, utterance rows, mid-length sessions over 300 days) and `e` to `z`, then `aa` to `ao`
(`evaluation.dialogue_e` .. `dialogue_ao`, each module says what it holds; after `z` a variant
is named by two letters): written apart again, each by someone given only the format, everyday
topics, utterance rows, small talk before and after a fact. Defaults are chosen on `a` and `b`
and checked on `c` and `d`; `e` to `ao` are further check sets, kept unseen by tuning until a
rule is checked on them.
Deterministic for a (variant, seed).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from carto_core.evaluation.chatrows import append_in_time_order, turn_row
from carto_core.evaluation.topic import Topic
from carto_core.util.privatefiles import make_dirs
from carto_core.util.timeparse import utcnow

CATEGORIES = ("single", "temporal", "multi-hop", "open")


TOPICS: list[Topic] = [
    Topic("pet", ["a beagle called Biscuit", "a tabby kitten named Miso", "a parrot called Kiwi",
                  "a greyhound named Rocket", "two goldfish, Salt and Pepper", "a corgi named Waffles"],
          ["We finally adopted {v} from the shelter last weekend.",
           "Big news at home: we brought home {v}.",
           "The newest member of our family is {v}, adopted on Saturday.",
           "I picked up {v} from the rescue centre yesterday."],
          ["What animal did I adopt from the shelter?", "Which pet did my family bring home?",
           "What was the name of the pet we adopted?", "Remind me which animal I picked up at the rescue."],
          ["Do you have tips for keeping pets calm during fireworks?",
           "The vet visit for the animals is on Thursday.",
           "Shelters near me are always full of animals needing homes."],
          ["Update on pets: we now also have {v}.", "Our household grew again, we got {v}."],
          ["What is the most recent pet in our household?", "Which animal joined us last?"]),
    Topic("city", ["Lisbon", "Montreal", "Osaka", "Edinburgh", "Valparaiso", "Ljubljana", "Tallinn"],
          ["My sister just relocated to {v} for her new job.",
           "Guess what, my sister moved to {v} over the summer.",
           "My sister's new apartment is in {v}, she loves it.",
           "My sister has settled in {v} now."],
          ["Which city did my sibling relocate to?", "Where did my sister move?",
           "What town is my sister's apartment in?", "Where has my sister settled?"],
          ["My sister keeps sending me photos of her commute.",
           "Sibling phone calls are hard with the time difference.",
           "I might visit my sister's place next spring."],
          ["My sister moved again, this time to {v}.", "Now my sister lives in {v}, believe it or not."],
          ["Where does my sister live now?", "What is my sister's current city?"]),
    Topic("instrument", ["the cello", "the ukulele", "the bass guitar", "the trumpet",
                         "the piano", "the banjo"],
          ["I started taking lessons for {v} on Tuesday evenings.",
           "I've been practising {v} every morning before work.",
           "My new hobby is learning {v}, my teacher is very patient.",
           "I signed up for a beginner course on {v}."],
          ["Which musical instrument are my Tuesday lessons for?", "What instrument do I practise before work?",
           "What do I learn with my patient teacher?", "Which instrument is my beginner course on?"],
          ["Music lessons are expensive in this city.",
           "I listened to a great concert on the radio last night.",
           "My neighbours complain about noise sometimes."],
          ["I switched my lessons over to {v}.", "These days my music teacher is teaching me {v}."],
          ["What instrument am I studying at the moment?", "Which instrument do my lessons cover now?"]),
    Topic("allergy", ["peanuts", "shellfish", "penicillin", "cat dander", "birch pollen", "sesame"],
          ["The doctor confirmed I'm allergic to {v}.", "Turns out my rash was an allergy to {v}.",
           "I found out the hard way that I react badly to {v}.",
           "My test results came back: a {v} allergy."],
          ["What did the doctor say I'm allergic to?", "What caused my rash?",
           "What substance do I react badly to?", "What did my allergy test results show?"],
          ["Allergy season is starting early this year.",
           "I need to book a doctor appointment for my checkup.",
           "Restaurants should label ingredients more clearly."],
          ["Another allergy test: now they say {v} too.", "New diagnosis, I also react to {v}."],
          ["What was my latest allergy diagnosis?", "Which allergy was found most recently?"]),
    Topic("car", ["a second-hand Volvo estate", "an electric Kia Niro", "a red Mazda MX-5",
                  "a 2012 Toyota Hilux", "a Skoda Octavia", "a vintage Citroen 2CV"],
          ["I bought {v} from a dealer in town.", "We traded in the old car for {v}.",
           "My new ride is {v}, picked it up on Friday.", "I finally got {v}."],
          ["What vehicle did I buy from the dealer?", "Which car did we get in the trade-in?",
           "What kind of automobile did I pick up on Friday?", "What did I finally get?"],
          ["Car insurance renewal is due next month.", "Parking downtown is a nightmare.",
           "The mechanic said the brakes are fine."],
          ["I sold the car and now drive {v}.", "We replaced our car again, it's {v} now."],
          ["What car do I drive now?", "Which vehicle do I currently own?"]),
    Topic("book", ["The Left Hand of Darkness", "Piranesi", "The Remains of the Day",
                   "A Gentleman in Moscow", "Project Hail Mary", "Middlemarch"],
          ["I'm halfway through {v} and can't put it down.", "My book club picked {v} this month.",
           "Just finished reading {v}, what an ending.", "Currently reading {v} on my commute."],
          ["Which novel couldn't I put down?", "What book did my book club pick?",
           "What was the title with the great ending?", "What book was I reading on the commute?"],
          ["The library near me is closing early on weekends.",
           "I should read more instead of scrolling.", "Book club snacks are always too sweet."],
          ["New book: I've started {v}.", "Moved on to {v} for book club."],
          ["What am I reading these days?", "Which book is current for my reading group?"]),
    Topic("trip", ["Patagonia", "the Faroe Islands", "Kyoto", "the Dolomites", "Marrakech", "Iceland"],
          ["We booked flights to {v} for October.", "Our honeymoon destination is {v}.",
           "I'm planning a hiking trip to {v} next year.", "The family holiday this year is {v}."],
          ["Where did we book flights to?", "What is our honeymoon destination?",
           "Where am I planning my hiking trip?", "Where is the family holiday this year?"],
          ["Packing lists always take me forever.", "Travel insurance seems overpriced.",
           "Airports are chaos in the summer."],
          ["Change of plans, we're going to {v} instead.", "We rebooked everything for {v}."],
          ["Where is our trip going now?", "What is the latest plan for our holiday destination?"]),
    Topic("job", ["a data engineer at a logistics firm", "a nurse in the paediatric ward",
                  "a teacher at a primary school", "a product manager at a fintech",
                  "a sous chef at a bistro", "a park ranger"],
          ["I accepted an offer to work as {v}.", "Starting Monday I'm {v}.",
           "My new position: {v}.", "I got hired as {v}!"],
          ["What job offer did I accept?", "What am I starting as on Monday?",
           "Which position did I get?", "What was I hired as?"],
          ["Job interviews make me so nervous.", "My commute to work is about forty minutes.",
           "I need new shoes for the office."],
          ["I changed careers again, now I'm {v}.", "New job update: I became {v}."],
          ["What is my current job?", "What do I work as now?"]),
    Topic("sport", ["bouldering", "rowing", "fencing", "ultimate frisbee", "judo", "open-water swimming"],
          ["I joined a club for {v} near the river.", "Every Sunday I go {v} with friends.",
           "I've taken up {v} to stay fit.", "My weekend exercise is {v} now."],
          ["What club did I join by the river?", "What do I do with friends on Sundays?",
           "What did I take up to stay fit?", "What is my weekend exercise?"],
          ["My knees ache after long runs.", "The gym membership fees went up again.",
           "Stretching before exercise really helps."],
          ["I quit {old} and started {v}.", "Switched sports, now it's {v}."],
          ["What sport do I do now?", "Which activity am I doing for exercise currently?"]),
    Topic("diet", ["vegetarian", "vegan", "pescatarian", "gluten-free", "low-carb", "dairy-free"],
          ["I've decided to go {v} from now on.", "Since January I've been eating {v}.",
           "My doctor suggested I try a {v} diet.", "I'm keeping my meals {v} this year."],
          ["What did I decide to eat from now on?", "How have I been eating since January?",
           "What diet did my doctor suggest?", "How am I keeping my meals this year?"],
          ["Grocery prices are going up.", "I burnt the rice again last night.",
           "Meal prep on Sundays saves me time."],
          ["I changed my diet again, now {v}.", "New food rule for me: {v}."],
          ["What is my diet now?", "Which way of eating am I on currently?"]),
    Topic("project", ["a rewrite of the billing service in Rust", "migrating the warehouse to Snowflake",
                      "the mobile checkout redesign", "an internal search engine", "the GDPR audit tooling",
                      "the payments fraud model"],
          ["At work I'm leading {v}.", "My manager put me in charge of {v}.",
           "This quarter my main project is {v}.", "I've been assigned to {v}."],
          ["What am I leading at work?", "What did my manager put me in charge of?",
           "What is my main project this quarter?", "What was I assigned to?"],
          ["Standups are getting longer and longer.", "Our team offsite is next month.",
           "Quarterly planning was exhausting."],
          ["I've been moved onto {v}.", "Reassigned: I'm now on {v}."],
          ["What project am I working on now?", "Which assignment do I have currently?"]),
    Topic("garden", ["tomatoes and basil", "dahlias", "strawberries", "chilli peppers",
                     "lavender", "courgettes"],
          ["In the garden I planted {v} this spring.", "My balcony is full of {v} now.",
           "I'm growing {v} in the raised beds.", "This year the allotment has {v}."],
          ["What did I plant in the garden this spring?", "What is my balcony full of?",
           "What am I growing in the raised beds?", "What does the allotment have this year?"],
          ["Slugs ate half my seedlings.", "It has not rained in weeks, the soil is dry.",
           "Garden centres are crowded on Saturdays."],
          ["I pulled out the {old} and put in {v}.", "The beds are planted with {v} now."],
          ["What is in my garden now?", "Which plants am I growing currently?"]),
]

# Coreferent pairs for multi-hop questions: the first tells who/what, the second a detail.
HOPS = [
    ("My colleague {p} recommended a podcast about {x}.", "The podcast {p} mentioned turned out to be hosted by a retired astronaut.",
     "Who hosts the podcast on {x} my coworker suggested?", ["Priya", "Tomasz", "Aiko", "Mateo", "Ingrid"],
     ["space history", "urban planning", "ancient Rome", "jazz records", "mushroom foraging"]),
    ("My neighbour {p} lent me a drill for the {x}.", "I returned the drill to {p} with a bottle of wine as thanks.",
     "What did I give back to the person next door after the {x} job, and with what?", ["Oskar", "Dana", "Felipe", "Noor", "Bram"],
     ["bookshelf", "kitchen cabinets", "curtain rails", "bike rack", "garden shed"]),
    ("My friend {p} is getting married in {x}.", "For {p}'s wedding I bought a linen suit.",
     "What am I wearing to my friend's ceremony in {x}?", ["Lucia", "Kwame", "Sven", "Mei", "Rafael"],
     ["June", "the Azores", "a vineyard", "September", "a castle"]),
    ("{p} from the climbing gym invited me to a {x} trip.", "The trip with {p} got cancelled because of a storm warning.",
     "Why didn't the {x} outing with my gym buddy happen?", ["Jonas", "Ama", "Hiro", "Elena", "Finn"],
     ["canyoning", "sea kayaking", "via ferrata", "caving", "glacier"]),
]

OPEN = [
    ("hobbies", ["I spent Saturday painting watercolours of the harbour.",
                 "Pottery class was great, I made a wonky bowl.",
                 "I've been knitting a scarf in the evenings.",
                 "Birdwatching at dawn is my new favourite thing."],
     "What creative pastimes have I talked about?"),
    ("worries", ["I'm anxious about the mortgage rate going up.",
                 "I keep lying awake worrying about my dad's surgery.",
                 "Honestly the layoffs rumours at work scare me.",
                 "I'm stressed that the thesis deadline is close."],
     "What has been weighing on my mind lately?"),
    ("food", ["I tried a Georgian restaurant, the khachapuri was incredible.",
              "Made homemade ramen from scratch on Sunday.",
              "The new Lebanese bakery does amazing manakish.",
              "I baked sourdough for the first time and it rose!"],
     "What dishes or eateries have I been excited about?"),
]

CHAT = ["Thanks, that's really helpful.", "Haha, fair enough.", "Good morning! How are you today?",
        "Can you help me write an email to my landlord?", "Let's pick this up tomorrow.",
        "I'm just tired today, long week.", "Could you summarise that in two sentences?",
        "What's a good way to stay focused in the afternoon?", "Remind me to drink more water.",
        "Can you suggest a name for a group chat?", "Okay, that makes sense.",
        "How do I convert Celsius to Fahrenheit?", "Any ideas for a rainy-day activity?"]
REPLIES = ["That sounds lovely! Let me know if you want suggestions.",
           "Happy to help. Would you like me to go into more detail?",
           "Noted. Is there anything else on your mind?",
           "Great question. Here are a few ideas you could try.",
           "I understand. Take it one step at a time.",
           "Sure, here's a short version.",
           "That makes sense. I'll keep that in mind for later."]
# The assistant's answer to a question the person asked: the evidence is the reply.
ADVICE = [
    ("Can you recommend a tent for my camping trip in the mountains?",
     "For alpine conditions I'd go with a four-season shelter like the Hilleberg Soulo.",
     "Which shelter did you suggest for my mountain camping?"),
    ("What should I cook for my in-laws who are coming for dinner?",
     "A slow-roasted lamb shoulder with pomegranate and herbs is impressive and easy.",
     "What meal did you propose when my partner's parents visited?"),
    ("Any advice on a laptop for video editing under a tight budget?",
     "A refurbished MacBook Pro with an M1 Pro chip gives the best value for editing.",
     "What computer did you advise for editing footage cheaply?"),
    ("What plant survives in a dark bathroom?",
     "A snake plant or a ZZ plant tolerates low light and humidity very well.",
     "Which greenery did you say would cope with my gloomy washroom?"),
    ("How should I prepare for my first half marathon?",
     "Build up to a 16 km long run, add one interval session a week, and taper for ten days.",
     "What training plan did you give me for the 21k race?"),
    ("Which board game is good for six players at a party?",
     "Codenames or Wavelength work brilliantly for groups of six.",
     "What tabletop games did you recommend for a big group?"),
]


VARIANTS = ("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o",
            "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "aa", "ab", "ac",
            "ad", "ae", "af", "ag", "ah", "ai", "aj", "ak", "al", "am", "an", "ao")


@dataclass
class _Vocabulary:
    topics: list
    advice: list
    hops: list
    open: list
    chat: list
    replies: list
    split: bool              # a and b share the lists, each taking half of every phrasing
    filler: list             # small talk around a fact (c to ao)
    lengths: tuple = ()      # exchanges of chit-chat per session (c to ao); a and b: 2 to 6
    sessions: int = 160
    days: int = 240
    rows: str = "utterance"  # a, d to ao: one row per utterance; b: "User:" labels; c: joined
    filler_after: bool = True  # c, e to ao: small talk after the fact too; d: only before it


#: The variants written apart, each in `evaluation.dialogue_<variant>`: how their sessions are
#: laid out (exchanges of chit-chat per session, sessions, days, row shape, small talk after a
#: fact).
_WRITTEN_APART = {
    "c": dict(lengths=(1, 1, 1, 1, 2, 2, 3, 5, 12, 24), sessions=110, days=400, rows="joined"),
    "d": dict(lengths=(2, 3, 4, 5, 6, 7, 8), sessions=140, days=300, filler_after=False),
    "e": dict(lengths=(1, 2, 3, 4, 6, 9), sessions=130, days=360),
    "f": dict(lengths=(1, 2, 3, 5, 7), sessions=120, days=330),
    "g": dict(lengths=(1, 1, 2, 3, 4, 8), sessions=125, days=380),
    "h": dict(lengths=(1, 2, 2, 3, 5, 6), sessions=120, days=350),
    "i": dict(lengths=(1, 1, 2, 3, 4, 5, 9), sessions=135, days=340),
    "j": dict(lengths=(1, 1, 1, 2, 3, 4, 6, 10), sessions=125, days=370),
    "k": dict(lengths=(1, 1, 2, 2, 3, 5, 8), sessions=130, days=390),
    "l": dict(lengths=(1, 1, 2, 2, 3, 4, 7), sessions=125, days=375),
    "m": dict(lengths=(1, 1, 2, 3, 3, 4, 6), sessions=130, days=365),
    "n": dict(lengths=(1, 2, 2, 3, 4, 5, 7), sessions=120, days=355),
    "o": dict(lengths=(1, 1, 2, 3, 4, 6, 8), sessions=125, days=345),
    "p": dict(lengths=(1, 1, 2, 3, 4, 5, 7), sessions=130, days=360),
    "q": dict(lengths=(1, 1, 2, 3, 4, 5, 8), sessions=125, days=370),
    "r": dict(lengths=(1, 1, 2, 2, 3, 4, 6, 9), sessions=130, days=350),
    "s": dict(lengths=(1, 1, 2, 2, 3, 5, 6, 8), sessions=125, days=360),
    "t": dict(lengths=(1, 1, 2, 3, 3, 4, 6, 8), sessions=130, days=365),
    "u": dict(lengths=(1, 1, 2, 2, 3, 4, 5, 7), sessions=135, days=355),
    "v": dict(lengths=(1, 1, 2, 3, 3, 4, 5, 8), sessions=130, days=370),
    "w": dict(lengths=(1, 1, 2, 2, 3, 4, 6, 8), sessions=130, days=365),
    "x": dict(lengths=(1, 1, 2, 3, 4, 5, 6, 8), sessions=130, days=375),
    "y": dict(lengths=(1, 1, 2, 2, 3, 5, 6, 8), sessions=135, days=360),
    "z": dict(lengths=(1, 1, 2, 2, 3, 4, 5, 8), sessions=135, days=365),
    "aa": dict(lengths=(1, 1, 2, 2, 3, 4, 6, 7), sessions=130, days=370),
    "ab": dict(lengths=(1, 1, 1, 2, 3, 4, 6, 8), sessions=135, days=380),
    "ac": dict(lengths=(1, 1, 2, 2, 3, 4, 5, 7), sessions=135, days=385),
    "ad": dict(lengths=(1, 1, 2, 2, 3, 4, 6, 8), sessions=130, days=390),
    "ae": dict(lengths=(1, 1, 2, 2, 3, 4, 5, 8), sessions=130, days=395),
    "af": dict(lengths=(1, 1, 2, 2, 3, 4, 6, 7), sessions=130, days=400),
    "ag": dict(lengths=(1, 1, 2, 3, 3, 4, 5, 7), sessions=130, days=405),
    "ah": dict(lengths=(1, 1, 2, 2, 3, 4, 5, 8), sessions=130, days=410),
    "ai": dict(lengths=(1, 1, 1, 2, 3, 4, 5, 7), sessions=135, days=415),
    "aj": dict(lengths=(1, 1, 2, 2, 3, 4, 6, 8), sessions=135, days=420),
    "ak": dict(lengths=(1, 1, 1, 2, 3, 4, 5, 8), sessions=135, days=425),
    "al": dict(lengths=(1, 1, 2, 2, 3, 4, 6, 8), sessions=135, days=430),
    "am": dict(lengths=(1, 1, 1, 2, 3, 4, 6, 8), sessions=135, days=435),
    "an": dict(lengths=(1, 1, 2, 2, 3, 4, 5, 8), sessions=135, days=440),
    "ao": dict(lengths=(1, 1, 1, 2, 3, 4, 6, 7), sessions=135, days=445),
}


def _vocabulary(variant: str) -> _Vocabulary:
    layout = _WRITTEN_APART.get(variant)
    if layout is not None:
        from importlib import import_module

        m = import_module(f"carto_core.evaluation.dialogue_{variant}")
        return _Vocabulary(m.TOPICS, m.ADVICE, m.HOPS, m.OPEN, m.CHAT, m.REPLIES, False, m.FILLER,
                           **layout)
    return _Vocabulary(TOPICS, ADVICE, HOPS, OPEN, CHAT, REPLIES, True, [],
                       rows="utterance" if variant == "a" else "labelled")


def _split(items: list, variant: str) -> list:
    half = [x for i, x in enumerate(items) if i % 2 == (0 if variant == "a" else 1)]
    return half or items


@dataclass
class _Planned:
    when: datetime
    texts: list[tuple[str, str]]  # (speaker, text)
    marks: dict[int, str]         # utterance position -> evidence key


def generate_dialogues(root: Path | str, *, variant: str = "a", seed: int = 5,
                       sessions: int | None = None, days: int | None = None,
                       now: datetime | None = None,
                       coding_events: int = 0) -> tuple[list, dict]:
    """Write the dialogues into `root/turns.jsonl` (appending; with `coding_events`, a
    generated year of coding work is written first) and return (cases, stats); cases are
    `agecurve.Case` objects with `kind` "conversational" and `bucket` the category."""
    from carto_core.evaluation.agecurve import Case

    if variant not in VARIANTS:
        raise ValueError(f"variant is one of {', '.join(VARIANTS)}")
    vocab = _vocabulary(variant)
    sessions = sessions or vocab.sessions
    days = days or vocab.days
    rng = random.Random(f"{variant}-{seed}")
    now = now or utcnow()
    root = Path(root)
    make_dirs(root)
    if coding_events:
        from carto_core.evaluation.generate import generate_home

        generate_home(root, coding_events, days=365, seed=seed, now=now)
    span = days * 86400
    # Every session first gets chit-chat; facts are then placed into sessions.
    plans = [_Planned(now - timedelta(seconds=rng.uniform(3 * 86400, span)),
                      [], {}) for _ in range(sessions)]
    plans.sort(key=lambda p: p.when)
    for plan in plans:
        # c: many one-exchange sessions and a few long ones; a and b: 2 to 6 exchanges
        length = rng.choice(vocab.lengths) if vocab.lengths else rng.randint(2, 6)
        for _ in range(length):
            plan.texts.append(("user", rng.choice(vocab.chat)))
            plan.texts.append(("assistant", rng.choice(vocab.replies)))
    pending: list[tuple[str, str, list[str], str]] = []  # (case id, category, keys, question)
    evidence: dict[str, None] = {}

    def place(plan: _Planned, speaker_text: list[tuple[str, str]], key: str | None,
              which: int = 0) -> None:
        at = rng.randint(0, len(plan.texts) // 2) * 2
        plan.texts[at:at] = speaker_text
        # shift marks after the insertion point
        plan.marks = {(p + len(speaker_text) if p >= at else p): k for p, k in plan.marks.items()}
        if key is not None:
            plan.marks[at + which] = key
            evidence[key] = None

    def reply() -> tuple[str, str]:
        return ("assistant", rng.choice(vocab.replies))

    def said(text: str) -> tuple[str, str]:
        """The person's message telling `text` (c: between sentences of small talk)."""
        if vocab.filler:
            before = rng.sample(vocab.filler, rng.randint(0, 2))
            after = rng.sample([f for f in vocab.filler if f not in before],
                               rng.randint(0, 1 if vocab.filler_after else 0))
            text = " ".join([*before, text, *after])
        return ("user", text)

    def split(items: list) -> list:
        return _split(items, variant) if vocab.split else items

    topics = vocab.topics[:]
    rng.shuffle(topics)
    n = 0
    # single and temporal facts, each topic one or the other (a question about a topic must
    # have one right answer)
    for t_index, topic in enumerate(topics):
        values = topic.values[:]
        rng.shuffle(values)
        tell, ask = split(topic.tell), split(topic.ask)
        for mention in topic.mention:  # distractors on the topic, in random sessions
            place(rng.choice(plans), [("user", mention), reply()], None)
        n += 1
        if t_index % 2 == 0:
            key = f"s{n}"
            # ask[j] paraphrases tell[j]: a question about another telling ("where is the
            # family holiday" for "our honeymoon destination is Kyoto") has no answer
            j = rng.randrange(len(tell))
            place(rng.choice(plans), [said(tell[j].format(v=values[0])), reply()], key)
            pending.append((f"conv-single-{n:03d}", "single", [key], ask[j]))
            continue
        # temporal: an old state, then a newer one; the question asks for the latest
        first, second = sorted(rng.sample(plans, 2), key=lambda p: p.when)
        old_key, new_key = f"t{n}-old", f"t{n}-new"
        place(first, [said(rng.choice(tell).format(v=values[1])), reply()], old_key)
        # a change names what it replaces when it refers to it ("I quit bouldering and ..."):
        # the old state was told in another session, weeks earlier
        place(second, [said(rng.choice(split(topic.change)).format(
            v=values[2], old=values[1])), reply()], new_key)
        pending.append((f"conv-temporal-{n:03d}", "temporal", [new_key],
                        rng.choice(split(topic.latest))))
    for ask_text, answer, question in split(vocab.advice):
        n += 1
        key = f"r{n}"
        place(rng.choice(plans), [("user", ask_text), ("assistant", answer)], key, which=1)
        pending.append((f"conv-single-{n:03d}", "single", [key], question))
    for first_t, second_t, question, people, things in vocab.hops:
        # two stories of the same shape per home, told apart by the detail of the first
        # hop that the question names (the same question twice would have two answers)
        for person, thing in zip(rng.sample(people, 2), rng.sample(things, 2)):
            n += 1
            a_plan, b_plan = sorted(rng.sample(plans, 2), key=lambda p: p.when)
            ka, kb = f"h{n}-a", f"h{n}-b"
            place(a_plan, [said(first_t.format(p=person, x=thing)), reply()], ka)
            place(b_plan, [said(second_t.format(p=person, x=thing)), reply()], kb)
            pending.append((f"conv-multi-hop-{n:03d}", "multi-hop", [ka, kb],
                            question.format(x=thing)))
    for theme, lines, question in vocab.open:
        n += 1
        chosen = rng.sample(lines, rng.randint(2, 4))
        keys = []
        for i, line in enumerate(chosen):
            key = f"o{n}-{i}"
            keys.append(key)
            place(rng.choice(plans), [said(line), reply()], key)
        pending.append((f"conv-open-{n:03d}", "open", keys, question))

    # write rows: variant a one row per utterance, b and c one row per exchange
    key_to_id: dict[str, str] = {}
    rows = []
    for s_index, plan in enumerate(plans):
        # the dash ends the variant's tag: "-dlga-" and "-dlgaa-" never meet
        sid = f"{rng.getrandbits(32):08x}-dlg{variant}-{s_index:04d}"
        moment = plan.when
        turn = 0
        step = 1 if vocab.rows == "utterance" else 2
        for position in range(0, len(plan.texts), step):
            chunk = plan.texts[position:position + step]
            turn += 1
            moment = moment + timedelta(seconds=rng.randint(20, 300))
            eid = f"turn-{sid}-{turn}"
            if vocab.rows == "utterance":
                speaker, text = chunk[0]
                summary = text
            elif vocab.rows == "joined":  # as the Claude transcript reader composes a turn
                summary = " ".join(t for _, t in chunk)
            else:
                summary = " ".join(f"{'User' if s == 'user' else 'Assistant'}: {t}" for s, t in chunk)
            for offset in range(len(chunk)):
                key = plan.marks.get(position + offset)
                if key is not None:
                    key_to_id[key] = eid
            rows.append(turn_row(eid, moment, summary, sid, turn))
    append_in_time_order(root, "turns", rows)
    cases = [Case(case_id, "conversational", question, [key_to_id[k] for k in keys], 10, category)
             for case_id, category, keys, question in pending]
    stats = {"variant": variant, "seed": seed, "sessions": sessions, "turn_rows": len(rows),
             "cases": {c: sum(1 for x in cases if x.bucket == c) for c in CATEGORIES},
             "coding_events": coding_events}
    return cases, stats


#: Background events under each variant's dialogues in the measured sets: a's among many
#: unrelated rows, b's alone, c's to ao's among some (docs/ranking.md).
BACKGROUND = {"a": 6000, "b": 0, "c": 2000, "d": 4000, "e": 3000, "f": 2500, "g": 3500,
              "h": 3000, "i": 2800, "j": 3200, "k": 2600, "l": 2700, "m": 2900,
              "n": 3100, "o": 3300, "p": 3400, "q": 3600, "r": 3700,
              "s": 3800, "t": 3900, "u": 4000, "v": 4100, "w": 4200,
              "x": 4300, "y": 4400, "z": 4500, "aa": 4600, "ab": 4700,
              "ac": 4800, "ad": 4900, "ae": 5000, "af": 5100, "ag": 5200,
              "ah": 5300, "ai": 5400, "aj": 5500, "ak": 5600,
              "al": 5700, "am": 5800, "an": 5900, "ao": 6000}


def dialogue_home(root: Path | str, *, variant: str, seed: int, now: datetime) -> Path:
    """The measured sets' home of one variant and seed under `root`: its background events and
    dialogues, with the cases in `cases.jsonl`; made once, reused when `cases.jsonl` exists."""
    from carto_core.evaluation import agecurve
    from carto_core.evaluation.generate import generate_home

    root = Path(root)
    if not (root / "cases.jsonl").exists():
        if BACKGROUND[variant]:
            generate_home(root, BACKGROUND[variant], seed=20 + seed, now=now)
        cases, _ = generate_dialogues(root, variant=variant, seed=seed, now=now)
        agecurve.write_cases(root / "cases.jsonl", cases)
    return root
