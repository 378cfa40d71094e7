"""Variant `y` of the dialogue set: a twenty-third check set, written apart from `a` to `x` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Chilean man's, Ignacio "Nacho" Catalán, 46, from Valdivia in
the rainy south of Chile, a chemistry teacher at a public liceo who runs mountain trail races,
throws pots at an evening ceramics workshop and plays charango in a folk group with old
university friends; his wife Caro is a midwife, their son Tomás, 17, is in his last year of
school facing the university admission test, their daughter Anto is 11, and his widowed father,
Don Hernán, 79, lives alone in Osorno: the race he is training for, what is on his potter's
wheel, the song the folk group is rehearsing, what Tomás wants to study, Anto's sport, where
Caro works, what heats the house, who looks in on his father and the extra duty he has taken on
at the liceo; questions are asked as people ask an assistant to remember ("who rang me at dawn
when my old man slipped and went down", "that runner who breeds horses near Paillaco, what went
wrong for him up there"), some lowercase, some without a question mark or apostrophes, some as
a few words ("current charango piece"), a few typos, some in Chilean English with a little
Spanish, from the specific to the vague, and mostly share no content word with the message that
answers them. Sessions run from one exchange to eight over 360 days; small talk may sit before
and after a fact in the same message; rows are one utterance each, among 4,400 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("trailgoal", ["the Huilo Huilo 42k", "the Volcán Osorno skyrace", "the Oncol 21k",
                        "the Cerro Castillo ultra", "the Lican Ray night trail",
                        "the Chiloé coastal 30k"],
          ["signed up for {v} today, 62 thousand pesos entry, Caro says I'm having a midlife "
           "crisis and honestly she may be right",
           "did the reconnaissance run for {v} with the club on Saturday, my calves are "
           "destroyed, I walked down the stairs backwards this morning",
           "got the confirmation email for {v}, bib 214, the mandatory kit list is longer than "
           "my arm"],
          ["the running event i entered that my wife blamed on me turning forty-something, "
           "which race",
           "what was i scouting the course for when my legs hurt so much i had to go down "
           "steps in reverse",
           "for which mountain run did they send me a number and a huge list of gear i have "
           "to carry"],
          ["Bought new trail shoes, the lugs on the old pair were worn flat, the shop on "
           "Picarte had a sale.",
           "Ran in the rain again this morning, in this city if you wait for dry weather you "
           "never train.",
           "My running watch died at kilometre 14 so the app thinks I teleported home."],
          ["withdrew from {old}, the date clashes with Tomás's graduation, so I moved my entry "
           "to {v}",
           "finished {old}! crawled the last bit but finished, and I already registered for {v}, "
           "don't tell Caro"],
          ["which race am i preparing for now",
           "my next big run, whats the current target"]),
    Topic("wheelpiece", ["a set of stoneware mate cups", "a big salad bowl with a tenmoku glaze",
                         "a lidded sugar jar", "a teapot with a cane handle",
                         "a pair of tall beer mugs", "a hanging planter for Caro's ferns"],
          ["on Thursday at the workshop I centred the clay for {v} on the first try, the teacher "
           "actually clapped, first time in four months",
           "{v} came out of the kiln cracked right down the side, three weeks of work, I wanted "
           "to throw it at the wall",
           "gave {v} to Caro for our anniversary, she said she loves it, or she's a good "
           "actress, after twenty years I still can't tell"],
          ["what was i making at pottery the night the instructor applauded me",
           "which of my ceramic things split open after firing",
           "the handmade gift for my wife when we celebrated our years married, what was it"],
          ["Clay under my fingernails for three days, the students think I've taken up "
           "gardening.",
           "The kiln at the workshop is broken again, everyone's pieces are waiting on the "
           "shelves.",
           "Paid the monthly fee for the pottery class, 45 mil, cheaper than therapy."],
          ["{old} is finally glazed and done, so now I'm throwing {v}",
           "abandoned {old}, the walls kept collapsing, the teacher put me on {v} instead"],
          ["what am i working on at the ceramics class now",
           "current thing on my potters wheel?"]),
    Topic("charangotune", ["Gracias a la vida", "Te recuerdo Amanda", "El cautivo de Til Til",
                           "Run Run se fue pa'l norte", "La jardinera",
                           "Volver a los diecisiete"],
          ["the group voted to rehearse {v} for the fonda in September, I have to learn the "
           "charango intro and the fast strumming is killing me",
           "played {v} at my dad's birthday in Osorno, he sang every word and then cried, then "
           "blamed the onion in the empanadas",
           "the guy who teaches charango on YouTube has a tutorial for {v} but he tunes it "
           "differently, I spent an hour confused before I noticed"],
          ["which song is our band doing for the independence day party",
           "what did i play for my old man that made him teary",
           "the tune where the online lesson guy had his strings set up another way, which one"],
          ["Broke a string during practice and the whole group stared at me.",
           "Rehearsal at Pancho's house on Sunday, his wife makes the best sopaipillas.",
           "My fingers are not fast enough for the rasgueo, maybe I'm too old for this."],
          ["we finally have {old} clean, so the group moved on to {v}",
           "dropped {old}, Pancho said it was too sad for a party, now we're practising {v}"],
          ["what song is the folk group on now",
           "current charango piece"]),
    Topic("tomasdegree", ["forestry engineering at the Austral", "medicine in Concepción",
                          "music production in Santiago", "marine biology in Coquimbo",
                          "law at the Católica", "a chef course at INACAP"],
          ["Tomás announced at dinner that he wants to do {v}, Caro dropped her fork, I just "
           "kept eating",
           "went to the university fair with Tomás, he spent two hours at the stand for {v}, "
           "first time I've seen him excited about anything that isn't his phone",
           "Tomás's practice scores should be enough for {v} if he pushes a bit in maths, he "
           "says he will, we'll see"],
          ["what did my son say he wants to study that made my wife drop her cutlery",
           "at the college expo, which program kept my boy glued for hours",
           "which degree do his mock results nearly reach if he improves the numbers part"],
          ["Tomás slept until two again, the admission test is in five months and I'm trying "
           "not to nag.",
           "The parents' meeting for the final year was two hours about the graduation party "
           "and nothing else.",
           "Tomás asked for money for a prep course, 80 lucas a month, these places are a "
           "business."],
          ["Tomás changed his mind again, no more {old}, now it's {v}",
           "after the open day Tomás crossed out {old} and put {v} as his first choice"],
          ["what does tomas want to study now",
           "my sons university plan latest?"]),
    Topic("antosport", ["artistic roller skating", "the school cueca group",
                        "kayaking on the Calle-Calle", "the girls' rugby sevens team",
                        "club swimming at the Parque Harnecker pool",
                        "taekwondo at the community centre"],
          ["Anto begged all summer and now she does {v} three afternoons a week, I'm the taxi",
           "Anto had her first competition in {v} today, she came fourth and talked the whole "
           "way home like she'd won the Olympics",
           "the kit for {v} cost more than my first car, ok I exaggerate, but Anto needs it by "
           "Monday"],
          ["what did my daughter finally get to join after pleading with us for months",
           "what was anto doing when she placed just off the podium and chattered nonstop in "
           "the car",
           "which of my girls hobbies needed gear that cost a fortune"],
          ["Anto lost her third water bottle this term, I'm buying them in bulk now.",
           "Anto wants to skip practice every time it rains, which here is every day.",
           "Left school early to pick Anto up with a stomach ache that vanished in the car."],
          ["Anto stopped {old} because her best friend left, so she signed up for {v}",
           "no more {old} for Anto, she says it's for babies, she's into {v} now"],
          ["what sport is anto doing now",
           "my daughters after school thing these days"]),
    Topic("carounit", ["the delivery ward at the Base hospital", "the rural health post in Corral",
                       "the high-risk pregnancy clinic", "the family health centre in Las Ánimas",
                       "the neonatal unit", "a private clinic on Avenida Alemania"],
          ["Caro started at {v} this week, twelve-hour shifts, so I'm on cooking duty, God "
           "help us",
           "Caro came home from {v} at 9am after delivering triplets in the night, she fell "
           "asleep on the sofa still in her coat",
           "Caro says {v} is so short-staffed she's covering two posts, she hasn't had a proper "
           "lunch in weeks"],
          ["where did my wife begin working when i became the one in charge of meals",
           "where was she the night she helped bring three babies into the world",
           "the place my wife said is so understaffed she does double duty, which one"],
          ["Caro swapped her Sunday shift so we can go to Dad's birthday.",
           "Parking at Caro's work is impossible, she leaves forty minutes early.",
           "Caro says midwives should get danger pay for full moons."],
          ["Caro left {old}, the boss was impossible, she's working at {v} now",
           "Caro got a transfer from {old} to {v}, better hours and less blood on her scrubs "
           "she says"],
          ["where does caro work now",
           "my wife's job location at the moment?"]),
    Topic("househeat", ["a slow-combustion wood stove", "a pellet stove", "a paraffin heater",
                        "an air-to-air heat pump", "a gas heater on a 15-kilo cylinder",
                        "electric oil radiators"],
          ["we bought {v} for the living room, winter down here without heating is not a life, "
           "the installer comes Tuesday",
           "{v} kept the whole house warm last night, first time in years Anto didn't crawl "
           "into our bed at 3am",
           "the bill for {v} came, 90 thousand for one month, I nearly fainted on the doorstep"],
          ["what did we get for keeping the lounge warm, the thing the fitter was coming to "
           "put in",
           "what was it that made the place so cosy my daughter stayed in her own room all "
           "night",
           "which warming thing gave us that shocking monthly charge"],
          ["The council announced another smoke alert day, no burning firewood until 6pm.",
           "Condensation on every window this morning, the bedroom feels like a cave.",
           "Asked about chimney sweeping, 35 lucas, I'll do it myself with a brush from the "
           "ferretería."],
          ["got rid of {old}, the smog rules are getting stricter, we have {v} now",
           "{old} broke down in the middle of July, so we switched to {v}"],
          ["what heats our house now",
           "current heating at home?"]),
    Topic("hernanhelp", ["a carer from the municipal programme", "his neighbour Doña Elba",
                         "my cousin Rodrigo from Río Negro", "a lady from the parish",
                         "a live-in carer named Marisa", "the seniors' day centre on Bulnes"],
          ["Dad finally accepted help, {v} comes three mornings a week to cook and check his "
           "pills, he grumbled but he ate",
           "{v} called me at 7am because Dad had fallen in the bathroom, he's fine, just a "
           "bruise, but my heart",
           "paid {v} for the month, it's a stretch on a teacher's salary but I sleep better "
           "knowing someone looks in on him"],
          ["who did my father eventually let come to the house to make his meals and watch "
           "his medicine",
           "who rang me at dawn when my old man slipped and went down",
           "who do i pay every month so someone keeps an eye on papa"],
          ["Dad refuses to use the walking stick, says it makes him look old, he's 79.",
           "Drove to Osorno and back in one day, two hours each way in the rain.",
           "Dad keeps forgetting to charge his phone, so I panic every time he doesn't "
           "answer."],
          ["{old} can't do it anymore, so now Dad has {v}",
           "Dad said {old} kept moving his things around and sent them away, we found {v} "
           "instead"],
          ["who is helping my dad now",
           "whos looking after papa these days"]),
    Topic("liceoduty", ["the science fair coordination", "the school environmental committee",
                        "the Saturday chemistry prep course", "the lab renovation project",
                        "the student exchange with Bariloche", "the school first-aid brigade"],
          ["the director dumped {v} on me at the staff meeting, nobody else raised a hand, "
           "extra hours and no extra pay, classic",
           "{v} ate my whole weekend, I graded nothing, 120 tests are waiting on the kitchen "
           "table",
           "a parent wrote to the director to complain about {v}, apparently her son had to "
           "stay after 5pm, señora, it's called school"],
          ["what extra task did the head give me when nobody volunteered",
           "which school duty swallowed my saturday and sunday while the exams piled up",
           "what was that mum complaining to the principal about, the thing i run at work"],
          ["Staff meeting went on two hours and the coffee machine was broken.",
           "The teachers' strike vote is next week, I'm still undecided.",
           "Third year B blew up a test tube again, no one hurt, just smoke and screaming."],
          ["handed {old} over to the new teacher, now I'm in charge of {v}",
           "{old} is over for this year, the director gave me {v} next"],
          ["whats my extra job at the liceo now",
           "school side duty im runnning currently"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("every morning the first steps out of bed my heel hurts like stepping on a nail, after a "
     "few minutes it eases. I'm running about 50 km a week on hills. what is this",
     "That pattern, sharp pain under the heel with the first steps in the morning or after "
     "sitting, easing once you get going, is typical of plantar fasciitis, irritation of the "
     "thick band of tissue under the sole where it attaches to the heel bone. It's common in "
     "runners who add volume or a lot of climbing and descending. Cut your weekly distance by "
     "about a third to a half for two or three weeks and drop the steep downhills and fast "
     "sessions, replacing some of it with cycling or swimming, which don't load the heel the "
     "same way. Every day, stretch the calf against a wall with the knee straight and then "
     "bent, 30 seconds several times, and before you get out of bed pull your toes back "
     "towards your shin for a minute. Roll the sole over a frozen water bottle for ten "
     "minutes in the evening. A strengthening exercise that helps a lot is slow heel raises on "
     "a step with a rolled towel under your toes, three sets of twelve every other day. Don't "
     "walk barefoot on hard floors at home, wear supportive shoes, and check the mileage on "
     "your trail shoes, since worn ones lose cushioning. Most cases settle within a few weeks "
     "to a few months if you keep at it. See a doctor or physiotherapist if it isn't improving "
     "after about six weeks, if the pain is there at rest or at night, if there's swelling, "
     "numbness or tingling, or if it started suddenly with a pop, which can mean a tear.",
     "the foot thing where getting up was agony, what did you recommend"),
    ("there's black mould growing on the bedroom walls and in the ceiling corners, we wipe it "
     "with bleach and two weeks later it's back. Anto has started coughing at night",
     "Mould keeps coming back because the cause is moisture, and bleach only cleans the "
     "surface. In a cold, wet climate the usual culprit is condensation: warm, humid indoor "
     "air meets cold walls and corners, especially on outside walls and behind furniture. So "
     "the fix is less moisture and warmer surfaces. Ventilate every day, even in winter: open "
     "windows wide for ten minutes in the morning and evening rather than leaving them "
     "slightly open all day, and always after showers and cooking, with extractor fans if you "
     "have them. Dry laundry outside or in a tumble dryer, not on racks indoors. Paraffin and "
     "gas heaters without a flue put a lot of water vapour into the air, so use them as little "
     "as possible in bedrooms. Keep furniture a hand's width from outside walls, don't stuff "
     "wardrobes, and keep the house at a steady moderate temperature instead of cold rooms "
     "heated in bursts. A cheap hygrometer helps: aim for 40 to 60 percent humidity, and a "
     "dehumidifier in the worst room can make a big difference. To clean, wear gloves and a "
     "mask, scrub with water and detergent or a diluted vinegar solution, dry the wall well, "
     "and replace mouldy silicone or badly affected wallpaper; afterwards an anti-mould paint "
     "helps, but only once the damp is under control. Check for leaks too, such as gutters, "
     "roof or a damp patch that stays wet in dry weather. Mould can trigger coughing and "
     "asthma in children, so move Anto's bed away from the affected wall, and have her seen "
     "by a doctor if the cough lasts more than a couple of weeks, she wheezes, or she gets "
     "short of breath.",
     "the dark fungus on the walls in the kids room, how did you say to beat it for good"),
    ("my pots keep getting an S-shaped crack in the bottom after they dry, not every time but "
     "often. where am I going wrong",
     "An S-crack in the base almost always comes from the bottom drying and shrinking "
     "unevenly, and from clay particles in the base not being compressed. When you throw, "
     "water collects in the bottom of the pot and softens the clay there, so the base stays "
     "wetter than the walls and then pulls apart as it dries. Sponge out or soak up the "
     "puddle in the bottom as you go, and don't leave standing water in the pot at the end. "
     "Compress the base on the wheel: after opening, press and run your fingers or a rib "
     "across the floor from the centre outwards and back a few times, which aligns the "
     "particles and closes weak spots. Don't make the base much thicker than the walls, and "
     "avoid a thick hump in the middle. Cut the pot off the wheel with the wire pulled tight, "
     "and once it's leather-hard, turn it upside down so the base can dry at the same rate as "
     "the rim; drying slowly, loosely covered with plastic, on a surface that lets air reach "
     "the bottom, such as a board or a plaster bat, also helps. When trimming, compress the "
     "foot again with a rib. If it still happens with the same clay, try wedging more "
     "thoroughly, or a groggier body that shrinks less.",
     "why do the bases of my clay pieces split in that squiggle shape, what was your "
     "explanation"),
    ("Tomás can't sleep in the weeks before the university admission test, he's irritable, "
     "barely eating and says he'll fail anyway so why study. how can I help without making "
     "it worse",
     "A lot of what you describe is normal exam stress, and the most useful thing you can be "
     "is calm and steady rather than another source of pressure. Talk to him when things are "
     "quiet, in the car or while cooking, and mostly listen: ask how he's feeling about it "
     "and accept what he says without rushing to fix it or telling him not to worry. Make it "
     "clear that your opinion of him doesn't depend on a score, and that there are several "
     "routes into what he wants to do, including sitting the test again, so one morning "
     "doesn't decide his life. Help with structure instead of more study: a realistic "
     "timetable with breaks, a cut-off time in the evening, and some exercise every day, "
     "which is one of the best things for both sleep and anxiety. For sleep, screens off an "
     "hour before bed, no coffee or energy drinks after lunch, and the same wake-up time "
     "every day. Keep meals regular and put easy food he likes within reach rather than "
     "arguing about eating. Avoid comparing him with classmates or repeating how important "
     "the test is; he knows. If his 'I'll fail anyway' turns into hopelessness, if he "
     "withdraws from friends, stops eating for days, has panic attacks, or you hear anything "
     "about hurting himself, get help quickly, through his school counsellor, a GP or a "
     "psychologist, and in an emergency go to the nearest emergency service.",
     "when my boy was a mess over his big entrance exam, what did you tell me to do as his "
     "dad"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("the new physics teacher at the liceo is {p}, she {x}, the students already adore her",
     "{p} put out a fire in the lab when a kid knocked over the alcohol burner, she had the "
     "blanket on it before I'd even turned around and then finished her class like nothing "
     "happened",
     "the colleague who {x}, how did she save the day in the science room",
     ["Javiera", "Macarena", "Constanza", "Fernanda", "Catalina"],
     ["worked at an observatory up north before", "rides a motorbike in from Niebla",
      "plays bass in a metal band", "did her doctorate in Germany",
      "has twin babies at home"]),
    ("new guy in our trail group, {p}, he {x}, quiet but an animal on the climbs",
     "{p} rolled his ankle on the descent at kilometre 18, I gave up my own race and walked "
     "him down to the aid station, took us almost two hours, he owes me a beer forever",
     "that runner who {x}, what went wrong for him up there",
     ["Cristóbal", "Matías", "Gonzalo", "Benjamín", "Sebastián"],
     ["is a dentist in Los Lagos", "breeds horses near Paillaco",
      "once crossed the Atacama on foot", "is only twenty-three",
      "used to race bicycles professionally"]),
    ("met {p} at the pottery workshop, she {x}, her bowls are perfect and mine look like "
     "ashtrays",
     "{p} lent me her old kick wheel for the holidays, drove it over in her pickup herself, "
     "now it's in the garage and Caro says I'll never come out",
     "the lady from the clay class who {x}, what did she do for me",
     ["Señora Nelly", "Doña Teresa", "Paz", "Pilar", "Ximena"],
     ["taught art in Punta Arenas for thirty years", "sells her pieces at the river market",
      "is 82 and still works every day", "makes urns for the funeral home",
      "learned her craft in Japan"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("weather", ["it rained 19 days straight, the patio is a swamp and my running shoes never "
                 "dry",
                 "the wind took our umbrella and the neighbour's trampoline into the street, I "
                 "chased the trampoline half a block in my slippers",
                 "water came in under the front door again, we blocked it with towels and "
                 "Caro's old yoga mat",
                 "the sun came out for one afternoon and the whole city was on the riverside "
                 "walk like it was a public holiday"],
     "what have i moaned to you about the endless wet and wind this year"),
    ("dadvisits", ["took Dad to the cardiologist in Osorno, waited four hours for a ten "
                   "minute appointment",
                   "Dad made his famous cazuela when I visited, far too much salt but I ate "
                   "two plates",
                   "found a yoghurt from March in Dad's fridge, we had a long talk about "
                   "throwing food out",
                   "Dad showed me photos from when he worked on the railway, I'd never seen "
                   "them, he was so handsome"],
     "the things that happened when i went to see my father, everything i mentioned"),
    ("pupils", ["a kid in second year asked me if chemistry is real or just something "
                "teachers made up",
                "my worst class surprised me with a cake on Teachers' Day, I had to pretend I "
                "had dust in my eye",
                "caught a boy using a chatbot for his lab report, it cited a book that doesn't "
                "exist",
                "a former student came to visit, she's a pharmacist now and says she still "
                "remembers my titration jokes"],
     "stories about the teenagers i teach, what did i share with you"),
]

CHAT = ["roughly how much is 3 UF in pesos",
        "soft boiled egg, how many minutes in the pot",
        "whats the difference between affect and effect again",
        "a rhyme for corazon for a birthday card",
        "is 7 degrees and drizzle too cold to run in shorts",
        "write me two lines to cancel a dentist appointment",
        "how many hours of sleep does an 11 year old need",
        "what temperature does water boil at 1000 metres up",
        "ok thanks, next one",
        "gracias po",
        "how do i get candle wax off a tablecloth",
        "quick, how do you spell conscientious"]
REPLIES = ["Claro, here it is:",
           "Easy one, so:",
           "Right, the short version:",
           "Sí, quickly:",
           "Okay, here's what I'd say:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["In the staff room between classes.", "Waiting in the car outside Anto's practice.",
          "Rain hammering on the roof again.", "Just back from a run, still sweaty.",
          "Sunday once with bread and avocado on the table."]
