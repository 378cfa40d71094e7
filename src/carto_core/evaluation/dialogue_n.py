"""Variant `n` of the dialogue set: a twelfth check set, written apart from `a` to `m` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one tree surgeon's in Norwich, Niamh, from Sligo, who runs a
small firm, swims in the sea at dawn, learns the fiddle for a pub session and carves spoons
from offcuts: the job her crew is on, who works the ground for her, where the dawn swimmers
meet, the tune she is learning, the car her son Finn learns to drive in, what the physio has
her doing for her shoulder, the latest machine she has got for the firm, the covers band her
partner Sandy drums for and what she is carving; questions are asked as people ask an
assistant to remember ("which motor did I pay through the nose to cover the boy on?", "what
did you tell me to fix the awful screeching when I play"), some lowercase, some without a
question mark, some with context after the question, a few typos, some in Irish English, from
the specific to the vague, and mostly share no content word with the message that answers
them. Sessions run from one exchange to seven over 355 days; small talk may sit before and
after a fact in the same message; rows are one utterance each, among 3,100 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("bigfell", ["a dead ash hanging over a conservatory in Thorpe St Andrew",
                      "pollarding the churchyard limes in Wymondham",
                      "a storm-split beech on a primary school field in Dereham",
                      "clearing sycamore off the railway bank at Brundall",
                      "crown-reducing a protected oak for a solicitor in Eaton",
                      "a forty-foot leylandii hedge two neighbours in Costessey are feuding over"],
          ["Booked in for the next fortnight: {v}. Lads are already giving out about the "
           "access, we'll be carrying every bit of timber through a side gate.",
           "priced up {v} this afternoon and the customer said yes on the spot, didn't even "
           "try to knock me down",
           "Day three on {v} and it's lashing, soaked to the skin, rigging wet limbs off all "
           "day. Glamorous life."],
          ["what's got the crew tied up for two weeks, the one with the awkward way in",
           "Which quote got accepted straight off without any haggling?",
           "what were we up a tree for in the downpour, lowering soggy branches on ropes all "
           "day"],
          ["Spent the evening on risk assessments. The paperwork side of this trade would "
           "kill you.",
           "chipper blades need doing again, it's chewing instead of cutting",
           "Three enquiries off Facebook today, all of them want it done by Friday for a "
           "tenner."],
          ["We finally wrapped up {old} on Friday and Monday we start on {v}",
           "The crew's moved on to {v}."],
          ["what job are the lads on at the minute?",
           "Where's my team working this week, remind me"]),
    Topic("groundie", ["Kieran, a lad fresh out of Easton College",
                       "my nephew Cathal, over from Sligo for the summer",
                       "a retired fireman called Des", "Marta, who used to climb for the council",
                       "a Kiwi backpacker called Jonno", "Sandy's cousin Vikram, between jobs"],
          ["Took on {v} as my groundie, first day tomorrow. Fingers crossed for someone who "
           "can drag brash without a running commentary",
           "{v} fed the chipper from eight till four and never complained once. Worth their "
           "weight in gold.",
           "Let {v} have a go on the rope today, only as far as the first fork, and I've "
           "never seen a grin like it"],
          ["who did I hire to clear up underneath me while I'm up top?",
           "which of my workers shovelled stuff into the shredder all day and didn't whinge",
           "Who got their first try at climbing, just to the lowest split in the trunk?"],
          ["Groundies are either brilliant or useless, there's no in between.",
           "need to get someone through their chainsaw tickets before the winter rush",
           "Nobody showed at half seven so I dragged all the brash to the chipper myself."],
          ["{old} has gone off to do their own thing, so it's {v} on the ground with me now",
           "New groundie: {v}. So far so good."],
          ["who's working the ground for me these days?",
           "who have I got helping on jobs at the min"]),
    Topic("dawndip", ["the beach below Cromer pier", "the reefs at Sea Palling",
                      "the beach huts at Wells", "the mill pool at Hellesdon",
                      "the Gap at Walcott", "the slipway at Mundesley"],
          ["The dippers are meeting at {v} at half six now, and the sunrise over the water this "
           "morning was unreal",
           "Did 20 minutes at {v} today in 7 degree water. Couldn't feel my feet for an hour "
           "after.",
           "{v} was rough as anything, a wave knocked me flat and I swallowed half the North "
           "Sea"],
          ["where were we all getting in early doors when I saw that amazing dawn?",
           "Where did I do my longest dip, the one where my toes went numb",
           "which spot had the big swell that flattened me?"],
          ["Bought a changing robe at last, the towel-dance days are over.",
           "brain freeze from putting my face in is a real thing",
           "Didn't go in today, the wind was howling and I'm not a total eejit."],
          ["We've given up on {old}, the parking was a nightmare, so we meet at {v} instead",
           "The swim group's new spot is {v}."],
          ["where do we go in for our early swim nowadays",
           "What's the current meeting place for the sea swimmers?"]),
    Topic("sessiontune", ["The Silver Spear", "Drowsy Maggie", "The Kesh Jig", "Out on the Ocean",
                          "The Maid Behind the Bar", "Planxty Irwin"],
          ["Learning {v} for the Tuesday session at the Duke's Head. The B part is killing me",
           "Played {v} the whole way through without stopping for the first time tonight and "
           "Sandy clapped",
           "The fella leading the session started {v} at about a hundred miles an hour and I "
           "just sat there holding the fiddle like a lemon"],
          ["which piece have I been working up for the weekly trad night, with the tricky "
           "second bit",
           "What did I manage start to finish with no breakdowns? my other half gave me a round "
           "of applause",
           "which one did your man running the music kick off too quick for me to join in"],
          ["Rosin everywhere, the case looks like it's been snowed on.",
           "fingertips are sore from practising, there's actual grooves in them",
           "Session was packed tonight, someone brought a harp of all things."],
          ["Got {old} under my fingers at last, so now I'm on to {v}",
           "Tune I'm working on: {v}."],
          ["what tune am I learning on the fiddle now",
           "which piece am i stuck into at the moment for the session"]),
    Topic("learnercar", ["his grandad's old Nissan Micra",
                         "a dual-control Corsa from the driving school", "my Berlingo van",
                         "a Fiat 500 off Facebook Marketplace",
                         "Sandy's automatic Yaris", "a beige Honda Jazz from the neighbour"],
          ["Finn's been practising in {v}. I've aged ten years in the passenger seat",
           "Insured Finn on {v} as a learner, £480 for six months, daylight robbery",
           "Finn stalled {v} at the lights on Dereham Road four times and a bus beeped him. He "
           "was mortified."],
          ["what has the young fella been learning in while I sit beside him terrified",
           "Which motor did I pay through the nose to cover the boy on?",
           "what was my lad in when he kept conking out at the traffic signals"],
          ["Finn's theory test is booked, he's doing hazard perception clips every night.",
           "Roundabouts. That's all I'll say. Roundabouts.",
           "driving lessons are £42 an hour now, I nearly fell over"],
          ["Finn's stopped using {old}, he's learning in {v} now",
           "Finn does his practice in {v}."],
          ["what car is Finn learning in now",
           "whats my son driving for his lessons lately"]),
    Topic("shoulder", ["dry needling", "a steroid injection", "shockwave therapy",
                       "resistance band rotations twice a day", "hanging from a pull-up bar",
                       "reformer Pilates"],
          ["The physio has me on {v} for the rotator cuff, says climbing is fine as long as I "
           "keep at it",
           "Tried {v} for the shoulder for the first time. Not pleasant, but I can get my arm "
           "over my head again",
           "Sandy reckons {v} is a waste of money but the shoulder's the best it's been in a "
           "year"],
          ["What treatment did the woman at the clinic give me for my dodgy arm so I could keep "
           "working up trees?",
           "what finally let me reach above my head again",
           "which thing for my arm does my partner think is money down the drain"],
          ["Shoulder's clicking again, like a bowl of Rice Krispies.",
           "slept on the wrong side and woke up with the arm dead",
           "Fifteen years of climbing and the body's sending me the bill."],
          ["Done with {old}, the physio's switched me to {v}",
           "For the shoulder it's {v} now."],
          ["what am I doing for my shoulder these days?",
           "whats the current plan for my bad shoulder"]),
    Topic("firmkit", ["a Timberwolf tracked chipper", "a second-hand stump grinder",
                      "a tipper Transit", "a compact spider lift", "a battery top-handle saw",
                      "an Ifor Williams plant trailer"],
          ["Bit the bullet and bought {v} for the business. The accountant will have a fit",
           "{v} got delivered today and the lads were like kids at Christmas",
           "Hired {v} for the week to see if it's worth buying, and it's saved us a full day "
           "already"],
          ["What did I splash out on for the company that my bookkeeper won't be happy about?",
           "what turned up at the yard that had the crew giddy as children",
           "what did I rent on trial that cut a whole day off the job"],
          ["Finance on machinery is a racket, 12% APR, would you believe.",
           "spent all Sunday greasing and servicing, the glamour of self-employment",
           "Someone robbed a saw off a firm in Attleborough so I've put a second lock on the "
           "van."],
          ["Sold {old} on eBay and put the money towards {v}",
           "Newest thing the business has got: {v}."],
          ["what's the latest bit of machinery I've got for the firm",
           "What have I most recently bought for the business?"]),
    Topic("sandyband", ["Mid-Life Crisis", "The Detention Club", "Norfolk and Chance",
                        "The Dodgy Knees", "Parents' Evening", "Free Period"],
          ["Sandy's joined {v} on drums, they're all teachers, first gig's at the rugby club "
           "next month",
           "Went to watch {v} at the Murderers, Sandy didn't miss a beat and they played Mr "
           "Brightside twice",
           "{v} want to rehearse in our garage every Thursday. The neighbours are going to "
           "love us."],
          ["what's the name of the group my other half bashes the kit for, the staffroom lot?",
           "Which band did I go see my partner play with, where they did the Killers song two "
           "times",
           "who wants to make a racket at our house once a week"],
          ["Sandy's bought another cymbal. We have enough cymbals.",
           "had to listen to a drum solo through the ceiling while I was doing invoices",
           "Sandy's marking mocks all weekend, so no fun for anyone."],
          ["Sandy's left {old} over 'creative differences' (the bassist) and he's drumming for "
           "{v} now",
           "Sandy plays with {v}."],
          ["what band is Sandy in now?", "who's my fella drumming for at the minute"]),
    Topic("whittle", ["a cherry eating spoon", "a birch kuksa", "a holly butter knife",
                      "a lime-wood lovespoon", "an ash spurtle", "a sycamore porridge bowl"],
          ["Carving {v} out of an offcut from Tuesday's job, the grain on it is gorgeous",
           "Sliced my thumb open with the hook knife finishing {v}. Blood everywhere. Worth it",
           "Sold {v} at the craft fair in the Forum for £35, first thing I've ever made that "
           "someone paid for!!"],
          ["What did I start shaping from the scraps I brought home from work, the one with the "
           "lovely pattern?",
           "which thing was I making when I cut myself on the curved blade",
           "whats the very first handmade piece a stranger bought off me"],
          ["Green wood is so much easier to carve than dry, wish I'd known years ago.",
           "the kitchen floor is covered in shavings and Sandy is not impressed",
           "Watched two hours of Swedish carving videos instead of sleeping."],
          ["Finished {old} and gave it to Mam, now I'm carving {v}",
           "On the carving bench: {v}."],
          ["what am I whittling these days?", "wats my current carving project"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("Customer's refusing to pay the last £650 on a job, says we 'left the lawn in a state'. We "
     "raked every inch of it. What are my options before I lose the head",
     "Keep it on paper and keep it calm. First send a short email with photos of the finished "
     "site, if you have them: the job as quoted, the date it was done, the amount outstanding "
     "and a payment date 14 days out. If nothing comes, send a formal letter before action "
     "with the same facts, saying you'll start a county court claim if it isn't paid by a set "
     "date. At £650 that's the small claims track, and you can file it online through Money "
     "Claim Online; the fee (roughly £50 to £70 at that amount) is added to what they owe if "
     "you win. Give them a way to save face as well, such as offering to come back and re-rake "
     "any patch they're unhappy with, because most people pay once they see you'll really go "
     "to court. For next time, put 'site left raked and tidy' on a signed quote and take a "
     "deposit on the bigger jobs.",
     "what was your step by step for chasing the client holding back money over the grass"),
    ("why do I feel worse 10 mins AFTER I get out of the sea than when I'm actually in it?? "
     "shaking like a leaf in the car",
     "That's afterdrop. While you're in, your body shuts down blood flow to your skin and limbs "
     "to protect your core. Once you're out and warming up, the cold blood from your arms and "
     "legs flows back to the middle, so your core temperature keeps falling for a while, which "
     "is why the shivering peaks 10 to 20 minutes later. To blunt it, get out sooner than you "
     "think you need to (a rough winter guide is no more than a minute per degree of water "
     "temperature, less while you're acclimatising), then dry off and dress fast: hat first, "
     "layers on your top half, then sip something warm and eat something sugary. Gentle "
     "movement like a walk beats sitting still. Skip the hot shower or the car heater on full "
     "straight away, since that pulls blood to your skin and can make you faint, and don't "
     "drive until the shaking has stopped.",
     "Remind me why I get the shakes once I'm out and dressed, and what you said to do about "
     "it?"),
    ("My fiddle sounds like a cat being strangled on the long notes, the bow keeps skating and "
     "squeaking. Sandy is wearing ear defenders. help",
     "A few usual suspects. Rosin first: a new bow or a new cake often needs several minutes of "
     "rosining before it grips, and if the hair looks shiny it needs more. Then the contact "
     "point: keep the bow roughly halfway between the end of the fingerboard and the bridge, "
     "and parallel to the bridge. Drifting over the fingerboard gives a thin, whistly sound; "
     "too close to the bridge and it squeals. Let the weight of your arm sink into the string "
     "instead of pressing with your fingers, and slow the bow down, since most scratchiness "
     "is too little weight for too much speed. Spend five minutes at the start of each "
     "practice on slow open-string bows in front of a mirror, four beats each way. And check "
     "the hold: thumb bent, little finger curved on top of the stick, nothing locked straight.",
     "what did you tell me to fix the awful screeching when I play"),
    ("Every time I take Finn out in the car we end up screaming at each other. How do you teach "
     "a 17 year old to drive without one of you getting out and walking home?",
     "Agree the plan before the engine's on: one skill per outing (just roundabouts, or just "
     "parking), a route he knows, 30 to 40 minutes at most, and a code word either of you can "
     "say to pull over and reset. Pick quiet times; an empty industrial estate on a Sunday "
     "morning is ideal for clutch control. Give directions early and in the words his "
     "instructor uses ('next left', 'mirrors, signal'), never at the last second, and save the "
     "critique for when you've parked up, not mid-junction. Sit on your hands as much as you "
     "can: grabbing the handbrake or sucking air through your teeth makes a learner panic. "
     "Finish every drive on something he did well. If one thing keeps starting rows, book an "
     "extra lesson or two on it and let the instructor own it.",
     "how did you suggest me and the young lad stop fighting when I'm supervising him on the "
     "road"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("Quoted for a woman called {p} out in {x} today. She has a huge copper beech she swears is "
     "haunted, says she hears it talking at night",
     "{p} paid the invoice in full and put up a review calling me 'the tree whisperer'. I'll be "
     "dining out on that for a year",
     "the lady in {x} with the spooky tree, what did she do after we'd finished?",
     ["Henrietta", "Cressida", "Gwendolen", "Dorothea", "Marguerite"],
     ["Blofield", "Reepham", "Loddon", "Acle", "Holt"]),
    ("New woman at the dawn swim, {p}. She used to be {x} before she retired, great craic",
     "{p} turned up with a flask of hot Ribena and a tin of flapjacks for the whole group this "
     "morning, absolute legend",
     "The swimmer who was {x} in her working life, what did she bring for everyone",
     ["Bernadette", "Yvonne", "Oonagh", "Hilary", "Jacqueline"],
     ["a Norwich City physio", "a prison governor", "a nun", "a BBC weather presenter",
      "a harbour master"]),
    ("There's an old boy called {p} plays the {x} at the Tuesday session, must be eighty, "
     "hasn't missed a week in thirty years",
     "{p} gave me his spare bow, a proper pernambuco one, and said keep it as long as I need. I "
     "nearly cried",
     "what did the {x} player from the pub lend me?",
     ["Seamus", "Eamon", "Padraig", "Dermot", "Fergal"],
     ["uilleann pipes", "bodhrán", "concertina", "tenor banjo", "tin whistle"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("uptree", ["Found a barn owl roosting in the hollow of an oak we were meant to be reducing, "
                "so that's off till the autumn. Gorgeous bird",
                "rope jammed in a union at the top of a poplar and I had to free-climb down the "
                "spar. Legs like jelly after",
                "A customer in Poringland brought us out bacon butties and tea in proper mugs. "
                "Faith in humanity restored.",
                "disturbed a wasps' nest thirty foot up, got stung four times through my "
                "trousers, never came down a trunk so fast in my life"],
     "any stories from my climbing days lately, the good and the grim?"),
    ("seadips", ["A seal popped up about two metres from me this morning and just stared. Nearly "
                 "drowned with the fright",
                 "jellyfish the size of bin lids washed up all along the tideline, we stayed in "
                 "the shallows",
                 "Swam under a full moon last night with head torches lined up on the sand. "
                 "Magic.",
                 "one of the girls swears we swam past porpoises at sunrise, I only saw a fin "
                 "and screamed"],
     "What's been memorable about the early morning sea swims?"),
    ("mamnews", ["Mam's after winning €200 at the bingo in the parish hall and she bought a "
                 "new hoover with it, of all things",
                 "Mam had a fall in the garden. Nothing broken thank God, but she's black and "
                 "blue and won't let anyone fuss",
                 "Mam has started Sunday video calls with the cousins in Boston, she holds the "
                 "phone right up to her nostril",
                 "The neighbour's sheep got into Mam's garden and ate every dahlia she had, "
                 "there's a war brewing in Sligo"],
     "how's my mother been getting on back home, from what I've told you"),
]

CHAT = ["what's 14 stone 3 in kilos",
        "Can you give me a soda bread recipe that doesn't need buttermilk?",
        "how do you say happy birthday in Irish, spelling matters it's for a card",
        "Write a two-line Facebook post saying we're fully booked till March",
        "Best way to get tree sap off a windscreen?",
        "how do I read a tide table, the numbers make no sense to me",
        "Give me a 5 minute stretch for tight hamstrings",
        "how many calories in a Twix. asking for me",
        "Morning. Frost on the van, kettle on, brain off.",
        "What year did Fairytale of New York come out?",
        "Is VAT charged on firewood in the UK?",
        "Cheers, that's grand."]
REPLIES = ["Sure, here you go.",
           "Right, short version first, details after.",
           "That one's easy enough, see below.",
           "Here's what I'd do, roughly in this order:",
           "No bother. A couple of options:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Rain's stopped play for the day.", "Typing this in the van with a sausage roll.",
          "fingers still numb from the sea.", "Sandy's off at band practice.",
          "quick one before I go up."]
