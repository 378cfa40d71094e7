"""Variant `m` of the dialogue set: an eleventh check set, written apart from `a` to `l` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one young software tester's in Leeds, Dani, who plays
five-a-side, fosters kittens for a rescue and is saving with her girlfriend Kez for a first
flat: the five-a-side team she plays for, the fosters in the flat, the place they are trying
to buy, what they have given up to save, the product she is testing at work, the exam she is
studying for, Kez's job, her character in a D&D campaign and the gadget her nan in Wakefield
is learning; questions are asked as people ask an assistant to remember ("who's threatening to
make me wear hot pink on the pitch lol", "what did you say would stop the developers bouncing
my tickets back?"), some lowercase, some without a question mark, some with context after the
question, a few typos, from the specific to the vague, and mostly share no content word with
the message that answers them. Sessions run from one exchange to six over 365 days; small talk
may sit before and after a fact in the same message; rows are one utterance each, among 2,900
coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("fiveaside", ["Ctrl Alt Defeat", "Borussia Teeth", "Real Ale Madrid",
                        "Nottingham Florists", "Tekkers United", "Hungover Hotspur"],
          ["Signed up to play for {v} on Wednesday nights at the pitches behind the leisure "
           "centre, they were a player short and I was bored so why not",
           "scored a proper worldie for {v} last night, top bins from outside the D, still "
           "buzzing tbh",
           "The captain of {v} messaged the group chat at 1am to say we're getting matching "
           "pink kits. I did not consent to this."],
          ["which lot did I join midweek cos they were one person down",
           "Who was I turning out for when I got that screamer into the top corner?",
           "who's threatening to make me wear hot pink on the pitch lol"],
          ["Got nutmegged by a fifty-year-old in trainers that looked like slippers tonight, "
           "humbling.",
           "the astroturf burns on my knees are a war crime honestly",
           "Our keeper didn't show again so we rotated and I let in six."],
          ["Left {old} after all the captain drama, I'm playing for {v} now and they actually "
           "pass to me",
           "new season new squad: I've joined {v}."],
          ["which five-a-side team am I on at the moment?", "who do i play footy for now"]),
    Topic("fosterkit", ["a one-eyed ginger called Pirate",
                        "three black kittens found in a skip in Bramley",
                        "a nursing mum called Biscuit and her five babies",
                        "a shy tortie called Mango",
                        "two Siamese-cross brothers called Ant and Dec",
                        "a bottle-fed runt called Nugget"],
          ["The rescue dropped off {v} last night. Kez is pretending she's not attached but "
           "she's already ordered a cat tree off Amazon",
           "I'm absolutely shattered, been up half the night because of {v} and the scratching "
           "at the bedroom door. worth it though",
           "Took {v} to the vet for jabs and a once-over, all healthy, and the nurse was "
           "completely obsessed"],
          ["what did the animal charity leave with us that my gf is secretly smitten with?",
           "who kept me awake clawing to get in, I forget if I told you",
           "Which of our fosters went for their injections and had the veterinary staff "
           "cooing?"],
          ["Litter tray duty is the least glamorous part of fostering, nobody tells you that.",
           "The rescue's doing a fundraiser quiz in October, might drag the girls from work.",
           "Hoovered about a kilo of fur off the sofa this morning."],
          ["{old} got adopted by a lovely retired couple in Otley, I cried, and the rescue has "
           "already given us {v}",
           "Currently fostering {v}."],
          ["What fosters have we got in the flat right now?", "whos our current foster"]),
    Topic("househunt", ["a two-bed in Chapel Allerton", "a new-build in Kirkstall Forge",
                        "a back-to-back in Meanwood", "a flat over a bakery in Headingley",
                        "a conversion in Roundhay with a shared garden",
                        "a one-bed near Horsforth station"],
          ["We put an offer in on {v} this morning!!! 5k under asking. feel sick",
           "Kez has fallen hard for {v}, she's already measuring up for curtains off the "
           "Rightmove photos",
           "Second viewing of {v} today. Bit of damp in the bathroom but honestly, the light in "
           "the living room, I could cry"],
          ["what place did me and my girlfriend bid on, under the price they wanted?",
           "which property has my partner already planning soft furnishings for",
           "What did we go back round to look at again, the one with lovely sunshine but a "
           "mouldy loo?"],
          ["Mortgage adviser says we need another six months of payslips before anyone will "
           "lend to us.",
           "Every estate agent in Leeds wears the same shiny suit, I'm convinced it's one man.",
           "rightmove has ruined my sleep, I'm refreshing it at 2am like a lunatic"],
          ["We pulled out of {old} after the survey came back (subsidence!!) so now we're "
           "going for {v}",
           "Offer accepted on {v}. I can't actually believe I'm typing this."],
          ["What flat are we trying to buy now?", "where are we buying, whats the current plan"]),
    Topic("testproject", ["the Open Banking integration",
                          "the self-scan tills for a supermarket chain",
                          "an NHS appointment booking app", "the bus ticket app for West Yorkshire",
                          "a loyalty app for a coffee chain", "an insurance claims portal"],
          ["Got moved onto {v} at work, which means learning a whole new domain by Monday. Fun.",
           "found 14 bugs in {v} before lunch, teh devs hate me, I love my job",
           "Honestly {v} is the worst-documented thing I've ever had to test, there's no spec, "
           "just vibes"],
          ["what did they shift me onto in the office that I had to get my head round over a "
           "weekend",
           "where did I turn up a whole stack of defects in one morning?",
           "Which project have I been moaning has zero write-up of how it's meant to work"],
          ["Regression pack took six hours to run today because someone broke the pipeline.",
           "sprint planning ran over by an hour AGAIN",
           "my manager wants 80% automation coverage by Q3, lol, lmao even"],
          ["Rolled off {old} at last, I'm testing {v} now",
           "New project at work: {v}."],
          ["what am I testing at work at the moment",
           "Which product is my QA work on these days?"]),
    Topic("cutback", ["Friday takeaways", "the Netflix and Disney+ subscriptions",
                      "my PureGym membership", "nights out in town", "Uber rides home",
                      "buying new clothes"],
          ["Right, we've officially knocked {v} on the head until we've got the deposit "
           "together. Pray for us",
           "genuinely didn't realise how much {v} was costing us until I did the spreadsheet, "
           "£140 a month!!",
           "Kez caved on {v} after three weeks, I lasted four, so technically I win"],
          ["what did me and Kez give up till we've saved enough",
           "What turned out to be secretly draining our money when I did the budget?",
           "which sacrifice did my girlfriend crack on first"],
          ["Made a budget sheet with conditional formatting, it's the most beautiful thing I've "
           "ever built.",
           "Batch cooked a massive chilli, that's lunches sorted till Thursday.",
           "saving money is so boring, nobody warns you"],
          ["we've gone back to {old} because life's too short, but we've cut {v} instead to "
           "make up for it",
           "This month's sacrifice for the flat fund: {v}."],
          ["What are we going without at the minute to save up?",
           "what have we cut back on lately for the house money"]),
    Topic("kezjob", ["a sous chef at a tapas place on Call Lane",
                     "a teaching assistant in Harehills", "a trainee paramedic",
                     "a receptionist at a vet's in Rothwell",
                     "a junior copywriter at an ad agency", "a mechanic at a bike shop in Hunslet"],
          ["Kez got the job!! She's going to be {v}. So proud of her I could burst",
           "kez is knackered, first week as {v} and she's done 50 hours",
           "Her mum keeps telling everyone at church that Kez is {v} like it's the most "
           "glamorous job on earth"],
          ["what was Kez's big news when she got offered something",
           "whats had my other half so exhasted since she started",
           "What does my girlfriend's mother brag about to the congregation?"],
          ["Kez hates her commute, two buses and a walk up a hill.",
           "She's applying for jobs again, I'm proofreading cover letters every night.",
           "Kez had a rough shift and just wants toast and silence."],
          ["Kez has packed in being {old}, she starts as {v} on Monday",
           "my girlfriend's working as {v} now"],
          ["What's Kez doing for work now?", "what job has my gf got these days"]),
    Topic("tabletop", ["a tiefling bard called Vex", "a halfling rogue called Pip",
                       "a dragonborn paladin called Sorrel", "a gnome wizard called Fizzwick",
                       "a half-orc cleric called Grunda", "a tabaxi ranger called Whisper"],
          ["Rolled up {v} for the new D&D campaign Kez's brother is running, first session is "
           "Sunday",
           "{v} nearly died last night, natural 1 on a stealth check and the whole goblin camp "
           "woke up lmao",
           "Spent my whole lunch painting a tiny mini of {v} instead of eating, no regrets"],
          ["who did I make for the tabletop game my girlfriend's brother is starting?",
           "which of my characters almost got killed after I fluffed a sneaking roll",
           "What was the miniature I painted at work when I should've been having my dinner?"],
          ["Our dungeon master spent 20 minutes describing a door.",
           "Someone brought crisps to the table and got grease on the character sheets, war "
           "nearly broke out.",
           "dice jail is real and my d20 is serving a life sentence"],
          ["My old character, {old}, got retired (peacefully, in a tavern) so I'm playing {v} "
           "now",
           "New campaign, new character: {v}."],
          ["what character am I playing in D&D at the moment?", "who's my current dnd character"]),
    Topic("nantech", ["an iPad mini", "a Doro flip phone", "an Echo Show", "a Kindle Fire",
                      "a Chromebook", "a Samsung Galaxy tablet"],
          ["Set my nan up with {v} on Sunday. She's in Wakefield so this is going to be a lot "
           "of phone support",
           "Nan rang me four times today about {v}, she's convinced it's listening to her",
           "my uncle bought nan {v} for her 80th and then flew back to Dubai and left me as IT "
           "support, cheers Gary"],
          ["what did I get grandma set up with on the weekend?",
           "what gadget has my gran paranoid she's being spied on",
           "Which birthday present for gran's big birthday did I get lumbered with fixing"],
          ["Nan asked me if she could get viruses from the telly, bless her.",
           "Spent an hour on the phone walking nan through resetting her password.",
           "nan has learnt what a meme is and I fear for us all"],
          ["Nan's given up on {old}, too fiddly, so we've got her {v} instead",
           "What nan uses now is {v}, and she's actually managing."],
          ["what device is nan on at the moment", "What's my grandmother using for tech now?"]),
    Topic("testcert", ["the ISTQB Foundation", "the ISTQB Advanced Test Analyst",
                       "the AWS Cloud Practitioner", "the Professional Scrum Master I",
                       "the PCEP Python exam", "the ISTQB Agile Tester extension"],
          ["Work's paying for me to sit {v}, it's booked in for March",
           "studying for {v} on my lunch breaks, my brain is full",
           "Passed {v}!!! 82%. Celebrated with a Greggs"],
          ["What qualification is my employer funding?",
           "what have I been revising over my sandwiches",
           "which exam did I smash and treat myself to a sausage roll for?"],
          ["Flashcards everywhere, Kez found one in the fridge.",
           "The practice exam questions are written by people who hate joy.",
           "Thinking about whether certs even matter in testing or if it's all experience."],
          ["Done with {old}, next up is {v}",
           "I've started on {v} now, one step closer to a senior role."],
          ["what course or exam am I working on now?",
           "Which certification am I studying for these days"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("the devs keep closing my tickets as 'cannot reproduce' and it's driving me up the wall. "
     "how do i write bug reports they can't wriggle out of",
     "Make every ticket reproducible by a stranger. Give it a title that says what broke and "
     "where (\"Basket total ignores voucher after editing quantity\"), then numbered steps from "
     "a clean state, including the test account, build number, browser or device and any "
     "feature flags that were on. Put expected and actual side by side, attach a screen "
     "recording plus the console or network log with timestamps, and say how often it happens "
     "(3 out of 5 tries). If it's intermittent, list what you've already ruled out. And before "
     "you file the nasty ones, grab the developer for five minutes and show it live: once "
     "they've watched it fail, 'cannot reproduce' is a lot harder to type.",
     "What did you say would stop the developers bouncing my tickets back?"),
    ("We've got a foster who's basically feral, hisses and hides behind the washing machine "
     "whenever we come near. How do I get her to trust us?",
     "Let her set the pace. Keep her in one small room rather than the whole flat, with a "
     "covered hidey box so she doesn't need the washing machine, and spend time in there every "
     "day reading or on your phone, sitting side-on and not staring at her. Slow blinks help: "
     "in cat terms that means you're no threat. Use food as the bridge, moving the bowl a "
     "little nearer to you each day, then offer a lickable treat like a Churu on a long spoon. "
     "Don't pick her up yet; a wand toy lets her play with you without being touched. It can "
     "take weeks, so keep the rescue posted, because some frightened kittens come round faster "
     "with a confident, friendly cat to copy.",
     "how did you say to win over the spitty one who hides by the appliances"),
    ("kez and I both have lifetime ISAs. can we use both on the same flat or does only one of "
     "us get the bonus?",
     "You can both use them, as long as you're both first-time buyers and you buy together. "
     "Each account has to have been open for at least 12 months, the property must cost "
     "£450,000 or less, and you need a mortgage and have to live there. You don't withdraw the "
     "money yourselves: your conveyancer asks each provider for it, which can take a couple "
     "of weeks, so tell them early. Taking it out for anything else costs a 25% charge, which "
     "claws back the bonus and a slice of your own savings too. If only one of you were a "
     "first-time buyer, that person could still use theirs but the other couldn't.",
     "Can we both put our government-topped-up savings towards the one place? remind me what "
     "you said"),
    ("our five a side team keeps getting done on the counter, we all bomb forward and then it's "
     "3 v our keeper. any tips",
     "Agree one simple rule: whoever is furthest back doesn't cross halfway while you have the "
     "ball, and if they do push on, the nearest teammate drops into their spot. Set up as a "
     "diamond, one back, two wide, one up, so that when you lose it there's always someone "
     "between the ball and your goal. The moment you lose possession, the nearest player "
     "presses for three seconds to stop the quick pass while everyone else gets goal-side. And "
     "have your keeper roll it out fast to a wide player instead of hoofing it, so you're not "
     "gifting the ball straight back.",
     "what was your fix for us getting caught out on the break all the time?"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("A new lad's started turning up to five-a-side, {p}. Turns out he played a season for "
     "{x} before his knee went.",
     "{p} says we can borrow his works van for the move and he'll even drive it, which is "
     "above and beyond tbh",
     "the guy at footy who used to play for {x}, what's he offered to do for us",
     ["Reece", "Bilal", "Jaden", "Kyle", "Haris"],
     ["Guiseley AFC", "Farsley Celtic", "Bradford Park Avenue", "Harrogate Town",
      "Ossett United"]),
    ("There's a new dev on my squad called {p}, came over from {x}. seems sound so far",
     "{p} merged straight into main at half four on a Friday and broke the test environment "
     "for the whole weekend. I am not ok",
     "What did the developer who joined us from {x} do that wrecked my weekend?",
     ["Arjun", "Lukas", "Tomek", "Hamza", "Ollie"],
     ["Sky Betting and Gaming", "Asda's head office", "the BBC in Salford",
      "a crypto startup in Manchester", "Jet2"]),
    ("Kez's old friend {p}, from {x}, is kipping on our sofa for a week or so while she sorts "
     "herself out",
     "{p} finally moved out and left us a Bettys gift box and a really sweet card, which almost "
     "makes up for the snoring",
     "Kez's friend from {x} that stayed with us, what did she leave when she went",
     ["Sophie", "Chloe", "Amara", "Ellie", "Bex"],
     ["her netball team at uni", "sixth form", "her summer working a bar in Ibiza",
      "roller derby", "her old job at Harvey Nichols"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("pitchlife", ["Got player of the match at footy, they gave me a bottle of Lambrini as the "
                   "trophy",
                   "we lost 11-2 tonight, the other lot were all about nineteen and ran like "
                   "gazelles",
                   "Took a ball straight in the face from about a yard away. Nose isn't broken, "
                   "my pride is",
                   "first ever hat-trick tonight!!! one was a deflection off my bum but it "
                   "counts"],
     "how's my football been going lately, anything good or bad happen"),
    ("viewings", ["Viewed a flat where the 'second bedroom' was a cupboard with a window "
                  "painted on the wall. Not joking.",
                  "The agent showed us round a place while the tenant was still in bed. In it. "
                  "Asleep.",
                  "One house had a gorgeous garden until we realised it backs onto the railway "
                  "and a train goes past every four minutes",
                  "went to an open house with about thirty other couples and the agent said "
                  "best and final by 5pm, so that's a no"],
     "What nightmare places have we looked round while house hunting?"),
    ("kittenchaos", ["One of the babies climbed the curtains and got stuck at the top crying "
                     "until Kez got the stepladder",
                     "the kittens knocked my laptop off the desk mid-demo and the whole team "
                     "heard the carnage on the call",
                     "Found the little ones asleep in the fruit bowl on top of the bananas, too "
                     "cute to move",
                     "Something has been nicking socks and hiding them under the fridge. We have "
                     "a suspect."],
     "what mischief have the foster cats been getting up to?"),
]

CHAT = ["how do you unshrink a jumper that's gone small in the wash",
        "Can you give me a regex that matches a UK postcode?",
        "whats a good name for a tabby kitten, girl, bit sassy",
        "Explain stamp duty for first-time buyers like I'm five",
        "is it normal for shin pads to smell this bad",
        "give me 3 cheap tea ideas, we've got rice, eggs and half a cabbage",
        "What time does it get dark in Leeds in December?",
        "Help me word a message to the landlord about the boiler, polite but firm",
        "Translate 'the cat is not for sale' into Spanish pls",
        "Morning! running on two coffees and spite",
        "What's the difference between smoke testing and sanity testing?",
        "Ta, that's perfect."]
REPLIES = ["Okay! Here's a quick rundown.",
           "Ha, fair enough. Here you go.",
           "Good question, it's a bit fiddly, so step by step:",
           "Done, let me know if you want it shorter.",
           "Here's one way to do it, tweak it however you like."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Kez says hi.", "Finally sat down with a brew.", "ok random one.",
          "sorry, phone's on 3%.", "Got a kitten asleep on my arm so typing one-handed."]
