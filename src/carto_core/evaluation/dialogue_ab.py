"""Variant `ab` of the dialogue set: a twenty-sixth check set, written apart from `a` to `aa` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Malaysian woman's, Khoo Bee Leng, "Bee", 42, from Air Itam
on Penang Island, a conservation architect at a small practice in George Town that restores
pre-war shophouses, who paddles in a dragon boat team at the Teluk Bahang dam, plays social
badminton doubles two nights a week and chases the best durian every season; her husband Wai
fries char koay teow at the stall his late father started, their daughter Yi Xuan is 9, their
son Jun Hao is 13, Wai's mother, Ah Ma, 81, lives with them, and her younger brother Kelvin
has gone to work in Singapore: the building she is restoring, where she sits in the dragon
boat, her badminton partner, Yi Xuan's weekend class, where Wai's stall is, what Ah Ma does in
the mornings, where the family holds its Chinese New Year reunion dinner, Kelvin's job across
the causeway and her durian of the season; questions are asked as people ask an assistant to
remember ("where was the old lady when she fell and hurt her hand", "the lady next door who
keeps twelve cats, what did she bring us"), some lowercase, some without a question mark or
apostrophes, some as a few words ("my current doubles kaki"), a few typos, some in Malaysian
English ("the work across the causeway that pays triple but the room costs a bomb, what is it",
"who whacked me on the head during a rally ah"), from the specific to the vague, and mostly
share no content word with the message that answers them. Sessions run from one exchange to
eight over 380 days; small talk may sit before and after a fact in the same message; rows are
one utterance each, among 4,700 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("shophouserestore", ["a pre-war shophouse on Armenian Street",
                               "a clan association hall on Cannon Street",
                               "a spice godown on Victoria Street",
                               "a Straits eclectic terrace on Muntri Street",
                               "the Anglo-Indian bungalow on Jalan Macalister",
                               "a row of five-foot-way shops on Chulia Street"],
          ["boss finally gave me my own project, {v}, the roof timbers are full of termites and "
           "the owner wants a boutique hotel by Chinese New Year, can or not I also dunno",
           "found original Minton floor tiles under three layers of lino at {v} today, I almost "
           "cried on the spot, the contractor thought I was siao",
           "the council heritage unit rejected our drawings for {v} again, they say the window "
           "shutters must be timber not aluminium, third submission already"],
          ["the place my firm let me run by myself, where the wood up top was riddled with white "
           "ants, which one",
           "where did i uncover those antique ceramic pieces hidden beneath old vinyl",
           "the job the conservation people at city hall keep bouncing back to us, which "
           "building ah"],
          ["Site visit in the noon sun today, my hard hat so hot could fry an egg on it.",
           "The contractor disappeared again, phone switched off for three days, typical.",
           "Spent the whole afternoon measuring plaster mouldings with a tape, my back is gone."],
          ["handed over {old} to the owner finally, boss put me on {v} straight away, no rest "
           "for the wicked",
           "the owner of {old} ran out of money and the job is stopped, so now I'm full time on "
           "{v}"],
          ["which building am i restoring now",
           "current heritage job at work?"]),
    Topic("dragonboatseat", ["the drummer's seat at the bow", "the pacer row up front",
                             "the engine room in the middle", "the rocket seats at the back",
                             "the steerer's spot at the stern", "the left side of row four"],
          ["coach put me in {v} for the Teluk Bahang race, I only joined eight months ago, some "
           "of the aunties are not happy with me",
           "the boat tipped over at dam practice and I was in {v}, swallowed half the "
           "reservoir, my phone in the dry bag survived thank god",
           "two hours in {v} this morning and my bum is numb until now, the seat cushion I "
           "bought from Shopee is useless"],
          ["where in the boat did the coach stick me when some of the older ladies got jealous",
           "where was i sitting the day we all ended up swimming in the lake",
           "my spot on the long boat the time i couldnt feel my behind after a long session"],
          ["Paddling at 6am, the mosquitoes at the dam are bigger than our paddles.",
           "Team bought new carbon paddles, 600 ringgit each, the treasurer nearly fainted.",
           "Our team shirts came out with the name spelled wrong, now we are the Dargon "
           "Warriors."],
          ["coach moved me out of {old}, says my timing is better suited for {v}, we'll see",
           "after the reshuffle I'm no longer in {old}, the new girl took it, I'm in {v} now"],
          ["where do i sit in the dragon boat now",
           "my position in the boat these days"]),
    Topic("shuttledoubles", ["Uncle Teh with the knee guard", "Farah from the bank upstairs",
                             "Ah Boon the mechanic", "Suresh the PE teacher",
                             "Jessie Chuah from my church", "Madam Lau who is seventy-one"],
          ["the organiser paired me with {v} for the Friday doubles, first game we lost 21-5, "
           "21-7, so malu",
           "won the club ladder night with {v}, first time I held a trophy since primary "
           "school, okay it's plastic but still",
           "{v} smashed the shuttlecock into the back of my head by accident in our game, "
           "apologised so many times I ended up doing the comforting"],
          ["who did the organiser team me up with when we got thrashed so badly the first time",
           "the person i finally won something with at the racket sport night, who",
           "who whacked me on the head during a rally ah"],
          ["Court rental at the hall went up to 25 ringgit an hour, the group chat in uproar.",
           "Broke a string on my racket, the stringing shop uncle says come back Thursday.",
           "Badminton night cancelled, the hall double booked with a wedding dinner."],
          ["{old} moved to KL for work, so now I play doubles with {v}",
           "{old} and I quarrelled over line calls, finish already, I'm partnering {v} from "
           "this week"],
          ["who is my badminton partner now",
           "my current doubles kaki"]),
    Topic("xuanweekendclass", ["abacus mental arithmetic", "Chinese brush calligraphy",
                               "junior robotics with Lego", "ballet at a studio in Tanjung Tokong",
                               "competitive swimming at Pulau Tikus",
                               "guzheng with a private teacher"],
          ["signed Yi Xuan up for {v} on Saturday mornings, 180 ringgit a month, Wai says in our "
           "time we just played in the drain",
           "Yi Xuan had her first assessment in {v} today, cried before going in then came "
           "out smiling with a merit, this girl ah, drama queen",
           "the teacher for {v} says Yi Xuan has talent but no discipline, exactly like her "
           "father"],
          ["what did i pay for my girl to do on weekends that my husband compared to our "
           "kampung childhood",
           "what did my daughter sit a test in where she bawled beforehand and then got a good "
           "grade",
           "the class where the teacher said xuan is gifted but lazy like her dad, which one"],
          ["Yi Xuan lost her water bottle again, that's the fourth one this year.",
           "School holidays start next week, I need to find something to keep Yi Xuan busy.",
           "Yi Xuan asked why the moon follows the car, I said go ask your father."],
          ["Yi Xuan gave up {old}, she says boring, we enrolled her in {v} instead and paid the "
           "deposit already",
           "the centre stopped running {old}, so Yi Xuan is doing {v} now"],
          ["what extra class is yi xuan doing now",
           "daughters saturday class currenly?"]),
    Topic("koayteowstall", ["a kopitiam on Lorong Selamat", "the hawker centre at Gurney Drive",
                            "the New Lane night hawker street",
                            "a corner coffee shop in Jelutong", "the food court in Bayan Baru",
                            "the morning market at Air Itam"],
          ["Wai signed the rental for a spot at {v}, 1,500 a month, he says the crowd there can "
           "take it, I'm praying hard",
           "a food blogger came to Wai's stall at {v} and posted a video, now the queue is 45 "
           "minutes, his hands shaking from frying",
           "health inspector came to {v} and gave Wai a warning because his apron not clean, he "
           "sulked through the whole dinner"],
          ["where did my husband take a lease to fry his noodles",
           "where is the place that influencer made my hubby famous overnight",
           "the location where the government officer scolded wai about his uniform"],
          ["Wai came home smelling like lard and smoke again, I made him shower at the back.",
           "Price of cockles went up, Wai says must either put less or charge more.",
           "Wai's wok burner was leaking gas, he bought a new one from the shop in Prangin."],
          ["the landlord at {old} doubled the rent, so Wai moved the stall to {v}",
           "Wai shifted from {old} to {v}, more office workers there at lunch he says"],
          ["where is wais stall now",
           "husbands noodle stall location these days"]),
    Topic("ahmamornings", ["the qigong group at the Esplanade",
                           "the line dancing class at the community hall",
                           "the Kuan Yin temple kitchen",
                           "the tai chi group in the Botanic Gardens",
                           "the retirees' karaoke club",
                           "the mahjong table at Auntie Chooi's house"],
          ["Ah Ma joined {v}, up at 6 before the roosters and she says her knees feel sixty "
           "again",
           "Ah Ma came back from {v} with a sprained wrist, slipped on the wet floor, the "
           "ladies there sent her home in a Grab",
           "Ah Ma won a lucky draw at {v}, a rice cooker, she carried it home on the bus like a "
           "trophy"],
          ["what did my mother in law sign up for that has her waking before dawn and feeling "
           "younger",
           "where was the old lady when she fell and hurt her hand",
           "where did ah ma win that kitchen appliance she lugged home"],
          ["Ah Ma refused her blood pressure pill today, says she feels fine.",
           "Ah Ma watching Hokkien drama at full volume, the whole taman can hear.",
           "Ah Ma made kuih for the neighbours and none for us."],
          ["Ah Ma stopped going to {old}, she quarrelled with one of the aunties, now she goes "
           "to {v}",
           "doctor told Ah Ma {old} is too much for her heart, so she's going to {v} every "
           "morning instead"],
          ["what does ah ma do in the mornings now",
           "mother in laws morning routine currently"]),
    Topic("reuniondinner", ["a seafood restaurant in Teluk Kumbar",
                            "the Hainanese place in Tanjung Bungah",
                            "a hotel ballroom in Batu Ferringhi", "a steamboat place in Sungai Ara",
                            "the Nyonya restaurant on Jalan Nagore",
                            "a round-table Cantonese restaurant in Bukit Mertajam"],
          ["booked {v} for the reunion dinner, 14 people, deposit paid already, Ah Ma says too "
           "expensive but confirm she'll eat the most",
           "at the reunion dinner at {v} my cousin announced she's pregnant and Ah Ma cried "
           "into the yee sang",
           "the bill for the reunion dinner at {v} came to 2,300 ringgit, Kelvin still hasn't "
           "transferred his share"],
          ["where did i reserve for the big eve of new year family meal",
           "where were we when my cousin told everyone she was expecting",
           "the eve dinner place where my brother still owes me money, where"],
          ["Cleaning the whole house for Chinese New Year, found Wai's old cassette tapes.",
           "Ang pow packets bought, now need new notes from the bank, the queue is crazy.",
           "Ah Ma wants everyone in red for the new year, Jun Hao says he got no red shirt."],
          ["cancelled {old}, too many relatives coming, the reunion dinner moved to {v}",
           "{old} is fully booked for the eve, so the reunion dinner is at {v} this time"],
          ["where is the reunion dinner now",
           "new year eve dinner venue, latest"]),
    Topic("kelvinsingapore", ["a bus captain with SBS Transit", "a sous chef at a Sentosa resort",
                              "a technician at a wafer fab in Woodlands",
                              "a security supervisor at a Jurong condo",
                              "a nurse at Changi General", "a crane operator at the PSA port"],
          ["Kelvin got the job as {v}, he's moving down to Singapore next month, my mother "
           "says who will fix her TV now",
           "Kelvin video-called at midnight, just finished a double shift as {v}, the eye bags "
           "on him like suitcases",
           "Kelvin says being {v} pays three times what he earned in Penang, but the rent there "
           "eats half"],
          ["what position did my brother land that made him cross over south",
           "what was my bro doing when he rang me so late looking like a zombie",
           "the work across the causeway that pays triple but the room costs a bomb, what is it"],
          ["Kelvin sent a photo of his rented room, it's the size of our bathroom.",
           "Kelvin asked me to buy Penang white coffee and post it to him, like Singapore got "
           "no coffee.",
           "Kelvin coming back for the long weekend, the causeway jam will be terrible."],
          ["Kelvin quit as {old}, he's working as {v} now, better hours he says",
           "Kelvin's contract as {old} ended, he found a new post as {v}"],
          ["what does my brother do in singapore now",
           "kelvins job currently"]),
    Topic("durianseason", ["Musang King", "Black Thorn", "Red Prawn", "D24 Sultan", "Hor Lor",
                           "Golden Phoenix"],
          ["paid 68 ringgit a kilo for {v} at the Balik Pulau orchard, Wai said I'm mad, then he "
           "ate half",
           "ate too much {v} last night and my throat on fire, so heaty I cannot talk, Ah Ma "
           "made me drink salt water from the husk",
           "brought {v} into the office and the boss made me eat it outside, the whole floor "
           "smelled for two days"],
          ["which king of fruits did i blow big money on per kilo",
           "the thorny fruit that made my throat so sore i lost my voice, which kind",
           "wat did i bring to work that stank up the place and got me chased out"],
          ["Durian season is starting, the stalls on the road to Balik Pulau are already up.",
           "The car still smells of durian, Wai says just sell the car.",
           "Durian prices this year are crazy, the rain spoilt the flowering."],
          ["done with {old} already, too creamy for me, this season I'm all about {v}",
           "the orchard uncle says {old} is overrated, he made me try {v} and now I'm "
           "converted"],
          ["which durian is my favourite now",
           "current durian of choice"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("saw thin mud tubes running up the wall next to the kitchen door, and the skirting board "
     "there sounds hollow when I knock. Wai says just spray Ridsect lah",
     "Thin mud tubes up a wall, together with skirting that sounds hollow, are the classic "
     "signs of subterranean termites, which live in the soil and build those tubes to travel "
     "up into the house while staying damp and hidden. A can of household insect spray won't "
     "solve it: it only kills the few termites it touches, and it can make the colony abandon "
     "that spot and come up somewhere else, which makes them harder to treat. Don't break the "
     "tubes open or rip out the skirting yet. First, check how far it goes: tap other "
     "skirting, door frames and cabinet backs with a screwdriver handle, look for more tubes "
     "along the base of walls, in the storeroom and under the sink, and check cupboards with "
     "stored paper or cardboard. Then call a licensed pest control company for an inspection. "
     "The usual treatments are a baiting system, where bait stations are placed on the active "
     "tubes and the termites carry a slow-acting growth regulator back to kill the whole "
     "colony, which takes a few weeks to a couple of months but does not disturb the house, or "
     "a liquid chemical barrier injected into the soil around and under the house. Ask for a "
     "written warranty and follow-up visits. Meanwhile, reduce what attracts them: fix "
     "leaking pipes and air-conditioner drips, keep the ground next to the house dry, move "
     "firewood, old boxes and timber away from the walls, and don't let soil or plant pots "
     "touch wooden parts. Once they are gone, have damaged timber checked and replaced.",
     "the little earth tunnels i found creeping up indoors, what did you tell me to do"),
    ("Yi Xuan fever 39 since yesterday night, headache behind the eyes and no appetite. "
     "there are dengue cases in our taman, the council came fogging last week. what should I "
     "watch for",
     "With a high fever, pain behind the eyes and dengue in your neighbourhood, it is worth "
     "taking her to a clinic today for a blood test; a full blood count, and a dengue NS1 "
     "test in the first days of fever, can show whether it is dengue and give a baseline for "
     "her platelets. At home, keep her drinking a lot: water, oral rehydration salts, "
     "coconut water, soup, milk, and watch that she passes urine at least every four to six "
     "hours. For the fever use paracetamol at the dose for her weight, and avoid ibuprofen "
     "and aspirin, which raise the risk of bleeding if it is dengue. Sponging with lukewarm "
     "water helps too. The most important thing to know is that the dangerous time is often "
     "when the fever comes down, usually around day three to seven, so don't relax just "
     "because her temperature drops. Take her to hospital straight away if she has: pain in "
     "the stomach, vomiting again and again, bleeding from the gums or nose, blood in vomit "
     "or stools, black stools, unusual sleepiness, restlessness or confusion, cold or "
     "clammy hands and feet, or very little urine. Even without these, bring her back for "
     "the follow-up blood tests the doctor asks for. Let her rest, keep her under a net or "
     "with repellent so mosquitoes can't bite her and spread it, and empty any standing water "
     "around the house, pots, trays and drains, this week.",
     "when my girl had the high temperature and we were scared it was the mosquito disease, "
     "what did you say to look out for"),
    ("Wai keeps all the stall money in one biscuit tin, pays the supplier, the rent and our "
     "groceries from the same tin. he has no EPF because self-employed. I'm worried what "
     "happens when he's old. how to sort this out ah",
     "It is very common for hawkers, and worth fixing while he is still working. Start by "
     "separating the business from the household: open a separate bank account for the "
     "stall, put the day's takings into it every day or two, pay the supplier, rent and "
     "gas from that account, and pay Wai a fixed amount each week or month as his own wage "
     "into your household account. That alone shows whether the stall is really making a "
     "profit and how much. Keep a simple record: a notebook or a free phone app with daily "
     "sales and every purchase, and keep receipts, which also helps with income tax and any "
     "loan or grant application. Next, retirement. In Malaysia a self-employed person can "
     "still contribute to EPF voluntarily, for example through the i-Saraan scheme, and the "
     "government has been adding a yearly top-up for eligible self-employed members, so it is "
     "worth checking the current rules with KWSP; even a modest fixed sum every month adds "
     "up with the dividends over twenty years. Separately, self-employed workers in many "
     "sectors, hawkers included, must be registered with SOCSO's self-employment scheme, "
     "which covers injuries at work and disability, so check that he is. Then build an "
     "emergency fund of three to six months of household costs, so a slow month or a broken "
     "burner doesn't empty the tin, and make sure he has medical cover. Sit down together "
     "once a month and look at the numbers.",
     "the hubbys finances from the hawker business and his pension, what were your "
     "suggestions"),
    ("can help me with Jun Hao? 13 already, playing Mobile Legends until 2am on school nights, "
     "falling asleep in class, teacher called me. when I take the phone he slams the door and "
     "won't talk",
     "At thirteen that is very common, and the games are built to be hard to put down, so it "
     "helps to treat this as setting limits together rather than a punishment. Pick a calm "
     "moment, not right after a fight, and talk with him about the sleep and the teacher's "
     "call; ask what he likes about the game and who he plays with, since for many boys it is "
     "mostly about friends. Then agree on a few clear rules with him, written down: no "
     "gaming on school nights after a set time, say 9.30, more time on weekends, and homework "
     "first. The most effective single rule is that phones and devices charge outside the "
     "bedroom overnight, in the living room, for everyone in the house if you can, so it "
     "doesn't feel like it's only him. Use the phone's own tools too: Family Link on Android "
     "or Screen Time on iPhone can lock apps after a set hour, which takes away the nightly "
     "argument. Agree on consequences beforehand, like losing the next day's gaming, and "
     "apply them calmly and consistently rather than taking the phone in anger. Make sure "
     "Wai backs up the same rules. Give him other things to do: sport, a club, time out with "
     "friends, or gaming with him sometimes. Expect sulking for a week or two. If he seems "
     "withdrawn, low, or can't stop even when he wants to, talk to the school counsellor.",
     "the boy glued to his phone game till the small hours, what was your advice"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("new paddler joined our dragon boat team, {p}, she {x}, arms like a stevedore",
     "{p} saved the drum when it rolled off the boat at the dam, jumped straight in with her "
     "shoes on, coach says she'll get a seat for the festival confirm",
     "the new girl on the boat who {x}, what did she rescue",
     ["Nurul", "Shalini", "Cheryl Tan", "Aishah", "Geraldine"],
     ["works as a firefighter in Bayan Lepas", "came over from a team in Ipoh",
      "coaches swimming at a school", "sells nasi lemak at the pasar malam",
      "is still studying at USM"]),
    ("met a new client at the office today, {p}, he {x}, very particular, wants every "
     "little thing in writing",
     "{p} wants to paint the whole facade of his shophouse bright purple, I spent one hour "
     "explaining the heritage guidelines, he still says purple is lucky",
     "that client who {x}, what crazy thing did he want for his building",
     ["Mr Cheah", "Dato' Loh", "Uncle Ong", "Mr Gan", "Dr Hassan"],
     ["owns a chain of pawnshops", "made his money selling joss sticks",
      "flew in from Perth for the meeting", "collects vintage Vespas",
      "is a retired magistrate"]),
    ("new neighbour moved in next door, {p}, she {x}, very friendly, talks to everybody at the "
     "gate",
     "{p} came over with a whole pot of curry kapitan to say sorry for the renovation noise, "
     "Ah Ma finished half before dinner even started",
     "the lady next door who {x}, what did she bring us",
     ["Puan Rosnah", "Mrs Fernandez", "Auntie Swee Lan", "Kak Ida", "Mrs Lingam"],
     ["used to be an air stewardess", "keeps twelve cats", "teaches at the convent school",
      "drives a pink Myvi", "sings in a wedding band on weekends"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("haze", ["the haze came back from Sumatra, API 180 this morning, Yi Xuan's school closed "
              "for two days",
              "cannot even see the bridge from the Gurney seafront, the whole sky yellow grey",
              "Yi Xuan coughing every night since the smoke came, bought N95 for the whole "
              "family, Ah Ma refuses to wear",
              "finally rained properly and washed it all away, blue sky again, I stood at the "
              "window like it was a miracle"],
     "the smoky air trouble we had, what did i tell you about it"),
    ("scamcalls", ["got a call saying I'm under police investigation and must transfer money "
                   "to clear my name, classic Macau scam, I hung up",
                   "Ah Ma nearly transferred 3,000 to someone pretending to be her grandson "
                   "stuck in KL, the bank teller stopped her",
                   "an SMS said my parcel is held at customs, click this link to pay, nice try",
                   "Wai's Facebook got hacked and they messaged all his friends asking to "
                   "borrow money"],
     "all the times people tried to con my family, remind me"),
    ("househitches", ["the water heater in the bathroom died, cold shower at 6am, I screamed "
                      "the house down",
                      "monkeys from the hill came into the kitchen and ran off with a whole "
                      "bunch of bananas",
                      "the Astro dish on the roof fell off in the thunderstorm, Jun Hao missed "
                      "his football match",
                      "ants invaded the sugar tin again, I put it in a tray of water like Ah "
                      "Ma taught"],
     "whats been breaking down or going wrong at home, everything"),
]

CHAT = ["how many ringgit is 50 sing dollar",
        "can write a short birthday wish for my boss or not",
        "recipe for assam laksa, the penang style one",
        "translate 'thank you for your patience' into Malay",
        "how long to boil a salted egg",
        "is it 'discuss about' or just 'discuss'",
        "what to write in a condolence card for a colleague whose father passed",
        "how to get rust off a carbon steel wok",
        "capital of Sabah is what again, my son asking",
        "what is 32 degrees in fahrenheit, my american client asking",
        "ok thanks ah",
        "another question"]
REPLIES = ["Can, here you go:",
           "Sure, the short answer:",
           "No problem, something like this:",
           "Okay, quickly then:",
           "Here's one simple way:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Waiting for Yi Xuan outside the tuition centre.",
          "Stuck on the bridge in the jam again.",
          "Just back from site, sweating like anything.",
          "Having teh tarik at the mamak near the office.",
          "Rain so heavy the road outside became a river."]
