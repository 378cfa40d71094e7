"""Variant `ae` of the dialogue set: a twenty-ninth check set, written apart from `a` to `ad` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Japanese woman's, Michiko Harada, 56, from Onomichi in
Hiroshima Prefecture on the Inland Sea, a welder at a shipyard across the strait who practises
kyūdō (Japanese archery) at the municipal dōjō, rides the island bridges with a cycling group,
sings enka in a neighbourhood karaoke contest and keeps a small plot on the hillside above the
town; her husband Takeshi drives a taxi on nights, their son Kenta, 30, is a salaryman whose
company moves him around the country, their daughter Aoi, 26, has opened a hair salon in
Fukuoka, and a ginger stray from the slope has moved in with them: the ship she is welding, the
archery grade she is going for, the long ride she has entered, her contest song, the cab
Takeshi drives, where Kenta is posted, where Aoi's salon is, what the cat is called and what is
growing on her plot; questions are asked as people ask an assistant to remember ("the young
welder who still wears his school jersey, what did he do for me", "which of our animals brought
something alive up from the port"), some lowercase, some without a question mark or
apostrophes, some as a few words ("next archery exam?"), a few typos ("sons job location
nowdays", "what i grow now in the gardin"), some in a Japanese speaker's English ("the change
of rain season weeks, what all did i say"), from the specific to the vague, and mostly share
no content word with the message that answers them. Sessions run from one exchange to eight
over 395 days; small talk may sit before and after a fact in the same message; rows are one
utterance each, among 5,000 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("hullblock", ["a bulk carrier for a Greek owner", "a wood-chip carrier",
                        "a chemical tanker for Singapore", "a cement carrier for the Inland Sea",
                        "a coast guard patrol boat", "an LNG-fuelled tugboat"],
          ["the yard moved my team to {v}, double-bottom sections, I spend the whole day on my "
           "knees inside a steel box",
           "the ultrasound inspector passed every seam I did on {v}, not one repair, the "
           "foreman bought me a canned coffee from the machine",
           "small fire in the paint shop next to {v} today, everyone evacuated, we stood in "
           "the drizzle for an hour in our overalls"],
          ["which vessel were we put on where i kneel in a metal crate all shift",
           "the ship where all my joins got through testing with zero mistakes, which was it",
           "the hull near where the blaze broke out?"],
          ["New helmet with the auto-darkening glass, 38,000 yen, worth every yen.",
           "Summer in the dock, 40 degrees inside the block, I drink three litres of barley "
           "tea a shift.",
           "Safety meeting at 7:45 every morning, the same speech for twelve years."],
          ["{old} was launched on Friday, sake on the bow and everything, now I'm welding {v}",
           "they pulled me off {old} because the steel plates came late, I'm on {v} for now"],
          ["what am i welding at the yard now",
           "current ship at work?"]),
    Topic("kyudograde", ["first dan", "second dan", "third dan", "fourth dan", "fifth dan",
                         "the renshi title"],
          ["I'm entered for the {v} exam in Hiroshima in November, two arrows and a written "
           "essay, practising every evening at the dōjō",
           "passed {v} on my third try, Okamoto-sensei just nodded, from her that's like a hug",
           "failed {v} again, my second arrow hit the sand under the target, I cried in the "
           "car park"],
          ["what grading am i preparing for with the two shots and the composition",
           "what did i finally get after three attempts where my teacher barely reacted",
           "the level where my last shot went low and i sobbed afterwards"],
          ["New glove for archery, deerskin, it needs months to break in.",
           "The dōjō roof leaks, we shoot with buckets on the floor.",
           "Okamoto-sensei says my release looks like someone opening a fridge."],
          ["I have {old} since the spring, so the next exam I'm aiming at is {v}",
           "{old} is done at last, sensei wants me to sit {v} next"],
          ["which kyudo grade am i going for now",
           "next archery exam?"]),
    Topic("longride", ["the Shimanami Kaidō there and back", "the Biwaichi loop round Lake Biwa",
                       "the climb up Mount Aso", "the Tobishima Kaidō islands",
                       "the Awaji island loop", "the Shimanto River ride"],
          ["I signed up to ride {v} in October, Takeshi thinks I'm crazy, I train on the slopes "
           "behind the temple after work",
           "did {v} on Sunday with the cycling ladies, headwind the whole way, my legs were "
           "jelly on the stairs at the yard on Monday",
           "got a flat tyre on {v} and a grandfather from a farm fixed it with tape and a pump "
           "from 1970"],
          ["what ride did i enter for the autumn that my husband says is nuts",
           "which route did my group and I do into the wind when my thighs gave up",
           "where did the old farmer patch my puncture"],
          ["Bought padded shorts, I look like a sausage but my backside thanks me.",
           "Typhoon coming, the bike stays inside for a week.",
           "My cycling group is called the Tuesday Onigiri Club, don't ask."],
          ["the organisers cancelled {old} because of landslides, so I'm doing {v}",
           "finished {old} in nine hours, now the next ride is {v}"],
          ["what big bike ride am i doing next",
           "my cycling goal nowadays"]),
    Topic("contestenka", ["Amagi-goe", "Tsugaru Kaikyō Fuyugeshiki", "Ringo Oiwake",
                          "Kita no Yado kara", "Yosaku", "Naniwa Bushi da yo Jinsei wa"],
          ["for the neighbourhood karaoke contest I'm singing {v}, the mama-san at the snack "
           "bar is coaching me on the vibrato",
           "sang {v} at Kenta's company party and his boss asked for an encore, Kenta was red "
           "as a tomato",
           "my voice cracked on the high note of {v} in front of the whole residents' "
           "association, I want to disappear"],
          ["what am i performing in the local competition, the one the hostess from the little "
           "pub is helping with",
           "what did i do at my sons work event that his manager wanted twice",
           "the tune where i squeaked at the top in front of everyone"],
          ["The karaoke box on the shōtengai closed, where do we go now.",
           "I practise in the car with the windows up so nobody hears.",
           "Bought a cheap microphone with echo for the living room, Takeshi hides in the bath."],
          ["dropped {old}, the key is too high for me now, I'm singing {v} in the contest",
           "the mama-san says {old} is too sad for a contest, so I switched to {v}"],
          ["which enka song am i doing now",
           "karaoke song these days?"]),
    Topic("takeshicab", ["a black Toyota Crown Comfort", "a dark blue JPN Taxi hybrid",
                         "a white Nissan Cedric", "a yellow Toyota Prius",
                         "a silver Crown Majesta", "a maroon Nissan NV200"],
          ["the company gave Takeshi {v} for his night shifts, he washes it more often than he "
           "washes himself",
           "a drunk salaryman was sick all over the back seat of {v} Takeshi drives, he lost "
           "the whole Saturday shift cleaning",
           "a delivery truck hit {v} Takeshi drives at the station roundabout, he's fine, the "
           "car isn't"],
          ["what car did the cab firm hand my husband that he polishes all the time",
           "which vehicle did the passenger make a mess in",
           "what was my husband driving when the lorry bumped him"],
          ["Takeshi works nights again, we only see each other at breakfast.",
           "Takeshi's back is bad from sitting twelve hours.",
           "Tourists in Takeshi's cab keep asking for the film locations."],
          ["they retired {old}, Takeshi drives {v} now",
           "{old} failed the inspection, so the company put Takeshi in {v}"],
          ["what does takeshi drive now",
           "my husbands cab at the moment"]),
    Topic("kentaposting", ["the Sendai branch", "the head office in Osaka", "a factory in Nagoya",
                           "the Sapporo sales office", "a subsidiary in Bangkok",
                           "the Naha office in Okinawa"],
          ["Kenta's company is transferring him to {v} in April, he called on Sunday, he "
           "sounded happy, I cried after I hung up",
           "Kenta's apartment near {v} is so small he can touch both walls, I sent him a rice "
           "cooker anyway",
           "Kenta got a prize for best new project at {v}, his photo is in the company "
           "newsletter, I printed it for the fridge"],
          ["where is my son being sent for his job from the spring",
           "where's the place with the boy's tiny flat that i shipped the kitchen thing to",
           "where was kenta working when he won that award"],
          ["Kenta never phones unless he needs something, typical son.",
           "Kenta has a girlfriend, he won't tell me anything about her.",
           "Sent Kenta a box of Onomichi ramen and lemons again."],
          ["Kenta's company moved him again, away from {old}, he's at {v} now",
           "Kenta asked to leave {old}, too much overtime, they sent him to {v}"],
          ["where is kenta working now",
           "sons job location nowdays"]),
    Topic("aoisalon", ["a corner shop in Tenjin", "above a bakery in Hakata",
                       "a side street in Ōhori", "the ground floor of a block in Yakuin",
                       "a container shop in Itoshima", "the covered arcade in Kokura"],
          ["Aoi signed the lease for her own hair salon, {v}, two chairs and a sink, she's 26 "
           "and braver than I ever was",
           "Aoi's salon, {v}, got a bad review from a man who wanted a perm, she didn't sleep "
           "for two days",
           "water leaked from upstairs into Aoi's salon, {v}, and ruined the new chairs"],
          ["where did my daughter rent a spot to start doing cuts by herself",
           "where was it that aoi got that nasty online comment",
           "the shop where the ceiling dripped on her new seats, where is it"],
          ["Aoi cut my hair when she came home, first time in ten years I like it.",
           "Aoi works until ten every night, I worry about her eating.",
           "Aoi wants me to try a colour, at my age."],
          ["Aoi gave up {old}, the rent doubled, she moved the salon to {v}",
           "Aoi closed {old} and reopened in {v}, more people walking past she says"],
          ["where is aois salon now",
           "daughter's shop location?"]),
    Topic("slopecat", ["Kinako", "Daikichi", "Ponzu", "Hanpen", "Tamago", "Chikuwa"],
          ["we took in the ginger stray from the slope, I named him {v}, Takeshi pretends he "
           "doesn't like him but feeds him ham",
           "{v} brought a live crab up from the harbour and let it go in the kitchen, it hid "
           "under the fridge for a day",
           "the vet said {v} needs three teeth out, 40,000 yen, for a cat I found in a box"],
          ["what did i call the orange animal we adopted from the hill",
           "which of our animals brought something alive up from the port",
           "the one with the expensive dental bill, whats his name"],
          ["Cat hair all over my work overalls again, the guys laugh.",
           "The tourists on the cat alley feed them too much.",
           "Bought a heated bed for the cat, Takeshi sleeps on it."],
          ["we lost {old} in the winter, he was old, now we have a kitten called {v}",
           "{old} went to live with the neighbour, traitor, our cat now is {v}"],
          ["whats our cat called now",
           "name of the current cat"]),
    Topic("hillplot", ["hassaku oranges", "Setoda lemons", "sweet potatoes", "shishito peppers",
                       "white daikon", "green onions"],
          ["this year on my little plot up the hill I'm putting in {v}, the old man on the "
           "next plot says it won't work, we'll see",
           "wild boar dug up all my {v} in one night, the whole row, I could scream",
           "harvested the {v} and gave bags to everyone at the yard, the guys call me Farmer "
           "Harada now"],
          ["what am i growing on my patch on the slope that my grumpy neighbour doubts",
           "what crop did the pig destroy",
           "what did i hand out to my coworkers"],
          ["Carried twenty litres of water up the steps to the plot, my knees.",
           "The plot rent went up to 3,000 yen a month.",
           "Put a net over the plot because of the crows."],
          ["no more {old} on my plot, too much work, I'm growing {v} this year",
           "the soil was tired of {old}, I switched the plot to {v}"],
          ["what's on my plot these days",
           "what i grow now in the gardin"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("I've had a cough for two months now. I weld inside the hull blocks all day and the "
     "extraction fan doesn't reach the corners, my chest feels tight in the mornings and I "
     "bring up grey stuff. I don't smoke. is it from the fumes, what should I do",
     "A cough that has lasted two months, with a tight chest in the mornings and grey "
     "phlegm, in someone who welds in enclosed spaces, should be taken seriously and "
     "checked, even though you do not smoke. Welding fume is a mix of very fine metal "
     "particles and gases, and in a closed block without good extraction it can irritate "
     "and inflame the airways, cause a bronchitis-like cough, bring on asthma that is "
     "caused by work, and over years raise the risk of longer-term lung disease. The "
     "first step is a doctor: the company's occupational physician and your own GP. Tell "
     "them exactly what you weld (mild steel, stainless, coated plates), for how many "
     "hours, and in what space. They will listen to your chest, and should arrange a "
     "breathing test (spirometry) and probably a chest X-ray; a useful clue is whether "
     "the cough and tightness get better on days off and holidays. See someone urgently if "
     "you cough up blood, get breathless at rest, have a fever or lose weight without "
     "trying. At work, the fume must be removed at the source: ask for a local extraction "
     "arm that can be moved close to the arc, or a fume-extracting torch, and for forced "
     "ventilation of the block. When that is not enough, a simple paper mask does not "
     "protect you; you need a properly fitted respirator of the right class, or better a "
     "powered air-purifying respirator built into the welding helmet, which also feels "
     "cooler in summer. Keep your head out of the plume, and report the problem in "
     "writing to the safety officer, because the same fumes affect your whole team.",
     "my chest problem from the metal smoke in the ship, what did you say"),
    ("a big typhoon is forecast to hit on Thursday night. our house is an old wooden one on "
     "the hillside, with the slope right behind it and 200 steps down to the road. Takeshi "
     "will be working. what should I get ready, and when do I leave",
     "With an old wooden house, a steep slope behind you and a long climb down to the road, "
     "the two dangers to plan for are wind damage and, above all, a landslide from the "
     "slope after heavy rain, so decide now where you will go and when, rather than in the "
     "middle of the storm. Look up your address on the city's hazard map: if the house is "
     "in a sediment disaster warning zone, plan to go to the nearest evacuation shelter, "
     "or to a friend's house on safer ground, as soon as the city issues evacuation level "
     "3, or when it starts raining very hard, and while it is still daylight, because the "
     "steps will be dangerous in the dark and the wind. Do not wait for level 4. Warning "
     "signs of a slide are small stones falling, muddy water from the slope, springs "
     "suddenly stopping, cracking sounds or a smell of earth; if you notice these, leave "
     "at once, or if it is too late, go upstairs to the room furthest from the slope. "
     "Before Thursday: bring in or tie down everything outside, including plant pots and "
     "the bike, close the storm shutters or tape the windows, clear the gutters and the "
     "drain, and park the car somewhere high and away from trees. Pack a bag with "
     "medicines, documents, a torch, a radio, a power bank, water and food for three days, "
     "and fill the bath with water. Charge your phone and set up a plan with Takeshi and "
     "the children for how you will let each other know you are safe. Take the cat in a "
     "carrier if you go to a shelter; many accept pets if you bring food and a cage.",
     "the big storm coming and our house by the hill, what were the steps you gave me"),
    ("Aoi wants to borrow 2 million yen from us to open her hair salon. it's most of what "
     "we saved for when Takeshi stops working. I want to help her but I'm scared. Takeshi "
     "says just give it. how do we decide",
     "It is natural to want to help and also to be afraid: both feelings are reasonable, "
     "because it is a large share of your retirement savings, and retirement money is hard "
     "to rebuild in your late fifties. A useful rule is to lend or give only an amount you "
     "could lose entirely without it hurting your life later; if 2 million yen would leave "
     "you short when Takeshi stops working, consider offering part of it, for example half, "
     "and helping in other ways. Before deciding, ask Aoi to show you her plan: the rent, "
     "equipment, how many customers a day she needs to break even, and how long her own "
     "savings would last if business is slow at first. This is not about doubting her; a "
     "bank or a lender would ask the same, and thinking it through protects her too. Ask "
     "whether she has looked at other money: the Japan Finance Corporation lends to people "
     "starting small businesses, often at low rates, and some cities have start-up "
     "subsidies. If you do lend, decide together whether it is a gift or a loan. If it is "
     "a loan, write down the amount, when she starts paying back, and how much each month, "
     "and both sign it; it avoids misunderstandings and also matters for gift tax, since "
     "a large gift above the yearly allowance can be taxed. Talk it over with Takeshi until "
     "you agree, and think about whether Kenta should know, so that it does not cause "
     "feelings later between your children.",
     "whether to hand our daughter the retirement money for her business, your thoughts"),
    ("in kyudo I have a problem, my right hand lets go before I'm at full draw, I can't hold "
     "it, the arrow just goes. it started before my exam last year and it's getting worse. "
     "sensei says hold longer but I can't. what can I do",
     "What you describe, releasing before you reach full draw and being unable to hold, is "
     "a well known problem in archery: in kyudo it is called hayake, and in western archery "
     "target panic. It is not a lack of strength or willpower; the release has become an "
     "automatic reaction to seeing the target, often triggered by the pressure of an exam, "
     "and trying harder to hold usually makes it worse. Most archers fix it by separating "
     "the shot from the target for a while. Go back to the makiwara, the straw bale at "
     "close range, and shoot there with your eyes closed or looking at a blank spot, "
     "concentrating only on the feeling of full draw (kai), on your breathing, and on "
     "letting the release happen from expansion rather than deciding it. Count slowly in "
     "kai, starting with a count you can manage, even two, and lengthen it a little each "
     "week. Practise full draws without releasing, letting down slowly, with a rubber "
     "training bow (gomuyumi) at home, which teaches your hand that reaching kai does not "
     "mean letting go. When you return to the target, shoot only a few arrows a session at "
     "first, and go back to the makiwara if the early release returns. A slightly lighter "
     "bow can help during this time. Tell your sensei exactly what happens and ask if you "
     "may work at the makiwara for some weeks; many teachers have seen this many times. "
     "It usually takes patience, weeks to months, but it does get better.",
     "my arrow going off too soon issue, what were the tips"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("a new young welder joined our team, {p}, he {x}, quiet but his beads are very neat",
     "{p} smelled gas in the double bottom before the alarm went and pulled me out by my "
     "belt, the inspector said we were lucky, I bought him dinner",
     "the young welder who {x}, what did he do for me",
     ["Yūto Kimura", "Daiki Ishii", "Shōta Nakano", "Ryōsuke Maeda", "Kaito Sugimoto"],
     ["comes from a fishing family on Innoshima", "still wears his school jersey",
      "trained as a pastry cook first", "raps at a club in Fukuyama on weekends",
      "has a dragon painted on his motorbike"]),
    ("a new woman started at the dōjō, {p}, she {x}, shoots very calmly",
     "{p} lent me her own bow at the grading when my string snapped in the warm-up, I passed "
     "with it and she only said it was nothing",
     "the archer who {x}, how did she save my exam",
     ["Emiko Tanabe", "Kazue Morita", "Reiko Hamada", "Yumi Shiraishi", "Noriko Kanda"],
     ["teaches English at the high school", "is seventy-two and never misses",
      "moved down from Hokkaidō", "runs a tofu shop by the station",
      "plays the shamisen"]),
    ("the empty house below ours was bought by {p}, he {x}, seems nice",
     "{p} carried Takeshi down all the steps to the road on his back when he twisted his "
     "ankle in the dark, and drove him to the clinic in his own van",
     "the new neighbour who {x}, what did he do for my husband",
     ["Hiroshi Matsuda", "Makoto Yoshida", "Tetsuya Ōnishi", "Kōji Hirano", "Isamu Fukuda"],
     ["is an artist from Tokyo", "makes furniture out of old boat wood",
      "retired from the railway", "keeps two goats", "paints temple screens"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("yardtroubles", ["the yard lost two orders to a Chinese yard this spring, everyone in "
                      "the canteen is whispering about layoffs",
                      "no summer bonus this year, the union meeting went on till nine and "
                      "nobody was happy",
                      "half the subcontractor crews were sent home on Friday, the docks are "
                      "so quiet you can hear the gulls",
                      "the president came down to the docks and gave a speech about "
                      "tightening belts, from his new Lexus"],
     "all the worrying stuff going on at my workplace, what have i said"),
    ("obon", ["Kenta came home for Obon and finally brought the girlfriend, she helped me "
              "wash up without being asked",
              "cleaned the family grave at the temple in the heat, Takeshi fainted a little "
              "and sat in the shade with a popsicle",
              "we watched the fireworks over the water from the roof of the house, like when "
              "the children were small",
              "Aoi and Kenta fought about money on the last night, I went to bed early"],
     "the summer holiday for the ancestors, remind me what happened"),
    ("rainyseason", ["rainy season, the slope behind the house is leaking water through the "
                     "wall of the storeroom",
                     "the laundry hasn't dried for two weeks, everything smells of wet dog",
                     "mould in the futon cupboard, I threw out two futons and cried about it",
                     "the steps down to the road became a waterfall, I went to work in "
                     "rubber boots and changed at the gate"],
     "the change of rain season weeks, what all did i say"),
]

CHAT = ["convert 56 kg to pounds",
        "how do you say yōsetsu in english",
        "write a polite line to my foreman asking for Friday off",
        "easy recipe for okonomiyaki Hiroshima style for four",
        "is it 'each other' or 'one another'",
        "how to get rust stains out of a white towel",
        "what is the population of Shikoku",
        "a haiku about autumn for our club newsletter",
        "how many minutes for a soft-boiled egg",
        "why do British people say 'cheers' when they leave a shop",
        "arigatō, that's all",
        "and another question"]
REPLIES = ["Of course, here it is:",
           "Happy to help, like this:",
           "Here's an easy way:",
           "Okay, the simple answer:",
           "Sure, try this:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Lunch break on an upturned bucket in the dock.",
          "Takeshi is snoring already and it's only nine.",
          "Rain again, the little ferry is full of wet schoolkids.",
          "Just back from the dōjō, arms like noodles.",
          "Waiting for the kettle, the whole house smells of curry."]
