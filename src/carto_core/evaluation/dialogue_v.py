"""Variant `v` of the dialogue set: a twentieth check set, written apart from `a` to `u` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one New Zealand woman's, Georgie Maclean, 36, a large-animal vet
in Waipukurau, Central Hawke's Bay, who lives on a ten-acre block with her partner Tama, a
shearing contractor, their daughter Pippa, just past one, and Tama's son Nikau, 13, every
other week; she trains a young heading dog, Flick, for the dog trials, plays social touch on
Thursday nights and goes deer stalking with her father: the station where she does the herd
work, what she is teaching the dog, the touch team she plays for, where she and her father
hunt, what Nikau is into, who minds Pippa on her on-call days, the job on the block, the
operation her father is waiting on and the clinic she works out of; questions are asked as
people ask an assistant to remember ("where did i shoot my first deer", "the farmer who wears
shorts and jandals in the frost, what did he turn up at the clinic with"), some lowercase,
some without a question mark or apostrophes, some as a few words ("dads next op?"), a few
typos, some in New Zealand English, from the specific to the vague, and mostly share no
content word with the message that answers them. Sessions run from one exchange to eight over
370 days; small talk may sit before and after a fact in the same message; rows are one
utterance each, among 4,100 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("herdstation", ["Mangaonuku Station", "Kahuranaki Station", "Ruataniwha Downs",
                          "the Ashcott Road dairy", "Pukehou Station", "Omakere Station"],
          ["on {v} all week PD-ing 900 cows, my right arm is now officially longer than my left",
           "the manager at {v} lent me his quad and then stood there watching while I bogged it "
           "in the swamp paddock, never living that down",
           "{v} put on smoko for us with a whole tray of cheese scones, I had four, no regrets"],
          ["where was the preg testing job that left me with one long arm lol",
           "which farm was it where i got the borrowed quad bike stuck in the wet",
           "the place that fed us a heap of baking at morning tea, what was it called"],
          ["A cow kicked the crush gate into my knee, bruise the size of a saucer.",
           "Calving starts in three weeks, nobody at the clinic is allowed leave.",
           "Shoulder-length gloves on back order again, down to the last box of cheap ones."],
          ["wrapped up at {old} yesterday, the boss has put me on {v} for the rest of autumn",
           "no more {old} for me, they've handed that client to the new grad. I'm doing {v} "
           "from Monday"],
          ["which station have i got the herd work at these days",
           "current farm job for me?"]),
    Topic("pupdrill", ["a wider outrun", "a soft lift", "stopping on the whistle",
                       "driving through the hurdles", "holding them off the fence",
                       "shedding off the marked ewes"],
          ["worked Flick on {v} for an hour tonight, she finally got it twice in a row and I "
           "nearly cried in the paddock",
           "Flick's been all over the place on {v}, ran straight through the mob this morning "
           "and Dad laughed till he coughed",
           "old Jim from the dog trial club came round to help with {v}, stood there silent for "
           "twenty minutes then said 'she'll do'"],
          ["what was i drilling the pup on the night she nailed it two times running",
           "what were we practising when the young dog split the sheep and my father cracked up",
           "what did the old trialling bloke come over to help me with, the man of few words"],
          ["Flick chewed through another tie-out cable, third this month.",
           "Entered Flick in her first maiden run at the local trials, nerves already.",
           "Bought a new whistle, the plastic one sounded like a kazoo."],
          ["Flick's got {old} sorted finally, so we're onto {v} now",
           "gave up on {old} for now, she's too young for it. working on {v} instead"],
          ["whats the dog learning at the moment",
           "flick training now?"]),
    Topic("touchside", ["the Sin Bin Sisters", "the Knackered Knees", "the Muddy Ducks",
                        "Ruck and Roll", "the Hot Mess Express", "the Slow Pokes"],
          ["I've been roped into playing touch for {v} on Thursday nights, first game tonight "
           "and I haven't run since uni",
           "{v} lost 9-1 tonight, I got tagged about forty times and pulled something in my bum",
           "{v} made the social grade final!! celebrating at the pub, pray for me tomorrow"],
          ["whats the name of the thursday team my mates talked me into",
           "who was i playing for the night we got thrashed and i hurt my backside",
           "which side of ours got through to the grand final in the social comp"],
          ["Touch rego is $80 this season, daylight robbery for a social grade.",
           "Rained out at the park again, the fields are a swamp.",
           "Need new boots, the sole's flapping on my left one."],
          ["left {old}, too many of them are pregnant lol, I'm playing for {v} now",
           "{old} folded after half the girls moved to Hastings, so I've joined {v}"],
          ["what touch team am i in now",
           "which thursday side am i with this season"]),
    Topic("stalkspot", ["the Ruahine Range", "the Kaweka Forest Park", "Boundary Stream",
                        "the Makaroro River", "Te Urewera", "the Ngamatea block"],
          ["Dad and I are heading into {v} for three days after a stag, he's packed enough "
           "scroggin to feed an army",
           "got my first hind in {v} this morning, Dad made me do the gutting myself, 'good "
           "for you' he said",
           "stuck in the hut up {v} while it buckets down outside, Dad's snoring louder than "
           "the rain"],
          ["where were me and my father going for the roar, the trip with all the trail mix",
           "where did i shoot my first deer",
           "where were we holed up in a back country shelter in the wet"],
          ["Got the rifle back from the gunsmith, scope's been re-zeroed.",
           "Dad's knees are not what they were on the steep stuff.",
           "Venison sausages from the butcher came out way too salty."],
          ["{old} is shut for a 1080 drop so Dad's changed the plan, we're going into {v}",
           "done with {old} for the year, next trip Dad's keen on {v}"],
          ["wheres the next hunting trip with dad",
           "where are we headed stalking now"]),
    Topic("nikaucraze", ["kapa haka", "rugby league", "downhill mountain biking",
                         "the school jazz band", "fishing off the breakwater",
                         "making Roblox games"],
          ["Nikau's mad on {v} at the moment, that's all he talks about at dinner, Tama's "
           "pretending to be interested",
           "Nikau came home buzzing from {v}, first time I've seen him smile all term",
           "spent $300 on gear for {v}, Nikau had better stick with it longer than the "
           "skateboard"],
          ["whats the thing my stepson cant stop going on about at tea",
           "what was the activity that finally put a grin on tamas boy",
           "what did i fork out all that money for the kid to do"],
          ["Nikau's with us this week, the fridge is already empty.",
           "Nikau got his ear pierced at his mum's, Tama is not impressed.",
           "Parent teacher interviews for Nikau on Tuesday, Tama's asked me to come along."],
          ["Nikau's dropped {old}, says it's for babies. it's {v} now apparently",
           "no more {old} for Nikau, he's into {v} since his cousin got him onto it"],
          ["whats nikau into these days",
           "the boys latest thing?"]),
    Topic("pipminder", ["Nana Bev", "the Waipukurau kindy", "a nanny called Shontelle",
                        "a home-based educator in Otane", "Tama's sister Huia",
                        "the early learning centre on Ruataniwha Street"],
          ["Pippa's going to {v} on my on-call days now, she cried at drop off and then didn't "
           "even look up at pickup",
           "{v} sent me a photo of Pippa covered head to toe in paint, she looked so proud of "
           "herself",
           "{v} rang, Pippa bit another kid. my little angel. mortified"],
          ["who's minding the baby when i'm rostered on",
           "who sent me the picture of my girl plastered in the craft stuff",
           "where was pip when she chomped on another toddler"],
          ["Pippa's got another ear infection, third one since winter.",
           "Pippa's cutting a molar, nobody in this house has slept.",
           "Pippa's dropped to one nap, which means I've lost my one hour of peace."],
          ["{old} can't have her anymore from next month, so Pippa's going to {v}",
           "moved Pippa from {old} to {v}, it's closer to the clinic and they do the nappies"],
          ["who looks after pip now",
           "baby care arrangements current?"]),
    Topic("blockjob", ["fencing the back paddock", "replacing the bore pump",
                       "building a calf shed", "spraying the gorse", "planting a shelter belt",
                       "re-roofing the woolshed"],
          ["Tama and I spent the whole weekend {v}, my hands are wrecked and we're still "
           "talking, so that's a win",
           "{v} has turned into a nightmare, the contractor quoted two days and it's been two "
           "weeks",
           "Dad came over to help with {v} and spent the whole time telling us we were doing it "
           "wrong"],
          ["what was the big job at home the weekend that shredded my hands",
           "which project on our land did the bloke say would take a couple of days and then "
           "blew out",
           "what was my father criticising the whole time he 'helped' us"],
          ["Rates on the block went up again, ten acres of weeds and a mortgage.",
           "Borrowed the neighbour's post rammer, need to give it back before he notices.",
           "The ram got out again and ate my silverbeet."],
          ["finally finished {old}, so of course Tama's started on {v}",
           "we've parked {old} till after calving, doing {v} instead while it's dry"],
          ["whats the current project on the block",
           "what are we working on at home now"]),
    Topic("dadsurgery", ["a hip replacement", "cataract surgery", "a hernia repair",
                         "a knee arthroscopy", "a heart stent", "a rotator cuff repair"],
          ["Dad's finally got a date for {v} at Hawke's Bay hospital, he's already moaning "
           "about food he hasn't even eaten yet",
           "Dad's home after {v}, he's on strict orders to rest and I caught him up a ladder "
           "doing the gutters",
           "Mum's stressing about Dad going in for {v}, she's made enough frozen meals to feed "
           "a shearing gang"],
          ["whats my father booked in at the hospital for",
           "what was the old man recovering from when i found him on the roof",
           "what procedure has my mum cooking like crazy"],
          ["Dad's been told to lose five kilos, he's switched to light beer and thinks that "
           "counts.",
           "Drove Dad to the specialist in Hastings, waited two hours for a ten minute "
           "appointment.",
           "Dad rang to tell me his blood test results, all good apparently."],
          ["Dad got through {old} fine but now the surgeon wants to do {v} as well, poor bugger",
           "they've bumped Dad's op for {old} down the list, he's going in for {v} first "
           "because it's more urgent"],
          ["what is dad getting done at the hospital now",
           "dads next op?"]),
    Topic("vetbase", ["the Waipawa clinic", "the Dannevirke branch", "the Hastings clinic",
                      "the Takapau satellite", "the Porangahau outpost",
                      "the Havelock North clinic"],
          ["I'm mostly working out of {v} now, twenty minute drive but the coffee machine "
           "actually works",
           "a cat wandered into {v} off the street and the receptionist adopted it, it sleeps "
           "on the scales now",
           "first day covering at {v}, didn't know where anything was, spent half an hour "
           "looking for the calving chains"],
          ["which practice have i been based at where the espresso thing isnt broken",
           "wheres the vet practice with the stray moggy that lives on the weighing platform",
           "where was i filling in the first day i got totally lost looking for kit"],
          ["Rostered on call three weekends out of four this month, someone's gone on parental "
           "leave.",
           "Clinic's got a new ultrasound machine, I'm like a kid at Christmas.",
           "Practice manager wants us logging every kilometre in the app now."],
          ["they're moving me from {old} to {v}, boss says it's temporary but I've heard that "
           "before",
           "{old} is closing on Fridays now so I'm at {v}"],
          ["which clinic am i working out of these days",
           "my current branch?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("I'm 36 and I've pulled my hamstring twice this touch season. how do I stop it going "
     "every second Thursday, I'm not giving up touch",
     "Hamstring strains are common in touch because it's all sprinting, stopping and cutting, "
     "and the biggest risk factor for one is having had one before, so it's worth doing "
     "something about it rather than just resting between games. First let this one heal "
     "properly: gentle walking and comfortable movement early, then gradual strengthening, "
     "and don't go back to playing flat out until you can sprint, stop and change direction "
     "without pain and the leg feels as strong as the other one. Going back too soon is the "
     "main reason they keep recurring. The exercise with the best evidence for preventing "
     "them is the Nordic hamstring curl: kneel with someone holding your ankles and lower "
     "your body forward as slowly as you can, catching yourself with your hands. Start with "
     "two sets of five once or twice a week and build up slowly, because it makes you sore at "
     "first. Add single-leg Romanian deadlifts and glute bridges. Before each game warm up "
     "for ten to fifteen minutes: a jog, dynamic drills like leg swings, high knees and butt "
     "kicks, then a few runs building up in speed, so your first full sprint isn't the first "
     "sprint of the night. Long static stretches just before playing don't prevent strains. "
     "Tiredness matters too, so sub off before you're cooked. If it keeps happening, or you "
     "feel a pop or get bruising, see a physio for a proper assessment and a plan back.",
     "what did you tell me to do so the back of my thigh doesnt keep going at sport"),
    ("Pippa's 14 months and still wakes up three times a night wanting a feed. I'm on call "
     "half the week and I'm a zombie. how do I get her sleeping through",
     "At 14 months most healthy toddlers who are growing well don't need milk overnight any "
     "more, so the waking is usually habit: she's learned that feeding is how she gets back "
     "to sleep. It's worth a quick check with your Plunket nurse or GP first that there's "
     "nothing else going on, such as ear infections or teething. Then wean the night feeds "
     "gradually rather than all at once. If it's a bottle, cut each night feed by about 30 ml "
     "every couple of nights; if you're breastfeeding, shorten each feed by a minute or two "
     "every couple of nights, and when a feed is down to almost nothing, settle her another "
     "way instead: a cuddle, patting, shushing, a drink of water. It often works better if "
     "Tama does the night settling, since she won't expect a feed from him. Make sure she "
     "gets plenty of food and milk in the day, with a feed or a milk drink as part of a calm, "
     "consistent bedtime routine, then put her into the cot drowsy but awake so she learns to "
     "fall asleep on her own, which is what lets her link her sleep cycles at night. Respond "
     "the same way every time. Expect a few rough nights, usually three to seven, before it "
     "gets better, and pause the plan if she's sick. On your on-call nights, take turns "
     "with Tama so one of you gets proper sleep.",
     "how to stop the little one waking me all night, what was the plan"),
    ("shot a deer late afternoon and it was 22 degrees, by the time we got it out to the truck "
     "it smelled a bit off. how do you look after the meat properly when it's warm",
     "In warm weather the enemy is heat: bacteria multiply quickly once meat is above about 5 "
     "to 7 degrees, and a carcass holds its body heat for hours, so the aim is to cool it "
     "down as fast as possible. Gut it straight away, ideally within half an hour, taking "
     "care not to puncture the stomach, intestines or bladder, and wipe out any mess with a "
     "clean cloth rather than lots of water. Prop the body cavity open with a stick so air "
     "can get in. Get it into shade and off the ground. On a warm day it's often better to "
     "skin it and bone it out, or take the legs and backsteaks, on the spot, because smaller "
     "pieces cool much faster than a whole carcass. Put the meat in breathable cotton game "
     "bags, which keep the flies off and let it cool, never sealed plastic while it's still "
     "warm, which holds the heat in. Carry it out in the cool of the evening if you can, keep "
     "it out of the sun in the truck, and use a chilly bin with ice once it has cooled. Get "
     "it into a chiller at 1 to 4 degrees as soon as you can, or to the butcher the same day. "
     "On hot days plan the hunt so you shoot early, near the truck. Meat that smells sour or "
     "looks greenish or slimy should go in the bin.",
     "what did you say about keeping wild meat from spoiling on a hot day"),
    ("Nikau screamed 'you're not my mum' at me tonight when I asked him to unpack the "
     "dishwasher. Tama wasn't home. I had no idea what to say. how do I handle this",
     "That hurts, and it's one of the most common things a stepparent hears, especially from "
     "a 13-year-old, so it's not a sign that you're failing. In the moment, stay calm and "
     "don't argue about it or take the bait. You can say something like: 'You're right, I'm "
     "not your mum and I'm not trying to replace her. But everyone in this house helps out, "
     "and I need the dishwasher done.' Then give him some space; if things are heated, let "
     "the chore wait until he's cooled down. Tell Tama what happened that night, calmly and "
     "in private, and agree between you on the house rules. Generally it works best if the "
     "parent does most of the discipline and the stepparent backs it up, so Tama should be "
     "the one to talk to Nikau about respect and chores, making it clear it's his rule too. "
     "Underneath an outburst like that there's often loyalty to his mum, moving between two "
     "houses, or just being a teenager, so don't take it as the final word on your "
     "relationship. Keep building it in small ways on his terms: time doing something he's "
     "into, lifts, listening without lecturing. If it keeps happening or gets worse, a family "
     "counsellor who works with blended families can help all of you.",
     "the blow up with my partners son, what was your advice on handling it"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("new grad started at the clinic, {p}, he {x}. nice kid, very keen, asks a million "
     "questions",
     "{p} got sent to his first calving on his own, pulled out live twins and then fainted in "
     "the paddock. the farmer's wife revived him with a cup of tea and a gingernut",
     "the new young vet who {x}, what happened at his first solo call to a cow",
     ["Hamish", "Angus", "Tipene", "Harrison", "Nico"],
     ["grew up on a deer farm in Southland", "went to Massey on a rugby scholarship",
      "plays the bagpipes in a pipe band", "has a pet pig called Gregory",
      "drove jet boats in Queenstown"]),
    ("new girl on our touch team, {p}, she {x}. fast as, no idea where she's been hiding",
     "{p} scored the winner in the last minute of the semi and then told us she's moving to "
     "Perth on Monday. didn't know whether to cheer or cry",
     "the teammate who {x}, what did she do at the end of the semi",
     ["Kahurangi", "Shardae", "Brooke", "Tayla", "Mereana"],
     ["works nights at the freezing works", "was a sprinter at the school nationals",
      "drives the school bus", "runs the coffee cart at the saleyards",
      "is a cop from Napier"]),
    ("new client bought the old place out on the coast road, {p}, he {x}. bit of a character",
     "{p} rang at 2am with a heifer stuck calving, got the calf out alive, and a week later he "
     "walked into the clinic with a bottle of whisky and told us he'd named the calf after me",
     "the farmer who {x}, what did he turn up at the clinic with",
     ["Graeme", "Wiremu", "Dougal", "Kelvin", "Bruce"],
     ["sold his accountancy firm in Auckland to go farming", "wears shorts and jandals in "
      "the frost", "keeps a pet emu in with the cattle", "restores vintage tractors",
      "flew helicopters in the deer recovery days"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("pippafirsts", ["Pippa took her first wobbly steps across the lounge tonight, straight "
                     "into Tama's arms",
                     "Pip said 'dog' clear as day today, pointing at Flick. not mum, not dad. "
                     "the dog",
                     "first haircut for Pippa, she screamed the whole salon down and now has a "
                     "wonky fringe",
                     "Pippa's first birthday party, she ate the cake with both fists and then "
                     "fell asleep in it"],
     "what milestones has my daughter hit this year, everything"),
    ("callouts", ["called to a horse with colic at midnight, walked it round a paddock in the "
                  "dark for two hours and it came right",
                  "calved a heifer by torchlight in sideways rain, me and the farmer both "
                  "soaked to the undies",
                  "a farm dog got into rat bait out at Elsthorpe, gave him the vitamin K and "
                  "he's bouncing round again",
                  "a bull put me over the rails at the yards today, nothing broken but I've got "
                  "a hoof-shaped bruise"],
     "the dramas on the job this year, tell me all the ones i mentioned"),
    ("thedry", ["no rain in seven weeks, the paddocks are brown as toast and we're feeding out "
                "hay already",
                "the water tank ran dry, had to get a tanker out, $400 for a load of water",
                "sold six of the weaners early because there's no grass left to carry them",
                "it finally rained!! Tama and Pippa danced around on the deck in it"],
     "how did we cope with the drought on our place, remind me of it all"),
]

CHAT = ["how long do you roast a leg of lamb per kg",
        "is pavlova from nz or australia, be honest",
        "whats 15 degrees in fahrenheit, for my american cousin",
        "how do you get stock marker crayon off your skin",
        "quick one for you",
        "cheers, legend",
        "what can i use instead of golden syrup in anzac biscuits",
        "how many grams is a cup of self raising flour",
        "best way to get rid of a wasp nest under the deck",
        "is it true babies cant have honey",
        "whats the difference between jandals and flip flops, my cousin reckons there is one",
        "what time is it in London when its 7pm here"]
REPLIES = ["No worries, here's the gist:",
           "Good question, in short:",
           "Sure thing, roughly like this:",
           "Easy, here's what I'd do:",
           "Right, the quick version:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["On the couch with a cuppa.", "Pip's finally down for her nap.",
          "Sitting in the ute between farm calls.", "Tama's away with the gang till Friday.",
          "Raining sideways again here."]
