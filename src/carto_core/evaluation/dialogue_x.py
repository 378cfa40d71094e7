"""Variant `x` of the dialogue set: a twenty-second check set, written apart from `a` to `w` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Cebu woman's, Rowena "Weng" Abellana, 38, from Mandaue City
in the Philippines, a civil engineer at the city engineering office who supervises road and
drainage works, freedives on weekends off Moalboal, plays in a barangay women's volleyball
league, strums a ukulele with a few people from the office and sells home baking through her
own page; her husband Arnel, a marine engineer, is at sea on nine-month contracts, their
daughter Bea is 14, their son Migs is 8, her mother-in-law, Lola Pacing, lives with them and
her younger brother Jun-Jun is trying to get work abroad: the freediving course she is on, what
sells best on her baking page, the site she is assigned to, the ship Arnel is on, what Bea does
at school, the pet Migs keeps, the job abroad Jun-Jun is going for, the song she is learning on
the ukulele and the position she plays in the league; questions are asked as people ask an
assistant to remember ("which of my boys pets went missing and turned up behind the fridge",
"the dive girl who came all the way from Davao, what happened to her that day"), some
lowercase, some without a question mark or apostrophes, some as a few words ("current uke
piece?"), a few typos, some in Philippine English, from the specific to the vague, and mostly
share no content word with the message that answers them. Sessions run from one exchange to
eight over 375 days; small talk may sit before and after a fact in the same message; rows are
one utterance each, among 4,300 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("freedivecert", ["Molchanovs Wave 1", "AIDA 2", "SSI Level 2",
                           "PADI Advanced Freediver", "AIDA 3", "Molchanovs Wave 2"],
          ["signed up for {v} with the instructor in Moalboal, three weekends, 14k pesos, "
           "don't tell Arnel the price haha",
           "failed the static test for {v} today, 2:40 only and I needed 3 minutes, I cried in "
           "the van all the way home",
           "finally got my card for {v}! the instructor says I have the calmest duck dive in "
           "the whole batch"],
          ["the dive cert i kept the cost secret from hubby, which one was it",
           "which level was i trying to pass when i ran out of breath hold and bawled on the "
           "way back",
           "what did i get certified in when the coach praised how smoothly i go under"],
          ["Bought long-blade fins online, they arrived cracked and the seller is not "
           "replying.",
           "Dive weekend cancelled, the coast guard put up a gale warning.",
           "My left ear won't equalise past ten metres, so frustrating."],
          ["done with {old} na, the instructor says I'm ready, so now I'm starting {v}",
           "I dropped {old} for now, the schedule clashed with my site inspections, enrolled in "
           "{v} instead since it's weekends only"],
          ["what freediving training am i doing these days",
           "current dive level im working on?"]),
    Topic("bakepage", ["ube cheese pandesal", "yema cake", "brazo de mercedes", "buko pie",
                       "cassava cake", "ensaymada"],
          ["{v} sold out in two hours on my page, 60 boxes, my oven has never worked so hard",
           "a customer left a one star review on my {v}, said it was 'dry', ma'am it was your "
           "microwave",
           "stayed up till 2am doing {v} for a company Christmas party order, Bea helped me "
           "with the boxes"],
          ["what baked thing got cleared out in a couple of hours when i posted it",
           "which of my products got the bad rating from that complaining buyer",
           "what was i making past midnight for the office party order with my daughter "
           "packing"],
          ["Flour went up again at the grocery, I have to adjust all my prices.",
           "The Lalamove rider got lost and delivered 40 minutes late, the customer was so "
           "angry.",
           "Bought a second-hand oven from a bakery that closed, the thermostat is a bit off."],
          ["nobody's ordering {old} anymore, everyone on my page is asking for {v} now",
           "stopped making {old}, the margins are too small with egg prices now, my bestseller "
           "is {v}"],
          ["what sells best on my baking page now",
           "top item in my little shop lately"]),
    Topic("sitepost", ["the flyover in Banilad", "the bridge repair in Talisay",
                       "the drainage canal in Subangdaku", "the road widening in Liloan",
                       "the seawall in Cordova", "the slope protection in Balamban"],
          ["I got assigned as project engineer on {v}, first time I'm the one signing, kinda "
           "scared",
           "the mayor came to inspect {v} today with the media, I had to stand beside him in "
           "the heat for an hour",
           "{v} is two months behind because the contractor keeps pulling his men to his "
           "private jobs"],
          ["which job did they make me the engineer in charge of, the first one i sign off on",
           "where was that site visit with the politician and the cameras",
           "which project is way delayed bc the contractors crew keeps disappearing"],
          ["Hard hat tan lines are real, my forehead is two colours.",
           "Had to redo the whole progress report, the auditor wanted photos with dates on "
           "them.",
           "Site meeting ran until 7pm and nobody agreed on anything."],
          ["{old} is finished and turned over, my boss moved me to {v} starting Monday",
           "they took me off {old} because of politics, long story, now I'm handling {v}"],
          ["which site am i assigned to now",
           "my project at work at the moment?"]),
    Topic("arnelvessel", ["a bulk carrier in the Persian Gulf", "an LNG tanker off Qatar",
                          "a car carrier between Japan and Europe",
                          "a container ship on the Busan run",
                          "a chemical tanker in the North Sea",
                          "an offshore supply vessel off Angola"],
          ["Arnel signed on to {v}, nine month contract, he left this morning and Migs wouldn't "
           "let go of his leg",
           "Arnel video called from {v}, the wifi kept freezing, the kids just saw his face "
           "stuck mid-laugh",
           "Arnel says the food on {v} is terrible, the cook doesn't know what rice is for"],
          ["what vessel did my husband join the day my son clung to him at the door",
           "where was hubby calling from when the screen froze on his funny face",
           "which ship did arnel complain about the cooking on"],
          ["The allotment from the manning agency came in late again this month.",
           "Arnel's birthday tomorrow and he'll be at sea, we're recording a video for him.",
           "Counting the days, 143 more until he's home."],
          ["Arnel's contract on {old} ended, the agency gave him a new one straight away, he's "
           "on {v} now",
           "Arnel transferred from {old} to {v}, better pay daw but a longer contract"],
          ["what ship is my husband on now",
           "arnels current vessel"]),
    Topic("beaextra", ["the robotics club", "the school marching band", "the campus paper",
                       "the chess team", "the folk dance troupe", "the math olympiad team"],
          ["Bea made it into {v}, she ran into the kitchen screaming, first time she's been "
           "excited about school in years",
           "Bea has {v} every Saturday now, so I drop her off at school before I drive to the "
           "dive site",
           "Bea needs a uniform and supplies for {v}, 3,500 pesos, the school always springs "
           "these on parents"],
          ["what did my daughter get accepted into that had her shrieking in the kitchen",
           "what does bea have every saturday morning that i drop her off for",
           "which of my girls school things did i have to shell out for unexpectedly"],
          ["Bea's report card came out, she's fine in everything except Filipino, ironic.",
           "Bea wants a phone upgrade, I said sure, when you pay for it.",
           "Parent-teacher conference on Friday, I have to leave the site early."],
          ["Bea quit {old}, she said the seniors were bullying the new ones, she joined {v} "
           "instead",
           "Bea's done with {old} na, too much time, she's trying out for {v} now"],
          ["what is bea doing after class now",
           "daughters activity at school these days?"]),
    Topic("migspet", ["a lovebird", "a hermit crab", "an aspin puppy", "a hamster",
                      "a box turtle", "a white rabbit"],
          ["Migs came home from the fiesta with {v}, Lola Pacing bought it for him without "
           "asking me of course",
           "Migs gave {v} a name, after his favourite Jollibee item, I'm not even going to say "
           "which",
           "{v} escaped overnight, we found it behind the ref in the morning, Migs cried for an "
           "hour"],
          ["what animal did grandma get my son at the town feast without checking with me",
           "what pet of migs did he name after fast food",
           "which of my boys pets went missing and turned up behind the fridge"],
          ["Migs wants a pet snake, absolutely not.",
           "Spent the morning cleaning cages and bowls, I am not a zookeeper.",
           "The vet here charges 500 pesos just to look, grabe."],
          ["{old} didn't make it, Migs buried it in the garden with a popsicle stick cross, "
           "now he's taking care of {v}",
           "gave {old} to Migs's classmate because Lola Pacing kept sneezing, he has {v} now"],
          ["what pet does migs have now",
           "my sons animal at the moment"]),
    Topic("junjunabroad", ["a caregiver job in Japan", "a nursing aide post in Riyadh",
                           "a welding job in Auckland", "a farm job in Alberta",
                           "a hotel job in Dubai", "a factory job in Taiwan"],
          ["Jun-Jun applied for {v}, he quit his job at the mall already, I told him wait for "
           "the visa first but no",
           "lent Jun-Jun 40,000 pesos for the placement fee for {v}, please let this not be a "
           "scam",
           "Jun-Jun passed the medical for {v}, Nanay lit candles at the Basilica to say thanks"],
          ["what overseas work did my little brother go for before he even had his papers",
           "what was the money i loaned my brother for, the one i worried was a scam",
           "my bro cleared his health check for which job, mama went to church over it"],
          ["Jun-Jun is still sleeping at 11am, he says he's 'conserving energy'.",
           "The line at the migrant workers office was so long, Jun-Jun waited seven hours.",
           "Nanay keeps asking me to find Jun-Jun a girlfriend, I'm not an agency."],
          ["the agency for {old} closed down, so Jun-Jun is trying for {v} now",
           "Jun-Jun backed out of {old}, the contract terms were shady, he's going for {v} "
           "instead"],
          ["where is jun-jun trying to work abroad now",
           "brothers overseas aplication latest"]),
    Topic("ukesong", ["Rosas Pandan", "Dadansoy", "Ili Ili Tulog Anay", "Tadhana",
                      "Leaving on a Jet Plane", "Somewhere Over the Rainbow"],
          ["learning {v} on the ukulele so I can play it for Arnel on our next video call",
           "played {v} at the office Christmas party, my boss sang along, totally off key",
           "my fingertips are sore from the chords in {v}, that F is impossible"],
          ["what was i practising on my little guitar to surprise hubby over the call",
           "what song did i strum at the work party when the boss joined in",
           "which tune has the chord that hurt my fingers"],
          ["Bought new strings for the uke, the old ones kept going out of tune.",
           "Migs keeps grabbing my ukulele and banging it like a drum.",
           "The ukulele group at work meets on Fridays, only four of us show up."],
          ["I can finally play {old} all the way through, so I've moved on to {v}",
           "gave up on {old}, too many chords, the group picked {v} for me instead"],
          ["wat song am i learning now",
           "current uke piece?"]),
    Topic("volleyrole", ["setter", "libero", "middle blocker", "outside hitter",
                         "opposite spiker", "defensive specialist"],
          ["coach put me as {v} for the barangay league, I'm 38 and the others are college "
           "girls, pray for me",
           "played {v} the whole game against Barangay Tipolo and we won in five sets!!",
           "tweaked my wrist playing {v}, it's swollen, typing with one hand"],
          ["what spot did the coach give me on the court with all those young girls",
           "what was my role in the match we took in five",
           "what position was i in when i hurt my hand"],
          ["League games are moved to Sunday nights because of the fiesta.",
           "Our team jerseys came and my name is spelled wrong, WING not WENG.",
           "Knee pads are a must, my knees are purple."],
          ["coach moved me from {old} to {v}, she says it suits my height and my serve receive "
           "better",
           "no more {old} for me, the new girl is better at it, I'm playing {v} now"],
          ["what do i play on the volleyball team now",
           "my position in the league lately"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("since the dive on sunday my right ear feels full and muffled and it hurts when I "
     "swallow. I think I kept going down even if it wasn't clearing. is this serious",
     "That sounds like middle-ear barotrauma, an ear squeeze, which is common in freedivers "
     "who keep descending when an ear won't equalise. Most cases heal on their own in one to "
     "two weeks. Stay out of the water, the pool included, until the fullness and pain have "
     "completely gone and you can equalise gently on land without discomfort, and don't fly "
     "until then either. Don't try to force air into the ear with hard Valsalva manoeuvres; "
     "gentle swallowing and yawning are fine. Paracetamol or ibuprofen helps the pain, a "
     "decongestant nasal spray for a few days or a saline rinse can help the tube drain if "
     "your nose is blocked, and a warm compress can ease the ache. Keep water out of the ear "
     "and don't put drops or cotton buds in it unless a doctor says so, in case the eardrum "
     "is perforated. See a doctor, ideally an ENT, soon if you have severe pain, blood or "
     "fluid coming out of the ear, hearing that doesn't improve after a few days, ringing, or "
     "dizziness, vertigo or nausea: those can mean a perforated eardrum or an inner-ear "
     "injury, which needs prompt treatment, and dizziness after a dive should be checked the "
     "same day. If it isn't clearly better within a week, have it looked at too. When you go "
     "back, equalise early and often, from the surface and every metre or so on the way "
     "down, descend on the line so you can stop, and turn around as soon as an ear doesn't "
     "clear instead of pushing through. If it keeps happening on one side, a few sessions on "
     "equalisation technique with your instructor, such as the Frenzel method, make a big "
     "difference.",
     "my ear after that deep water weekend, what was your advice"),
    ("Migs has had a fever of 39 since yesterday, body pains, no appetite. there are dengue "
     "cases in our barangay. what should I watch for",
     "With dengue around, get Migs seen by a doctor today or tomorrow: in the first days of "
     "fever a blood test, an NS1 antigen test and a complete blood count with platelets, can "
     "show whether it's dengue, and the doctor can follow his platelet count. Meanwhile give "
     "paracetamol at the dose for his weight for the fever and the pains, and do not give "
     "ibuprofen, mefenamic acid or aspirin, because they make bleeding more likely in dengue. "
     "Keep him drinking a lot, little and often: water, oral rehydration solution, soup, "
     "juice or coconut water, and check that he passes urine at least every four to six "
     "hours. Let him rest, and sponge him with lukewarm water if he is uncomfortable. The "
     "dangerous time is often when the fever comes down, around day three to seven, so don't "
     "relax as soon as it breaks. Take him to the emergency room straight away if you see "
     "any warning sign: severe or persistent stomach pain, repeated vomiting, bleeding from "
     "the gums or nose, blood in his vomit or stool or black stools, new red spots or "
     "bruises on the skin, unusual sleepiness, restlessness or irritability, cold or clammy "
     "hands and feet, fast breathing, or very little urine. While he has fever, keep him "
     "under a mosquito net or use repellent, so mosquitoes in the house don't pass it to the "
     "rest of the family, and empty any standing water around the house.",
     "when my youngest had that high temperature and i was scared it was the mosquito "
     "sickness, what did you say to look out for"),
    ("my pandesal is soft in the morning but by afternoon when the rider delivers it's hard "
     "already and customers complain. how do I keep bread soft longer",
     "Bread firms up because the starch in it recrystallises as it cools and ages, and "
     "because it dries out, so tackle both. In the dough, use a tangzhong or yudane, a paste "
     "of a little of the flour cooked with water or milk, which holds more water and keeps "
     "rolls soft for a day or two longer. Make sure there's enough fat and sugar, since "
     "butter or oil and sugar slow staling; an egg or some milk powder helps too. Don't keep "
     "adding flour while kneading, because a slightly sticky dough gives a softer crumb, and "
     "knead until it's smooth and stretchy. In the baking, don't overbake: every extra "
     "minute dries the bread, so take them out when they're just golden, and check the real "
     "temperature with an oven thermometer, because a hot oven browns the outside before the "
     "inside is done. Brush the tops with melted butter as they come out. Let them cool to "
     "room temperature, since packing them warm causes condensation and soggy bottoms, then "
     "seal them straight away in airtight bags or containers rather than leaving them out "
     "for hours. Never keep bread in the refrigerator, where it goes stale fastest. If you "
     "can, shape the dough the night before, keep it cold and bake in the morning closer to "
     "delivery. And tell customers that ten seconds in the microwave or a few minutes in a "
     "toaster oven softens them again.",
     "buns going stale before the delivery gets there, what were the tricks"),
    ("PAGASA says signal no. 3 might hit Cebu on thursday. Arnel is at sea and it's just me, "
     "the two kids and my mother-in-law. what should I prepare",
     "Start now, while the shops are still calm. Water: at least four litres per person per "
     "day for three days, so about 50 litres for the four of you, plus extra for washing and "
     "flushing. Food: three days of things that need little or no cooking, like canned "
     "goods, bread, crackers and biscuits, with a manual can opener, and at least a week of "
     "your mother-in-law's maintenance medicines, plus a first aid kit. Charge power banks "
     "and phones, get a battery radio and flashlights with spare batteries, and expect power "
     "and signal to be out for days. Withdraw some cash, since ATMs and e-wallets may not "
     "work, and fill the car's or motorbike's tank. Put birth certificates, passports, IDs "
     "and Arnel's contract papers in sealed plastic bags in one go-bag with clothes, "
     "medicines, snacks and a whistle. Around the house, bring in or tie down anything that "
     "can fly, like pots, loose roof sheets or the laundry rack, close and brace shutters and "
     "windows, clear the gutters and drains, and unplug appliances before the storm arrives. "
     "If you're near the sea, a river or a slope, or the house is of light materials, listen "
     "to the barangay and leave early for the evacuation centre or relatives on higher "
     "ground, especially with an elderly person, rather than waiting until the water rises; "
     "decide now where you'd go and how. During the typhoon stay indoors away from windows, "
     "and don't go out when it suddenly goes calm, because that's the eye. Afterwards, watch "
     "for fallen power lines and floodwater, and text Arnel and your family that you're safe "
     "as soon as signal comes back.",
     "the storm checklist you gave me when the big typhoon was coming and i was alone with "
     "the kids"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("new foreman on my site, {p}, he {x}. very quiet but he sees everything",
     "{p} noticed the rebar they delivered was thinner than what's in the plans, he measured "
     "it with a caliper right in front of the supplier, we stopped the concrete pour and sent "
     "the whole truck back",
     "the foreman who {x}, what did he catch on site",
     ["Dodong", "Jomar", "Rolly", "Nestor", "Boyet"],
     ["used to work in Saudi for ten years", "sings at every videoke night",
      "breeds tilapia in his backyard", "was a seminarian before", "builds his own bamboo "
      "bikes"]),
    ("new buddy in the freediving group, {p}, she {x}. she can hold her breath for five "
     "minutes, crazy",
     "{p} blacked out at the surface after a 28 metre dive, I held her face out of the water "
     "and talked to her like the instructor taught us, she came back in a few seconds. I was "
     "shaking the whole drive home",
     "the dive girl who {x}, what happened to her that day",
     ["Kristine", "Apple", "Mayumi", "Trixie", "Rica"],
     ["teaches yoga in IT Park", "is a flight attendant for Cebu Pacific",
      "came all the way from Davao", "is a nurse at Chong Hua",
      "runs a milk tea shop in Lapu-Lapu"]),
    ("new suki on my baking page, {p}, she {x}. always pays on time, my favourite customer",
     "{p} ordered 200 pieces for her daughter's debut and paid the full amount in advance, "
     "biggest order I've ever had, I had to borrow my neighbour's oven",
     "that regular buyer who {x}, what big order did she give me",
     ["Ma'am Josie", "Tita Baby", "Ate Luz", "Ma'am Cora", "Tita Remy"],
     ["owns the drugstore near the church", "is a retired judge",
      "lives in the big house in Maria Luisa", "orders for her whole office every Friday",
      "brings her six dogs in the car when she picks up"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("commute", ["the jeepney broke down on the bridge and we all had to walk the rest in the "
                 "rain, my shoes are ruined",
                 "3 hours from Mandaue to the office because of the construction at the "
                 "junction, I could have flown to Manila",
                 "the habal-habal driver took the wrong turn and still charged me double",
                 "finally got my motorcycle license, no more waiting for rides in the heat"],
     "all my getting to and from work dramas this year, what did i tell you"),
    ("seacalls", ["Arnel showed the kids a whale from the deck on video, Migs screamed so loud "
                  "the neighbours came over",
                  "the kids showed their report cards on the call and Arnel cried, he says it "
                  "was the wind",
                  "the call dropped in the middle of singing happy birthday to Bea, we sang it "
                  "again when the signal came back an hour later",
                  "Arnel and I fought over messenger about money, the worst is you can't make "
                  "up properly through a phone"],
     "everything ive told you about talking with hubby while hes away"),
    ("nextdoor", ["the neighbour's videoke went till 3am again, 'My Way' four times",
                  "next door's rooster starts at 3:30am, not even sunrise",
                  "the neighbour parked his multicab in front of our gate and went to Bohol "
                  "for the weekend",
                  "the neighbour's mango tree dropped a branch on our roof, now there's a leak "
                  "in Bea's room"],
     "the trouble with the people beside us, all of it, remind me"),
]

CHAT = ["how many cups of water for 3 cups of rice in a rice cooker",
        "whats 5 feet 2 inches in cm",
        "is it okay to reheat rice twice",
        "how do i compute 12 percent vat backwards from the total",
        "what time is it in houston if its 9pm here in manila",
        "give me a short caption for my mother in laws birthday post",
        "ok next question",
        "salamat!",
        "why do cats knead blankets",
        "how many ml in one cup",
        "how to remove rust from a kitchen knife",
        "is it who or whom in to ___ it may concern"]
REPLIES = ["Sure thing, here you go:",
           "Sige, quick answer:",
           "No problem, in short:",
           "Got it, here's the gist:",
           "Of course, let me keep it brief:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["On my lunch break in the site office.", "Waiting in the car while Bea finishes.",
          "Kids are finally asleep.", "Brownout again, on mobile data.",
          "Sitting at the pier waiting for the boat."]
