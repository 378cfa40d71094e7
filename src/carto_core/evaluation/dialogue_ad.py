"""Variant `ad` of the dialogue set: a twenty-eighth check set, written apart from `a` to `ac` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Norwegian woman's, Tonje Kristiansen, 41, from Bodø in
Nordland, a deckhand on the car ferries that cross the fjords and Vestfjorden, who goes ski
touring in the Lofoten and Nordland mountains, runs orienteering with a club and is doing up her
father's old wooden boat, which she takes out to jig for cod before her shifts; her partner
Eirik is an electrician offshore on two-weeks-out rotations, their daughter Ella, 14, plays in
the school band, their son Sondre, 9, plays football, and her father Arne, 76, a retired
fisherman from Reine, is getting too old to live alone: the crossing she crews, the summit she
is aiming to ski, the job on the boat, where she fishes, the orienteering race she is entered
in, the installation Eirik flies out to, Ella's instrument, Sondre's team and where her father
lives; questions are asked as people ask an assistant to remember ("the new lad on deck who
used to cook on a trawler, what did he do at the quay", "the spot where the big bird stole my
catch, where was that"), some lowercase, some without a question mark or apostrophes, some as
a few words ("current boat project"), a few typos ("my sons football club nowdays"), some in a
Norwegian's English ("where does pappa live now", "what all did i mention"), from the specific
to the vague, and mostly share no content word with the message that answers them. Sessions
run from one exchange to eight over 390 days; small talk may sit before and after a fact in
the same message; rows are one utterance each, among 4,900 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("ferrycrossing", ["the Bodø to Moskenes crossing", "the Festvåg to Misten ferry",
                            "the Jektvik to Kilboghamn crossing", "the Tjøtta to Forvik ferry",
                            "the Bognes to Lødingen route", "the Skutvik to Svolvær crossing"],
          ["new rota from the company, I'm on {v} for the whole season, two weeks on and two "
           "off, almost the same as Eirik's",
           "we had the man overboard drill on {v} today and the dummy sank like a stone, the "
           "mate laughed so hard he had to sit down on a bollard",
           "a coach full of German pensioners got seasick on {v} this morning, I was mopping "
           "the passenger lounge for an hour"],
          ["which run did they schedule me on, the one where my weeks off nearly line up with "
           "my partners",
           "where did we do the rescue practice where the fake body went to the bottom",
           "the trip with the busload of ill old tourists, which one was that"],
          ["Uff, the ramp got stuck again, forty cars waiting while we called the mechanic.",
           "Two days of the yearly safety course, fire hoses and life rafts in the pool.",
           "My hands are cracked from salt and cold, even with two pairs of gloves."],
          ["they moved me off {old} because of the crew shortage, from Monday I'm on {v}",
           "{old} got a new electric boat and a new crew, so now I work {v}"],
          ["where am i sailing nowadays for work",
           "current boat i crew on?"]),
    Topic("summitgoal", ["Geitgaljen", "Hermannsdalstinden", "Higravtinden", "Kvittinden",
                         "Lødingsfjellet", "Snøtinden"],
          ["Eirik and I decided our big ski tour this spring will be {v}, I'm doing intervals "
           "on the stairs at work to get fit for it",
           "we turned back 200 metres below the top of {v}, wind slab cracking under my skis, "
           "I'm still shaking",
           "skied {v} on Saturday in powder to the knees, sun on the sea below us, best day "
           "of the whole winter"],
          ["which mountain did we pick as the goal i'm training on the steps for",
           "the peak where we had to retreat because the snow was breaking up, which was it",
           "where did i have that perfect deep snow day with the view over the water"],
          ["Waxed the skis and glued on new skins, the old ones kept slipping backwards.",
           "Avalanche warning is level 3 all week, the skis stay in the garage.",
           "Bought a new beacon, the old one eats batteries like Sondre eats waffles."],
          ["we dropped the plan for {old}, too much avalanche danger this year, now we're "
           "aiming for {v}",
           "{old} is done and ticked off, next on the list is {v}"],
          ["what top am i going for now",
           "next summit on my list?"]),
    Topic("boatjob", ["new oak ribs in the bow", "a rebuilt Sabb engine",
                      "fresh pine tar on the hull", "a new mast and sail",
                      "replacing the rotten transom", "new copper rivets in the planking"],
          ["Pappa's old boat is in the shed for the winter and the project is {v}, he comes "
           "down every day to tell me I'm doing it wrong",
           "spent the whole Sunday on {v}, four hours and I have maybe ten centimetres to show "
           "for it",
           "the boat builder in Misvær wanted 30,000 kroner for {v}, I laughed and said I'll "
           "do it myself with YouTube"],
          ["whats the winter job on my dads old wooden thing that he keeps criticising",
           "what did i waste a full sunday on with hardly any progress",
           "what repair did the boatwright want a fortune for"],
          ["Bought a second-hand plane at the flea market, the blade needs sharpening.",
           "The shed is so cold I work in my survival suit.",
           "Pappa says a boat is a hole in the water you throw money into."],
          ["finished {old} at last, now the next job on the boat is {v}",
           "put {old} on hold until I can afford the wood, working on {v} meanwhile"],
          ["what am i fixing on the boat at the moment",
           "current boat project"]),
    Topic("codgrounds", ["the grounds off Landegode", "the skerries by Kjerringøy",
                         "the current at Saltstraumen", "the bank north of Fleinvær",
                         "the sound by Helligvær", "the shallows off Mjelle"],
          ["took the boat out to {v} before my shift and jigged four big skrei in half an "
           "hour, the freezer is full",
           "the engine died at {v} and I had to row against the tide for an hour, I can't feel "
           "my arms",
           "a sea eagle took a fish right off my line at {v}, I screamed like a child"],
          ["where did i catch all that winter cod before work that filled up the freezer",
           "where did my motor cut out so i had to use the oars",
           "the spot where the big bird stole my catch, where was that"],
          ["The price at the landing station is so low this year it's hardly worth selling.",
           "Lost my best jig on the bottom, 200 kroner gone.",
           "Pappa taught me to fillet before I could ride a bike."],
          ["nothing bites at {old} anymore, the trawlers have been through, I go to {v} now",
           "gave up on {old}, too much swell, my fishing spot now is {v}"],
          ["where do i go fishing these days",
           "my usual cod place now?"]),
    Topic("orienteeringrace", ["the Nordland championships in Mo i Rana", "O-Ringen in Sweden",
                               "a night sprint in Tromsø", "the Jukola relay in Finland",
                               "the Arctic Cup in Narvik", "the county relay at Fauske"],
          ["signed up for {v} in the women's 40 class, the entry fee was more than my shoes",
           "at {v} I punched the wrong control and got disqualified, I wanted to eat the map",
           "ran {v} and came ninth of sixty, my best result ever, the club bought me a "
           "bløtkake"],
          ["which competition did i register for in my age group that cost a fortune",
           "where was i thrown out for visiting the wrong checkpoint",
           "where did i get my best ever placing"],
          ["Club training in the forest at Mørkvedlia, mud to the knees.",
           "My compass has a bubble in it, I need a new one.",
           "Eirik says orienteering is just running with homework."],
          ["cancelled {old}, the ferry rota clashed, I'm entered in {v} instead",
           "{old} was postponed to next year, so my big race this season is {v}"],
          ["whats the race im entered for now",
           "my next big competition?"]),
    Topic("eirikplatform", ["the Heidrun platform", "the Norne ship", "the Aasta Hansteen field",
                            "the Skarv vessel", "the Draugen platform", "the Johan Castberg ship"],
          ["Eirik got his contract, he'll be on {v}, flies out from Brønnøysund by helicopter, "
           "two weeks out and four home",
           "a storm kept the helicopters on the ground and Eirik was stuck on {v} five extra "
           "days, Sondre cried every night",
           "Eirik heard on {v} that he's going to be foreman, he called me at midnight so "
           "proud"],
          ["where offshore did my partner get hired, the place he commutes to by air",
           "where was eirik stranded when the weather stopped the flights",
           "where was he working when he heard about his promotion"],
          ["Eirik's rotation starts Tuesday, packing his bag again.",
           "Eirik has the helicopter escape course this week, the one upside down in the pool.",
           "Eirik says the food out there is better than mine, cheeky."],
          ["Eirik is off {old} now, the company moved him, he's on {v} for the next contract",
           "{old} is shut down for maintenance, so Eirik rotates to {v}"],
          ["where is eirik working now",
           "which installation is my partner on these days"]),
    Topic("ellakorps", ["the euphonium", "the tenor horn", "the glockenspiel",
                        "the baritone horn", "the alto saxophone", "the snare drum"],
          ["Ella picked {v} in the school band, she practises in her room and the cat hides "
           "under the sofa",
           "Ella played {v} in the 17th of May parade and didn't miss a note, I cried behind my "
           "sunglasses",
           "Ella dropped {v} on the ice before the Christmas concert, the repair cost 1,800"],
          ["what did my daughter choose to play in the korps that scares the cat",
           "what was ella playing in the national day march when i got emotional",
           "the instrument that got damaged when she slipped, which one"],
          ["Band practice moved to Thursdays, more driving for me.",
           "Selling waffles for the band trip again, 300 waffles.",
           "Ella wants to quit band every week and then doesn't."],
          ["Ella switched from {old}, she's playing {v} in the band now",
           "the conductor took Ella off {old} because they had too many, she plays {v} now"],
          ["what does ella play in the band now",
           "my daughters instrument currently"]),
    Topic("sondrefootball", ["Bodø/Glimt's academy group", "Innstranden's boys under 10",
                             "Grand Bodø's junior team", "the Tverlandet team",
                             "Saltstraumen IL's little ones", "the Hunstad futsal group"],
          ["Sondre got into {v}, training three times a week, he sleeps with the ball",
           "Sondre scored his first goal for {v}, he ran the whole pitch with his shirt over "
           "his head",
           "the coach of {v} shouted at the kids so much that two of them cried, I had a word "
           "with him after"],
          ["what football side did my son get picked for, the ball-in-bed one",
           "who was he playing for when he got his first one in the net",
           "which club had the trainer who yelled the little ones to tears"],
          ["Football boots again, Sondre grows a size every three months.",
           "My turn to wash the team shirts, twenty muddy jerseys.",
           "The indoor hall is booked so the boys train in the snow."],
          ["Sondre left {old}, he wanted to be with his friends, he plays for {v} now",
           "we moved Sondre from {old} because of the driving, he's with {v} now"],
          ["which team is sondre on now",
           "my sons football club nowdays"]),
    Topic("pappahome", ["his old house in Reine", "a rented flat in Leknes",
                        "the care home in Gravdal", "our spare room in Bodø",
                        "my brother's basement in Tromsø", "the sheltered flats in Svolvær"],
          ["Pappa is living in {v} now, he says the walls are too thin and the coffee too weak",
           "Pappa fell on the ice outside {v} and lay there twenty minutes before a neighbour "
           "saw him",
           "I visited Pappa at {v} and he had painted the kitchen bright orange without asking "
           "anyone"],
          ["where did my dad move that he complains about the weak coffee",
           "where was it that my father slipped and nobody found him for ages",
           "where did i find the orange walls the old man did on his own"],
          ["Pappa called three times today about the TV remote.",
           "Pappa still wants to drive at 76, we argue about it every visit.",
           "Took Pappa to the hearing clinic, he says he hears fine, he doesn't."],
          ["Pappa moved out of {old}, too many stairs, he lives in {v} now",
           "after the winter we agreed Pappa leaves {old}, he has settled into {v}"],
          ["where does pappa live now",
           "dads current address?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("Eirik and I want to start doing proper ski tours in Lofoten this winter, steeper stuff, "
     "but neither of us has done an avalanche course. we have skis and skins and that's it. "
     "what do we actually need and what should we check before going up",
     "It is a good moment to sort this out, because steeper terrain is exactly where most "
     "avalanche accidents happen. Before the equipment, the most useful thing is a course: "
     "a two or three day avalanche course with a mountain guide or the Red Cross or the "
     "Trekking Association teaches you to read terrain, snow and the forecast, and to do a "
     "rescue, which kit alone cannot. Each of you needs three things on every tour: a "
     "transceiver (beacon) worn on the body and switched on, a metal shovel and a probe, "
     "and you need to practise searching with them until you can find a buried beacon in a "
     "few minutes, because a buried person's chance falls quickly after fifteen minutes. "
     "An airbag pack helps but does not replace these. Before every trip read the regional "
     "forecast on Varsom: the danger level, which avalanche problems are named (wind slab, "
     "persistent weak layers, wet snow), and which aspects and heights they apply to, and "
     "plan a route that avoids those slopes; at level 3 stay off slopes steeper than about "
     "30 degrees unless you really know the snowpack. Use the steepness maps on the map "
     "services to see slope angles. On the way, watch for warning signs: fresh avalanches, "
     "shooting cracks, whumpf sounds, recent wind loading, heavy new snow or fast warming, "
     "and turn back if you see them. Cross or ski steep slopes one at a time, regroup in "
     "safe spots, and always tell someone your route and when you will be back.",
     "the snow slide safety for going up mountains on skis, what did you recommend"),
    ("my right shoulder has hurt for six weeks now, I throw the mooring lines maybe sixty "
     "times a shift and it aches at night when I lie on it. can't lift my arm over my head "
     "without pain. I'm 41. should I worry or just take ibux",
     "Six weeks of pain that wakes you at night and stops you lifting the arm overhead is "
     "worth having checked rather than just covering with ibuprofen. With repeated "
     "throwing and hauling, the most common cause is irritation of the rotator cuff "
     "tendons, sometimes called impingement, and it usually gets better with the right "
     "exercises, but a tear or a frozen shoulder can look similar and are treated "
     "differently. See your GP or a physiotherapist, which you can book directly, in the "
     "next week or two. Go sooner if the shoulder became weak suddenly after a jerk on a "
     "line, if you cannot lift the arm at all, or if there is swelling, fever or numbness "
     "down the arm. Meanwhile, keep the shoulder moving within what is comfortable rather "
     "than resting it completely, avoid the movements that hurt most, especially throwing "
     "overhead, and talk to your mate or the captain about sharing line work or throwing "
     "underarm for a while. Ice or heat for fifteen minutes can ease it, and ibuprofen for "
     "a few days can help if your stomach tolerates it, but not as a way to keep working "
     "through the pain for weeks. Sleeping on the other side with a pillow hugged in front "
     "of you often helps at night. A physio will usually give you strengthening exercises "
     "for the rotator cuff and the shoulder blade muscles; doing them regularly for six to "
     "twelve weeks is what fixes most of these. If it does not improve, an ultrasound or "
     "MRI can look at the tendons.",
     "my sore arm joint from heaving ropes at work, what did you tell me"),
    ("Pappa left the stove on twice this month and he told me the same story about the 1979 "
     "winter fishery three times in one phone call. he lives alone. my brother says it's "
     "just old age and I'm overreacting. what should I do",
     "You are not overreacting: repeating the same story within one conversation and "
     "leaving the stove on twice are the kind of changes that are worth getting looked at. "
     "They can be normal ageing, but they can also be early dementia, or something "
     "treatable such as a low B12 or thyroid level, an infection, medicines that interact, "
     "depression, poor hearing or not eating and drinking enough, so a proper check is "
     "useful either way. Book a double appointment with his GP and go with him if he "
     "agrees; write down beforehand the concrete examples and when they started, since he "
     "may come across well in a short visit. The GP can do blood tests and a memory test "
     "and refer him to a memory clinic if needed. Talk to him about it gently, as a health "
     "check rather than an accusation. For safety right now, the stove matters most: a "
     "stove guard that switches it off automatically is cheap, and the municipality's "
     "home services can often help with this and with a safety alarm. Check that smoke "
     "alarms work. Ask the municipality about an assessment of what help he might need at "
     "home, and about the dementia coordinator if it comes to that. Try to agree with your "
     "brother on sharing the calls and visits, perhaps by writing down what you each "
     "notice, because it is easier to decide things together when you see the same "
     "picture.",
     "my father getting forgetful and the cooker thing, what was your advice"),
    ("it's the dark time, the sun hasn't come up since end of November. I work shifts, I "
     "sleep ten hours and I'm still tired, no energy for training, I just want to eat bread "
     "and lie on the sofa. is this normal up here, what helps",
     "A dip in energy and a pull towards carbohydrates and sleep during the polar night is "
     "very common in the north, and shift work makes it harder because your body clock gets "
     "fewer cues. There are a few things that help. Get as much light as you can in the "
     "morning: go outside during the bright part of the day around noon even though the "
     "sun is below the horizon, and consider a light therapy lamp of 10,000 lux for 20 to "
     "30 minutes soon after you wake up, which has good evidence for winter tiredness and "
     "low mood. Keep your wake-up time as steady as shifts allow, and keep the bedroom dark "
     "and cool when you sleep. Take vitamin D or cod liver oil every day through the winter, "
     "since you cannot make it from the sun now. Keep moving even when motivation is low: a "
     "short walk or an easy session still helps energy and mood more than skipping it, so "
     "lower the bar rather than stopping. Eat regular meals with protein and vegetables so "
     "you are not living on bread. Be kind to yourself about it; it lifts as the light "
     "returns. But if you feel low or hopeless most days, lose interest in things you "
     "normally enjoy, or it affects your work or family, or if you have thoughts of harming "
     "yourself, talk to your GP, because winter depression is real and treatable, and a "
     "blood test can check for things like low iron or thyroid too.",
     "those weeks with no daylight when i was exhausted all the time, what did you suggest"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("the company sent us a new deckhand, {p}, he {x}, seems to know what he's doing with "
     "the lines",
     "{p} jumped into the harbour at Ørnes to grab a little girl's dog that fell off the "
     "ramp, came up soaked holding a wet poodle, the whole quay clapped",
     "the new lad on deck who {x}, what did he do at the quay",
     ["Kjetil Mortensen", "Ørjan Strand", "Håvard Nygaard", "Stian Solbakken",
      "Vegard Ellingsen"],
     ["used to cook on a trawler", "came up from Stavanger", "is only nineteen",
      "has a halibut tattooed on his arm", "played drums in a punk band"]),
    ("there's a new woman in the orienteering club, {p}, she {x}, very fast on the hills",
     "{p} found me sitting on a rock with a twisted ankle in the night race and walked me "
     "two kilometres back to the finish, she gave up her own time for it",
     "the runner from the club who {x}, how did she help me",
     ["Marte Haugland", "Synnøve Berg", "Kari Eide", "Tuva Rasmussen", "Hilde Fagerli"],
     ["is a midwife at the hospital", "moved up from Trondheim", "is over sixty",
      "runs with her border collie", "used to ski for the junior national team"]),
    ("someone finally bought the red house below ours, {p}, he {x}, seems friendly enough",
     "{p} came up with his tractor and cleared our whole driveway after the big snowfall "
     "before I was even awake, and he wouldn't take a krone for it",
     "the neighbour down the hill who {x}, what did he do for us",
     ["Geir Arntzen", "Rolf Isaksen", "Trond Willumsen", "Per Kristian Hoel", "Bjørnar Lund"],
     ["works at the airport", "keeps sheep out on the island", "is a retired priest",
      "builds guitars in his garage", "grew up on Røst"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("storms", ["orange weather warning, all crossings cancelled, sixty trucks queued at the "
                "terminal and the drivers were angry at me like I make the wind",
                "a wave came over the car deck today and soaked a Tesla, the owner wanted the "
                "company to pay for a car wash",
                "the gale took our trampoline over the fence into the neighbour's garden in "
                "the night",
                "power was gone for 14 hours after the storm, we cooked pølser on the "
                "woodstove and Sondre said it was the best day ever"],
     "all that rough weather lately, what have i told you about it"),
    ("summervisitors", ["holiday season started, campervans everywhere, one tried to drive "
                        "onto the ferry with his awning still out",
                        "a man from Italy asked me if the midnight sun switches off at "
                        "midnight, I said only on Sundays",
                        "people stand in front of the ramp taking selfies while I'm loading "
                        "cars, I shout all day",
                        "found a wallet with 2,000 euros in the lounge, the Dutch owner gave "
                        "me a box of chocolates"],
     "the busy months at work with all the outsiders, remind me what went on"),
    ("confirmation", ["Ella's confirmation is in May, we've booked the community hall and I "
                      "have to feed 45 people",
                      "bought the silver for Ella's bunad, 14,000 kroner, Eirik nearly fainted",
                      "Pappa is writing a speech for Ella and practises it on me over the "
                      "phone every night",
                      "baked eight kransekake rings on Sunday and three of them broke, uff"],
     "everything about my girls big church day in spring, what all did i mention"),
]

CHAT = ["what is 25 knots in km/h",
        "english word for fortøyningstau",
        "write a short message to my boss asking to swap a shift with a colleague",
        "how long do you boil a king crab",
        "recipe for creamy fish soup for six people",
        "is it 'fewer people' or 'less people'",
        "how do I get candle wax out of a wool sweater",
        "funny name for a group chat for a running club",
        "what time does the sun rise in Bodø on 10 January",
        "explain the offside rule simply for a 9 year old",
        "ok takk skal du ha",
        "one more small thing"]
REPLIES = ["Klart, here you go:",
           "Yes, the short answer:",
           "Here's a simple way to do it:",
           "Right, try this one:",
           "Good question, here:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["On my break in the mess, the coffee tastes of diesel as always.",
          "Waiting for the cars to load, campervans all the way to the horizon.",
          "Kids asleep at last.",
          "Had to dig the car out of the snow again this morning.",
          "Sitting in the car at the quay with the heater on full."]
