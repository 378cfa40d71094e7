"""Variant `ag` of the dialogue set: a thirty-first check set, written apart from `a` to `af` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Ethiopian woman's, Tigist Alemayehu, 38, who lives in a
condominium block in Ayat on the eastern edge of Addis Ababa, an air traffic controller at Bole
International Airport on rotating day and night shifts, who plays chess at a club in Arat Kilo,
is learning the masinqo (the one-stringed fiddle) from an old azmari in a bar in Piassa and
saves with her colleagues in an equb (a rotating savings circle); divorced from Yonas, who has
lived in Washington for three years, she is raising her late sister Meron's twin daughters,
Beti and Ruthi, 12, rents out the studio flat in Jemo she started out in, and has a younger
brother, Dawit, 23, a distance runner at a training camp in Sululta, and an unmarried aunt,
Askale, 70, in Debre Markos who goes on pilgrimages with her parish: the position she works at
the airport, the twins' school, what the twins do at weekends, the race Dawit is preparing for,
the tune she is learning, what her equb payout is for, the chess opening she is studying,
where Aunt Askale is going to pray and who rents the studio; questions are asked as people ask
an assistant to remember ("the old man who fought in the Ogaden war, what did he repair at
my place", "where did one of the girls show up the teacher over sums"), some lowercase, some
without a question mark or apostrophes, some as a few words ("current tune?"), a few typos
("whats the fidle lesson on now", "wich race did my brther drop out of and then go quiet"),
some with the topic first and the question after a comma ("the savings group money, what am
i doing with it now"), from the specific to the vague, and mostly share no content word with
the message that answers them. Sessions run from one exchange to seven over 405 days; small
talk may sit before and after a fact in the same message; rows are one utterance each, among
5,200 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("controlpost", ["the approach radar console", "the ground movement desk",
                          "the tower cab up top", "the area control centre",
                          "the flight data office", "the simulator room as an instructor"],
          ["the roster came out, from the first I'm on {v}, four nights in a row, I've stocked "
           "up on roasted barley to chew",
           "spent the whole night on {v} with a thunderstorm sitting over Debre Zeyit, forty "
           "arrivals, my shirt was wet through",
           "the supervisor came to watch me work {v} for my yearly check and said nothing for "
           "three hours, then just 'good'"],
          ["which seat did the new schedule give me, the one with back to back overnights and "
           "the grain snacks",
           "where was i working the evening the weather parked itself south of town and i "
           "sweated buckets",
           "my annual assessment, what position was i on when the boss stood behind me in "
           "silence"],
          ["Ethiopian Airlines got three more Dreamliners this year, the frequencies are packed.",
           "Shift change is at six, the day crew always comes in smelling of buna.",
           "The cushions on my headset are falling apart, I ordered new ones online."],
          ["they moved me off {old} after the restructuring, from next week I'm on {v}",
           "passed my rating at last, goodbye {old}, I'm working {v} now"],
          ["at the airport where do they have me sitting these days",
           "my spot at work lately?"]),
    Topic("twinsschool", ["the Lycée Guebre-Mariam", "Nazareth School",
                          "Sandford International School", "Bethel Mekane Yesus School",
                          "the German Embassy School", "Saint Joseph School"],
          ["Beti and Ruthi passed the entrance test for {v}, the fees are double but Meron "
           "always wanted them there",
           "parents' day at {v}, the headmistress told me Ruthi corrected her maths teacher in "
           "front of the whole class",
           "{v} sent the twins home for wearing the wrong socks, I nearly drove over in my work "
           "clothes to shout at somebody"],
          ["which place did my nieces get into, the pricey one their mum dreamed of",
           "where did one of the girls show up the teacher over sums",
           "the school that made a fuss about what the kids had on their feet, which one was "
           "it"],
          ["The school bus comes at half six and the twins are never ready.",
           "Covered the twins' exercise books in plastic until midnight.",
           "The fees letter came today, up again like every September."],
          ["we're moving the twins from {old} to {v}, it's closer and the long bus ride was "
           "killing them",
           "{old} closed its grade seven class, so the girls start at {v} in Meskerem"],
          ["where do the twins go to school now",
           "girls' classes at present, where?"]),
    Topic("twinsweekend", ["circus training at Fekat Circus", "swimming at the Ghion Hotel pool",
                           "the Sunday school choir at Medhane Alem",
                           "a robotics club at the science museum",
                           "taekwondo at the youth centre in Lideta",
                           "traditional dance at the Hager Fikir theatre"],
          ["on Saturdays the twins now do {v}, I sit outside with the other aunties and mothers "
           "drinking macchiato",
           "Beti cut her chin at {v}, three stitches, she is very proud of them",
           "the twins had their end of term show from {v} and Aunt Askale wept in the front "
           "row"],
          ["what do my girls get up to when i wait around with the coffee crowd",
           "where did one twin hurt her face and need sewing up",
           "what was the performance my aunt was in tears at"],
          ["The twins spend their pocket money on mango juice after class.",
           "Ruthi wants to quit everything and only read novels.",
           "My days off are one long taxi ride from one activity to the next."],
          ["the twins got bored of {old}, from this month it's {v}",
           "{old} moved to my working days, so the girls switched to {v}"],
          ["whats the girls weekend thing now",
           "twins hobby currently"]),
    Topic("dawitrace", ["the Great Ethiopian Run", "the Hawassa half marathon",
                        "the Xiamen marathon", "the Seville marathon", "the Dubai marathon",
                        "the Prague half marathon"],
          ["Dawit's coach entered him in {v}, he's doing 200 kilometres a week up in Sululta "
           "and eating nothing but injera and eggs",
           "Dawit finished fourth in {v}, 2,000 dollars, he sent half of it to me for the twins",
           "Dawit dropped out of {v} at 30 kilometres with cramp and didn't answer his phone for "
           "two days"],
          ["what's my brother getting ready for up on the plateau, living on the same plate "
           "every day",
           "where did my little brother win cash and give me a share for the kids",
           "wich race did my brther drop out of and then go quiet"],
          ["Dawit's shoes last him a month, he keeps asking for the carbon ones.",
           "The runners at the camp sleep ten to a room.",
           "Dawit's coach shouts at them in Oromo and Dawit only understands half."],
          ["Dawit's manager pulled him out of {old}, he's being sent to {v} instead",
           "after {old} Dawit rested two weeks, now he's preparing for {v}"],
          ["what is dawit training for at the moment",
           "my brothers next big one?"]),
    Topic("masinqotune", ["the Tizita scale", "a Bati melody", "the Ambassel mode",
                          "Anchihoye Lene", "a Gojjam wedding song", "a shillela war chant"],
          ["the azmari in Piassa is teaching me {v} on the masinqo, my bow still squeaks like a "
           "door",
           "played {v} for the twins and Ruthi cried, she said her mother used to hum it",
           "the old man made me play {v} twenty times until my fingers bled, then he bought me "
           "tej"],
          ["what am i learning on that one string instrument, the thing that sounds like a "
           "hinge",
           "what tune made one of my nieces weep remembering her mum",
           "what piece did my teacher make me repeat till i was bleeding"],
          ["Rosin for the bow is impossible to find, I rub it with candle wax.",
           "The azmari says I hold the masinqo like a broom.",
           "Practised for an hour before my night shift, the neighbours banged on the wall."],
          ["the teacher says I've got {old} now, we're moving on to {v}",
           "gave up on {old}, too hard, he's teaching me {v} for now"],
          ["whats the fidle lesson on now",
           "current tune?"]),
    Topic("equbgoal", ["a down payment on a two-bedroom condo", "a used Toyota Vitz",
                       "braces for the twins", "a bajaj for Dawit to rent out",
                       "a solar kit for Aunt Askale", "a share in a coffee exporter"],
          ["my equb number comes up in Tir, 180,000 birr, and it all goes on {v}",
           "told the equb ladies the money is for {v} and Almaz laughed so hard she spilled her "
           "coffee",
           "signed the papers for {v} today, the equb money covered it exactly, I had 40 birr "
           "left"],
          ["when my turn in the savings circle arrives, what's the cash going toward",
           "what did my friend nearly choke on her drink over, when i said what i'd spend on",
           "what did i put the pot into the day i ended up with pocket change"],
          ["Equb at Almaz's house on Sunday, everybody brings 5,000 birr in an envelope.",
           "One of the equb women hasn't paid for three months, there's a fight coming.",
           "The equb draws lots with folded papers in a coffee cup."],
          ["forget {old}, prices went up, the equb money is going on {v}",
           "changed my mind about {old}, I'm putting the equb payout into {v}"],
          ["the savings group money, what am i doing with it now",
           "plan for my pot lately?"]),
    Topic("chessopening", ["the Caro-Kann", "the King's Indian", "the Sicilian Dragon",
                           "the London System", "the Queen's Gambit Declined",
                           "the Scandinavian"],
          ["at the club in Arat Kilo I'm studying {v}, I watch videos on my phone during breaks "
           "at work",
           "beat the club champion with {v} on Sunday, a retired professor, he shook my hand and "
           "left without a word",
           "lost four games in a row playing {v}, I'm throwing my notes in the river"],
          ["what line am i working on for the board game, the one i watch clips of on my rest",
           "how did i take down the top player, the old lecturer",
           "which setup got me beaten again and again, four times straight"],
          ["The chess club has one clock that works, we take turns with it.",
           "The old men at the club smoke on the balcony between rounds.",
           "Played blitz online until three, a terrible idea before a shift."],
          ["I've dropped {old}, everybody at the club knows it, I'm playing {v} now",
           "my coach says {old} doesn't suit me, so I'm learning {v}"],
          ["my opening these days",
           "what do i start games with now at the club"]),
    Topic("askalepilgrimage", ["Kulubi Gabriel", "Gishen Mariam", "Debre Libanos",
                               "Zuqualla Maryam", "the rock churches of Lalibela",
                               "Axum Tsion"],
          ["Aunt Askale is walking to {v} with her church group, she says she'll pray for my "
           "divorce papers",
           "Aunt Askale came back from {v} with a bottle of holy water for each of us and a "
           "blister the size of a coin",
           "Aunt Askale lost her bag at {v} and a stranger walked two hours to bring it back"],
          ["where's my aunt trekking to on foot for her devotions",
           "where did auntie bring the blessed bottles back from, with the sore foot",
           "my aunt's handbag, where did she misplace it that time a kind man returned it"],
          ["Aunt Askale wears only white on Wednesdays and Fridays.",
           "Aunt Askale calls at five in the morning to tell me which saint's day it is.",
           "Aunt Askale says the young priests don't know the hymns."],
          ["Aunt Askale cancelled {old}, her knees, she's going to {v} on the bus instead",
           "Aunt Askale did {old} last year, this year she wants {v}"],
          ["where is aunt askale off to pray this year",
           "auntie's holy trip now?"]),
    Topic("studiotenant", ["a young nurse from Jimma", "two students from Mekelle",
                           "a Chinese road engineer", "a couple who sell shoes in Merkato",
                           "a pastor and his wife", "a driver for the UN"],
          ["I rented my old studio in Jemo to {v}, 9,000 birr a month, they paid three months "
           "ahead",
           "{v} in my studio flooded the bathroom and the water came through the ceiling "
           "downstairs",
           "{v} left my studio cleaner than I gave it, with a plant on the windowsill"],
          ["who's living in my first little flat, the ones who settled up early",
           "who soaked the neighbours underneath at my old place",
           "the renters who handed it back spotless with a present, who were they"],
          ["The condominium office wants the tenant registered at the kebele.",
           "The studio in Jemo needs new paint before anyone else moves in.",
           "Rents in Jemo have gone up again since the new road."],
          ["{old} moved out last week, {v} moves into the studio on Monday",
           "had to ask {old} to leave, three months unpaid, now I've let it to {v}"],
          ["who rents my small flat now",
           "the tenant in jemo these days"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("my sister Meron died two years ago and I am raising her twin girls, they are 12 now. "
     "Ruthi has started wetting the bed again and won't sleep with the light off, Beti acts "
     "like nothing happened and gets angry if anyone says her mother's name. my aunt says to "
     "take them both to the holy water. I work nights half the week. what should I do",
     "What you describe is common in grieving children, and it often shows up a year or two "
     "after the loss, when the first shock has passed and the child is old enough to "
     "understand more. Going back to an earlier stage, like wetting the bed or fear of the "
     "dark, is one way children show distress; refusing to talk and getting angry is another. "
     "Twins can grieve very differently, and neither way is wrong. Some things that help: keep "
     "the daily routine as steady as you can, and tell them in advance which nights you work "
     "and who will be at home. Let them know, in plain words, that it is all right to miss "
     "their mother, to be angry and to be happy, and that you will not leave them. Talk about "
     "Meron naturally, in small doses, without forcing Beti to join in: a photo in the room, a "
     "story about her at dinner, a memory box each twin can fill, and a quiet plan for her "
     "anniversary and for holidays. For the bed-wetting, do not scold or shame her; use a "
     "waterproof mattress cover, let her drink less in the evening, take her to the toilet "
     "before sleep, and leave a small light on. See a doctor too, because a urine infection "
     "or raised blood sugar can cause it and are easy to check. Tell their teachers what is "
     "going on, since grief can show up at school first. If there is no improvement after a "
     "few months, or either girl stops eating, withdraws from friends, hurts herself or talks "
     "about wanting to die or to be with her mother, get help from a child psychologist or "
     "counsellor quickly; some hospitals and NGOs in Addis Ababa offer this for children. "
     "Holy water and prayer can be a comfort if the girls find them so, alongside this help, "
     "not instead of it. And look after yourself as well: you lost a sister, too.",
     "the niece with the night time accidents, and her sister who clams up, what did you "
     "advise"),
    ("I work in air traffic control, rotating two days, two nights, then four off. on the "
     "second night, around 4am, I catch myself reading the same flight strip three times. a "
     "colleague drinks six coffees and chews khat to stay awake. what can I do, and should I "
     "tell my supervisor",
     "Reading the same strip three times at four in the morning is a sign of fatigue, and in "
     "your job fatigue is a safety matter, so yes, tell your supervisor: controllers are "
     "expected to say when they are not fit to work a position, and a good unit treats it as "
     "a safety report, not a weakness. Ask too whether your employer has a fatigue risk "
     "management system as ICAO describes, and report the rota if it regularly leaves you "
     "short of sleep. The early hours are when the body clock is at its lowest, so some "
     "tiredness then is normal, but you can reduce it. Before the first night, take a nap of "
     "about ninety minutes in the afternoon. If your unit allows rest during breaks, a short "
     "nap of ten to twenty minutes helps; give yourself time to wake up fully before going "
     "back to the position. Use caffeine early in the shift and stop about six hours before "
     "you plan to sleep; six cups is more than you need and makes daytime sleep worse. Do not "
     "use khat: it is a stimulant that disturbs sleep, and working a control position under "
     "the influence of a psychoactive substance is against aviation rules and could cost you "
     "your licence. Keep the room bright at the start of the night if possible, eat light "
     "meals and drink water. Going home, wear sunglasses; sleep in a dark, quiet room with "
     "blackout curtains and earplugs, and keep the phone away. Eat a small snack, not a big "
     "meal, before sleeping. On days off, return to a normal rhythm gradually. If you are "
     "tired even after good sleep, or snore loudly, see a doctor: sleep apnoea, anaemia and "
     "thyroid problems are common and treatable.",
     "what were your tips for the small hours when my eyes glaze over at the desk"),
    ("a man says he is a manager from Europe and wants to sign my brother Dawit, 23, a "
     "marathon runner. he will take 30% of all prize money, keep Dawit's passport 'for the "
     "visas', and if Dawit does not finish a race, Dawit pays for his own flight home. Dawit "
     "is very excited. is this normal",
     "Some of this is normal and some of it is a warning sign. The biggest one is the "
     "passport: it belongs to Dawit, and no honest manager needs to keep it. Visa agents ask "
     "for it only for the time the application takes, and Dawit should get it back the same "
     "day or week. A manager holding an athlete's passport is a known feature of exploitation "
     "and of trafficking, so Dawit should refuse. Second, the commission: many representatives "
     "take around 15 percent of prize money and appearance fees, so 30 percent is high; it can "
     "be negotiated, and the contract should say exactly what the manager pays for, such as "
     "flights, visas, hotels and the coach, and what Dawit pays for. Third, check who he is. "
     "World Athletics authorises athlete representatives and publishes a list of them on its "
     "website; an athlete who competes internationally should use an authorised one. Ask the "
     "Ethiopian Athletics Federation whether they know him, and speak to other runners he "
     "manages, especially ones who have left him. Then the contract itself: it should be in a "
     "language Dawit reads well, or translated, state how long it lasts and how either side "
     "can end it, and be read by someone on his side before he signs; the federation or a "
     "lawyer can help. He should never pay money in advance to be signed. Last, doping: Dawit "
     "alone is responsible for anything found in his body, so he should take no pills or "
     "injections from a manager or coach without checking them, and must keep his whereabouts "
     "information up to date if he is in a testing pool.",
     "that foreigner who wanted to represent my sibling and hang on to his travel document, "
     "was he legit, what did you say"),
    ("my aunt Askale is 70, she has type 2 diabetes, she takes metformin and an insulin "
     "injection at night. she wants to keep the whole Hudade fast, 55 days, nothing to eat "
     "until after 3pm and no animal products. last year she fainted in church. she won't "
     "listen to me, maybe she will listen to you. what should I tell her",
     "Her wish to fast is understandable, and the danger is real: with insulin and metformin, "
     "going without food until mid-afternoon can make her blood sugar drop too low, and "
     "fainting in church last year may well have been exactly that. The first step is a talk "
     "with her doctor before the fast begins, because the dose or timing of the night insulin "
     "often has to be lowered while she eats less, and only the doctor can decide that. The "
     "second is her confessor: the Orthodox Church makes allowance for the sick and the "
     "elderly, and many priests will bless a gentler fast, such as keeping the food rules but "
     "eating in the morning. Hearing that from her own priest may move her more than hearing "
     "it from you. If she fasts in any form, she should check her sugar more often, especially "
     "late morning and before the first meal, and carry sugar or sweets with her. She should "
     "break the fast at once if the reading is below about 70 mg/dL, or if she feels shaky, "
     "sweaty, confused or faint, and seek care if it is above about 300 mg/dL or she feels "
     "unwell. The food of the fast itself can suit diabetes well: lentils, shiro, chickpeas, "
     "greens and vegetables are good, but large portions of injera, bread, rice and sweet tea "
     "raise blood sugar, so she should keep those moderate. She should drink plenty of water. "
     "Her feet need care too if she walks to church and stands for long services. When the "
     "fast ends at Easter, she should return to meat and butter slowly, because a sudden feast "
     "can push her sugar very high.",
     "auntie with the glucose trouble who wants to go hungry till the afternoon for church, "
     "what did you say"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("a new trainee started in our unit, {p}, she {x}, very calm on the frequency and never "
     "misses a readback",
     "{p} swapped her day off with me so I could be at the twins' prize-giving and wouldn't "
     "take anything for it",
     "the trainee who {x}, what favour did she do me",
     ["Hiwot Tadesse", "Mekdes Girma", "Rahel Worku", "Eden Asfaw", "Lidya Kebede"],
     ["grew up next to the runway in Dire Dawa", "speaks five languages including Afar",
      "was a flight attendant before", "reads her poems at open mic nights",
      "rides a motorbike to work"]),
    ("there's an old man at the chess club, {p}, he {x}, plays with a cigarette behind his "
     "ear and never lights it",
     "{p} fixed the leaking pipe under my kitchen sink on Saturday, he brought his own tools in "
     "a flour sack",
     "the old man who {x}, what did he repair at my place",
     ["Ato Getachew Bekele", "Ato Shiferaw Dinku", "Ato Mulugeta Ayele", "Ato Tesfaye Gebru",
      "Ato Berhanu Wolde"],
     ["played against a Soviet grandmaster once in Moscow",
      "taught mathematics at the military academy", "fought in the Ogaden war",
      "has eleven grandchildren", "walks from Shiro Meda every Sunday"]),
    ("a new neighbour moved in on our floor, {p}, she {x}, talks to everyone on the stairs",
     "{p} found Ruthi crying at Meskel Square after she got on the wrong minibus and brought "
     "her home in a taxi",
     "the neighbour who {x}, how did she help with my girl",
     ["Emebet Wolde", "Tsion Bekele", "Selamawit Abebe", "Genet Haile", "Meseret Desta"],
     ["sells perfume from her flat", "sings in an evangelical church choir",
      "just came back from working in Beirut", "braids hair on the balcony",
      "runs a beauty salon in Megenagna"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("timket", ["walked behind the tabot to Jan Meda all night with the twins, Beti fell asleep "
                "on my shoulder",
                "the priests threw the blessed water over the crowd at dawn and my new shoes "
                "were ruined",
                "Aunt Askale came down from Debre Markos for Epiphany and made doro wat for "
                "eleven people",
                "Dawit wore the white gabi I bought him and said he looked like an old man"],
     "the baptism holiday in january, what have i told you about it"),
    ("kiremt", ["the road to our block is a river every afternoon, I carry Ruthi across on my "
                "back",
                "the roof leaks over the twins' bed, we put a basin down and it rings all night",
                "two flights diverted to Bahir Dar because of the storms, I didn't eat for eight "
                "hours",
                "hail in Ayat covered the street white like snow, the children threw it at each "
                "other"],
     "the wet season this year, what did i say about it"),
    ("divorce", ["the court postponed the hearing again, Yonas's lawyer didn't show up",
                 "Yonas wants the car and half the condominium even though he has lived in "
                 "Washington for three years",
                 "the elders from both families met at my aunt's house to mediate, it ended "
                 "with shouting",
                 "the judge finally signed, I'm officially single, I cried in the minibus home"],
     "splitting from my ex husband, everything i mentioned about it"),
]

CHAT = ["convert 250 euros to birr",
        "what is the ICAO spelling word for the letter Q",
        "how do you say 'happy new year' in Tigrinya",
        "write a polite note to the condominium office asking them to fix the water pump",
        "a simple shiro recipe for a beginner",
        "is it 'affect' or 'effect' in 'the delay will ___ departures'",
        "how far is Gondar from Addis Ababa by road",
        "explain what a METAR is in one line",
        "when did Ethiopia win its first Olympic gold",
        "a ten-minute stretching routine for sitting all night",
        "ok, ameseginalehu, that helps",
        "one more thing for you"]
REPLIES = ["Happy to, here goes:",
           "Here is one way to put it:",
           "Quick one, then:",
           "Let me lay it out:",
           "This ought to cover it:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["On the light rail home, a man is selling roasted chickpeas down the carriage.",
          "The power went again, I'm typing by the light of my phone.",
          "Aunt Askale just rang to remind me it's a fasting day.",
          "Coffee ceremony at the neighbour's, the frankincense is making my eyes water.",
          "Just off a night shift, still hearing call signs in my head."]
