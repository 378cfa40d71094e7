"""Variant `af` of the dialogue set: a thirtieth check set, written apart from `a` to `ae` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Mongolian man's, Ganbold "Gana" Tserendorj, 43, from a ger
district on the eastern edge of Ulaanbaatar, a driver-guide who takes foreign tourists across
the country in an old Russian UAZ van from June to September, shoots knucklebones (shagai) for
a team at a hall behind the market on winter evenings and is learning the old vertical script
with a brush; his wife Oyuna keeps a stall at the Narantuul market, their daughter Khulan, 17,
sits the university entrance exam this year, his widowed mother Dulmaa, 79, lives in a ger in
their fenced yard, his elder brother Bat herds in Arkhangai and Bat's son Tuvshin, 11, rides
the family's horses in the races: the tour he is leading, the guests he is driving, where
Bat's camp stands, the horse Tuvshin rides, the shagai team he shoots for, the text he is
copying in the old script, what Oyuna sells, what Khulan means to study and what his mother is
trying for her knees; questions are asked as people ask an assistant to remember ("the driver
who has a snow leopard inked on his arm, how did he rescue me", "where was it the predators got
into my brothers flock"), some lowercase, some without a question mark or apostrophes, some
as a few words ("current trip?"), a few typos ("the nefews mount these days", "whta am i
brushing these days"), some in a Mongolian speaker's English ("the white month holiday, how
it went, remind me"), from the specific to the vague, and mostly share no content word with
the message that answers them. Sessions run from one exchange to seven over 400 days; small
talk may sit before and after a fact in the same message; rows are one utterance each, among
5,100 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("tourloop", ["the south Gobi loop to Khongoryn Els", "the Khövsgöl lake run",
                       "the Orkhon valley and Kharkhorin", "the eagle festival in Bayan-Ölgii",
                       "the Terelj and Gorkhi overnight", "the eastern steppe to Dadal"],
          ["the agency put me on {v} starting Monday, eleven days, I packed two spare tyres "
           "and a sack of mutton",
           "on {v} a hailstorm caught us at dusk and the guests had to sleep sitting up in the "
           "furgon, nobody complained, the Swiss lady even sang",
           "got five stars from every guest on {v}, the boss put my photo on the company "
           "Facebook page"],
          ["which trip did the office give me where im bringing extra wheels and meat",
           "the tour where ice fell from the sky and everyone had to stay in the vehicle "
           "overnight, which one",
           "what route got me perfect reviews and my face online?"],
          ["Washed the furgon for two hours, the dust from the last tour was in my ears.",
           "Until the season starts in June I fix the neighbours' cars for cash.",
           "Bought a satellite phone for the tours, the old one only worked on hilltops."],
          ["the agency cancelled {old}, not enough bookings, they moved me to {v} instead",
           "back from {old} yesterday, slept fourteen hours, after this I'm leading {v}"],
          ["what tour have they got me doing now",
           "current trip?"]),
    Topic("guestgroup", ["a family of five from Lyon", "two Israeli backpackers",
                         "a Korean church group", "four German birdwatchers",
                         "a Japanese film crew", "a retired couple from Perth"],
          ["this week I'm driving {v}, they want to eat only what the nomads eat, good luck to "
           "them",
           "{v} left me a tip of 300 dollars and a knife with a wooden handle, I nearly cried",
           "I had {v} at the dunes and one of them fell off a camel, only a bruise, but the "
           "others took photos before helping"],
          ["the people who wanted to live on herder food, who are they",
           "who gave me that big cash gift and the blade",
           "those guests where someone came off the two humped beast and the rest just filmed "
           "it, who were they"],
          ["Tourists always ask if we still live in gers, I say my mother does.",
           "Learned how to say 'watch out for the hole' in three languages this summer.",
           "The agency wants us to speak English at dinner now, even to each other."],
          ["said goodbye to {old} at the airport, tomorrow I pick up {v}",
           "{old} cut their trip short because of the rain, the agency gave me {v} straight "
           "after"],
          ["who am i driving around these days",
           "my present clients?"]),
    Topic("brothercamp", ["the river bend below Tsenkher", "the valley by the Khorgo volcano",
                          "the meadow at Tariat", "the plain outside Ikh Tamir",
                          "the hollow near Battsengel", "the slope above Ögii Nuur"],
          ["Bat moved the herd and the gers to {v}, he says the grass is good this year, phone "
           "signal only on top of the hill",
           "wolves took four sheep from Bat's pen at {v}, he sat up three nights with the "
           "rifle",
           "we drove out to Bat at {v} for the weekend, mother milked a mare for the first time "
           "in twenty years"],
          ["my brother, where has he shifted his animals to, the place you have to climb for "
           "reception",
           "where was it the predators got into my brothers flock",
           "where was it mum got to do her old nomad jobs again, visiting my brother"],
          ["Bat called, the new foal is standing already.",
           "Sent Bat a solar panel with the minibus driver, he'll pay me in meat.",
           "Bat wants a motorbike for the herding, his wife says no."],
          ["Bat packed up the gers at {old} for the winter, they're at {v} now, out of the "
           "wind",
           "the water dried up at {old}, so Bat moved everyone to {v}"],
          ["where are bat and the animals camped now",
           "my brothers place at the moment?"]),
    Topic("racehorse", ["the dun pacer", "the grey six-year-old",
                        "the black stallion with the star", "the chestnut colt",
                        "the bay with the white socks", "the palomino mare"],
          ["Tuvshin rides {v} in the soum races this summer, 15 kilometres, he's eleven and "
           "weighs nothing",
           "{v} came in third at the Tsetserleg race, Tuvshin got a bowl of airag poured over "
           "his head",
           "{v} threw Tuvshin at the start line, he got back on and still finished, my heart "
           "stopped"],
          ["which one is the kid going to be on at the local naadam, my nephew i mean",
           "what did the little jockey make the podium on, the time he got doused in fermented "
           "milk",
           "what bucked the boy off before they even set off"],
          ["Tuvshin practises on the arm of the sofa, shouting giingoo.",
           "Bought Tuvshin a proper riding helmet, he says the other boys laugh.",
           "Bat says the horses are training on the long runs at dawn now."],
          ["Bat is resting {old} this season, Tuvshin will ride {v}",
           "{old} went lame in the spring, so Tuvshin is on {v} now"],
          ["which horse does tuvshin race now",
           "the nefews mount these days"]),
    Topic("shagaiteam", ["Khangai Bulag", "Tengeriin Mergen", "Uran Khuruu",
                         "Altan Shagai Club", "Khüree Zaluus", "Bogd Uulynkhan"],
          ["I joined {v} for the knucklebone shooting, we practise Thursday nights at the hall "
           "behind the market, my thumb is blue",
           "{v} won the city cup, I hit the target bones eleven times in the final, the old "
           "men chanted my name",
           "{v} threw out their captain for drinking at the tournament, what a mess"],
          ["what crew did i sign up with for that finger flicking game",
           "who was i playing for when we took the championship in town and the grandpas "
           "cheered me",
           "the club where the leader got dropped for booze, which is it"],
          ["My shooting thumb is swollen, Oyuna says I'm too old for this.",
           "Bought a new shooting tablet made of antler, polished it all evening.",
           "The songs they sing between rounds at the hall are stuck in my head."],
          ["I left {old}, too much politics, I shoot for {v} now",
           "{old} had no place for me this season, {v} took me in"],
          ["which side am i with now in the ankle bone thing",
           "my club now?"]),
    Topic("oldscript", ["a verse from the Secret History", "Natsagdorj's poem My Native Land",
                        "the Chinggis maxims", "a blessing for my mother's eightieth",
                        "the names of our ancestors back seven generations",
                        "the legend of Khökhöö Namjil"],
          ["in the old script class I'm copying {v} with the brush, top to bottom, my lines "
           "still wobble like a drunk",
           "the teacher hung {v} I wrote on the classroom wall, first time anything of mine was "
           "on a wall since school",
           "spilled a whole jar of ink over {v}, two weeks of work gone, I went out and walked "
           "round the block twice"],
          ["what am i writing out in the vertical letters, the thing my hand keeps shaking on",
           "the piece the instructor pinned up for everyone to see, what was it",
           "what did i wreck when the bottle tipped over"],
          ["Bought a proper wolf-hair brush at the State Department Store, expensive.",
           "The script teacher says I hold the brush like a spanner.",
           "Practised the first letter of the alphabet for an hour, it looks like a fish hook."],
          ["finished {old} at last, now the teacher gave me {v}",
           "gave up on {old}, too long, I'm doing {v} for the exhibition instead"],
          ["whta am i brushing these days",
           "current calligrapy piece?"]),
    Topic("oyunastall", ["felt slippers with camels on them", "cashmere socks",
                         "children's deels", "Korean face creams", "phone covers",
                         "dried curd from Arkhangai"],
          ["Oyuna started selling {v} at Narantuul on weekends, she made 400,000 tögrög the "
           "first Saturday",
           "a man stole a whole bag of {v} from Oyuna's stall while she was giving change",
           "a Russian tourist bought up every one of Oyuna's {v} in one go, she closed early "
           "and we had khuushuur"],
          ["what's my wife flogging at the big market",
           "what got nicked from the missus at her table",
           "what did a single buyer take all of, the day she went home at noon"],
          ["Oyuna's stall rent went up again, the market bosses never stop.",
           "Oyuna gets up at five on Saturdays to set up, I carry the boxes.",
           "Oyuna says cheap imports are killing everyone's prices."],
          ["{old} weren't moving any more, so Oyuna switched the stall to {v}",
           "Oyuna is done with {old}, her supplier cheated her, she sells {v} now"],
          ["what does oyuna have on her table now",
           "wifes market goods these days?"]),
    Topic("khulanstudy", ["nursing at the Health Sciences University",
                          "mining engineering at the Science and Technology University",
                          "law at the National University",
                          "Korean studies at the University of Humanities",
                          "architecture at the Construction College",
                          "veterinary medicine at the Agricultural University"],
          ["Khulan decided she wants {v}, she's got the entrance exam in June and a tutor three "
           "evenings a week",
           "Khulan's scores are good enough for {v}, she screamed so loud the neighbours' dog "
           "started barking",
           "Khulan went to the open day for {v} and came back saying it was boring, and I paid "
           "for the taxi"],
          ["what course is my daughter aiming for after school",
           "the subject my girl qualified for with her results, what is it",
           "what did the girl go and look at and find dull"],
          ["Khulan studies until one in the morning, I bring her tea.",
           "The tutor for Khulan costs more than the insurance on the van.",
           "Khulan wants to go abroad after university, we'll see."],
          ["Khulan has dropped {old}, she says it isn't her, she's going for {v}",
           "after the mock exam Khulan gave up on {old} and picked {v}"],
          ["what does khulan want to do at uni now",
           "daughter's plan for college?"]),
    Topic("mothercure", ["a bone-setter in Nalaikh", "physiotherapy at the Korean hospital",
                         "a mare's milk cure in Bulgan", "acupuncture at the Tibetan clinic",
                         "the hot springs at Shargaljuut", "injections at the State Hospital"],
          ["mother is trying {v} for her knees, she says it's working, she walked to the shop "
           "and back",
           "{v} cost us 600,000 tögrög and mother's knees are the same, I'm so angry",
           "took mother to {v}, she flirted with an old man in the queue the whole morning"],
          ["what's mum's new treatment for her bad joints",
           "what did we waste loads on for mums legs",
           "where was mum chatting up a grandad while we waited"],
          ["Mother's knees are bad again with the cold, she won't use the cane.",
           "Mother wants to walk to the monastery on her own, at 79.",
           "Mother says the doctors are all children now."],
          ["mother quit {old}, she said it was useless, now we're trying {v}",
           "{old} did nothing for her, so mother started {v}"],
          ["what are we doing for mums knees now",
           "mum's treatment lately?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("my mother lives in a ger in our yard and in winter she burns the government coal "
     "briquettes in her stove all night. last week she woke up with a bad headache and was "
     "sick, she says it's her blood pressure. the family two fences down went to hospital "
     "with gas poisoning in January. what should we do",
     "A headache and vomiting on waking, in someone who sleeps beside a stove burning coal or "
     "briquettes all night, may be carbon monoxide poisoning, not blood pressure, and it "
     "should be treated as that until it is ruled out. Carbon monoxide is a gas you cannot "
     "see or smell; it builds up when fuel burns without enough air, for example when the "
     "stove is shut down to smoulder through the night, when the chimney pipe is blocked, "
     "cracked or badly joined, or when the ger is sealed tight against the cold. Typical "
     "signs are headache, nausea, dizziness, weakness and confusion, worse in the morning "
     "and better after some time outside, and often several people in the same space feel "
     "them. At high levels it causes fainting and death during sleep. If she, or anyone, "
     "is hard to wake, confused or breathless, get everyone into fresh air and call the "
     "ambulance on 103 at once. For now, let her doctor know what happened, and ask for a "
     "test: the level can be measured in the blood or the breath, though it falls quickly. "
     "Then: buy a carbon monoxide alarm with a battery (they are sold cheaply in Ulaanbaatar "
     "and sometimes handed out by the city) and hang it in the ger at head height near her "
     "bed. Check the whole pipe from the stove to the roof ring: it must be tight at every "
     "joint, clean of soot and at least a metre above the roof. Do not close the stove's "
     "damper fully at night; it is safer to let the fire burn down and keep her warm with "
     "more blankets, a good felt layer and an electric blanket or a small heater on a "
     "separate circuit, if the power supply allows. Leave a little ventilation at the top of "
     "the ger. Follow the instructions for the briquettes: they need a hot start and good "
     "air, and should not be mixed with raw coal or rubbish. If you can, let her sleep in "
     "the house in the coldest weeks.",
     "the headaches in the morning and that heater in the tent in our yard, what was your "
     "warning"),
    ("one of my tourists has had diarrhoea and vomiting since yesterday. we are in the south "
     "Gobi, the nearest proper hospital is Dalanzadgad, five hours on a bad track. she is 68, "
     "weak, dizzy when she stands up. the rest of the group wants to carry on with the route "
     "tomorrow. what do I do",
     "At 68, with diarrhoea and vomiting for a day and dizziness on standing, she is already "
     "getting dehydrated, and in the heat and dry air of the desert that can become "
     "dangerous quickly, so her needs come before the group's programme. Start oral "
     "rehydration now: a sachet of oral rehydration salts in the right amount of clean "
     "water, or if you have none, one litre of boiled and cooled water with six level "
     "teaspoons of sugar and half a level teaspoon of salt. She should take small sips "
     "every few minutes, even if she vomits, aiming for at least a glass after each loose "
     "stool. Keep her in the shade, lying down, and do not let her stand up quickly. Do not "
     "give her medicine to stop the diarrhoea if she has a fever or blood in the stool. "
     "Drive her to Dalanzadgad without waiting if any of these appear: she cannot keep "
     "fluids down, she passes no urine for eight hours or it is very dark, she has blood in "
     "the stool, a high fever, strong pain in the belly, confusion or fainting, or she is not "
     "better by the morning. Because the journey is long, it is reasonable to leave early "
     "rather than late, with water, the salts and a bowl in the car; phone the hospital "
     "ahead and call your agency and her travel insurance, which may arrange transport or "
     "a doctor. Do not leave her alone in a ger while the others go on. For the rest of the "
     "group: everyone should wash hands with soap before eating and after the toilet, use "
     "separate cups and towels from her, and drink only boiled or bottled water, because "
     "if it is an infection it can spread through the group in a day or two.",
     "the elderly woman who got a bug in the desert on my trip, what plan did you give"),
    ("my nephew Tuvshin is 11 and rides in the horse races for my brother. the spring race "
     "this year is in March, minus 20, over 20 km. last year a boy from our soum fell and "
     "broke his arm. my brother says it is our tradition and he is proud. I am worried. can "
     "I make it safer, or should I say no",
     "Your worry is reasonable, and you are not alone: child jockeys in Mongolia have been "
     "the subject of real concern, because falls at full gallop over long distances cause "
     "broken bones and head injuries every year, and races in the cold months add the risk "
     "of frostbite and hypothermia for a light child who cannot move much in the saddle. The "
     "authorities have set rules for races, such as a minimum age for riders, compulsory "
     "helmets and body protectors and limits on races in winter and early spring; check "
     "what the current rules say and whether this race follows them, because a race that "
     "does not is a good reason for Tuvshin to sit it out. If he rides, the minimum is a "
     "properly fitted riding helmet that is fastened, a body protector vest, gloves, and "
     "warm layers with the face, ears and hands covered; in minus 20 on a fast horse the "
     "wind chill is far lower, and frostbite can set in within minutes on bare skin. He "
     "should ride a horse he knows and can control, and you should find out whether there "
     "are medical staff and a vehicle along the route and whether he has accident "
     "insurance. Talk to Tuvshin himself: an 11-year-old may be proud too but afraid to say "
     "he is frightened, and he should know he may refuse without shame. With your brother, "
     "it may help to talk not against the tradition but about how to keep it: many families "
     "race their horses in summer with proper equipment and skip the coldest races. In the "
     "end it is his parents' decision, but you can offer to pay for the gear or to take him "
     "to the summer races instead.",
     "the boy on horseback in the freezing spring contest, what were your thoughts"),
    ("I want to buy a newer van for the tours, a Hyundai Starex, 45 million tögrög. the bank "
     "wants a lot of papers and two months. a lender next to the market will give it in one "
     "day at 3.5% a month if I put our land certificate as collateral. Oyuna says no. who is "
     "right",
     "On the numbers, Oyuna is right to be wary. At 3.5% a month, the rate compounds to "
     "about 51% a year. Borrowing 45 million over two years at that rate means paying back "
     "about 2.8 million every month, some 67 million in all, so roughly 22 million would be "
     "interest alone; over three years it would be more than 30 million. A van used only "
     "from June to September has to earn the whole year's payments in those months, and one "
     "slow season, an illness or a broken engine would put you behind. The bigger danger is "
     "the collateral: the land certificate is the yard your house and your mother's ger "
     "stand on, and if you fall behind, the lender can take it; non-bank lenders that "
     "move fast on paperwork often move fast on seizing too. Before deciding, check whether "
     "the lender is licensed by the Financial Regulatory Commission and read every line of "
     "the contract, including penalties for late payment and early repayment. Then compare: "
     "a bank car loan or leasing is usually much cheaper, even if the papers take two "
     "months, and the tour agency may help with a letter about your income. You could also "
     "borrow less, by paying a larger share from savings, selling the old van first, or "
     "buying a good used Starex, or agree with the agency on a share of the cost in return "
     "for a contract. If the only way is the fast loan with the land as security, it is "
     "probably wiser to wait a season and save.",
     "borrowing for the new vehicle against our plot, did you side with my wife"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("a new driver started at the agency, {p}, he {x}, hardly talks but knows every track "
     "between here and the Altai",
     "{p} pulled my furgon out of the river at the ford with his Land Cruiser when the water "
     "came up to the doors, the guests filmed the whole thing",
     "the driver who {x}, how did he rescue me",
     ["Tsogtbaatar", "Munkh-Erdene", "Batzorig", "Ganzorig", "Enkhbayar"],
     ["was a wrestler in the army", "has a snow leopard inked on his arm",
      "drove a truck to the Chinese border for ten years", "plays the horse-head fiddle at night",
      "has never touched vodka in his life"]),
    ("a woman joined my script class, {p}, she {x}, her letters are beautiful",
     "{p} stitched up the tear in my deel right before the exhibition opened, ten minutes "
     "with a needle from her handbag, nobody noticed",
     "the classmate who {x}, what did she fix for me",
     ["Altantsetseg", "Narantuya", "Bolormaa", "Enkhjargal", "Oyunchimeg"],
     ["is a retired pharmacist", "is learning it to read her grandfather's letters",
      "comes all the way in from Nalaikh on the bus", "sings long song at the opera house",
      "used to run marathons"]),
    ("on my last tour there was {p}, who {x}, asked me a hundred questions about my family",
     "a parcel came from {p}, a winter jacket for Tuvshin and a letter in bad Mongolian, I had "
     "to sit down",
     "the tourist who {x}, what arrived from them",
     ["Hannelore Brauer", "Tomasz Wierzbicki", "Inês Carvalho", "Rafael Montoya",
      "Yael Shapiro"],
     ["had cycled all the way from Europe", "collects beetles in little jars",
      "was on a fourth visit to our country", "cried at every sunset",
      "taught everyone card tricks by the stove"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("dzud", ["Bat says the snow out there is knee-deep with a crust of ice, the animals can't "
              "get through to the grass",
              "Bat lost sixty goats in one week, he sounded like an old man on the phone",
              "sent Bat two tonnes of hay on a truck from Tsetserleg, it took nearly all our "
              "savings",
              "the government is handing out fodder in Arkhangai but Bat says it ran out "
              "before his turn"],
     "the terrible cold season on the steppe and what it's doing to my brother's flocks, what "
     "have i told you"),
    ("tsagaansar", ["Oyuna and mother made 1,800 buuz over three days, the balcony is full of "
                    "frozen dumplings",
                    "wore my new deel for the lunar new year, blue silk, Khulan said I look "
                    "like a minister",
                    "visited eleven houses on the first day, I can't look at another piece of "
                    "mutton",
                    "Tuvshin got 50,000 tögrög in fresh notes from the relatives and spent it "
                    "all on a phone game"],
     "the white month holiday, how it went, remind me"),
    ("breakdowns", ["the furgon's clutch died 200 kilometres from anywhere, I fixed it with "
                    "wire and a prayer",
                    "got stuck in the mud near the lake for five hours, the guests pushed in "
                    "their sandals",
                    "broke a leaf spring on the washboard road, a trucker gave me his spare "
                    "for a bottle of vodka",
                    "the fuel pump gave out in the dunes and we waited a whole day for a part "
                    "from Dalanzadgad"],
     "all the mishaps with my car out in the countryside this year, what did i mention"),
]

CHAT = ["convert 60 US dollars to tögrög",
        "how do you say 'hold on tight' in German",
        "write a short welcome note for tourists landing at Chinggis Khaan airport",
        "what is the capital of Slovenia",
        "a khuushuur recipe that foreigners can make at home",
        "is it 'fewer people' or 'less people' when you count them",
        "how many kilometres from Ulaanbaatar to Mörön",
        "translate 'the road is closed because of snow' into Korean",
        "what time does the sun go down in the Gobi in July",
        "how long should milk tea boil",
        "bayarlalaa, that's everything",
        "wait, another one for you"]
REPLIES = ["Sure, this should do it:",
           "Gladly, see below:",
           "Here is a quick version:",
           "Short answer, then:",
           "No problem, like so:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Parked at a petrol station in Zuunmod, the guests are buying ice cream.",
          "Mother is watching her Korean drama with the sound on fifty.",
          "Minus thirty-two this morning, the van started on the third try.",
          "Waiting for the milk tea to boil, the whole district smells of coal smoke.",
          "Just home from the hall, my thumb is throbbing."]
