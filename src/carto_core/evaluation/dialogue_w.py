"""Variant `w` of the dialogue set: a twenty-first check set, written apart from `a` to `v` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Durban man's, Kevin Naidoo, 53, from Chatsworth, who owns a
small independent pharmacy in Durban North, paddles a surf-ski with a club off the beachfront,
grows bonsai and cooks the family's Sunday lunch; he is married to Shanthi, a primary-school
principal, their daughter Meera, 24, is in her last years of medicine in Cape Town, their son
Rishen, 19, is finding his feet after school, and his mother, Amma, 81, stays with one of her
children after another: the event he is training for on the ski, the tree on his bonsai
bench, the block Meera is doing at medical school, where Rishen works, the job on the house,
the dish he is perfecting, where Amma is staying, where he is taking Shanthi for their
thirtieth anniversary and what the pharmacy cannot get from the wholesaler; questions are
asked as people ask an assistant to remember ("what pot did i scorch during the sharks game",
"the weekend locum who moved down from Polokwane, what did she catch"), some lowercase, some
without a question mark or apostrophes, some as a few words ("stock problem now?"), a few
typos, some in South African English, from the specific to the vague, and mostly share no
content word with the message that answers them. Sessions run from one exchange to eight over
365 days; small talk may sit before and after a fact in the same message; rows are one
utterance each, among 4,200 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("skievent", ["the Dusi", "the Fish River Marathon", "the Cape Point Challenge",
                       "the Umhlanga Pier-to-Pier", "the Breede River Canoe Marathon",
                       "the Gqeberha Downwind"],
          ["I've gone and entered {v}, first proper race since I turned fifty, Shanthi thinks "
           "I've lost the plot",
           "did a 25km training paddle for {v} this morning, my backside is numb and I saw my "
           "whole life flash past at the backline",
           "club had the briefing for {v} tonight, the organisers put up a map with 'dangerous' "
           "written on it four times"],
          ["which event did i sign up for that my wife says proves im having a midlife crisis",
           "what was that long session on the water for, the one where i couldnt feel my bum "
           "after",
           "the one where the organisers kept warning us about the course, what was it called"],
          ["Snapped my paddle shaft in the shorebreak, R3,500 down the drain.",
           "Club time trial cancelled, the swell was too big and the lifeguards closed the "
           "beach.",
           "My shoulder clicks every time I reach forward, the physio says it's fine, I say it's "
           "not."],
          ["pulled out of {old}, it clashes with my cousin's wedding, so I've entered {v} "
           "instead",
           "the club committee talked me out of {old}, too much for an old toppie they say, so "
           "I'm training for {v} now"],
          ["what am i training for these days on the ski",
           "current paddle event?"]),
    Topic("bonsaibench", ["a Natal fig", "a Chinese elm", "a trident maple", "a wild olive",
                          "a buffalo thorn", "a Japanese black pine"],
          ["spent all Sunday wiring {v}, Shanthi brought me tea three times and I didn't notice "
           "any of them",
           "the bonsai society judged {v} second best in the novice section, I am unreasonably "
           "proud",
           "the hadedas knocked {v} off the stand, soil all over the patio and a branch snapped, "
           "I could have wept"],
          ["what was the little tree i fiddled with the whole weekend and let my cuppa go cold",
           "which of my trees came runner up at the club show",
           "those noisy ibises, which of my pots did they send flying"],
          ["Ordered a new set of concave cutters from Japan, customs is holding them hostage.",
           "Bonsai society meeting tonight, the same three men argue about soil every single "
           "month.",
           "Forgot to water the pots before the long weekend, one looks very sorry for itself."],
          ["gave {old} to my brother for his birthday, the one I'm spending my evenings on now "
           "is {v}",
           "root rot got {old}, had to chuck it. started again with {v}"],
          ["which bonsai is on my bench at the moment",
           "main tree im working on now?"]),
    Topic("meerablock", ["paediatrics", "obstetrics", "psychiatry", "general surgery",
                         "family medicine", "orthopaedics"],
          ["Meera started her {v} block at Groote Schuur, she phoned at 11pm still in her scrubs "
           "and fell asleep mid sentence",
           "Meera says {v} is the one for her, she's never been so excited about anything, even "
           "the 4am ward rounds",
           "Meera's consultant on {v} made her cry on day one, I wanted to get on a plane and "
           "have words"],
          ["which part of the course was my daughter doing when she dozed off on the phone to me",
           "what does meera want to specialise in, the thing she was so fired up about",
           "the senior doctor who reduced my girl to tears the first day, what rotation was that"],
          ["Meera's exams are in three weeks, she's living on rooibos and two-minute noodles.",
           "Flights to Cape Town are ridiculous this month, R4,000 return.",
           "Meera phoned for money again, the rent on her digs in Observatory went up."],
          ["Meera finished {old} on Friday, thank goodness, she starts {v} on Monday",
           "Meera's timetable changed, no more {old}, the faculty has moved her onto {v}"],
          ["which rotation is meera on now",
           "my daughters current block at med school?"]),
    Topic("rishengig", ["an electrical contractor in Pinetown", "a boatyard in the harbour",
                        "his uncle's panel beating shop", "a call centre in Umhlanga Ridge",
                        "a surf shop on the beachfront", "a steakhouse on Florida Road"],
          ["Rishen finally got a job, he's starting at {v} on Monday, Shanthi cried, I nearly "
           "did",
           "Rishen came home from {v} and fell asleep at the dinner table with his fork in his "
           "hand",
           "Rishen got his first pay from {v} and bought us all lunch, first time he's paid for "
           "anything in nineteen years"],
          ["where did my boy get taken on, the news that made his mother weep",
           "where was rishen working when he conked out over his supper",
           "whre did the kid earn the money when he treated the family"],
          ["Rishen still hasn't got his licence, failed the yard test again.",
           "Rishen sleeps till eleven on his off days, the boy is nocturnal.",
           "Rishen's talking about going to work in the UK like his cousins."],
          ["Rishen's left {old}, he says the boss was a crook, now he's at {v}",
           "no more {old} for Rishen, his friend got him in at {v}, more money apparently"],
          ["where does rishen work now",
           "sons job these days"]),
    Topic("homebuild", ["putting solar panels on the roof", "rebuilding the boundary wall",
                        "retiling the main bathroom", "replacing the electric fence",
                        "waterproofing the flat roof", "building a proper braai area"],
          ["the guys started {v} today, there's dust in places I didn't know we had",
           "{v} is costing double the quote, the contractor keeps finding 'surprises'",
           "Shanthi and I had our biggest fight in years over {v}, she wanted to get a guy in, I "
           "wanted to do it myself"],
          ["whats the work at home that left grit all over the house",
           "which home project blew way past what the builder said it would cost",
           "what did me and my wife have that massive argument about, diy or pay someone"],
          ["Rates bill came, it's gone up again and they still haven't fixed the pothole.",
           "Got three quotes for the job at home and they're R40,000 apart.",
           "The builder's bakkie has been parked on our verge for a week, no builder in sight."],
          ["{old} is finally done, so of course Shanthi has me onto {v} now",
           "we've put {old} on hold till after the holidays, doing {v} first because it can't "
           "wait"],
          ["whats the current job on the house",
           "what are we busy with at home now"]),
    Topic("sundaypot", ["mutton breyani", "trotters and beans", "prawn curry", "sugar bean curry",
                        "crab curry", "masala steak"],
          ["made {v} for the family Sunday lunch, Amma said it was 'not bad', which from her is a "
           "standing ovation",
           "burnt the bottom of {v} because I was watching the rugby, the whole house smells like "
           "a bonfire",
           "Shanthi's brother asked for my {v} recipe, I told him it's a family secret, really I "
           "just guess every time"],
          ["what did i cook that finally got a compliment of sorts from my mother",
           "what pot did i scorch during the sharks game",
           "my brother in law wanted my secret method for which dish"],
          ["Bought a new 10 litre pot at the Victoria Street market, Shanthi asked where exactly "
           "I plan to keep it.",
           "The spice shop I've used for twenty years has closed down, I'm devastated.",
           "Family lunch is at our place this Sunday, eighteen people confirmed so far."],
          ["everybody's sick of my {old}, so this month I'm practising {v} for Diwali",
           "moved on from {old}, Amma's teaching me her {v} now before she forgets how"],
          ["whats the dish im working on at the moment",
           "what am i perfecting in the kitchen now"]),
    Topic("ammastay", ["my brother Dev's place in Phoenix",
                       "my sister Leela's flat in Pietermaritzburg",
                       "the frail care unit in Reservoir Hills",
                       "the granny flat behind our house", "my cousin's house in Tongaat",
                       "the retirement village in Westville"],
          ["Amma's moved to {v} for now, she took her pressure cooker and her lamp and prayer "
           "things and nothing else",
           "visited Amma at {v}, she'd reorganised the whole kitchen and was bossing everyone",
           "Amma fell in the bathroom at {v}, just bruises thank God, but I didn't sleep that "
           "night"],
          ["where did my mother go off to with only her cooker and her gods",
           "where was amma staying when she took over running the place",
           "where did my mom have that slip, the night i couldnt sleep"],
          ["Amma's 81 next month, she wants a party and no fuss at the same time.",
           "Amma's blood pressure was high at the clinic, she says the nurse was rude so it "
           "doesn't count.",
           "Amma phoned me five times today to ask if I'd eaten."],
          ["Amma's moved out of {old}, she said she felt like a visitor there. she's at {v} now",
           "we've moved Amma from {old} to {v}, it's closer and somebody is with her all day"],
          ["where is amma living now",
           "moms current place?"]),
    Topic("pearltrip", ["Mauritius", "the Drakensberg", "Zanzibar", "the Kruger Park", "Kerala",
                        "the Garden Route"],
          ["booked our 30th anniversary trip, {v}, Shanthi doesn't know yet, I'm going to tell "
           "her at dinner",
           "Shanthi's been reading up on {v} every night, she's got a spreadsheet and I've been "
           "given a packing list already",
           "paid the deposit for {v}, non-refundable, so God help us if there's another strike "
           "at the airport"],
          ["where is the surprise getaway for the thirty years, the one my wife hadnt heard "
           "about yet",
           "the place shanthi made a whole excel sheet about, where was it",
           "where did i put down money i cant get back"],
          ["Need to renew my passport before the trip, Home Affairs queue was out the door.",
           "Shanthi wants a new suitcase, the old one lost a wheel at OR Tambo.",
           "Thirty years married in March, where did the time go."],
          ["cancelled {old}, the flights were a nightmare, we're doing {v} for the anniversary "
           "instead",
           "Shanthi vetoed {old}, her sister went last year and won't stop talking about it, so "
           "now it's {v}"],
          ["where are we going for the anniversary now",
           "30th trip destination latest"]),
    Topic("backorder", ["insulin pens", "amoxicillin syrup", "the flu vaccine",
                        "salbutamol inhalers", "the contraceptive injection", "Ritalin"],
          ["wholesaler says {v} is on back order till next month, I had to send six people away "
           "today",
           "spent my whole lunch phoning every pharmacy from Umhlanga to Amanzimtoti looking for "
           "{v}",
           "a customer shouted at me for ten minutes because we'd run out of {v}, and honestly "
           "she was right"],
          ["what is the supplier not able to get me till next month",
           "what was i ringing around the whole coast trying to find on my lunch break",
           "the lady who gave me a mouthful at the counter, what did she want that we didnt "
           "have"],
          ["The annual medicine price increase came through, I'm relabelling half the shop.",
           "My Saturday locum cancelled again, I'm working seven days this week.",
           "Medical aid rejected another claim on a technicality, third one this week."],
          ["{old} is finally back on the shelves, but now the wholesaler can't get {v}, it never "
           "ends",
           "sorted out {old} through another supplier, now it's {v} we can't get"],
          ["whats the pharmacy short of at the moment",
           "stock problem now?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("got stung by a bluebottle paddling in this morning, my whole forearm is burning and "
     "there's a red whip mark. what do I do, some oke on the beach said pee on it",
     "A bluebottle sting is very painful, but in South Africa it is rarely dangerous. Get out "
     "of the water first and don't rub the area, which can make more of the stinging cells "
     "fire. Pick off any tentacles still stuck to you with tweezers or a gloved hand, or rinse "
     "them off with seawater rather than fresh water. Forget peeing on it: urine doesn't help "
     "and can make it worse, and vinegar isn't recommended for bluebottles either. The "
     "treatment with the best evidence for the pain is heat: soak the arm in water as hot as "
     "you can comfortably stand, around 45 degrees, for about 20 minutes, or hold it under a "
     "hot shower, testing the temperature with your other hand so you don't scald yourself. "
     "If there's no hot water, an ice pack wrapped in a cloth helps. Paracetamol or ibuprofen "
     "takes the edge off, and an antihistamine or a mild hydrocortisone cream can help with "
     "the itching later. The pain usually settles within a few hours and the red welts within "
     "a day or two, though marks can last longer. Get medical help straight away if you have "
     "trouble breathing, chest pain, swelling of the face or lips or feel faint, or if the "
     "pain spreads and gets worse rather than better; see a doctor too if the skin blisters "
     "or later looks infected. On days with a strong onshore wind, when they wash in, a "
     "long-sleeved rash vest is worth wearing on the ski.",
     "that jellyfish thing that got me in the sea, what did you say to put on it"),
    ("load shedding is killing me at the pharmacy. the vaccine fridge is meant to stay between "
     "2 and 8 but in a four hour outage it creeps up. what should I be doing to protect the "
     "stock",
     "The goal is to keep vaccines between 2 and 8 degrees and to know for certain if they "
     "ever weren't. Get the fridge onto backup power first: an inverter and battery or a UPS "
     "sized for the fridge's load, or a generator, so it keeps running through every stage. "
     "A purpose-built pharmaceutical fridge holds its temperature far better than a domestic "
     "one if you ever replace it. During an outage keep the door shut; a full, closed fridge "
     "can hold its temperature for a couple of hours. Fill empty shelves and the bottom with "
     "bottles of chilled water, which act as a buffer, and don't keep vaccines in the door, "
     "in the vegetable drawer or against the back wall, where it runs warm or cold enough to "
     "freeze them. Use a continuous data logger with an alarm rather than only reading the "
     "thermometer twice a day, so you see exactly how high it went and for how long. Keep "
     "cold boxes and conditioned ice packs ready for a long outage, with a thermometer in "
     "the box, and never put frozen packs straight against the vials, since freezing ruins "
     "many vaccines. Check the schedule and pack stock into the cold box before a long slot "
     "if the fridge can't run. If a reading goes outside 2 to 8, don't throw the stock away "
     "and don't use it: label it 'do not use', keep it refrigerated, record the temperatures "
     "and the duration, and ask the manufacturer or your provincial cold-chain contact "
     "whether it is still usable. Write it all into a short procedure so your staff know what "
     "to do when you're not there.",
     "how to keep the jabs cold at work when the power goes, remind me what you said"),
    ("I repotted my ficus bonsai two weeks ago and cut back the roots a bit, and now it's "
     "dropping leaves all over the place. did I kill it",
     "Probably not. Figs are notorious for dropping leaves when anything changes, and "
     "repotting with root pruning is a big change, so this is usually shock rather than the "
     "tree dying. The main thing is to leave it alone so it can grow new roots. Keep it in "
     "bright light but out of hot direct sun and wind for two or three weeks, because the "
     "reduced roots can't keep up with the water the leaves lose. Water when the top of the "
     "soil is just starting to dry, thoroughly so that it runs out of the drainage holes, but "
     "don't keep it soggy: the common mistake is to water more when leaves fall, and "
     "waterlogged cut roots rot, which is what really kills them. Make sure the holes aren't "
     "blocked. Don't feed it until you see new growth, usually in four to six weeks, because "
     "fertiliser can burn freshly cut roots, and don't prune or wire it meanwhile. A humidity "
     "tray or misting helps in a dry, windy spell. Scratch a twig gently with a fingernail: "
     "if it's green and the branches are still flexible, it's alive and will almost certainly "
     "push new leaves. If the trunk goes soft or the soil smells sour, unpot it and check for "
     "rot. Next time, repot figs in the warm months when they are growing strongly, in spring "
     "or early summer, and they recover much faster.",
     "my little tree going bald after i changed its pot, what was your advice"),
    ("Shanthi says my snoring has got so bad she's moved into Meera's old room. I'm 53 and a "
     "bit heavier than I should be. anything I can actually do about it",
     "Snoring that bad is worth taking seriously, for Shanthi's sleep and for your own "
     "health. First rule out obstructive sleep apnoea, which is common in men in their fifties "
     "carrying extra weight: ask Shanthi whether you stop breathing for a few seconds and then "
     "gasp or snort, and think about whether you wake up unrefreshed, with morning headaches, "
     "or nod off in the day or at the wheel. If any of that sounds familiar, see your GP, who "
     "can refer you for a sleep study; untreated apnoea raises the risk of high blood "
     "pressure, heart disease and accidents, and treatment such as a CPAP machine works very "
     "well. For plain snoring there is a lot you can do. Losing even a few kilos reduces the "
     "tissue around the throat. Avoid alcohol for three or four hours before bed, and "
     "sleeping tablets, since both relax the throat muscles. Sleep on your side rather than "
     "your back: a body pillow, or a tennis ball sewn into the back of a T-shirt, helps you "
     "stay there, and raising the head of the bed a little can help. Treat a blocked nose, "
     "with a saline rinse or nasal strips, and see a doctor if it's blocked all the time. "
     "Stop smoking if you smoke. A dentist can also fit a mandibular advancement device, a "
     "mouthguard that holds the lower jaw forward, which helps many snorers. Try a few of "
     "these for a few weeks and ask Shanthi to report back.",
     "the wife moved rooms because of my noise at night, what were the things you suggested"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("new chap at the paddling club, {p}, he {x}. strong as an ox, no technique whatsoever",
     "{p} fell off his ski in the surf zone on the Sunday downwind, the ski carried on to "
     "Mozambique without him and the rescue boat had to fetch him. he bought the whole club "
     "breakfast afterwards to make up for it",
     "the club guy who {x}, what happened to him out on the water",
     ["Ryno", "Sbu", "Dirk", "Riaan", "Lwazi"],
     ["used to play prop for the Sharks", "fixes lifts in the city", "drives a tow truck at "
      "night", "builds model ships in bottles", "has run nine Comrades"]),
    ("new locum for Saturdays, {p}, she {x}. very sharp, talks a mile a minute",
     "{p} spotted a forged script for codeine, a really good fake, phoned the doctor to check "
     "and the guy ran out of the shop leaving his ID book on the counter",
     "the weekend locum who {x}, what did she catch",
     ["Nompumelelo", "Farzana", "Marelize", "Thandeka", "Kershnee"],
     ["used to work on a cruise ship", "is doing her masters at night",
      "moved down from Polokwane", "sings in a gospel choir", "trained at a hospital in "
      "Pretoria"]),
    ("new member at the bonsai society, {p}, he {x}. quiet oke but he knows his stuff",
     "{p} gave me a cutting off his forty-year-old tree, wrapped in wet newspaper in a "
     "Checkers packet. best present I've had in years",
     "the bonsai guy who {x}, what did he give me",
     ["Mr Pillay", "Hennie", "Ashwin", "Mr Moodley", "Bongani"],
     ["was a dentist for forty years", "repairs watches at the Workshop",
      "grew up on a sugar farm in Zululand", "keeps koi in his old swimming pool",
      "worked at the airport for customs"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("powercuts", ["stage 6 tonight, sat in the dark eating cold roti and listening to the "
                   "rugby on the car radio",
                   "the gate motor battery died in the outage and I had to climb over my own "
                   "wall in my work clothes",
                   "lost a whole freezer of Amma's frozen curries after the power was off for "
                   "eleven hours",
                   "bought an inverter and two batteries, R28,000, Shanthi says the lights had "
                   "better never go off again"],
     "all the ways the power cuts messed us around this year, what have i told you"),
    ("gardenraiders", ["the vervet monkeys got into the kitchen again, took a bunch of bananas "
                       "and a loaf of bread and sat on the roof eating it in front of me",
                       "had to call the snake catcher, there was a mamba in the hedge by the "
                       "gate, he bagged it in two minutes after I'd stood there for an hour",
                       "a mongoose keeps digging up Shanthi's seedlings every night, she's "
                       "put chilli powder everywhere",
                       "a spotted eagle owl sits on the TV aerial every night hooting, Amma "
                       "says it's bad luck and wants it gone"],
     "what creatures have been giving us grief round the house, all of them"),
    ("seasightings", ["a pod of dolphins surfed the swell right next to me off Umhlanga, must "
                      "have been fifty of them",
                      "saw a humpback breach about 200m in front of me this morning, nearly "
                      "fell off the ski",
                      "a big shadow went under me off the lighthouse, told myself it was a "
                      "ray, paddled home very fast",
                      "the sardine run came through, gannets diving everywhere and sharks in "
                      "the backline, they closed the beaches"],
     "what have i spotted in the ocean while out paddling, everything i mentioned"),
]

CHAT = ["whats the difference between baking soda and baking powder",
        "can you convert 350 fahrenheit to celsius, its an american recipe",
        "how do i get turmeric stains out of a white shirt",
        "one more question for you",
        "thanks my bru",
        "how do you say happy birthday in zulu",
        "is it true you shouldnt swim straight after eating",
        "what day of the week was 14 march 1996",
        "is a tablespoon three teaspoons or four, i can never remember",
        "best way to keep coriander fresh in the fridge",
        "when do you use affect and when effect, i always mix them up",
        "how do i stop my glasses fogging up when i wear a mask"]
REPLIES = ["Sharp, here's the short answer:",
           "Sure, in a nutshell:",
           "Happy to, briefly:",
           "Okay, here's how it works:",
           "Of course, the basics:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Sitting in the bakkie outside the shop.", "Quiet moment behind the dispensary counter.",
          "Just back from the beach, still salty.", "Shanthi's at a school meeting tonight.",
          "Power's off again, typing by torchlight."]
