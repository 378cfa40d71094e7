"""Variant `aa` of the dialogue set: a twenty-fifth check set, written apart from `a` to `z` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Trinidadian man's, Marlon Ramsaran, 48, from Chaguanas in
central Trinidad, an instrument technician at a fertiliser and methanol plant in Point Lisas who
plays tenor pan in a steelband, enters his seed finches in the Sunday morning bird-singing
competitions and grows food on his late father's land up in Tabaquite; his wife Nadia is a court
clerk, their son Josiah, 16, is sitting his CSEC exams, their daughter Tiana is 9, his mother,
Mammy, 78, lives with them, and his sister Crystal in Brooklyn sends barrels home: the tune the
band is playing for Panorama, the bird he competes with, the unit he is posted to at the plant,
what Josiah wants to do after school, what Tiana is playing in Kiddies Carnival, where he buys
his breakfast doubles, what is growing on the land, which court Nadia works at and the big item
in Crystal's latest barrel; questions are asked as people ask an assistant to remember ("what
was i rehearsing so late my wife said my hands were moving in bed", "that bird fella who drives
in from Mayaro every week, what did he want from me"), some lowercase, some without a question
mark or apostrophes, some as a few words ("current crop up in tabaquite"), a few typos, some in
Trinidadian English ("which bird of mine licked everybody at the weekend competition", "the
drama with the relatives online, wha went on again"), from the specific to the vague, and mostly
share no content word with the message that answers them. Sessions run from one exchange to
seven over 370 days; small talk may sit before and after a fact in the same message; rows are
one utterance each, among 4,600 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("panoramatune", ["Pan in A Minor", "Rain-o-Rama", "Mystery Band", "Curry Tabanca",
                           "Woman on the Bass", "Fire Coming Down"],
          ["the arranger finally told us the Panorama tune, we doing {v}, the old men in the "
           "panyard started dancing right there on the gravel",
           "practised {v} till 2am last night, my tenor part has a run in the second verse I "
           "keep flubbing, Nadia says I was playing in my sleep",
           "judges placed us fifth in the semis with {v}, the whole side vex, we were sure we "
           "had top three"],
          ["which song did our musical director choose for the big competition, the one that "
           "had the old timers wining on the stones",
           "what was i rehearsing so late my wife said my hands were moving in bed",
           "what did we play in the prelims round when they ranked us lower than we deserved"],
          ["Panyard had no lights tonight, we tuned by phone torch like real professionals.",
           "Somebody thief the chrome off two of the bass pans, the captain is on the warpath.",
           "The arranger changed the intro for the fourth time this week, my head spinning."],
          ["the arranger scrapped {old}, he says it not sweet enough for the big stage, we "
           "learning {v} now with three weeks to go",
           "the committee overruled the arranger, no more {old}, the band going with {v} for "
           "Panorama"],
          ["what tune is the steelband playing now",
           "our panorama piece these days?"]),
    Topic("finchcontest", ["a towa-towa called Scholar", "a picoplat called Bullet",
                           "a chickichong called Prince", "a twa-twa called Rambo",
                           "a silverbeak called Slim", "a bullfinch called Doctor"],
          ["bought {v} from a man in Penal for 6,000 TT, Nadia doesn't know the price yet and "
           "she will not find out from me",
           "{v} won the Sunday contest at the Savannah, 52 songs in the time, the man who came "
           "second wanted to fight",
           "{v} stop singing this week, just sitting there puffed up, I'm watching him like a "
           "hawk"],
          ["which feathered fella did i pay big money for and keep quiet from the wife",
           "which bird of mine licked everybody at the weekend competition and nearly cause a "
           "commotion eh",
           "the one in my cages that went silent and fluffy on me, who was it"],
          ["Up at 5 cleaning cages before work, the neighbours think I'm mad.",
           "Seed prices gone up again, the feed shop man laughing at me.",
           "Somebody tried to take a cage off the gallery last night, the dog start barking "
           "and he run."],
          ["sold {old} to a fella from Sangre Grande, the one I'm bringing out on Sundays now "
           "is {v}",
           "{old} got out when the cage door didn't latch, gone in the bush, so I'm training "
           "{v} for the competitions now"],
          ["which bird am i competing with now",
           "my main singer these days"]),
    Topic("plantunit", ["the ammonia compressor house", "the urea granulation unit",
                        "the methanol control room", "the jetty loading arms",
                        "the cooling water towers", "the nitric acid unit"],
          ["they put me on {v} for the turnaround, twelve-hour days for six weeks, goodbye "
           "weekends",
           "a transmitter at {v} failed at 3am and I was the only tech on site, fixed it in "
           "forty minutes, supervisor said good job, first time in eleven years",
           "heat at {v} today was something else, 38 degrees, I drank six bottles of water "
           "and still felt like a roti on a tawa"],
          ["where at work did they stick me for that long maintenance shutdown",
           "the area where i sorted out a breakdown alone in the middle of the night and got "
           "praised for once",
           "whr was i the day i felt like i was being cooked alive on the job"],
          ["Safety meeting ran two hours this morning, same slides as last year.",
           "The company bus broke down on the highway and we walked in to the gate.",
           "New contract workers started, half of them don't know which end of a multimeter "
           "to hold."],
          ["they moved me off {old} after the reshuffle, I'm at {v} from Monday",
           "{old} is shut for the upgrade so the boss sent me over to {v}"],
          ["which unit am i on at the plant now",
           "where they have me posted at work currenly?"]),
    Topic("josiahfuture", ["joining the Coast Guard", "marine biology at UWI",
                           "flying for Caribbean Airlines",
                           "an electrical apprenticeship at T&TEC", "culinary school in Barbados",
                           "playing cricket for the Red Force"],
          ["Josiah announced at dinner that he set on {v} after CSEC, Nadia dropped the spoon "
           "in the pelau",
           "had a long talk with Josiah's form teacher, she thinks {v} would suit him, he good "
           "with his hands and can't sit still",
           "Josiah found out {v} needs maths and he failed the mock, now he doing lessons "
           "Saturday mornings without anybody telling him"],
          ["what did my boy spring on us at the table about his future that made his mother "
           "lose her grip",
           "that meeting at school, what path did miss say fit my son",
           "the plan that has the youngster going to extra classes on his own on weekends, "
           "what is it"],
          ["Josiah's CSEC timetable came out, first paper is English A on a Monday morning.",
           "Josiah spends more time on his phone than on his books, I took the charger.",
           "Josiah grew another inch, the school pants at his ankles again."],
          ["Josiah dropped the idea of {old} after careers day, now is {v} he talking about",
           "forget {old}, Josiah whole plan changed, he set on {v} now"],
          ["what josiah wants to do after school now",
           "sons plan for after exams currently?"]),
    Topic("kiddiesmas", ["a blue emperor butterfly", "a moko jumbie on stilts",
                         "a fancy sailor", "a midnight robber", "a dame lorraine",
                         "a baby doll"],
          ["Tiana registered with the school's kiddies band, she going as {v}, the costume is "
           "1,800 and it's mostly feathers",
           "Nadia up till midnight gluing sequins on Tiana's costume, {v}, the table looks like "
           "a glitter bomb hit it",
           "Tiana went on the stage at Kiddies Carnival as {v}, the headpiece slip over her "
           "eyes and she froze, but the judges gave her third anyway"],
          ["what is my little girl dressing up as for the children's parade",
           "what outfit was my wife up late sticking sparkly bits on",
           "what was my daughter the day her hat fell in her face in front of everybody and "
           "she still got a prize"],
          ["Tiana practised her chip down the corridor all evening, the dog joined in.",
           "Kiddies Carnival registration closes Friday and the school now sending the form.",
           "Tiana wants glitter all over her face, Nadia says only a little, I know who will "
           "win."],
          ["Tiana change her mind, she doesn't want to be {old} anymore, she playing {v} now "
           "and the deposit gone",
           "the kiddies band said the section for {old} is full, so Tiana is going as {v} "
           "instead"],
          ["what is tiana playing mas as now",
           "tianas carnival character currently"]),
    Topic("doublesstop", ["Ramesh by the Couva roundabout",
                          "the lady under the umbrella at Freeport junction",
                          "the Chin brothers' van on the Southern Main Road",
                          "Aunty Pat's stall by the Point Lisas gate", "Kamla's shed in Preysal",
                          "the white van outside the Chaguanas bus terminal"],
          ["{v} does the best doubles in central, slight pepper, extra channa, I stop there "
           "every morning before shift",
           "two doubles from {v} gave me belly trouble all day, I spent the afternoon in the "
           "plant washroom",
           "{v} gave me a free aloo pie because I'm a regular, I nearly proposed"],
          ["where do i get my morning bite on the drive in to work",
           "who sold me the food that had me running to the toilet the whole shift",
           "who gave me something on the house for being loyal"],
          ["Doubles gone up to 7 dollars, this country.",
           "Nadia says I need to cut down on fried food, she counting the doubles papers in "
           "the car.",
           "The line for breakfast was so long this morning I almost clocked in late."],
          ["done with {old}, the doubles getting smaller every week, I buying from {v} now",
           "{old} closed down, the man migrated to Canada, so {v} is my breakfast stop now"],
          ["where do i buy my doubles these days",
           "my regular doubles man now?"]),
    Topic("tabaquiteland", ["pigeon peas", "dasheen", "christophene", "ochroes", "sorrel",
                            "cassava"],
          ["planted {v} on Daddy's land in Tabaquite this weekend, back breaking work, my "
           "cousin Vishnu watched from the hammock",
           "the agouti them ate half the {v} on the land, I putting up a fence next time",
           "sold the {v} from the land at Chaguanas market, 900 dollars, first time the land "
           "ever paid for itself"],
          ["what did i put in the ground up in the hills at my late fathers place",
           "what did the bush creatures destroy up by tabaquite",
           "which harvest finally made a profit for once"],
          ["Road to the land washed out again, had to park and walk up the last hill with the "
           "cutlass.",
           "Cousin Vishnu wants to put goats on the land, I said over my dead body.",
           "Spent Saturday cutting bush on the land, I still finding grass seeds in my socks."],
          ["pulled out all the {old} on the land, wasn't worth the trouble, put in {v} instead",
           "the rain drowned the {old} up in Tabaquite so I'm trying {v} now"],
          ["what am i growing on the land now",
           "current crop up in tabaquite"]),
    Topic("nadiacourt", ["the Chaguanas magistrates' court", "the San Fernando high court",
                         "the Couva court", "the Hall of Justice in Port of Spain",
                         "the Siparia court", "the Arima court"],
          ["Nadia got transferred to {v}, her drive just went from ten minutes to an hour each "
           "way",
           "a man jump out the dock and run at {v} today, Nadia said police chased him down "
           "the street in their socks",
           "Nadia's boss at {v} is retiring and she might get acting senior clerk, we praying"],
          ["where did my wife get moved to that now has her commuting forever",
           "where was it the prisoner tried to escape in front of my missus",
           "the job where the wife could move up when her supervisor leaves, where is that"],
          ["Nadia came home tired, forty matters on the list today and the magistrate came in "
           "late.",
           "The court computer system went down again, Nadia wrote everything by hand.",
           "Nadia's work shoes gave her blisters from all the walking between courtrooms."],
          ["Nadia moved from {old} to {v}, the judiciary reshuffled all the clerks",
           "Nadia done at {old}, she starts at {v} Monday, closer to home thank God"],
          ["which court is nadia working at now",
           "wife's current workplace?"]),
    Topic("brooklynbarrel", ["a stand mixer", "a pressure washer", "a Bluetooth speaker",
                             "a 55-inch TV", "a box of school shoes", "an air fryer"],
          ["Crystal's barrel finally cleared customs after three weeks, {v} was in it, Nadia "
           "hid it before Josiah saw",
           "customs charged me 1,400 on {v} from Crystal's barrel, I told the officer it's a "
           "gift, he said gift have duty too",
           "{v} from the barrel stopped working after a week, Crystal says she kept the receipt "
           "but she in Brooklyn and I in Chaguanas"],
          ["what did my sister ship from new york that the wife hid from the boy",
           "the item from my sis that the wharf man made me pay tax on",
           "what came from abroad and broke down within days"],
          ["Crystal says the barrel is packed but the shipping company keeps pushing the date.",
           "The wharf in Port of Spain backed up, three hours waiting for a stamp.",
           "Crystal sent a list of what she wants back: curry powder, kuchela and two bottles "
           "of pepper sauce."],
          ["new barrel from Crystal this month, last one was {old}, this time the big thing is {v}",
           "Crystal returned {old} before it could ship, says it was a bad buy, she sending {v} "
           "in the barrel instead"],
          ["whats the latest thing coming in the barrel from brooklyn",
           "my sisters newest shipment, the main item?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("can you help me with something, after the long panyard practices my wrists and forearms "
     "are burning and my right thumb goes numb sometimes. Panorama is six weeks away and we "
     "practise every night",
     "Burning in the wrists and forearms after long sessions is usually overuse: the tendons "
     "and muscles that grip and flick the sticks get irritated when the playing time jumps "
     "suddenly, as it does in the weeks before a competition. Numbness in the thumb is worth "
     "taking seriously, because it can mean a nerve is being squeezed at the wrist (carpal "
     "tunnel) or that the tendons at the base of the thumb are inflamed. Start with how you "
     "hold the sticks: grip them loosely between the thumb and the first two fingers and let "
     "the rebound of the note do the work, rather than squeezing and driving each stroke from "
     "the wrist. Keep the wrist close to straight, not bent up or down; if you have to bend it "
     "to reach the notes, adjust the height and tilt of the pan so your forearms are roughly "
     "level. Warm up for five to ten minutes before the band starts, with wrist circles, "
     "gentle finger stretches and slow scales, and stretch the forearm muscles afterwards by "
     "holding each hand back and then down with the other for thirty seconds. Take a short "
     "break every twenty to thirty minutes and shake the hands out, and don't play through "
     "sharp pain. In the evenings, ice the sore areas for ten to fifteen minutes, and on "
     "nights off rest the hands completely. A wrist splint worn at night keeps the wrist "
     "straight and often eases numbness by morning. If the numbness is there most of the "
     "time, wakes you at night, comes with weakness or dropping things, or the pain isn't "
     "settling after a couple of weeks of easier practice, see a doctor or a physiotherapist "
     "before the competition rather than after it.",
     "the pain from all those rehearsal nights, what was your fix"),
    ("my best finch is sitting on the floor of the cage all puffed up with his eyes half "
     "closed, and the droppings watery and green. he was singing sweet on Sunday",
     "A small bird sitting fluffed up on the floor with half-closed eyes is seriously unwell: "
     "birds hide illness until they are quite sick, so treat this as urgent. First, move him "
     "away from your other birds at once, in case it is infectious, and wash your hands after "
     "handling him. Keep him warm, because a sick bird burns energy just holding its body "
     "heat: put him in a small cage with a towel over three sides, perches low or removed, "
     "and a gentle heat source such as a lamp kept at a distance so one side of the cage is "
     "warm and he can move away from it. Put seed and water where he can reach them without "
     "climbing, and add a bird electrolyte or a pinch of glucose to the water to keep him "
     "drinking. Watery green droppings often mean he hasn't been eating, or an infection of "
     "the gut, so check whether he is actually cracking seed or only picking at it. Clean and "
     "disinfect his usual cage, feeders and water pots, throw out the seed he was on in case "
     "it is damp or mouldy, and check the rest of the batch. Avoid giving antibiotics or "
     "remedies from the feed shop without a diagnosis, since the wrong one can make things "
     "worse. The best chance is a vet who sees birds, today or tomorrow; take a fresh "
     "dropping sample with you. If he is breathing with his tail bobbing, has discharge from "
     "the nostrils or stops eating completely, he may not last long without treatment.",
     "when my little singer got sick and was huddled at the bottom, what was your advice"),
    ("the pepper trees in the back yard, what is making the leaves curl and crinkle like that? "
     "the new leaves come out small and hard and the flowers dropping before they set",
     "Curled, crinkled, hardened new growth with flowers dropping is most often caused by "
     "tiny sap-sucking pests, and on hot peppers in a warm climate the usual culprits are "
     "broad mites, thrips or aphids. Broad mites are too small to see with the naked eye and "
     "are the classic cause of leaves that come out twisted, shiny and stiff, with the edges "
     "curling down; thrips leave silvery streaks and scarring, and aphids cluster in groups "
     "under the leaves and leave a sticky residue. Look under the youngest leaves and in the "
     "flower buds with a magnifying glass or your phone camera zoomed in. Prune off and "
     "destroy the worst affected tips, away from the garden, so you remove a lot of the "
     "population at once. For mites, wettable sulphur sprayed in the cool of the evening "
     "works well, but don't use it within a couple of weeks of an oil spray or in strong "
     "heat; for thrips and aphids, neem oil or insecticidal soap every five to seven days "
     "for three weeks, covering the undersides of the leaves, usually brings them under "
     "control. A strong jet of water under the leaves knocks aphids off between sprays. Keep "
     "the plants watered evenly and mulched, since stressed plants get hit harder, and go "
     "easy on nitrogen fertiliser, which pushes the soft growth these pests love. Don't plant "
     "new peppers right next to infested ones, and check new seedlings before they go in. "
     "The new growth should start coming out normal within a few weeks once the pests are "
     "down; the leaves already damaged won't recover, but the plant will grow past them.",
     "my hot plants with the wrinkled foliage, how did you say to treat them"),
    ("Mammy is 78 and lately she asking the same question five times in an hour, she left the "
     "stove on twice and yesterday she got lost walking back from the church she's been going "
     "to for forty years. how should we handle this",
     "Repeating questions, forgetting the stove and getting lost on a route she has known for "
     "decades are changes worth acting on soon, and the first step is a proper check-up, not "
     "a guess. Book her in with her doctor and go with her, bringing a short written list of "
     "what you have noticed and since when. Some causes of confusion in older people are "
     "treatable: urine and other infections, low vitamin B12, thyroid problems, dehydration, "
     "poor hearing or eyesight, depression, and side effects of medicines, especially several "
     "taken together, so ask for those to be checked and her tablets reviewed. If the doctor "
     "suspects dementia, ask for a memory assessment or a referral to a specialist. Meanwhile, "
     "make home safer: a gas or stove shut-off device, or take the knobs off when she is "
     "alone; a smoke alarm in the kitchen; and something with her name, address and your "
     "number in her bag or on a bracelet, and if she carries a phone, location sharing. Keep "
     "a steady daily routine, a large calendar and notes by the door, and answer a repeated "
     "question calmly each time instead of pointing out she already asked, which only "
     "upsets her. Try not to let her walk alone on unfamiliar or busy routes for now, but "
     "keep her going to church and seeing people with someone along, since company and "
     "activity help. Talk as a family about sharing the care, so it doesn't all land on one "
     "person, and while she can still take part, sort out important papers, bank access and "
     "who can make decisions for her later. Caregiver support groups, including the "
     "Alzheimer's association in your country, can help you too.",
     "what did you tell me to do about my mother getting so confused"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("a young fella joined the band on double seconds, {p}, he {x}, he plays like he has four "
     "hands",
     "{p} stayed back after practice and fixed the note on my tenor that was out, wouldn't "
     "take a cent, said just buy him a Carib after Panorama",
     "the new pan player who {x}, what did he do for me",
     ["Akeem", "Keston", "Rondell", "Jabari", "Dillon"],
     ["is still in Form Five", "drives a maxi taxi for a living",
      "learned to play in a church band in Tobago", "came over from a rival side in San Fernando",
      "is a policeman by day"]),
    ("met a bird man at the Savannah on Sunday, {p}, he {x}, he talks to the birds softer than "
     "he talks to people",
     "{p} offered me 15,000 for my best finch right there by the cages, I said no, then I "
     "couldn't sleep wondering if I'm a fool",
     "that bird fella who {x}, what did he want from me",
     ["Mr Ramnarine", "Rasheed", "Tall Boy", "Sookdeo", "Uncle Lennox"],
     ["keeps forty birds in his house", "drives in from Mayaro every week",
      "is a retired police sergeant", "won the national trophy twice",
      "only ever wears a white merino"]),
    ("a new engineer started on our shift, {p}, she {x}, she asks more questions than a "
     "four-year-old",
     "{p} caught a gas valve weeping on her rounds last night before anybody else smelt it, "
     "the whole shift owes her a lunch",
     "the engineer woman who {x}, what did she save us from",
     ["Kemba", "Nalini", "Shelly-Ann", "Giselle", "Candice"],
     ["studied in Aberdeen", "plays netball for the national team",
      "is the plant manager's niece", "came from the refinery in Pointe-a-Pierre",
      "rides a motorbike to work"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("flooding", ["water came up to the second step of the house after the downpour, the drain "
                  "by the road never get cleaned",
                  "had to drive through water up to the doors on the Caroni road, the car "
                  "smelling like river now",
                  "Mammy's yard flooded and the fowls were sitting on the roof of the coop",
                  "the council finally dug out the watercourse behind us, two days after we "
                  "got flooded out"],
     "every time the heavy weather messed us up, remind me what happened"),
    ("traffic", ["two hours from Chaguanas to Port of Spain this morning, a truck overturned "
                 "on the highway",
                 "somebody bounce my side mirror on the Solomon Hochoy and drove off",
                 "the new interchange at Curepe is a maze, I went round it twice",
                 "police roadblock at midnight checking for drunk drivers, I only had a Malta"],
     "what have i been through on the roads lately, tell me all of it"),
    ("familychat", ["cousin Vishnu posted a voice note in the family group accusing Auntie "
                    "Indra of taking Granny's gold bangle, bacchanal all night",
                    "Crystal left the family WhatsApp again, third time this year",
                    "somebody shared fake news about free gas and half the uncles believed it",
                    "Nadia's mother sent 57 good morning pictures in one day, the phone "
                    "storage full"],
     "the drama with the relatives online, wha went on again"),
]

CHAT = ["how many TT dollars is 100 US",
        "a good name for a steelband fundraiser fete",
        "quick pelau recipe for 8 people",
        "what time does the sun rise here tomorrow roughly",
        "how do you say good morning in Hindi",
        "write a short retirement card for my supervisor",
        "is it affect or effect in 'the rain affected the garden'",
        "how many litres in an imperial gallon",
        "best way to get curry stains out of a white shirt",
        "wha allyuh call a group of crows",
        "thanks boss",
        "one more thing"]
REPLIES = ["Sure thing, here goes:",
           "No problem, the quick version:",
           "Right, here's how I'd do it:",
           "Okay, short and sweet:",
           "Here you go, nice and simple:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["On break in the control room with a flask of tea.",
          "Sitting in traffic by the overpass.",
          "Just came in from the panyard, fingers tingling.",
          "Waiting in the car outside Tiana's school.",
          "Feeding the birds before the rain start."]
