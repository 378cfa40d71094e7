"""Variant `s` of the dialogue set: a seventeenth check set, written apart from `a` to `r` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Cork woman's, Marian Cronin, 64, from Mayfield on the
northside, retired after thirty-odd years on a deli counter, who rows in a coastal rowing crew
out of Passage West, is learning the button accordion at Comhaltas classes, knits, and minds her
grandchildren Aoibhe and Oisín two days a week while her husband Dinny, retired off the docks,
finds new hobbies: the race her crew is training for, what Aoibhe does after school, the tune
she is learning on the box, where the family's holiday caravan is, Dinny's latest hobby, the
Camino route she and her friends are planning, what she has on the needles, what she has given
up for her blood sugar and where her sister Bernie in America lives; questions are asked as
people ask an assistant to remember ("which regatta did our crew of oul wans get the bronze
in", "Dinny's buddy who was a crane driver at Ringaskiddy, what did the two boyos get up
to?"), some lowercase, some without a question mark, some with context after the question, a
few typos, some in Cork English, from the specific to the vague, and mostly share no content
word with the message that answers them. Sessions run from one exchange to eight over 360
days; small talk may sit before and after a fact in the same message; rows are one utterance
each, among 3,800 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("crewregatta", ["the Monkstown regatta", "the Cobh People's Regatta",
                          "the Crosshaven harbour race",
                          "the coastal championships in Castletownbere",
                          "the Ocean to City race", "the Sea Sunday race in Kinsale"],
          ["Coach has us entered for {v} in August, four nights a week training from now on, "
           "God help my poor hands",
           "We came third in {v}!! Third girl, out of eleven crews, and the youngest of us is "
           "fifty-two",
           "Caught a crab in the middle of {v} and nearly went over the side, the whole harbour "
           "saw it"],
          ["what race did the coach sign our crew up for, the one with training four nights a "
           "week",
           "which regatta did our crew of oul wans get the bronze in",
           "What was on when my oar got stuck in the water and I nearly ended up in the drink?"],
          ["Rowing club AGM tonight, three hours on the price of the new oars.",
           "The boat's after getting a crack in the hull, the men are fibreglassing it Saturday.",
           "Me hands are in ribbons, Dinny says I've hands like a docker now."],
          ["We pulled out of {old}, not enough of us free that weekend. Coach has us down for "
           "{v} instead",
           "Forget {old} so, the club's going for {v} now, don't ask me why"],
          ["which race are we training for now?",
           "whats the crew aiming at this summer, remind me"]),
    Topic("aoibheclass", ["Irish dancing at the Coleman school",
                          "underage camogie with Na Piarsaigh",
                          "swimming lessons at Leisureworld", "the drama class at the Everyman",
                          "the Cubs in Ballyvolane", "piano lessons with Sister Bernadette"],
          ["Aoibhe's after starting {v}, she's eight and thinks she's a superstar already, I've "
           "to bring her every Tuesday",
           "Aoibhe won a medal at {v} and she hasn't taken it off since, wore it to Mass and all",
           "Aoibhe cried her eyes out coming out of {v}, says the other girls were mean to her. "
           "I could have lamped them"],
          ["what did my granddaughter take up that I ferry her to on Tuesdays",
           "Where did the little one win the gong she wore to church?",
           "what was the young one bawling after, the thing where the other kids were nasty to "
           "her"],
          ["Collected Aoibhe from school, she talked the ears off me the whole way home.",
           "Aoibhe wants a phone. She's eight. Over my dead body.",
           "Bought Aoibhe new runners and she says they're 'cringe'. Forty euro of cringe."],
          ["Aoibhe's given up {old}, says it's for babies. It's {v} now, Monday and Wednesday",
           "No more {old} for herself, she's moved on to {v}. That child changes her mind more "
           "than the weather"],
          ["what's Aoibhe doing after school these days?",
           "remind me what the granddaughter is into now"]),
    Topic("boxtune", ["Maggie in the Woods", "the Ballydesmond polka", "Johnny O'Leary's slide",
                      "the Glen Cottage polka", "the Star of Munster", "Bill Sullivan's polka"],
          ["Teacher gave me {v} to learn for the class, I've the left hand going one way and the "
           "right hand going the other",
           "Played {v} at the session in the Corner House and nobody threw anything at me!",
           "I'm at {v} a fortnight and Dinny says if he hears it once more he's going to live in "
           "the shed"],
          ["What piece did the teacher set me at accordion class where my two hands won't "
           "cooperate",
           "whats the one I managed in the pub without making a show of myself",
           "which tune has himself threatening to move out to the garden"],
          ["Strap broke on the box in the middle of the class, had to hold it on with a belt.",
           "Comhaltas fees gone up again, fifty euro a term now.",
           "My fingers are too fat for the buttons, I swear to God."],
          ["Finally have {old} off by heart so teacher moved me on to {v}",
           "Gave up on {old}, it's beyond me. Working on {v} now, slow and steady"],
          ["what am I learning on the box now?",
           "whats the tune im practicing these days"]),
    Topic("holidayvan", ["a mobile home in Garrettstown", "the caravan park in Youghal",
                         "a chalet at Inchydoney", "a static at Redbarn",
                         "a site over in Owenahincha", "a pitch in Ballybunion"],
          ["We're after getting {v} for the summer, Dinny's already packed the barbecue and it's "
           "only March",
           "Storm took the awning clean off at {v} last night, the man from the park rang us at "
           "6am",
           "The whole family down at {v} for the bank holiday, eleven of us and one toilet"],
          ["what did we book for the summer months that had Dinny loading up the grill way "
           "early",
           "where did the wind rip the canopy off, we got the phone call at dawn",
           "Where were all the gang for the long weekend with the one loo between us?"],
          ["Ground rent on the caravan gone up again, daylight robbery.",
           "Dinny wants a hot tub for the holiday spot. He does in his eye.",
           "Spent the day scrubbing out the van, found a sandwich from last August."],
          ["Sold up {old}, too far for Dinny to drive now. We've {v} instead",
           "Moved from {old} to {v} this year, nearer the beach the grandkids like"],
          ["where have we the holiday place now?",
           "remind me where we go for the summers at the moment"]),
    Topic("dinnypastime", ["road bowling out the Lee Road", "the Men's Shed in Togher",
                           "sea angling off Roches Point", "baking sourdough",
                           "pitch and putt in Mahon", "restoring an old Honda 50"],
          ["Dinny's gone mad into {v}, out the door at nine every morning, I've the house to "
           "myself at last",
           "Dinny came home from {v} with a trophy the size of a child, it's on the mantelpiece "
           "now over Mam's photo",
           "{v} has Dinny's back in bits, the doctor told him to cop on at his age"],
          ["what has my husband taken up that has him out of the house every morning",
           "What did himself win the giant cup at that's up over the fireplace now",
           "whats the thing that did in Dinny's back, the GP gave out to him about it"],
          ["Dinny's under my feet since he retired, I'm going to lose my mind.",
           "Dinny rang the radio phone-in again. Third time this month.",
           "Herself next door says her husband is the same since he finished work, they're all "
           "the same."],
          ["Dinny's finished with {old}, says the lads were too competitive. It's {v} now, God "
           "help us",
           "Himself has swapped {old} for {v}. Give it six months"],
          ["what's Dinny's latest hobby?",
           "what keeps my husband busy these days"]),
    Topic("caminoroute", ["the Portuguese Way from Porto", "the French Way out of Sarria",
                          "the Camino Inglés from Ferrol", "the Primitivo from Oviedo",
                          "the Northern route along the coast", "the last hundred k from Tui"],
          ["Myself and the girls from the club are doing {v} for my sixty-fifth, flights booked, "
           "no going back now",
           "Got the guidebook for {v} and the hills look fierce, I might be doing it on my knees",
           "Carmel's sister did {v} last year and she says the blisters were worse than "
           "childbirth"],
          ["what walk are me and my pals doing to mark the big birthday",
           "Which pilgrimage has the steep climbs in the book that frightened me",
           "what route did my friend's sister do that she said hurt more than having a baby"],
          ["Did fifteen k round the Lough and out to Ballincollig today, legs like jelly.",
           "Bought a walking pole. I look like Moses.",
           "Broke in the new boots walking to Mass, got a few looks."],
          ["Change of plan, {old} is booked out for September so we're doing {v}",
           "We've dropped {old}, Bríd's knee couldn't take it. Going for {v} instead"],
          ["which camino are we doing in the end?",
           "remind me what walk the girls and me are planning now"]),
    Topic("needlework", ["an Aran jumper in báinín", "a christening shawl for the new baby",
                         "socks on four needles", "a red and white scarf for the match",
                         "tea cosies for the church sale", "a cable hat with a bobble"],
          ["Started {v} last night, cast on eighty stitches while the Late Late was on",
           "Nearly finished {v} but I dropped a stitch six rows back and I'm afraid to look at it",
           "Gave {v} away today and there were tears, I was delighted with myself"],
          ["what did I begin knitting in front of the telly on Friday night",
           "What was I making when I lost a loop way back and was too scared to check",
           "what did I hand over that made someone cry"],
          ["Wool shop on Paul Street is closing down, end of an era.",
           "Got the needles out again, the arthritis is bad but sure what else would I be at.",
           "Oisín hid my ball of wool under the couch for a laugh."],
          ["Put {old} in the bag for now, I'm sick looking at it. On to {v}",
           "{old} is done and blocked. Next up: {v}"],
          ["what have I on the needles now?",
           "what am I knitting at the minute"]),
    Topic("sugarswap", ["sugar in my tea", "the Tayto crisps", "Club Orange",
                        "the Friday night chipper", "the biscuits with the cuppa",
                        "white sliced pan"],
          ["Doctor says my blood sugar's borderline so I've given up {v}. Pray for me",
           "Caved and had {v} in the car park of Lidl like a criminal",
           "Three weeks off {v} and I'm down four pound, the nurse was delighted"],
          ["what did I cut out when the GP said I was heading for diabetes",
           "What did I sneak in the car outside the supermarket?",
           "what have I been off that had me lighter on the scales at the nurse's"],
          ["HbA1c test on Monday, fasting from midnight, I'll be cranky.",
           "Diabetes nurse gave me a leaflet with a picture of a sad cake on it.",
           "Dinny eats whatever he likes and doesn't put on an ounce. Not fair."],
          ["I've beaten {old}, so the doctor says now give up {v}. The woman has no mercy",
           "Back on {old} in moderation, but I've cut out {v} instead, fair trade"],
          ["what am I off at the moment for the sugar levels?",
           "whats the thing I've given up now for my health"]),
    Topic("bernieabroad", ["Dorchester in Boston", "a condo in Fort Myers",
                           "Yonkers with her son", "a retirement village outside Phoenix",
                           "Quincy near the shore", "a bungalow in Mallow"],
          ["Bernie rang, she's after moving to {v}. Forty years gone and she still says 'grand' "
           "like she left yesterday",
           "Booked my flights to see Bernie, she's in {v} and it's my first time over since "
           "Mam's funeral",
           "Bernie sent photos of {v}, the place is gorgeous, I'm raging jealous"],
          ["where did my sister move, the one who still talks like she never left Cork",
           "where am I flying out to for Bernie, the first trip since we buried our mother",
           "whats the place in Bernie's pictures that had me green with envy"],
          ["Bernie's on the phone every Sunday night, says it costs a fortune, it's free on "
           "WhatsApp Bernie.",
           "Bernie sent over a box of Hershey's and a Red Sox cap for Dinny.",
           "Bernie wants to know do we still have Mam's good china."],
          ["Bernie's left {old} at last, she's in {v} now and says she's never moving again",
           "Sister's on the move again: {old} is gone and it's {v}"],
          ["where's Bernie living these days?",
           "remind me where my sister lives now"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("my feet are destroyed from the training walks, two blisters the size of a euro on each "
     "heel and we're not even in Spain yet. what do I do, the girls all have different advice",
     "Blisters come from rubbing, heat and damp together, so you fight all three. For the ones "
     "you have now: if they're intact, leave the roof on and cover them with a hydrocolloid "
     "plaster (Compeed or the chemist's own brand) and don't peel it off until it comes away "
     "by itself. If one is tight and painful, clean a needle with alcohol, drain it from the "
     "edge, and keep the skin on top as a natural dressing. For the walk itself: boots or "
     "trail shoes half a size up, because feet swell over a long day; proper walking socks, "
     "wool or synthetic, never cotton, and some people swear by a thin liner sock underneath. "
     "Take your boots and socks off at every long stop and let your feet air. Put a plaster "
     "or tape on any spot the moment it feels warm, not an hour later. A thin layer of "
     "Vaseline or an anti-chafe balm on heels and toes in the morning helps many walkers. Keep "
     "toenails short. And do your training in the exact boots and socks you'll wear in Spain, "
     "so there are no surprises on day one.",
     "what did you say about minding my feet for the long walk, the heels were in tatters"),
    ("c'mere, the left hand on the box. the bass buttons. I can't see them and I can't feel "
     "them and it's like patting your head and rubbing your belly. is there a way to learn it or "
     "am I just too old",
     "You're not too old; the left hand is the part nearly every adult learner finds hardest, "
     "because you're playing blind. Start by finding your landmark: most boxes have a marked "
     "button, often with a dimple or a stud, so rest a finger on it at the start of every "
     "tune, the way a typist finds the bumps on F and J. Practise the left hand on its own "
     "first: a bass note then its chord, bass then chord, slowly, to a steady count of 'one, "
     "two', without looking. Only when that's boring do you add the right hand, and then with "
     "one bar of the tune at a time. For polkas and slides, a simple bass on the beat is "
     "enough; the fancy stuff can come later or never. Use a metronome app set slower than "
     "you think you need. Five or ten minutes every day does far more than an hour on a "
     "Saturday, because it's your muscle memory you're training, not your head. And ask your "
     "teacher which chords a tune uses; many session tunes only need two or three.",
     "how did you tell me to get the buttons on the bass side going without looking"),
    ("Oisín is four and lives on plain pasta and yoghurts, won't touch a vegetable, spits it "
     "out. I mind him two days a week and his mother wants him eating better. what can I do "
     "without a war at the table",
     "Picky eating at four is very common and usually passes, and pressure tends to make it "
     "last longer, so the aim is calm and repetition. Split the jobs: you decide what goes on "
     "the plate and when, he decides whether and how much he eats. Put a small amount of one "
     "vegetable next to food he already likes, say three peas beside his pasta, and say "
     "nothing about it. Children often need to see a new food ten or fifteen times before "
     "they'll taste it, so keep offering without fuss. Let him help: washing carrots, tearing "
     "lettuce, stirring, choosing between two vegetables in the shop. Kids are more likely to "
     "try what they made. Eat the vegetables yourself in front of him and enjoy them. Avoid "
     "bribes like 'eat your broccoli and you'll get a treat'; it teaches him the broccoli is "
     "the punishment. Keep portions tiny, keep mealtimes short, and don't cook a separate "
     "meal if he refuses. Agree the approach with his mother so he gets the same rules at "
     "both houses.",
     "the small lad who'll only eat plain noodles, what was your advice for getting greens "
     "into him"),
    ("got a text saying An Post has a parcel for me and I have to pay €1.99 customs through a "
     "link. I'm not expecting anything but Bernie does send stuff over. is it real?",
     "Treat it as a scam until proven otherwise; that exact message is one of the most common "
     "frauds in Ireland. The small fee is the bait: the link goes to a fake page that looks "
     "like An Post's and asks for your card details, and those are then used for much larger "
     "payments. Don't click the link and don't reply. If a parcel from the States does owe "
     "customs, An Post will say so through its own app or website, or leave a card, and you "
     "can check by typing anpost.com yourself into the browser rather than following anything "
     "in a text. You could also just ask Bernie whether she's posted something. If you've "
     "already clicked and entered card details, ring your bank straight away on the number "
     "on the back of your card and ask them to cancel it. You can forward the text to your "
     "phone network's spam number and then delete it. A good rule for the future: no real "
     "company asks for payment through a link in an unexpected text.",
     "that message about a delivery wanting a couple of euro, what did you say about whether "
     "it was a con"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("New cox at the club, {p}. Used to be {x} before she retired and she has us terrified, not "
     "a word out of anyone in the boat",
     "{p} steered us the wrong side of the buoy on race day and we were disqualified. She blamed "
     "the tide. Nobody said a word",
     "the woman who steers our boat who used to be {x}, what went wrong with her at the race?",
     ["Dympna", "Philomena", "Concepta", "Assumpta", "Fidelma"],
     ["a prison officer", "a nun out in Kenya", "a harbour pilot", "a PE teacher in the Mercy",
      "a bingo caller"]),
    ("There's a woman in my accordion class, {p}, from {x} originally. We got chatting over "
     "the tea break and she's a hoot",
     "{p} talked me into playing at her niece's wedding!! In front of a hundred and fifty "
     "people. I'll need a brandy",
     "the one from the music class who's from {x}, what did she rope me into?",
     ["Eileen", "Kathleen", "Mairéad", "Rosaleen", "Hannah"],
     ["Ballydehob", "Newmarket", "Castletownroche", "Skibbereen", "Dunmanway"]),
    ("Dinny's after making a new friend, {p}, a widower who used to be {x}. The two of them "
     "are like a pair of schoolboys",
     "{p} and Dinny went to Thurles for the hurling and didn't come home till Monday. Phones "
     "off the whole time. I'll kill the pair of them",
     "Dinny's buddy who was {x}, what did the two boyos get up to?",
     ["Johnny-Joe", "Christy", "Finbarr", "Timmy", "Mossie"],
     ["a pork butcher in the English Market", "a crane driver at Ringaskiddy",
      "a postman in Glanmire", "a bus inspector", "a barman in the Long Valley"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("grandkiddays", ["Had the two small ones all day, we made scones and there's flour in "
                      "places flour should never be",
                      "Oisín called me Nana-Gran today, I nearly melted",
                      "Brought the grandkids to Fota to see the cheetahs, Aoibhe wants one for "
                      "her birthday",
                      "Minded them till nine last night, I was asleep in the chair before they "
                      "were"],
     "how have my days with the grandkids been going, from what I've said"),
    ("harbourtraining", ["Out on the water at six this morning, the harbour like glass, "
                         "nothing like it",
                         "Rowed out past Spike Island and back, the arms are gone",
                         "A seal followed the boat the whole way in from Blackrock, the girls "
                         "were screeching",
                         "Training in the lashing rain again, soaked to the skin, loved every "
                         "minute"],
     "what's the craic been with the rowing practice?"),
    ("theterrace", ["New couple moved in to number 14, from Brazil, lovely pair, brought us "
                    "over a cake",
                    "Mrs Buckley across the road turned ninety, the whole terrace had a party "
                    "out on the street",
                    "Somebody's after robbing the wheelie bins off the whole road, who robs a "
                    "bin",
                    "Council finally fixed the streetlight outside, only took them two years"],
     "fill me in on the goings-on on my road, everything I've mentioned"),
]

CHAT = ["what time is the Cork to Dublin train on a Sunday",
        "How do you get candle wax out of a tablecloth?",
        "is it true you shouldn't swim after eating or is that an old wives tale",
        "whats a good name for a WhatsApp group of six women walking in Spain",
        "Spell Tchaikovsky for me, it's for the crossword",
        "c'mere whats the difference between a polka and a slide",
        "how many grams in a cup of flour",
        "Good morning! Lovely soft day here.",
        "convert 8 stone 10 to kilos please",
        "what year did the Cork and Kerry GAA rivalry start, roughly",
        "is Lourdes water safe to drink or is it just for blessing yourself",
        "thanks a million pet, you're a star"]
REPLIES = ["No bother at all, here goes.",
           "Grand so, let me explain.",
           "Ah, good question. Quickly:",
           "That depends a little, but broadly:",
           "Happy to help with that one."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Still in the dressing gown.", "Kettle's on.", "Waiting on the bus on Patrick Street.",
          "The hands still stinging after the oars.", "Dinny's asleep in the chair."]
