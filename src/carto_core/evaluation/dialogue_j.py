"""Variant `j` of the dialogue set: an eighth check set, written apart from `a` to `i` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one primary-school caretaker's, an amateur astronomer married to
Lorna: the telescope he observes with, the object he is photographing, the dark spot he drives
out to, the big repair at school, the talk he is giving the astronomy society, the lodger in the
back bedroom, the beer he brews at home, who hires the school hall in the evenings and what he
takes in his flask on cold nights; questions are asked as people ask an assistant to remember
("who did my wife moan about for hogging the shower?", "what did I slosh over my sky maps?"),
from the specific to the vague, and mostly share no content word with the message that answers
them. Sessions run from one exchange to ten over 370 days; small talk may sit before and after
a fact in the same message; rows are one utterance each, among 3,200 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("telescope", ["a 10-inch Dobsonian", "a Skywatcher Evostar 80ED",
                        "a Celestron C8 on a fork mount", "a second-hand Meade ETX-90",
                        "a 6-inch Newtonian on an EQ5", "a pair of 25x100 giant binoculars"],
          ["Picked up {v} off a bloke in Hexham for half what it's worth.",
           "First light through {v} last night and I nearly cried at the view.",
           "Lorna says {v} takes up more room in the hallway than the sofa does."],
          ["What did I snap up cheap from some fella in Northumberland?",
           "What was I looking at the stars with on its maiden outing, when I got all emotional?",
           "What does my other half grumble is taking over the entrance of the house?"],
          ["Cleaned the eyepieces with a lens pen and they look brand new.",
           "The finder was out of line again so I spent an hour lining it up on a chimney pot.",
           "Forty quid for a decent star atlas seems steep, but I caved."],
          ["Sold {old} to help pay for {v}, and it's a different league.",
           "Upgraded again: my main scope is {v} now."],
          ["What am I observing with these days?",
           "What's my main bit of kit for looking at the sky now?"]),
    Topic("target", ["the Andromeda Galaxy", "the Orion Nebula", "the Whirlpool Galaxy",
                     "the Ring Nebula", "the Double Cluster", "the Horsehead Nebula"],
          ["Spent four hours stacking frames of {v} and it's finally come out.",
           "The astro society's picture of the month is my shot of {v}!",
           "Showed {v} to the Year 6s at the stargazing evening and they were gobsmacked."],
          ["Which object did I sit up half the night processing until the image worked?",
           "Which of my photos did the club choose as its best lately?",
           "What did I point the oldest pupils at that left them speechless when they came back "
           "after dark?"],
          ["Stacking software keeps crashing on my old laptop.",
           "I've got a list of objects to tick off before the nights get short.",
           "Faint fuzzies are hard to pick out with the moon up."],
          ["I've finished with {old}; my imaging project now is {v}.",
           "Moved on to a new target: {v}."],
          ["What am I trying to photograph up there at the moment?",
           "What's my current project in the night sky?"]),
    Topic("darksite", ["Kielder Forest", "Galloway Forest Park", "the top of Sutton Bank",
                       "the Elan Valley", "a farm lane near Alston", "the Harthope Valley"],
          ["When the forecast's clear I drive out to {v}, it's proper black there.",
           "Got the car stuck in a ditch at {v} at two in the morning.",
           "The society has booked a weekend at {v} for the Perseids."],
          ["Where do I head on a cloudless night to get away from the streetlights?",
           "Where did I come a cropper with the motor off the road in the middle of the night?",
           "Where's the club going for a couple of nights to watch shooting stars in August?"],
          ["The new LED lamps on our road are like floodlights.",
           "Forty minutes' drive is about my limit after a day on site.",
           "A farmer once asked me what I was doing with a tripod in his field at midnight."],
          ["Stopped bothering with {old}; my go-to spot now is {v}.",
           "New favourite dark spot: {v}."],
          ["Where do I go to get truly dark skies these days?",
           "Which place do I drive to for observing nowadays?"]),
    Topic("fixjob", ["the leaking roof over the hall", "a blocked drain by the kitchens",
                     "the temperamental boiler", "the fire alarm panel",
                     "the rotten fence round the nursery yard",
                     "subsidence in the Year 1 corridor"],
          ["The head wants {v} sorted before Ofsted turn up.",
           "Spent all half-term wrestling with {v}.",
           "The council surveyor says {v} will cost thousands."],
          ["What repair does my boss need done before the inspectors come?",
           "What kept me busy through the week the kids were off?",
           "What did the man from the local authority price up at a small fortune?"],
          ["The site budget's been cut again this year.",
           "Contractors never turn up when they say they will.",
           "The list of jobs on the staffroom whiteboard is as long as my arm."],
          ["Finally got {old} sorted; now it's {v} eating my days.",
           "The big job at school now is {v}."],
          ["What's the main thing I'm fixing at work these days?",
           "What's the repair headache at school right now?"]),
    Topic("astrotalk", ["light pollution", "collimating a Newtonian", "William Herschel",
                        "spotting satellites", "sketching at the eyepiece",
                        "the Messier catalogue"],
          ["I've agreed to give the society a talk on {v} in March.",
           "Forty slides on {v} and I'm still not done.",
           "The chairman asked if I'd repeat my talk about {v} at the library."],
          ["What subject am I presenting to the club in the spring?",
           "What topic has my PowerPoint ballooned on?",
           "Which of my lectures did the club's top man want me to do again for the public?"],
          ["Public speaking makes my hands shake.",
           "The projector at the society's hut only works if you thump it.",
           "Talks night usually gets about twenty people and a plate of custard creams."],
          ["Scrapped the talk on {old}; I'm doing {v} instead.",
           "Changed my talk subject to {v}."],
          ["What am I giving a lecture about now?",
           "What's my presentation for the society on these days?"]),
    Topic("lodger", ["a trainee teacher called Nisha", "a Romanian chef named Sorin",
                     "a nursing student called Abi", "a retired postman called Len",
                     "a Spanish PhD student named Jaime", "a junior doctor called Ollie"],
          ["We've let the back bedroom to {v}.",
           "Lorna's fed up because {v} keeps using all the hot water.",
           "Saturday was moving-in day for {v}, three suitcases and a guitar."],
          ["Who's renting our spare room?",
           "Who did my wife moan about for hogging the shower?",
           "Who turned up at the weekend with a pile of bags and something to strum?"],
          ["Having someone else in the house takes some getting used to.",
           "The rent from the spare room covers the council tax.",
           "Lorna's drawn up a rota for the bathroom."],
          ["Said goodbye to {old}; the new lodger is {v}.",
           "The back bedroom's let to {v} now."],
          ["Who's living in our spare room at the moment?", "Who's our lodger now?"]),
    Topic("homebrew", ["a smoked porter", "an elderflower saison", "a West Coast IPA",
                       "a Belgian dubbel", "a blackberry stout", "a Kölsch"],
          ["Got {v} bubbling away in the airing cupboard.",
           "The lads at the society reckon {v} is the best thing I've ever made.",
           "Bottled forty pints of {v} on Sunday."],
          ["What's fermenting upstairs where the towels live?",
           "Which of my homebrews got top marks from my stargazing mates?",
           "What did I fill a load of glass with at the weekend?"],
          ["A bottle exploded in the garage and there was glass everywhere.",
           "Hops have gone up in price again.",
           "Lorna says the kitchen smells like a brewery every other weekend."],
          ["Finished the last of {old}; the next batch is {v}.", "New brew on the go: {v}."],
          ["What beer am I making at the moment?", "What's my latest homebrew?"]),
    Topic("hallhire", ["the Brownies", "a Zumba class", "Slimming World",
                       "the Polish Saturday school", "the Boys' Brigade", "a chess club"],
          ["I'm opening up the school every Tuesday night for {v}, so that's my evenings gone.",
           "Had to mop the hall floor twice after {v} on Thursday.",
           "The bursar's chuffed because {v} pays forty quid a session to use the hall."],
          ["Who do I have to unlock the building for midweek after hours?",
           "Which group left the big room in such a state I was cleaning it again and again?",
           "Who's paying the school good money to rent our main room?"],
          ["The lettings calendar is chock-a-block this term.",
           "Someone always leaves the lights on after an evening booking.",
           "Setting out chairs for sixty people takes me half an hour."],
          ["Lost {old} to the leisure centre; the hall's booked by {v} now.",
           "New evening letting at school: {v}."],
          ["Who hires the school hall these days?",
           "Which group do I lock up after in the evenings now?"]),
    Topic("flask", ["Bovril", "hot Vimto", "cream of tomato soup", "spiced apple tea",
                    "hot chocolate with a drop of rum", "oxtail soup"],
          ["Nothing beats a flask of {v} at the eyepiece at 2am.",
           "Lorna's started making me {v} to take out on clear nights.",
           "Spilt {v} all over my star charts, what a mess."],
          ["What do I take in the thermos when I'm out under the stars?",
           "What's my wife been sending me off with when I go observing?",
           "What did I slosh over my sky maps?"],
          ["My fingers went numb at minus four last night.",
           "Bought a heated gilet and it's the best thing I own.",
           "I need a better thermos, this one goes lukewarm by midnight."],
          ["Gone off {old}; it's {v} in the flask now.",
           "Switched my night-time drink to {v}."],
          ["What do I drink out in the cold these days?", "What's in my flask now?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("my telescope's covered in dew an hour after I set up, every single time. how do I stop it",
     "Dew forms when the optics cool below the dew point, so slow that down: fit a dew shield "
     "that sticks out past the front of the tube and wrap a heater strap round it, run from a "
     "12-volt power tank. Keep the caps on until you're ready to look, and if it still mists, "
     "a hair dryer on low for a few seconds clears it; never wipe the glass while it's wet.",
     "What did you say would stop my gear fogging over halfway through the night?"),
    ("Kids have trodden chewing gum all over the playground tarmac, what gets it off?",
     "Freeze each blob with a can of freeze spray or a bag of ice so it goes brittle, then "
     "scrape it off with a stiff putty knife. For the marks left behind, a pressure washer with "
     "hot water and a gum-removal detergent works well; do it in the holidays so the yard has "
     "time to dry.",
     "How did you tell me to shift the sticky mess the pupils leave outside?"),
    ("My last batch of homebrew tastes like wet cardboard. What did I do wrong?",
     "A stale, papery taste is usually oxidation: the beer picked up oxygen after fermenting, "
     "often from splashing when you racked or bottled it. Siphon gently with the tube below the "
     "surface, keep the headspace small and bottle promptly; kept warm it gets worse faster, "
     "so store the bottles somewhere cool.",
     "What was your explanation for the batch that came out tasting like a soggy box?"),
    ("One of the Year 2s asked me why the moon changes shape. How do I explain that to a "
     "seven-year-old?",
     "Try it with a lamp and a ball: the Sun always lights up half of the Moon, and as it goes "
     "round us once a month we see different amounts of that lit half. Let a child hold the "
     "ball at arm's length and turn slowly on the spot beside the lamp, and they'll see the "
     "crescent, half and full shapes for themselves.",
     "How did you suggest I get across to the little ones why it looks different through the "
     "month?"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("{p} from the astro society has lent me his {x} to try out.",
     "{p} says I can hang on to it till spring if I help him wire up the power in his garden "
     "observatory.",
     "What did the club member want from me in return for keeping his {x} a bit longer?",
     ["Ambrose", "Percy", "Desmond", "Roland", "Cyril"],
     ["Barlow lens", "solar filter", "guide camera", "Telrad finder", "star diagonal"]),
    ("The new Year 3 teacher, {p}, asked me to build a {x} for her classroom.",
     "{p} got all thirty kids to sign a giant thank-you card for me and stuck it on the "
     "staffroom door.",
     "How did the teacher I built the {x} for show her gratitude?",
     ["Philippa", "Rosalind", "Jasmine", "Natalie", "Bethan"],
     ["reading den", "bug hotel", "puppet theatre", "sensory wall", "book trolley"]),
    ("My brother-in-law {p} has roped me into his darts team at the {x}.",
     "{p} missed double top three times in a row and we got knocked out of the cup.",
     "How did our side at the {x} end up going out of the competition?",
     ["Barry", "Nigel", "Lenny", "Ossie", "Reg"],
     ["Fox and Hounds", "Miners Arms", "Royal Oak", "Black Bull", "Ship Inn"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("lostproperty", ["Found a set of false teeth in the staffroom fridge.",
                      "Someone left a live hamster in a shoebox in the lost property bin.",
                      "There was a whole frozen turkey in the PE cupboard in March.",
                      "Fished a wedding ring out of the grate by the bike shed."],
     "What's the weirdest stuff I've come across while looking after the school?"),
    ("skysights", ["Saw a fireball over the playing field that lit everything up green.",
                   "The space station went over so bright the neighbours came out to look.",
                   "Watched the northern lights from the back garden for the first time ever.",
                   "A hedgehog snuffled right past my tripod at one in the morning."],
     "What have been the highlights of my nights outside lately?"),
    ("kidsaid", ["A Reception kid asked if I sleep in the school cupboard at night.",
                 "One of the Year 4s told me the Sun is just a massive light bulb.",
                 "A little girl asked if I'm the headteacher's dad.",
                 "A boy in Year 1 wanted to know if aliens have caretakers too."],
     "What have the children at work come out with that made me laugh?"),
]

CHAT = ["Evening! Just locked the gates.",
        "How do I get limescale off a urinal?",
        "What's the difference between a planet and a dwarf planet?",
        "Give me a space joke I can tell the kids in assembly.",
        "How many litres are there in a gallon?",
        "Is there a way to tell if a cloud forecast is any good?",
        "Write a polite note asking parents not to park across the school gates.",
        "Suggest a funny name for a beer.",
        "How far away is the nearest star after the Sun?",
        "Recommend a film about space that isn't three hours long.",
        "What's the best way to unblock a sink without chemicals?",
        "Cheers, that'll do nicely."]
REPLIES = ["Glad to help. Here's a quick rundown.",
           "Ha, love it. A few thoughts below.",
           "Of course. Clear skies to you!",
           "Sure thing, here's one way to tackle it.",
           "No bother. Tell me if you'd like it tweaked."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Just done my last walk round the school checking windows.",
          "Cloudy again, so no observing tonight.", "Mug of tea on the go in the boiler room.",
          "Lorna's gone up to bed.", "Feet up at last after a twelve-hour day."]
