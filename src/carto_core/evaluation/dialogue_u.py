"""Variant `u` of the dialogue set: a nineteenth check set, written apart from `a` to `t` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Thunder Bay man's, Dale Kowalchuk, 44, from the Current
River end of town in northwestern Ontario, a power line technician for the local hydro utility
who curls in a Tuesday men's league, is building a cedar-strip canoe in the garage, ice fishes
and smokes meat and fish out back, married to Renée, a French immersion teacher from Sudbury,
with a daughter Maddie in grade 12 and a son Theo, 10, in minor hockey: the town his crew is
sent to on storm restoration, the bonspiel his rink is in, how far along the canoe is, what is
wrong with his pickup, where Maddie wants to go to university, where the ice shack sits, the
job being done on the house, the team Theo plays for and what is on the smoker; questions are
asked as people ask an assistant to remember ("the spot where my boy got his first pickerel,
what lake", "that skip who still throws with an old corn broom, what happened to him after he
beat us"), some lowercase, some without a question mark or apostrophes, some as a few words
("pickup issue latest??"), a few typos, some in northern Ontario English, from the specific to
the vague, and mostly share no content word with the message that answers them. Sessions run
from one exchange to seven over 355 days; small talk may sit before and after a fact in the
same message; rows are one utterance each, among 4,000 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("stormcallout", ["Sault Ste. Marie", "Kapuskasing", "Manitouwadge", "Red Lake",
                           "Sioux Lookout", "Wawa"],
          ["crew's getting sent to {v} for restoration, the ice took half their lines down. "
           "packing the duffel tonight, back in maybe ten days",
           "day 4 in {v}, the motel has one working washer for thirty linemen. I'm on my last "
           "clean pair of socks",
           "the folks in {v} walked homemade butter tarts right out to us at the bucket trucks, "
           "best people on earth"],
          ["where did they ship us off to when freezing rain wrecked somebody elses power",
           "which town was the motel with the one washing machine for the whole crew",
           "the place where the locals brought baking out to us on the job, where was that?"],
          ["Dispatch called at 2am, a transformer let go on the north side, back in bed by 6.",
           "New safety manager wants a tailboard talk before every job, even the coffee run.",
           "Overtime this month is gonna cover Maddie's braces at least."],
          ["they're pulling us out of {old} today, power's mostly back on. not home yet tho, "
           "they redirected the trucks to {v}",
           "done in {old}, the convoy heads straight over to {v} in the morning. Renée is not "
           "thrilled"],
          ["where have they got me now on the out of town job",
           "which town am i working in currently for the restoration"]),
    Topic("bonspiel", ["the Cashspiel", "the Kakabeka Funspiel", "the Nipigon Carnival Spiel",
                       "the Legion Masters", "the Dryden Elks Bonspiel",
                       "the Geraldton Gold Rush Spiel"],
          ["our rink's entered in {v} next weekend, Gord is already stretching in the kitchen "
           "like it's the Olympics",
           "got knocked out of {v} in the B event, Gord was a foot heavy on his last draw and "
           "hasn't said a word since",
           "we won {v}!!! first time in eleven years. the prize was a meat raffle basket and a "
           "trophy that's mostly duct tape"],
          ["which tournament did we sign up for that gord is treating like the winter games",
           "where did we go out on the consolation side because of gords last rock",
           "what did our team finally take first at, the one where we won a pile of sausage and "
           "bacon"],
          ["Curling club wants volunteers Saturday to help pebble the sheets.",
           "New brush head, the old one was shedding worse than the dog.",
           "League night went to an extra end again, didn't get home till midnight."],
          ["we pulled out of {old}, Gord's back is shot. signed up for {v} instead with his "
           "brother-in-law as our spare",
           "{old} got cancelled cause the arena's ice plant quit, so we entered {v}"],
          ["which bonspiel are we in now",
           "curling tourney we're down for next?"]),
    Topic("canoestage", ["the strongback and forms", "stripping the hull", "fairing and sanding",
                         "glassing the outside", "the gunwales and thwarts", "the final varnish"],
          ["spent all sunday in the garage on {v}, cedar dust everywhere, Renée made me strip "
           "down on the back porch before I came in",
           "stuck on {v} for the canoe, I've watched the same youtube guy three times now",
           "Theo helped me with {v} on the canoe last night, mostly he ate chips and handed me "
           "clamps"],
          ["what was i doing on the boat build when the sawdust got so bad my wife made me "
           "change outside",
           "which step of the canoe had me rewatching the same video over and over",
           "what part did the little guy help with, the night he mostly snacked"],
          ["Ordered another box of clamps, you can never have enough apparently.",
           "Garage heater died so the epoxy won't cure, way too cold out there.",
           "Renée asked if the canoe will be done before Theo finishes university."],
          ["finally finished {old}! on to {v} now, feels like actual progress",
           "{old} is behind me thank god, next up on the canoe is {v}"],
          ["where's the canoe build at these days",
           "how far along is my boat now"]),
    Topic("pickuptrouble", ["a seized brake caliper", "a cracked exhaust manifold",
                            "a dead block heater", "a rusted-out fuel line",
                            "a slipping transmission", "a busted wheel bearing"],
          ["truck's got {v}, the guy at the shop sucked air through his teeth and said 'oooh'",
           "found out it's {v}, that's why the F-150's been making that racket since november",
           "{v} on the truck, $900 quote. there goes the money for my new curling shoes"],
          ["what did the mechanic make the scary face about on my pickup",
           "whats been behind the noise from my ford all winter",
           "the repair that ate my slider shoe fund, what was wrong with it"],
          ["Put the winter tires on the truck finally, only three weeks late.",
           "Truck wouldn't turn over at minus 40 this morning, had to get a boost off the "
           "neighbour.",
           "Somebody dinged my tailgate in the Intercity mall lot."],
          ["got {old} fixed on the truck and now it's {v}. this thing is a money pit",
           "no more {old} at least, but the shop says there's {v} now"],
          ["whats wrong with the truck now",
           "pickup issue latest??"]),
    Topic("maddieuni", ["Lakehead", "Waterloo", "McGill", "the University of Manitoba",
                        "Queen's", "UBC"],
          ["Maddie's dead set on {v} now, she's already wearing the hoodie and she hasn't even "
           "applied",
           "toured {v} with Maddie this weekend, she cried in the engineering building. good "
           "crying I think",
           "Renée's worried about the cost if Maddie goes to {v}, I'm worried about who'll "
           "shovel the driveway"],
          ["where does my daughter want to go so bad she bought the sweatshirt before sending "
           "in the forms",
           "which campus did we visit where my girl got all emotional",
           "the school my wife is fretting we cant afford for maddie, which one"],
          ["Maddie's got a calculus test Thursday, whole house is on silent.",
           "Guidance counsellor meeting got moved again.",
           "Maddie wants a laptop for grad, apparently her chromebook is 'embarrassing'."],
          ["Maddie's gone off {old}, says the program isn't what she wants. it's {v} now "
           "apparently",
           "plot twist, Maddie's not doing {old}, she accepted her offer from {v}"],
          ["where's maddie going for university now",
           "maddie school pick, current?"]),
    Topic("iceshack", ["Lac des Mille Lacs", "Black Bay", "Shebandowan Lake", "Dog Lake",
                       "Whitefish Lake", "Nipigon Bay"],
          ["hauled the shack out onto {v} for the season, took me and Gord four hours and one "
           "stuck skidoo",
           "pulled a nine pound pike out of {v} today through a ten inch hole, barely got him up",
           "Theo caught his first walleye on {v}, kid screamed so loud he scared off every fish "
           "for a mile"],
          ["where did we drag the fishing hut this winter, the day the sled got bogged down",
           "where'd i land that big northern that barely fit up the hole",
           "the spot where my boy got his first pickerel, what lake"],
          ["Bought a new auger blade, the old one was like drilling with a spoon.",
           "Minnows cost how much now? Inflation hit the bait shop too.",
           "Ice report says 14 inches out past the point, still not driving on it."],
          ["{old} is fished out for us this year, moved the shack over to {v}",
           "gave up on {old}, way too much slush. set up on {v} now"],
          ["where's the ice shack sitting now",
           "which lake am i fishing these days"]),
    Topic("housereno", ["the basement bathroom", "a new metal roof", "the back deck",
                        "spray foam in the attic", "a heat pump install", "a new septic bed"],
          ["we're finally doing {v}, got three quotes and the cheapest guy is Gord's cousin so "
           "of course",
           "{v} is running three weeks over and the contractor keeps saying 'supply chain' "
           "like it's a magic spell",
           "Renée and I argued about {v} through a whole supper, she won, it's happening in the "
           "spring"],
          ["what are we having done to the house that gords cousin underbid everyone on",
           "which reno is dragging on with the contractor blaming shortages",
           "what house job did me and the wife fight over at dinner"],
          ["Home Depot run number four this week, the cashier knows my name.",
           "Renée's making a Pinterest board, I'm scared.",
           "City reassessed the house, property tax is going up again."],
          ["{old} is finally done, so naturally now we're starting {v}",
           "we shelved {old} cause money, doing {v} instead since the rebate covers some of it"],
          ["what project are we doing on the house now",
           "current home reno?"]),
    Topic("theoteam", ["the Westfort Wolves", "the Current River Comets", "the Northwood Knights",
                       "the Port Arthur Bearcats", "the Vickers Park Ravens",
                       "the Mapleward Mustangs"],
          ["Theo made {v} at tryouts!! he did a victory lap of the kitchen in his socks",
           "Theo's coach on {v} benched him a whole period for chirping the ref. he's TEN",
           "{v} had a 6am practice at Grandview arena and I was the only dad without a coffee"],
          ["which team did my son get picked for when he ran laps around the house",
           "where did theo get sat out for mouthing off at the official",
           "the squad with the crack of dawn ice time, who were they"],
          ["Hockey tape, mouthguard, new laces, $60 at Canadian Tire for 'nothing'.",
           "Theo wants to be a goalie now, over my dead wallet.",
           "Tournament in Winnipeg next month, four kids to a hotel room."],
          ["Theo got moved up from {old}, he's playing for {v} now",
           "no more {old} for Theo, the coach quit and the team folded. he's with {v} now"],
          ["what team is theo on now",
           "theo hockey team atm"]),
    Topic("smokerbatch", ["lake trout", "Lake Superior herring", "a pork shoulder",
                          "moose sausage", "a beef brisket", "a whole turkey"],
          ["got {v} in the smoker since 5am, the whole street smells amazing, neighbours keep "
           "wandering over to the fence",
           "tried {v} on the smoker and it came out like a boot. too hot for too long",
           "Renée's dad tried {v} off my smoker and said it beat his, and the man's been smoking "
           "stuff since 1970"],
          ["what was i cooking low and slow that had people from up the street showing up",
           "what did i wreck on the smoker, dry as leather",
           "which thing did my father in law say i did better than him"],
          ["Bought a forty pound bag of maple pellets, the guy at Costco gave me a look.",
           "Smoker thermometer reads 20 degrees off, explains a lot.",
           "Renée says the smoker is a midlife crisis with a chimney."],
          ["done with {old} for a while, the family's sick of it. doing {v} this weekend",
           "{old} went so good I'm moving on, next on the smoker is {v}"],
          ["whats my latest smoker project",
           "what am i smoking this week lol"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("curling question. my slide keeps drifting left out of the hack and my rocks are all over "
     "the place, skip says I'm 'falling off the broom'. what am I doing wrong",
     "Drifting off line almost always starts before the slide, in how you set up and push. "
     "Line up in the hack square to the skip's broom, not to the sheet: hips and shoulders "
     "facing the target, hack foot pointing at it. Push straight back along that line with the "
     "hack foot and let the sliding foot come under the middle of your chest, so your weight "
     "sits over it; if the sliding foot ends up off to the side, your body falls the other way "
     "and takes the rock with it. Keep the rock out in front on the line to the broom and don't "
     "steer it with your arm. Your brush or stabilizer should be light on the ice for balance, "
     "not something you lean on: leaning on it pulls you toward that side. Keep your eyes on "
     "the skip's broom the whole way, not on the rock or the hog line. Set the handle at about "
     "ten or two o'clock, turn it smoothly toward twelve as you let go, and follow through with "
     "your hand pointing at the broom, like a handshake. A good drill is sliding without a rock "
     "down the centre line and checking whether you stay on it, and having a teammate film you "
     "from behind the hack.",
     "what was your fix for my delivery going crooked right from the foothold"),
    ("when is it actually safe to drive the truck out on the lake? guys at work say 8 inches, "
     "my father in law says he did it on 6 in 1982. I'd have the kids with me",
     "There's no single safe number, and your father-in-law was lucky. Commonly used Canadian "
     "guidance, for new clear blue ice: about 15 cm (6 in) to walk on alone, 20 cm (8 in) for a "
     "group, 25 cm (10 in) for a snowmobile, roughly 20 to 30 cm (8 to 12 in) for a small car "
     "and 30 to 38 cm (12 to 15 in) or more for a full-size pickup. Those figures are for clear "
     "ice; white or snowy ice is roughly half as strong, so you'd want about double. Thickness "
     "also changes across a lake: drill test holes as you go, and keep away from pressure "
     "ridges, inlets and outlets, river mouths, springs, docks and dark or slushy patches. "
     "Ice weakens in thaws and late in the season even when it's still thick. Check the local "
     "ice report and ask at the bait shop. On the ice, drive slowly, since a fast truck pushes "
     "a wave under the ice, keep the windows down and the doors unlocked, and don't park heavy "
     "loads close together for long; if water starts coming up through a hole, move. Have ice "
     "picks round everyone's neck, tell someone where you're going, and with the kids along "
     "it's reasonable to wait until the bigger numbers are well exceeded.",
     "the numbers for when its ok to take a vehicle out fishing on a frozen lake, what were they"),
    ("Maddie's in grade 12 and I'm lost. how does applying to university even work in Ontario, "
     "when are the deadlines, do grade 11 marks count? I went straight into my trade, no clue",
     "For an Ontario high school student it's mostly one central system. She applies to "
     "Ontario universities through OUAC, the Ontario Universities' Application Centre, on the "
     "application for current Ontario high school students; the guidance office gives her the "
     "login details. The base fee covers three choices and each extra one costs more. The "
     "date to aim for is mid-January, the 'equal consideration' date: programs may still take "
     "applications after it, but popular ones fill. Admission is usually based on her top six "
     "Grade 12 U or M courses, including each program's prerequisites, such as English, "
     "Advanced Functions, Calculus or the sciences for engineering. Grade 11 finals and Grade "
     "12 midterm marks are what early offers are often made on, so Grade 11 does matter. Some "
     "programs, like engineering, business and some health programs, want a supplementary "
     "application, a profile or a video interview with their own deadlines, so check each "
     "program's page. Universities outside Ontario take applications directly on their own "
     "sites with their own dates. Offers come through the spring, and Ontario universities "
     "share a common response date of June 1. Many entrance scholarships are automatic from her "
     "marks; others need a separate application, and OSAP opens for the next year in spring.",
     "how does the whole uni application thing work for the girl, deadlines and all, what did "
     "you say"),
    ("Theo's hockey bag smells like something crawled in there and died. the whole truck reeks "
     "after practice. how do other parents deal with this",
     "The smell is bacteria growing in sweat that never gets the chance to dry, so drying is "
     "most of the fix. Empty the bag as soon as you're home, every time, and never leave gear "
     "zipped up in the bag or sitting in a cold truck. Hang everything on a gear tree or a "
     "clothes drying rack in a warm room with a fan or a dehumidifier running. Wash the base "
     "layer, socks and jock or jill shorts after every skate. The pads, shin guards, elbows, "
     "shoulder pads and pants, can go in a front-loading washer every few weeks on a cold, "
     "gentle cycle with a sports detergent, velcro fastened; let them air dry, because a dryer "
     "or a heater ruins the foam. Gloves are usually the worst: dry them on a boot dryer with "
     "no heat or stuffed with newspaper, and mist them with half white vinegar, half water or "
     "an enzyme spray. Wipe the helmet inside with mild soap. Pull the insoles out of the "
     "skates to dry and wipe the blades so they don't rust. Wash the bag itself now and then; "
     "a vented or mesh bag helps. Some sports stores and rinks also have ozone sanitizing "
     "machines that get rid of the smell for a while.",
     "the boys sports equipment stinking out the truck, what was the routine you gave me"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("new apprentice on the crew, {p}, he {x}. keen as anything, goes up a pole like a "
     "squirrel",
     "{p} spotted an osprey nest on top of the pole we were meant to change out, whole job's "
     "on hold till the ministry sends a biologist",
     "the apprentice who {x}, what did he find up top that stopped the job",
     ["Brayden", "Colton", "Jory", "Dakota", "Rylan"],
     ["used to drive a zamboni", "grew up on a trapline up past Pickle Lake",
      "played junior A in Fort Frances", "was a cook at a fly-in fishing lodge",
      "did six years in the reserves"]),
    ("we played a rink from the other club tonight, their skip {p} {x}. nicest guy, brutal "
     "shooter",
     "{p} made a double takeout with his last rock to beat us, then slipped walking off and "
     "cracked his wrist. whole team ended up in emerg with him",
     "that skip who {x}, what happened to him after he beat us",
     ["Arvo", "Teuvo", "Lorne", "Merv", "Walt"],
     ["runs the bait shop on Dawson Road", "is a retired grain elevator foreman",
      "wears a Habs jersey over his sweater", "still throws with an old corn broom",
      "is 81 and still slides out of the hack"]),
    ("new people moved in across the street, the husband {p} {x}. seems alright, waves a lot",
     "woke up to {p} clearing our whole driveway with his snowblower at 5am after the big dump, "
     "left a jar of pickled eggs on the step too",
     "the guy across the road who {x}, what did he do for us that morning after the snowfall",
     ["Dwayne", "Roch", "Perry", "Ziggy", "Vern"],
     ["drives a plow for the city", "keeps an inflatable moose on the lawn all year",
      "has a team of sled dogs out back", "is a retired OPP sergeant",
      "moved up from Windsor for a job at the paper mill"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("linework", ["sixteen hours straight after the freezing rain, couldn't feel my fingers "
                  "through two pairs of gloves",
                  "a squirrel got into the substation and knocked out the whole east end "
                  "again, little guy didn't make it",
                  "lady brought a thermos of coffee out to us at 3am while we were up in the "
                  "buckets, restored my faith in people",
                  "some guy screamed at us for taking too long when we'd been out in the "
                  "pouring rain since noon"],
     "how has work been for me lately, everything i told you"),
    ("thekids", ["Maddie passed her G2 road test first try, I've aged ten years teaching her",
                 "Theo lost his first adult tooth in a granola bar, tooth fairy had no toonies "
                 "so he got a five",
                 "caught Maddie teaching Theo her TikTok dance in the living room, they were "
                 "actually getting along",
                 "Theo's teacher sent a note home, he's traded his lunch for a Pokémon card "
                 "three days running"],
     "what have my two been up to, catch me up"),
    ("camp", ["opened up camp for the May two-four, mice had moved into the couch cushions",
              "Renée swam out to the raft at camp in June and came back blue, says it's "
              "'refreshing'",
              "loons calling on the lake at camp every night this week, the kids even put their "
              "phones down",
              "closed up camp for the winter, pulled the dock and drained the lines. sad every "
              "year"],
     "everything at the cottage this year, how'd it all go"),
]

CHAT = ["how long do you boil frozen perogies",
        "is it toque or tuque, settle an argument",
        "whats 375 fahrenheit in celsius",
        "good substitute for buttermilk in pancakes?",
        "how do you get spruce gum off your hands",
        "hey quick one for ya",
        "thanks bud, appreciate it",
        "how many litres in a jug of milk roughly",
        "good name for a fishing shack? the kids want to paint one on",
        "is it actually bad to idle the truck to warm it up",
        "whats the icing rule in hockey again, explain it like im ten",
        "how do you say happy birthday in Finnish, for a buddy at work"]
REPLIES = ["Sure, here's the short of it.",
           "Good one, quick rundown:",
           "Happy to help, roughly this:",
           "There are a couple of ways, but mainly:",
           "Easy enough, here you go."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Sitting in the truck waiting on dispatch.", "Double double in hand.",
          "Kids are finally asleep.", "Renée's marking at the kitchen table.",
          "Minus 34 out this morning."]
