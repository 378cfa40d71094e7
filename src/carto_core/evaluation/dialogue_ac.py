"""Variant `ac` of the dialogue set: a twenty-seventh check set, written apart from `a` to `ab` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Pakistani man's, Tariq Mehmood Butt, 54, from Mughalpura in
Lahore, a locomotive driver with Pakistan Railways who drives expresses out of Lahore Junction,
umpires club cricket on Sundays, plays carrom at the mohalla club in the evenings and keeps a
garden of pots on his roof; his wife Shazia teaches Urdu at a government women's college, their
daughter Mehwish, 25, is doing her house job as a young doctor, their son Hamza, 17, is
preparing for the medical entry test, and his mother, Ammi Jaan, 79, lives with them: the
train he is rostered on, the ground where he stands on Sundays, what is growing on the roof,
Mehwish's ward, Hamza's tuition academy, where Ammi Jaan spends her afternoons, the college
Shazia has been posted to, the family's car and the animal bought for Eid ul Adha; questions
are asked as people ask an assistant to remember ("the new assistant on the engine who used to
be a wrestler, what did he spot", "the motor whose cooling was useless in summer, which one was
that"), some lowercase, some without a question mark or apostrophes, some as a few words
("wifes college nowadays"), a few typos, some in Pakistani English ("do one thing, tell me
where hamza is going for tuition now", "the one where the bill gave me full tension"), from
the specific to the vague, and mostly share no content word with the message that answers
them. Sessions run from one exchange to seven over 385 days; small talk may sit before and
after a fact in the same message; rows are one utterance each, among 4,800 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("locoroster", ["the Tezgam to Karachi", "the Karakoram Express",
                         "the Allama Iqbal Express to Sialkot", "the Shalimar Express",
                         "the Jaffar Express as far as Multan",
                         "the night mail to Rawalpindi"],
          ["roster came out, from next week I am driving {v}, 4am sign-on, Shazia already "
           "complaining about the alarm",
           "we were stuck two hours outside Khanewal on {v} because a goods train derailed "
           "ahead, passengers were shouting at me as if I put the wagons there",
           "the divisional superintendent himself rode in the cab with me on {v} today, "
           "inspection, my hands were sweating on the throttle the whole way"],
          ["which service did they put me on where i have to report before fajr",
           "the run where we sat waiting for hours because freight came off the line up front",
           "which one was i on when the big boss from the division sat beside me"],
          ["Loco shed had no spare brake blocks again, we were told to manage.",
           "Union meeting about overtime pay, lot of speeches, nothing decided.",
           "The cab fan is broken, in June it is like sitting inside a tandoor."],
          ["they took me off {old}, junior drivers are doing it now, I am on {v} from this "
           "month",
           "{old} is suspended for track work, so the shed has put me on {v} meanwhile"],
          ["which train am i driving these days",
           "my current duty on the railway?"]),
    Topic("umpireground", ["the Minto Park ground", "the Bagh-e-Jinnah cricket ground",
                           "the Model Town club ground", "the Race Course Park pitch",
                           "the Wapda Town ground", "the Shadman colony ground"],
          ["the association has given me Sunday matches at {v}, 1,500 rupees a match plus "
           "lunch, lunch is the real payment",
           "at {v} a batsman's father came onto the field shouting that my lbw was wrong, "
           "the match stopped for twenty minutes",
           "got hit on the shin standing at {v}, straight drive, I could not walk properly "
           "for three days but I finished the innings"],
          ["where did the cricket people say id officiate for a bit of cash and a free meal",
           "where was it that the angry parent walked out to argue my decision",
           "the place i took a ball on the leg and limped home"],
          ["Bought a new white coat for umpiring, the old one has turned yellow.",
           "The clicker I use to count the balls fell in a drain.",
           "Sunday match washed out, sat under the tin shed drinking chai all day."],
          ["the association moved me from {old}, now I am standing at {v} every Sunday",
           "{old} is closed for the new turf, my Sunday games shifted to {v}"],
          ["where do i umpire on sundays now",
           "current sunday ground"]),
    Topic("rooftopgarden", ["bitter gourd on a bamboo frame", "a Kinnow orange tree in a drum",
                            "green chillies in paint buckets", "a jasmine creeper along the wall",
                            "a Sindhri mango sapling", "fenugreek in old tyres"],
          ["planted {v} on the roof, Ammi Jaan says in her village nobody needed a roof to "
           "grow things",
           "the monkeys from the railway colony came and destroyed half of {v}, I chased them "
           "with a broom in my vest",
           "{v} is finally giving something, I carried the first little harvest downstairs "
           "like a trophy"],
          ["what did i put in up top that my mother said village people never needed",
           "which plant on the chhat did those animals tear apart",
           "what finally produced its first crop upstairs"],
          ["Watered the pots at 6am before the sun, by noon the soil is cracked.",
           "Bought two bags of compost from the nursery on Canal Road.",
           "The pigeons of the neighbours keep sitting on my pots and making a mess."],
          ["the heat finished {old} completely, I have put {v} in its place",
           "gave away {old} to my cousin in Shahdara, the roof now has {v}"],
          ["whats growing on my roof now",
           "chhat garden these days?"]),
    Topic("mehwishward", ["the cardiology ward at Mayo Hospital",
                          "the children's emergency at the Children's Hospital",
                          "gynae at Lady Willingdon", "the medical unit at Services Hospital",
                          "the burns unit at Jinnah Hospital", "surgery at Ganga Ram Hospital"],
          ["Mehwish started her house job in {v}, 36 hour calls, she came home and slept in "
           "her white coat",
           "a patient's relatives shouted at Mehwish in {v} and the guards had to come, I "
           "wanted to go there myself but Shazia stopped me",
           "the professor praised Mehwish in front of everyone on rounds in {v}, she called "
           "me from the corridor to tell"],
          ["where did my daughter begin her first rotation as a doctor",
           "where was my girl when the attendants of some patient created a scene",
           "which department was it where the senior doctor gave her a shabash"],
          ["Mehwish forgot her stethoscope at home again, I took it on the motorbike.",
           "Mehwish says the hostel food is so bad she is living on biscuits.",
           "Mehwish has not had a day off in eleven days."],
          ["Mehwish finished her months in {old}, she is rotating to {v} now",
           "Mehwish got swapped out of {old}, the new rotation is {v}"],
          ["where is mehwish working now",
           "my daughters present rotation"]),
    Topic("hamzaacademy", ["the Star Academy in Johar Town", "a home tutor from UET",
                           "an online MDCAT course", "the evening batch at Punjab Group",
                           "Sir Rafiq's coaching on Ferozepur Road",
                           "the weekend crash course at Iqbal Town"],
          ["admitted Hamza in {v}, 40,000 rupees for the season, when I was his age my tuition "
           "was a slap from my father",
           "Hamza came first in the mock test at {v}, he is walking like a film hero since "
           "yesterday",
           "the teachers at {v} called me and said Hamza is bunking and sitting at the "
           "gaming shop, I did not sleep all night"],
          ["where did i enroll my son for the entry prep that cost me an arm",
           "where did hamza top the practice paper and get a big head",
           "which place rang me to say the boy was skipping and playing games"],
          ["Hamza wants a new laptop for studies, I think it is for games.",
           "Hamza says Biology is killing him, Chemistry is fine.",
           "Hamza's test result is on Friday, whole house is nervous."],
          ["took Hamza out of {old}, the teachers there are more interested in fees, he "
           "joined {v}",
           "Hamza left {old}, too far with the traffic, he is going to {v} now"],
          ["do one thing, tell me where hamza is going for tuition now",
           "hamzas prep center currntly"]),
    Topic("ammiafternoons", ["the Quran dars at the mosque's ladies' hall",
                             "her sister's house in Shadbagh",
                             "the bench in Gulshan-e-Ravi park",
                             "the embroidery circle of the widows' trust",
                             "the homeopath's waiting room", "the Sufi shrine at Data Darbar"],
          ["Ammi Jaan has started going to {v} every afternoon after Zuhr, Hamza drops her on "
           "the bike",
           "Ammi Jaan fell on the steps at {v}, nothing broken thank God but her knee is "
           "swollen like a bread roll",
           "Ammi Jaan came back from {v} with the news that our neighbour's son is getting "
           "married, before even the neighbour told us"],
          ["where does my mother go after midday prayer that the boy takes her on his bike",
           "where did ammi take a tumble",
           "the place my mother heard the gossip about the wedding next door before anyone"],
          ["Ammi Jaan's sugar was 240 this morning, she had halwa yesterday.",
           "Ammi Jaan wants new glasses, says the TV has become blurry.",
           "Ammi Jaan is telling Mehwish to get married every single day."],
          ["Ammi Jaan does not go to {old} anymore, the stairs are too much, she goes to {v} "
           "instead",
           "Ammi Jaan got bored of {old}, now her afternoons are at {v}"],
          ["where does ammi go after lunch these days",
           "mothers afternoon routine nowdays"]),
    Topic("shaziacollege", ["Government College for Women Gulberg", "APWA College on Jail Road",
                            "Queen Mary College", "Government Islamia College Cooper Road",
                            "the girls' degree college in Kot Lakhpat",
                            "Government College for Women Samanabad"],
          ["Shazia's transfer order came, she is posted to {v}, two buses each way, she "
           "cried for one full day",
           "Shazia's students at {v} made her a cake for Teachers' Day, she brought home the "
           "card and read it out three times",
           "Shazia had to invigilate the board exams at {v} and caught a girl with a cheat "
           "slip in her dupatta"],
          ["where did my wife get sent that she has to change two buses",
           "which place did her pupils surprise her with a cake",
           "wifes exam duty where she found the chit in the scarf, where was it"],
          ["Shazia is checking 300 answer sheets on the dining table, nobody can eat there.",
           "Shazia's principal called a staff meeting on a Saturday again.",
           "Shazia wants a pay raise protest to end, says the syllabus is behind."],
          ["Shazia finally got transferred out of {old}, she is at {v} now, much closer",
           "after the reshuffle Shazia left {old}, she joined {v} this week"],
          ["where is shazia teaching now",
           "wifes college nowadays"]),
    Topic("familycar", ["a 2008 Suzuki Mehran", "a Honda City 2012", "a Suzuki Cultus",
                        "a Toyota Corolla GLi", "a Daihatsu Cuore", "a Suzuki Bolan van"],
          ["bought {v} from a man in Township, 12 lakh, the whole family came to see it like "
           "it was a new bride",
           "{v} broke down on the Ravi bridge in the rain, I pushed it with Hamza while "
           "rickshaws honked at us",
           "the AC of {v} only throws hot air, the mechanic says gas is finished, 8,000 to "
           "fill"],
          ["which motor did we purchase that everyone gathered round like a wedding",
           "what were we driving the day it died on the river crossing",
           "the motor whose cooling was useless in summer, which one was that"],
          ["Petrol went up again, I am taking the motorbike to the shed.",
           "Car wash boy scratched the door and said it was already there.",
           "Token tax is due, the excise office queue is longer than a train."],
          ["sold {old} finally, too much repair, we have {v} now",
           "exchanged {old} with my brother-in-law, so the family car is {v} now"],
          ["what car do we have now",
           "family gaadi currently?"]),
    Topic("eidqurbani", ["a black Beetal goat", "a white Teddy goat",
                         "a share in a Sahiwal bull", "a Cholistani bull",
                         "a pair of Kajla sheep", "a brown Makhi Cheeni goat"],
          ["bought {v} from the cattle mandi on Shahpur Kanjran, 95,000 after two hours "
           "bargaining, the seller swore on his mother it was the best price",
           "{v} got loose in the street and the whole mohalla's children chased it till "
           "the main road",
           "{v} ate Shazia's mint plants and one of my slippers, Ammi Jaan says it is a "
           "good sign"],
          ["what did i get at the animal market after all that haggling for the sacrifice",
           "the Eid animal that ran away and the kids went after it, what was it",
           "the one that chewed up my chappal, what did we buy that time"],
          ["Eid is three weeks away and prices at the mandi are touching the sky.",
           "Hamza wants to sleep on the roof next to the animal every night.",
           "The butcher is booked till the third day of Eid."],
          ["returned {old} to the seller, it was limping, we took {v} instead",
           "the family decided {old} is too much expense, this year we are doing {v}"],
          ["what are we sacrificing this eid now",
           "qurbani animal latest?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("sundays I stand 6 hours in the field umpiring and it is 44 degrees these days. last week "
     "I got dizzy in the 30th over and had a headache the whole night. Shazia says leave "
     "umpiring. what precautions I should take",
     "Dizziness and a headache that lasts into the night after hours in 44 degrees sound like "
     "heat exhaustion, and at that temperature it can turn into heatstroke, which is an "
     "emergency, so it is worth taking seriously. Start drinking before the match: a couple "
     "of glasses of water in the morning, then a glass every twenty to thirty minutes while "
     "standing, even if you are not thirsty, and not just plain water all day: add ORS "
     "sachets, lassi, lemon water with a pinch of salt, or nimbu pani, to replace the salt "
     "you sweat out. Avoid tea and fizzy drinks as your main fluid. Wear a wide-brimmed hat, "
     "loose light-coloured cotton, and sunglasses; a wet cloth on the back of the neck "
     "helps. Use every drinks break and change of innings to get into shade, and ask the "
     "association about extra drinks breaks in the hottest months; many leagues allow them. "
     "Eat a light meal before, not a heavy one. If you feel dizzy, sick, a pounding "
     "headache, cramps, or stop sweating, tell the other umpire, stop, get into shade, "
     "drink and cool down with water on the skin. Confusion, fainting, hot dry skin or a "
     "very high temperature mean heatstroke: call 1122 and cool him or yourself with water "
     "and fanning while waiting. Since you are over fifty, if you take medicine for blood "
     "pressure, ask your doctor, because some tablets, water pills especially, make "
     "dehydration more likely.",
     "the cricket in the blazing sun where i felt faint, what did you say to do"),
    ("load shedding is 6 hours in our area and the electricity bill came 38,000 for one month. "
     "everyone in the mohalla is putting solar. is it worth it for us, the roof is free, "
     "what should I know before spending",
     "With an empty roof, long outages and bills like that, solar is usually worth looking "
     "at, but the details decide whether it pays. First look at your last twelve bills to "
     "see how many units you use in summer and winter; that decides the size, and for a "
     "household using 500 to 700 units a month in summer it is often around 5 to 6 kW. "
     "Decide which kind you need. An on-grid system with net metering cuts the bill most, "
     "but it shuts off during load shedding for safety, so it does nothing for outages. A "
     "hybrid system with batteries keeps the fans and lights going during load shedding, "
     "but the batteries add a lot to the cost and need replacing after some years. Many "
     "families do hybrid with a small battery for essentials. Check the current net "
     "metering rules and buyback rate with LESCO before you decide, because they have "
     "been changing. Get three quotations from installers who are registered with AEDB, "
     "and compare the panel brand and its tier, the inverter brand and warranty, what "
     "mounting structure they use, the cable thickness, earthing and lightning protection, "
     "and who handles the net metering paperwork. Make sure the roof can take the weight "
     "and that the panels face south without shade from water tanks or the neighbour's "
     "floor. Ask for the warranties in writing. Then keep the panels clean every week or "
     "two in the dusty months, since dust cuts output a lot.",
     "the panels for the roof and the electric bill problem, what was your guidance"),
    ("Ammi Jaan has sugar for 15 years, now she has a small wound on the bottom of her foot, "
     "she did not even feel it. she is putting desi ghee and turmeric on it. it is not "
     "healing for two weeks",
     "A wound on the sole that she did not feel, in someone with diabetes for fifteen years, "
     "that has not healed in two weeks, needs a doctor soon, ideally this week, not home "
     "remedies. Long-standing diabetes often damages the nerves in the feet, so she cannot "
     "feel pain, and poor blood flow slows healing; a small sore can get infected and go "
     "deep quickly. Please stop the ghee and turmeric, as they can trap bacteria. Until she "
     "is seen, wash it gently with clean water, pat it dry, cover it with a clean dry "
     "dressing, change it daily, and keep her weight off that foot as much as possible; "
     "she should not walk barefoot, even at home. Take her to her diabetes doctor or a "
     "diabetic foot clinic; many large hospitals have one. They will clean it, check for "
     "infection, maybe do an X-ray, and check her circulation. Go the same day, to "
     "emergency if needed, if there is redness spreading, swelling, warmth, pus, a bad "
     "smell, the skin turning black, or fever. Her sugar also needs to be under better "
     "control for the wound to heal, so bring her readings. Afterwards, check both her "
     "feet every day, including between the toes, with a mirror or by someone else, and "
     "get soft shoes that fit, cut nails straight, and never use hot water bottles on the "
     "feet.",
     "mothers foot sore that wasnt getting better, what did you advise"),
    ("Hamza has his MDCAT in two months and he is not sleeping, not eating, yesterday he "
     "said if he does not get in he will be a failure for the family. Shazia and I both "
     "pushed him for medicine because Mehwish did it. now I feel guilty yaar. how to talk "
     "to him",
     "It is good that you noticed this and are thinking about your part in it; that already "
     "helps him. Pick a quiet time, maybe a drive or a walk rather than a sit-down talk, "
     "and tell him plainly that you are proud of him for the work he has done, and that "
     "his place in the family does not depend on this test. Say it in your own words, even "
     "if it feels awkward, because teenagers often believe the opposite unless they hear "
     "it. You can admit that you and his mother may have put pressure on him, and that you "
     "want him to choose what he really wants. Then listen more than you talk: ask how he "
     "is feeling and what worries him most, without rushing to fix it or comparing him to "
     "his sister. Help him with the basics: regular sleep of seven to eight hours, meals, "
     "short breaks, some exercise or cricket, and a study plan with realistic targets, "
     "since panic and no sleep make studying worse. Talk together about a plan B, other "
     "universities, a second attempt, other fields, so one paper is not everything. Watch "
     "for signs that this is more than exam nerves: talk of being a burden or not wanting "
     "to live, withdrawal, giving things away. If you see any of these, or if the low mood "
     "and not sleeping continue, get him to a doctor or a counsellor soon, and don't leave "
     "him alone with those thoughts.",
     "my boy under stress about the medical entry exam, how did you tell me to handle it"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("the shed gave me a new assistant driver, {p}, he {x}, very respectful, calls me ustad "
     "ji",
     "{p} spotted a buffalo standing on the track near Raiwind in the fog before I did and "
     "shouted, I braked in time, I owe him a plate of nihari",
     "the new assistant on the engine who {x}, what did he spot",
     ["Naveed Akhtar", "Zubair Gondal", "Asim Javed", "Waqas Bhatti", "Sohail Anjum"],
     ["used to be a wrestler in an akhara", "comes from a village near Okara",
      "has a diploma from the railway college", "sings naats at weddings",
      "is the son of a retired guard"]),
    ("new umpire in our panel, {p}, he {x}, knows the law book by heart",
     "{p} gave out the captain of the home team in the final and the whole crowd booed, he "
     "did not even blink, I took him for chai after",
     "the fellow umpire who {x}, what did he do in the final",
     ["Rana Imtiaz", "Babar Ghauri", "Mian Shafqat", "Tahir Lodhi", "Jamshed Iqbal"],
     ["played first-class for Faisalabad once", "works at the post office",
      "teaches PT at a boys' school", "runs a sports shop in Anarkali",
      "retired from the air force"]),
    ("a new family rented the upper portion across the street, {p}, he {x}, seems a decent man",
     "{p} came across with a tray of gajar ka halwa on the first cold night, Ammi Jaan "
     "declared it better than hers which she has never said about anyone",
     "the neighbour opposite who {x}, what did he send over",
     ["Mr Aftab", "Professor Haroon", "Sheikh Nasir", "Engineer Kamran", "Major Saleem"],
     ["drives for a courier company", "is a lawyer at the High Court",
      "keeps two German shepherds", "is from Peshawar", "repairs mobile phones in Hafeez "
      "Centre"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("smog", ["the smog is back, AQI crossed 400 today, schools closed and the Motorway shut "
              "in the morning",
              "could not see the signal ahead from the cab this morning, ran at caution speed "
              "the whole way, 90 minutes late",
              "my chest is tight and Ammi Jaan is coughing all night from the smoke, bought an "
              "air purifier on instalments",
              "first proper rain of winter came and the sky is blue again, I went on the roof "
              "just to breathe"],
     "the dirty air season, what all did i tell you about it"),
    ("utilities", ["gas comes only at breakfast and dinner times now, Shazia cooks everything "
                   "in the morning and we eat it cold",
                   "the electricity bill had 9,000 rupees of taxes on it, I went to the LESCO "
                   "office and came back with nothing but a headache",
                   "the water motor burned out because of the voltage going up and down",
                   "the meter reader wrote 300 extra units, I had to take a photo of the "
                   "meter and fight"],
     "the one where the bill gave me full tension, and the gas and water, all of it"),
    ("familyweddings", ["my nephew's mehndi in Gujranwala, danced with the dhol until 2am at "
                        "my age, my back is finished",
                        "gave 20,000 salami at my niece's baraat and Shazia says it was too "
                        "little, family will talk",
                        "cousin's walima in a marquee on Bedian Road, the food ran out before "
                        "our table got anything",
                        "three weddings in one December, I have worn the same shalwar kameez "
                        "to all of them"],
     "all the shaadi functions we have been going to, remind me"),
]

CHAT = ["how many rupees is 200 dirham",
        "write a short application for two days leave to my divisional officer",
        "recipe for chicken karahi the Lahori way",
        "urdu of 'we regret the inconvenience'",
        "how long to boil chickpeas without a pressure cooker",
        "is it 'cope up with' or only 'cope with'",
        "a short dua for someone who is sick, in English meaning",
        "how to remove tea stain from a white umpire coat",
        "who scored the most test runs for Pakistan, my son asking",
        "what is 1,200 kilometres in miles",
        "ok jee thank you",
        "acha, one more question"]
REPLIES = ["Ji, here it is:",
           "Sure, in short:",
           "No problem, try this:",
           "Okay, here is a quick version:",
           "Alright, one simple way:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Sitting in the crew room waiting for my sign-on.",
          "Stuck at the Kalma Chowk signal again.",
          "Just came back from Friday prayers.",
          "Having chai with the carrom boys at the club.",
          "Light has gone again, typing on the UPS."]
