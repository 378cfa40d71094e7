"""Variant `k` of the dialogue set: a ninth check set, written apart from `a` to `j` by someone
given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one hospital night-shift radiographer's in West Wales, married to
Huw, who keeps bees and is learning Welsh: where she is rostered on nights, who she works
nights with, the car she drives home in at dawn, what helps her sleep in the day, where her
hives stand, what is wrong with them lately, where she sells her honey, how she is learning
the language and what her choir is rehearsing; questions are asked as people ask an assistant
to remember ("who made the traybake I pigged out on at work", "what ate up my rest day when I
should have been in bed?"), some lowercase, some without a question mark, some with context
after the question, from the specific to the vague, and mostly share no content word with the
message that answers them. Sessions run from one exchange to eight over 390 days; small talk
may sit before and after a fact in the same message; rows are one utterance each, among 2,600
coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("rotapost", ["the resus bay in A&E", "the CT suite", "the paediatric X-ray room",
                       "the portable machine on the wards",
                       "fluoroscopy in the orthopaedic theatres", "the MRI scanner"],
          ["They've put me in {v} for the whole of this block of nights.",
           "Honestly {v} was carnage last night, eleven patients between two and four and not "
           "even a sip of tea.",
           "My band 6 interview on Friday is for a post covering {v}, fingers crossed."],
          ["which bit of the department did they stick me in for this stretch of nights",
           "Where was it so manic I didn't get a drink till gone four? I keep telling Huw about "
           "it and can't remember which room",
           "the promotion I'm interviewing for, what area would I be looking after if I get it?"],
          ["Three nights on, four off, and my body clock has no idea what day it is.",
           "The agency radiographer didn't turn up so I was on my own till the morning.",
           "Rota for next month came out and it's nights again over Christmas."],
          ["They've moved me off {old} and I'm covering {v} now.",
           "New rota came out: I'm based in {v} from now on."],
          ["where am I based on nights these days",
           "Which part of imaging am I covering at the moment?"]),
    Topic("apiary", ["the allotment behind the rugby club", "a walled garden near Llandeilo",
                     "the flat roof of the old hospital laundry",
                     "a cider orchard outside Abergavenny",
                     "my sister-in-law's smallholding at Cwmann",
                     "a field corner on a dairy farm near Whitland"],
          ["The hives are sitting at {v} now, and the owner gets a few jars a year as rent.",
           "Had a proper panic because someone left the gate open at {v} and sheep were "
           "rubbing themselves on the stands.",
           "Drove over to {v} still in my scrubs straight off shift to check on them."],
          ["Where do I keep the colonies, the place where I pay in honey?",
           "where was it the livestock got in and started scratching against my bee stands",
           "Where did I go in my work uniform to look in on the bees after a night?"],
          ["Need to find somewhere to put a third colony, the neighbours aren't keen.",
           "Bees need water nearby, so I leave out a bucket with corks floating in it.",
           "Lugging full supers across a field is the best workout I get all week."],
          ["Moved the bees from {old} to {v}, it took two trips at dusk with the entrances "
           "taped up.",
           "The hives live at {v} these days."],
          ["Where are my hives kept now?", "where have I got the bees at the minute"]),
    Topic("welshcourse", ["a Saturday class in the chapel vestry",
                          "the Say Something in Welsh podcast", "an online Mynediad course",
                          "a Monday night Sylfaen class at the college",
                          "a Zoom tutor from Bala called Elin",
                          "an intensive week at Nant Gwrtheyrn"],
          ["Signed up for {v}, so hopefully I'll finally be able to chat to Huw's mam in her "
           "own language.",
           "Learning with {v} fits round the rota better than anything else I've tried.",
           "Paid for {v} today, ninety quid, but I reckon it'll be worth it."],
          ["what did I sign up to so I could talk to my mother-in-law properly",
           "Which way of learning Cymraeg did I say works around my shifts?",
           "What did I shell out ninety pounds on? it was something to do with the language"],
          ["Mutations are doing my head in.",
           "Huw keeps answering me in English when I try, which doesn't help.",
           "Practised my vocab on the drive home, talking to myself like a lunatic."],
          ["Dropped {old}; I'm learning through {v} now.",
           "Changed how I'm learning the language: it's {v} these days."],
          ["how am I learning welsh these days",
           "What's my current way of studying the language?"]),
    Topic("dayblock", ["blackout blinds", "a white-noise machine", "melatonin gummies",
                       "a silk eye mask and foam earplugs", "a weighted blanket",
                       "a cooling mattress topper"],
          ["Finally got some proper sleep after nights thanks to {v}.",
           "Huw bought me {v} for my birthday, which is either romantic or a hint.",
           "The occupational health nurse suggested {v} for sleeping in the daytime."],
          ["What's been helping me actually kip in the day after work?",
           "what did my husband get me as a present that might have been a dig",
           "What did the staff wellbeing lady recommend so I can nod off when it's light out?"],
          ["The bin lorry at nine in the morning is my nemesis.",
           "Slept four hours and woke up starving at lunchtime.",
           "The neighbour's started on an extension, drilling all day while I'm trying to get "
           "my head down."],
          ["Gave up on {old}; {v} is what gets me off to sleep these days.",
           "New sleep trick for after nights: {v}."],
          ["What am I using now to get to sleep after a night shift?",
           "what's my current thing for sleeping during the day"]),
    Topic("choirpiece", ["Calon Lân", "Myfanwy", "Fauré's Requiem", "Gwahoddiad",
                         "Anfonaf Angel", "Karl Jenkins' The Armed Man"],
          ["Choir's learning {v} for the eisteddfod and the altos keep coming in early.",
           "Managed to get to rehearsal for once and we sang {v}, I had goosebumps.",
           "Our conductor wants {v} off by heart by Easter."],
          ["which song are we preparing for the competition, the one where my section keeps "
           "jumping in too soon",
           "What gave me shivers the night I actually made it to practice?",
           "what's the piece we've been told to memorise before the spring holidays?"],
          ["Missed choir again because of the rota.",
           "The tenors are down to three blokes and one of them is ninety.",
           "Warm-ups at choir involve a lot of buzzing like a bee, which made me laugh."],
          ["Put {old} away at last; the choir's working on {v} now.",
           "New piece at choir: {v}."],
          ["What are we singing at choir at the moment",
           "Which piece is the choir rehearsing now?"]),
    Topic("honeyoutlet", ["the Thursday market in Llandovery",
                          "the League of Friends shop at the hospital",
                          "a deli on the high street in Narberth", "an honesty box at my gate",
                          "the petrol station on the A40",
                          "the Christmas fair at the village hall"],
          ["Sold out at {v} in about an hour, forty jars!",
           "Takings from {v} paid for a whole new hive this year.",
           "Relabelled every jar properly for {v} after trading standards had a word."],
          ["Where did all forty of my jars go within the hour? trying to work out where to take "
           "the next batch",
           "which place selling my honey made enough money to buy more equipment",
           "Where was it I had to redo the stickers on the jars for after the council inspector "
           "spoke to me?"],
          ["Extracted the summer crop and the kitchen floor is still sticky.",
           "Glass jars have gone up to nearly a pound each.",
           "The honey's set solid in the buckets, I need to warm it."],
          ["Not selling at {old} any more; my honey goes to {v} now.",
           "Found a new outlet for the jars: {v}."],
          ["Where do I sell my honey these days?", "where are my jars going now"]),
    Topic("nightbuddy", ["a Filipino radiographer called Marites",
                         "a newly qualified lad called Iolo", "an agency locum called Brendan",
                         "a South African radiographer called Annelie",
                         "a returner called Pauline", "a student on placement called Zara"],
          ["I'm paired with {v} on nights this month and we get on brilliantly.",
           "Ate four of the brownies that {v} baked for the night team.",
           "Had to show {v} how to do a skyline knee view at half two in the morning."],
          ["Who's my partner on the night shifts this month, the one I really click with?",
           "who made the traybake I pigged out on at work",
           "Who did I teach that awkward kneecap picture to in the middle of the night?"],
          ["Nights are only bearable if you like who you're working with.",
           "The night team group chat is mostly memes and people swapping shifts.",
           "Someone keeps nicking the good mugs from the staff room."],
          ["My old night partner, {old}, has gone onto days, so I'm working with {v} now.",
           "My new night-shift partner is {v}."],
          ["Who am I on nights with at the moment?", "who's my shift buddy now"]),
    Topic("hivetrouble", ["varroa mites", "wax moth", "chalkbrood", "a wasp raid",
                          "a colony that swarmed twice", "laying workers"],
          ["Found {v} in the second hive, gutted.",
           "The bee inspector came out and confirmed it's {v}.",
           "Spent my whole day off dealing with {v} instead of sleeping."],
          ["What did I discover had gone wrong with colony number two?",
           "what did the government bee man say the problem was when he visited",
           "What ate up my rest day when I should have been in bed?"],
          ["Checked all the frames and the brood pattern looks patchy.",
           "My mentor at the association says every beekeeper loses a colony sooner or later.",
           "Wore two pairs of gloves today and still got stung."],
          ["Beat {old} at last, but now it's {v}.", "Latest hive headache: {v}."],
          ["What's the latest problem with my bees?", "whats wrong with the hives now"]),
    Topic("motor", ["a Honda Jazz", "my dad's old Volvo estate", "a Nissan Leaf",
                    "a Fiat Panda 4x4", "a Dacia Duster", "a Toyota Yaris hybrid"],
          ["Bought {v} off a consultant who was emigrating to New Zealand.",
           "Hit a deer on the A483 in {v} coming home at eight this morning, the bumper's "
           "hanging off.",
           "Nothing but {v} will get up our lane when it snows."],
          ["what did I buy from the doctor who was moving abroad",
           "What was I driving when the animal ran out in front of me on the way back from "
           "work?",
           "which vehicle is the only one that copes with our track in the snow? Huw thinks "
           "we should get a second one"],
          ["The hospital wants sixty pounds a month for staff parking now.",
           "Driving home into the morning sun after nights is the most dangerous bit of my job.",
           "MOT's due and the tyres are nearly bald."],
          ["Part-exchanged {old} for {v}.", "I'm driving {v} these days."],
          ["What car have I got now?", "what am I driving to work at the moment"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("got stung right on the eyelid through the veil and my whole eye's puffing up. what do I "
     "do, I'm meant to be on shift tonight",
     "Scrape the sting out sideways with a fingernail or a bank card rather than pinching it, "
     "then hold something cold wrapped in a cloth against it for ten minutes at a time. A "
     "non-drowsy antihistamine such as cetirizine helps the swelling, and it's normal for it "
     "to look worse tomorrow. If your lips or tongue swell, you feel wheezy or faint, or the "
     "swelling spreads beyond your face, that's an emergency: call 999.",
     "What did you tell me to do when one of my bees got me right by the eye?"),
    ("Three nights on then four off. How should I sleep on the first day off so I'm not a "
     "zombie all week?",
     "Don't try to sleep a whole night's worth straight after your last shift: have a short "
     "sleep of three or four hours in the morning, get up, get outside into daylight, and go "
     "to bed at a normal time that evening. A light early meal and no caffeine after about "
     "midday help, and if you can keep one anchor block of sleep at the same time on working "
     "and rest days, your body clock copes much better.",
     "how did you say I should get back to normal hours when my run of nights finishes"),
    ("When do I say 'yng Nghaerdydd' and when is it just 'yn Caerdydd'? The mutations are "
     "killing me.",
     "'Yn' meaning 'in' always takes the nasal mutation, and it changes its own shape to "
     "match: before c it becomes 'yng' and c becomes ngh, so 'yng Nghaerdydd'; p goes to mh "
     "('ym Mhontypridd'), t to nh ('yn Nhalacharn'), g to ng ('yng Ngwynedd'), b to m ('ym "
     "Mangor') and d to n ('yn Nolgellau'). The 'yn' that links a describing word to the "
     "verb, as in 'mae hi'n braf', is a different word and takes the soft mutation instead.",
     "Can you remind me of the rule for the little word for 'in' changing the start of town "
     "names after it"),
    ("A patient asked me tonight whether her CT scan would give her cancer. What's a simple "
     "honest way to answer that?",
     "Be honest that there is a small dose, then put it in proportion: a head CT is roughly "
     "what we all get from natural background in about a year, and a chest X-ray is about a "
     "few days of ordinary life or one long-haul flight. The doctor has judged that finding "
     "out what's wrong matters more than the very small extra risk, and we always use the "
     "lowest dose that gives a useful picture. If she wants more detail, the referring doctor "
     "can talk it through with her.",
     "what did you suggest I say to the lady who was scared the scanner would make her ill?"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("{p} from the beekeeping association gave me his old {x} since he'd bought a new one.",
     "{p} rang to ask if I'd collect swarms for him in June while he's having his hip "
     "replaced.",
     "What did the bloke who handed me the {x} want me to do for him?",
     ["Emrys", "Idris", "Meurig", "Cledwyn", "Tudor"],
     ["honey extractor", "observation hive", "bee suit", "uncapping tray", "queen excluder"]),
    ("The reporting radiographer, {p}, asked me to cover her {x} next month.",
     "{p} left a card and a bottle of prosecco in my locker to say thanks.",
     "How did the colleague whose {x} I took on show she was grateful?",
     ["Sioned", "Lowri", "Carys", "Nerys", "Eirlys"],
     ["Saturday day shift", "on-call weekend", "bank holiday shift", "Christmas Eve late",
      "Sunday early"]),
    ("My conversation partner at the Welsh group, {p}, told me he grew up on a farm near {x}.",
     "{p} has invited me and Huw to his granddaughter's christening, and the whole service "
     "will be in Welsh.",
     "the old boy from my language group who was raised out by {x}, what's he asked us along "
     "to?",
     ["Gwilym", "Elfed", "Dilwyn", "Hywel", "Aneurin"],
     ["Tregaron", "Pumsaint", "Cenarth", "Llanybydder", "Ffarmers"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("oddfilms", ["X-rayed a toddler who'd swallowed a fridge magnet shaped like a sheep.",
                  "A farmer's hand film showed a fishhook he swore he'd never noticed.",
                  "A lad came in at 3am with a pound coin stuck in his throat and it showed up "
                  "perfectly.",
                  "Somebody's pelvis picture had a mobile phone in the back pocket that he "
                  "insisted wasn't there."],
     "What are the weirdest things that have turned up on my images at work?"),
    ("beemoments", ["Watched a forager do the waggle dance on the frame right in front of me.",
                    "On the hottest day the whole hive was fanning at the entrance like a row "
                    "of tiny air conditioners.",
                    "A drone landed on my glove and just sat there cleaning its eyes.",
                    "Took the lid off and the colony smelled of bananas, which is their alarm "
                    "scent."],
     "what have my bees done recently that I thought was amazing"),
    ("cymraegwins", ["Ordered two coffees in Welsh at the café in Llandeilo and the barista "
                     "answered me in Welsh without switching.",
                     "Understood most of the weather forecast on S4C without subtitles.",
                     "Huw's mam cried when I read her a card I'd written myself in Welsh.",
                     "Said diolch yn fawr to an old man on the scanner table at 4am and he "
                     "lit up and chatted the whole way through."],
     "Have there been any moments where the language has actually paid off for me?"),
]

CHAT = ["Morning, just got in from a night shift.",
        "what's the Welsh word for wasp",
        "How long does honey keep if the jar's sealed?",
        "Write me a quick message to the team asking if anyone will swap a Tuesday night.",
        "Is it okay to have a coffee at 4am if I want to be asleep by 9?",
        "Give me an easy slow cooker recipe I can put on before work.",
        "Translate 'good luck with the exam' into Welsh please.",
        "Why do bees die after they sting?",
        "how many calories in a sausage roll",
        "What's a good podcast for a forty-minute drive?",
        "Tell me a fact about lead aprons I can bore my colleagues with.",
        "ta, that's brilliant."]
REPLIES = ["Bore da! Here's a short answer.",
           "Good question, there are a couple of ways to look at it.",
           "No problem at all, see below.",
           "Here you go, hope the shift was a quiet one.",
           "Sure. Shout if you want more detail."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Just finished a run of four nights.", "Huw's taken the dog out so the house is quiet.",
          "Sat in the car eating a cereal bar before I drive home.",
          "Can't sleep yet, still wired from work.", "Bit of sun out so the bees are flying."]
