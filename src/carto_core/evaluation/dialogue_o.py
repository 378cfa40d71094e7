"""Variant `o` of the dialogue set: a thirteenth check set, written apart from `a` to `n` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Manchester bus driver's, Marcus, from Longsight, who plays
cornet in a brass band, coaches his daughter Ama's under-12s netball team and is doing an Open
University history degree: the route he is rostered on, the piece the band is rehearsing, the
part he plays in it, where the netball squad trains, the position Ama plays, what his essay is
on, his son Kofi's job, where the family is going in the summer and what he uses to stay off
cigarettes; questions are asked as people ask an assistant to remember ("what were my
workmates betting I'd fail on?", "that fella who gobbed at me over the fare, what were the
steps you laid out afterwards?"), some lowercase, some without a question mark, some with
context after the question, a few typos, some in Manchester English, from the specific to the
vague, and mostly share no content word with the message that answers them. Sessions run from
one exchange to eight over 345 days; small talk may sit before and after a fact in the same
message; rows are one utterance each, among 3,300 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("busrota", ["the 192 to Hazel Grove", "the 86 to Chorlton", "the 50 out to MediaCity",
                      "the night 43 to the airport", "the 201 through Gorton",
                      "the X50 to the Trafford Centre"],
          ["New rota's out and they've stuck me on {v} till at least Easter. Could be worse, "
           "could be the school runs",
           "had a lad on {v} tap a card that got declined four times, then he just sat down "
           "upstairs like nothing happened",
           "{v} died on me outside the Asda with a full load, everyone off, 40 minutes waiting "
           "for a swap bus and I got called every name going"],
          ["which service did the depot give me until spring?",
           "What was I driving when that kid's payment kept bouncing and he went and sat on the "
           "top deck anyway",
           "what route conked out on me packed to the rafters, where I had to wait ages for a "
           "replacement"],
          ["Twenty minutes late off the stand because the last driver left the cab like a "
           "pigsty.",
           "roadworks on Oxford Road again, the timetable's gone out the window",
           "Somebody left a full Sunday dinner in a tupperware on the back seat. Roast spuds "
           "and everything."],
          ["Gaffer's finally taken me off {old} and put me on {v}",
           "Rota's been shuffled, I'm on {v} from Monday (no more {old}, thank God)"],
          ["what route am I doing these days?", "which bus am i driving now"]),
    Topic("bandpiece", ["Pageantry", "Year of the Dragon", "Resurgam", "Contest Music",
                        "Le Carnaval Romain", "Blitz"],
          ["Area contest piece just landed and it's {v}. MD's already on about extra "
           "rehearsals on Sundays",
           "We ran {v} top to bottom tonight for the first time, whole front row was hanging by "
           "the end",
           "got my part for {v} and there's a top D about halfway through that I'm going to be "
           "hearing in my sleep"],
          ["which piece is the conductor making us give up our weekends for, for the regional "
           "competition?",
           "What did the band manage all the way through without stopping, the night all of us "
           "at the front were knackered?",
           "the one with the stupidly high note I keep dreaming about, what's it called"],
          ["Valve oil leaked all over my gig bag. Everything I own smells of it.",
           "Band AGM tonight. Two hours arguing about new uniforms.",
           "sectional cancelled, conductor's got a chest infection"],
          ["We've put {old} to bed and started on {v}",
           "Next up for the band is {v}, and I for one won't miss {old}"],
          ["what's the band working on now", "Which music are we rehearsing at the moment?"]),
    Topic("bandchair", ["third cornet", "second cornet", "repiano cornet", "flugelhorn",
                        "solo cornet", "soprano cornet"],
          ["Sat in on {v} tonight cos our Dave's off with his knee, and I didn't disgrace "
           "myself",
           "Bandmaster grabbed me after rehearsal and offered me {v} for good. BUZZING",
           "First concert on {v} was at the bandstand in Alexandra Park and all the cousins came "
           "to heckle"],
          ["Which part did I cover when one of the lads did his leg in?",
           "what seat did the conductor ask me to take over permanently",
           "what was I playing at the outdoor do in the park, where my family turned up to jeer "
           "me"],
          ["Mouthpiece has left a ring on my lip like a sucker mark.",
           "when I practise at home Claire puts the telly up to 60",
           "Brass band banter is brutal. Someone drew a moustache on my photo in the bandroom."],
          ["Moved along from {old} to {v} this week, the whole seating plan got shuffled",
           "I'm on {v} now, {old} went to the new kid up from the youth band"],
          ["what chair am I sat in with the band now?",
           "where am i playing in the band these days, which part"]),
    Topic("courtbooking", ["the sports hall at Burnage Academy",
                           "the outdoor courts in Platt Fields",
                           "the church hall on Stockport Road",
                           "the Armitage Centre in Fallowfield",
                           "the leisure centre at Abraham Moss",
                           "the netball dome in Wythenshawe"],
          ["We've got {v} booked for the under-12s, Wednesdays six till seven. Fifty quid a "
           "session mind you",
           "Training at {v} tonight was baltic, the girls did star jumps with their coats on",
           "caretaker at {v} forgot to open up, so I had fourteen 11 year olds and their mams "
           "stood in a car park for half an hour"],
          ["where did I sort for Ama's team to practise midweek, the one that costs a bomb?",
           "where was it so cold the netball girls kept their jackets on",
           "Where did the bloke with the keys leave us stranded outside with all the kids and "
           "parents?"],
          ["Bibs need washing again. I swear they come back smelling worse.",
           "Two girls turned up to training in sliders.",
           "spent an hour on the league website trying to find the fixtures, it looks like "
           "something from 1998"],
          ["Lost our slot at {old}, so training's at {v} from now on",
           "We're at {v} for training now, miles better than {old}"],
          ["where does the netball team train now",
           "Where am I taking the girls for practice at the minute?"]),
    Topic("amaposition", ["goal attack", "wing defence", "goalkeeper", "wing attack",
                          "goal defence", "goal shooter"],
          ["Ama's played {v} all season and she's a natural, reads the game better than I do",
           "Ama begged me to try her at {v} and I caved. She's my daughter, what was I meant to "
           "do",
           "ama got player of the match at {v} on saturday and I had to act all neutral about "
           "it"],
          ["what position has our Ama been in all year, where she seems born to it",
           "What spot did my girl talk me into giving her?",
           "where was she on court when she won that award, with me trying not to look biased"],
          ["Coaching your own kid is a minefield, every call I make is favouritism to somebody.",
           "Ama's had a growth spurt so it's new trainers AGAIN.",
           "England Roses were on telly and Ama watched the whole match with a notebook."],
          ["Ama's given up {old}, she's playing {v} instead and she's earned it",
           "Ama is at {v} now."],
          ["What position is my daughter playing these days?", "where's ama on court lately"]),
    Topic("historyessay", ["the Peterloo Massacre", "the Chartists",
                           "the building of the Ship Canal", "the Lancashire Cotton Famine",
                           "the Windrush generation in Moss Side",
                           "Emmeline Pankhurst and the WSPU"],
          ["Next TMA is 2,500 words on {v}, due the 14th. Haven't started, obviously",
           "Spent my rest day in Central Library reading up on {v}, three hours gone like that",
           "got 78 for my essay on {v}!! best mark yet, tutor called my argument 'crisp'"],
          ["What's my next Open Uni assignment about, the one I've not even begun?",
           "what did I lose a whole day off to at the big round library",
           "which bit of coursework has got my highest score so far"],
          ["Harvard referencing is the work of the devil.",
           "Tutorial was on Zoom at 7 and I was still in my uniform from the late.",
           "Bought a second-hand set of the module books off a woman in Bolton, she'd "
           "highlighted every single line."],
          ["Handed in the one on {old}, so now it's {v}",
           "Essay I'm on: {v}. Deadline looming."],
          ["what's my OU essay about at the moment", "What am I writing up for the degree now?"]),
    Topic("kofiwork", ["a plumbing apprenticeship in Stretford",
                       "nights at the Amazon warehouse in Trafford Park",
                       "a barista job in the Northern Quarter",
                       "a labouring job on a site in Ancoats",
                       "a job on a phone stall in the Arndale",
                       "shifts at a carpet warehouse in Openshaw"],
          ["Kofi's started {v}. First time he's been out of bed before ten since about 2019",
           "Kofi's only gone and got {v} without telling either of us he'd even applied. Claire "
           "cried.",
           "Kofi got his first wage from {v} and treated all of us to a Nando's. Proud dad "
           "moment"],
          ["what's our eldest got himself doing that finally gets him up in the mornings",
           "what did the lad sort out on the quiet that made his mum emotional",
           "Where did my son earn the money he spent on peri-peri chicken for everyone?"],
          ["Kofi's on the Xbox till 3am again.",
           "Had the talk with Kofi about paying board. Looked at me like I'd asked for a kidney.",
           "kofi borrowed the car and brought it back on fumes"],
          ["Kofi's jacked in {old}, he's doing {v} now",
           "{v} is Kofi's latest, after {old} didn't work out"],
          ["what's my son doing for work now", "Kofi's job at the moment, remind me?"]),
    Topic("summerhols", ["a caravan in Abersoch", "a fortnight in Accra with my aunties",
                         "a cottage near Keswick", "an all-inclusive in Tenerife",
                         "a narrowboat on the Llangollen Canal", "Butlins at Skegness"],
          ["Deposit's paid on {v}, we go the back end of August. Claire's already doing "
           "packing lists",
           "been looking at {v} for the summer, the kids are split down the middle on it",
           "Booked {v}, used all my leave in one go and the depot nearly didn't sign it off"],
          ["what did we put money down on for the end of the school holidays, my wife's "
           "sorting bags already",
           "which holiday idea were my two arguing about",
           "What trip did I blow all my time off on that work almost refused?"],
          ["Passports run out next year, need to sort them before anything else.",
           "Claire wants sun, I want somewhere to walk, the kids want wifi.",
           "priced up parking at the airport and it's more than the flights"],
          ["Change of plan, {old} is off and we're doing {v} instead",
           "Summer's finally settled: {v}. Claire wasn't keen on {old} anyway"],
          ["where are we going on holiday this year in the end",
           "what's the family trip now, after all the back and forth?"]),
    Topic("quitsmoking", ["nicotine patches", "a mango ice vape", "Champix tablets", "nicotine gum",
                          "an e-cig pen", "the mouth spray from Boots"],
          ["Trying {v} to stop smoking. Three days in and I'm like a bear with a sore head",
           "Claire's finally got her way, I'm giving {v} a go to pack in the ciggies",
           "depot lads are running a sweepstake on how long I'll last on {v}. odds aren't in my "
           "favour"],
          ["What was I using to get off the fags when I was ratty as anything?",
           "what did the missus nag me into trying so I'd give up",
           "what were my workmates betting I'd fail on?"],
          ["Craving hit at the terminus and I ate three Twirls instead.",
           "smelt someone's roll-up at the stop and nearly followed them down the road",
           "Saved £40 this week not buying tabs, it's going in a jar."],
          ["Packed in {old}, it wasn't cutting it, so the pharmacist has me on {v}",
           "Still not smoked! Switched from {old} to {v} though"],
          ["what am I on to stay off the cigarettes now?", "whats helping me not smoke lately"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("My chops are gone after 40 mins of band practice, by the last run through I'm splitting "
     "every other note. Contest piece is 17 minutes long. How do the proper players last??",
     "Stamina on a brass instrument mostly comes from using less, not from grinding harder. "
     "Start with pressure, because most tired lips are crushed lips: for a few minutes a day, "
     "hold the cornet only by the valve casing with your fingertips so you can't jam it into "
     "your face, and let the air do the work. Next, rest as much as you play. At home, play "
     "for a minute or two, then take the instrument off your face for the same time; in "
     "rehearsal, put it down whenever the MD stops to talk instead of noodling. Build up "
     "slowly: ten minutes of soft long notes and lip slurs every day does more than one long "
     "session on a Sunday, and add a couple of minutes a week. Warm up gently for five minutes "
     "before band (mouthpiece buzzing, middle register, nothing high) and warm down after "
     "with a few very soft low notes. Finally, pencil in the bars where you can safely drop "
     "out for a breath in the long piece; every cornet player in every band does it.",
     "what was your plan for making my lips hold out through a whole rehearsal"),
    ("A mum had a go at me after the match in front of everyone, says her girl 'never gets a "
     "proper game'. She's had the exact same court time as the rest, I keep a sheet!! how do "
     "I handle this without it kicking off on the parents whatsapp",
     "Don't argue it on the day or in the group chat. Something like 'I hear you, let's talk "
     "properly this week' is enough in the moment. Then ring her, or meet her one-to-one, "
     "within a few days once you've both cooled down. Bring the sheet: quarters played by "
     "every girl across the season is hard to argue with and takes the personal sting out of "
     "it. Ask what 'a proper game' means to her, because often it isn't minutes at all; it's "
     "position (her daughter wants to shoot, not defend) or being taken off in the tight end "
     "of close games. If so, offer something concrete, such as a quarter in the position she "
     "wants at the next friendly. Afterwards send every parent a short note on how you "
     "rotate (everyone plays at least two quarters, positions move around over the season) "
     "so it reads as a team rule, not your whim, and bring in a 24-hour rule: nobody raises "
     "a match with the coach until the next day.",
     "How did you say I should deal with the mother who kicked off about her kid's game time?"),
    ("My TMA is 3,100 words and the limit is 2,500. Every sentence feels important and I'm "
     "going round in circles. How do I lose 600 words without gutting it",
     "Cut from the top down, not sentence by sentence. Write your argument down in one line, "
     "then go paragraph by paragraph and ask whether each one moves that argument on; a "
     "paragraph that is only background or 'interesting' can usually go whole, which saves far "
     "more than trimming. Then look at the introduction and conclusion, which are usually "
     "bloated: aim for about a tenth of the total each. Next, the quotations: paraphrase the "
     "long ones and keep only the phrase you actually analyse. Only then do a line edit, "
     "striking 'it is important to note that', 'in order to', 'the fact that', and 'it could "
     "be argued' unless you say who argues it, and turn passive sentences active. Check the "
     "module guide for what counts towards the limit (the reference list usually doesn't, "
     "quotations usually do). Read the final version aloud, because cuts often break the "
     "links between paragraphs.",
     "whats the method you gave me for getting my coursework under the limit"),
    ("Had a bloke spit at my cab screen tonight over a £2 fare. Still got the shakes a bit. "
     "What am I meant to do now, is it even worth reporting",
     "Yes, report it, even though he didn't touch you: spitting at a driver is taken "
     "seriously and can be a criminal offence. If you didn't radio it in at the time, tell "
     "control now so they log the time, the bus and the location; that's what lets the depot "
     "pull the CCTV before it records over. Fill in the company incident form while it's "
     "fresh: the stop, the time, what he looked like and said, and which way he went. Report "
     "it to the police on 101 or online and put the crime reference on your form; operators "
     "and police use those numbers to decide where patrols go. Let your union rep know so the "
     "paperwork gets followed up. Then look after yourself: feeling shaky or on edge for a "
     "day or two is normal. If it keeps replaying, ask about the employee assistance line or "
     "occupational health, and it's fair to ask not to do the same route at the same time "
     "for a while.",
     "that fella who gobbed at me over the fare, what were the steps you laid out afterwards?"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("There's a lovely old girl called {p} who gets on at {x} every morning and tells me all "
     "about her late husband's pigeons",
     "{p} handed me a Christmas card with a twenty in it and I had to give the money back, "
     "rules is rules. She went in a huff for a week",
     "the old lady who boards at {x}, what happened with her present",
     ["Gladys", "Ivy", "Pearl", "Myrtle", "Nora"],
     ["the stop outside the Apollo", "Levenshulme station", "Belle Vue", "the Crown Point stop",
      "Longsight market"]),
    ("new girl at netball, {p}, just moved over from {x}. hasn't said two words yet but she's "
     "like lightning",
     "{p} got the winning goal against Stockport Stars with about four seconds left and the "
     "whole team piled on her! I'm still shaking",
     "The quiet newcomer from {x}, how did she get on in the match?",
     ["Blessing", "Zunaira", "Tia-Rose", "Ruby-Mae", "Oyin"],
     ["Lagos", "Gdansk", "Swansea", "Harare", "Leicester"]),
    ("Met a fella called {p} at the OU day school, a retired {x}, knows more about the mills "
     "than the tutor does",
     "{p} posted me a shoebox of his grandad's letters home from the Somme to use for my "
     "research. Can't believe he'd trust me with them",
     "what did the ex {x} from my history course send me?",
     ["Clifford", "Leonard", "Reginald", "Wilfred", "Ernest"],
     ["train driver", "police sergeant", "chemistry teacher", "tram conductor",
      "Co-op manager"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("behindthewheel", ["Woman got on with a live goose in a laundry bag. Said it was for her "
                        "granddaughter's birthday. I didn't ask",
                        "lad proposed to his girlfriend on the top deck, the whole bus clapped "
                        "and I gave them a toot on the horn",
                        "Had to slam the anchors on for a kid on a scooter. Twenty years driving "
                        "and I've never been that scared",
                        "found a set of false teeth on the back seat at the terminus, handed "
                        "them in, nobody's claimed them yet"],
     "Anything funny or scary happen at work recently? the stuff I've told you about"),
    ("bandyear", ["Whit Friday marches, eleven villages up Saddleworth and my feet are in "
                  "ribbons",
                  "We played at the funeral of one of our old members, Abide With Me at the "
                  "graveside, not a dry eye",
                  "Carolling round the pubs in Didsbury raised £900 for the hospice and I had "
                  "more mulled wine than was sensible",
                  "came fourth at the area. FOURTH. One place off qualifying, bandroom was like "
                  "a wake after"],
     "how's it been going with the band, outside of the normal weekly stuff"),
    ("under12s", ["The under-12s won their first game of the season 14-3 and the girls did a "
                  "conga off the court",
                  "Lost 22-2 away at Bolton. Two girls cried in the car park and I nearly "
                  "joined them",
                  "Got new kit sponsored by the chippy on Slade Lane, it says Frying Tonight "
                  "across the back",
                  "Ama's best mate broke her wrist at training and I had to ring her mum from "
                  "A&E, worst feeling in the world"],
     "What's been going on with the team I coach lately, the ups and downs"),
]

CHAT = ["What time does it get dark in Manchester in December?",
        "give me a jollof rice recipe that feeds about twelve",
        "what's the actual difference between a cornet and a trumpet, settle an argument",
        "Write a soppy but not cringe anniversary message, 22 years married",
        "how long do you boil an egg for a runny yolk",
        "Who won the treble in 1999? My brother-in-law says it wasn't United",
        "what counts as offside in netball again",
        "quick one, 15% of 340?",
        "Morning! Up at 4 for an early shift, send coffee",
        "Recommend a podcast about the Victorians for the drive home",
        "is it rude to eat on a bus, genuinely asking",
        "Ta very much, that's sorted it."]
REPLIES = ["Happy to help. Quick answer first:",
           "Good question, here's how it breaks down.",
           "Sure thing, try this:",
           "Okay, the short version is below.",
           "Let me lay that out for you."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["On my break at the terminus.", "Claire says hi.", "lips are knackered.",
          "Just back from a split shift.", "Ama's doing her homework next to me."]
