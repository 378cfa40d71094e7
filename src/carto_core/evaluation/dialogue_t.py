"""Variant `t` of the dialogue set: an eighteenth check set, written apart from `a` to `s` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one young Leicester woman's, Jaspreet "Jas" Sandhu, 29, from
Rushey Mead, a paramedic on nights who took up skateboarding at twenty-eight, keeps a reef
aquarium in the lounge of the flat and is planning her wedding to Callum, a shift manager at the
crisp factory: the ambulance station she is based at, the trick she is learning at the
skatepark, the newest creature in the tank, what has gone wrong with the tank, where the
reception will be, who is doing the wedding food, where her hen weekend is, the course she is
doing through work and where the honeymoon is; questions are asked as people ask an assistant
to remember ("who did his dad have a row with over gravy", "the reef group person who's a vicar
in Syston, what happened with the stuff they sold me"), some lowercase, some without a
question mark, some as a few words ("reef problem now??"), a few typos and texting habits, some
in East Midlands English, from the specific to the vague, and mostly share no content word
with the message that answers them. Sessions run from one exchange to eight over 365 days;
small talk may sit before and after a fact in the same message; rows are one utterance each,
among 3,900 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("ambobase", ["Hinckley station", "the Loughborough hub", "Market Harborough station",
                       "the Coalville base", "Melton station", "the Oakham standby point"],
          ["got moved to {v} for the next rota block, thats a 40 min drive at 6pm in rush hour "
           "ffs",
           "first night at {v} and the kettle is older than me, someones labelled it 'do not "
           "descale, its load bearing'",
           "{v} has the best crew room in the county ngl, theres a massage chair someone "
           "liberated from a hotel"],
          ["which station did they shove me on for the new rota, the one thats a long drive in "
           "at teatime",
           "where was I working with the ancient kettle nobody's allowed to clean",
           "the place with the comfy massage seat in the staff room, where was that?"],
          ["Rota's out for next month, four on four off, nights again obvs.",
           "The motor had no heater last night, I was frozen solid by 3am.",
           "Manager wants everyone to do the new fire safety e-learning by Friday, like we've "
           "got time."],
          ["they've moved me off {old}, I'm at {v} from monday. new crew room, new faces, new "
           "vending machine to figure out",
           "bye bye {old}, I'm based out of {v} now. closer to home at least"],
          ["which station am I based at now?",
           "where am i working out of atm"]),
    Topic("skatetrick", ["an ollie", "a kickturn", "a pop shove-it", "rock to fakie",
                         "a fifty-fifty grind", "a tic-tac"],
          ["been trying {v} for three weeks at the park and ive got a bruise on my bum shaped "
           "like Rutland",
           "LANDED {v}!!! first time, clean, the kids at the park actually clapped. 29 years "
           "old and im screaming",
           "Callum filmed me attempting {v} and I look like a giraffe on ice, hes only gone and "
           "put it on the family group chat"],
          ["what move have i been working on for weeks that left me with a county shaped bruise",
           "the thing I finally nailed that got a round of applause off the little ones",
           "What was I trying in the clip my fiance leaked to the whole family lol"],
          ["Bought new bearings for the board, apparently mine were 'crunchy'.",
           "Park was rammed with scooter kids today so I just sat on the ramp and ate a cob.",
           "Wrist guards arrived, I look like something out of Robocop."],
          ["got {old} down now so the next one is {v}. youtube tutorials on loop",
           "giving up on {old} for now, my ankles cant take it. working on {v} instead"],
          ["what trick am i learning now",
           "skateboard trick atm?"]),
    Topic("reefcritter", ["a pair of clownfish", "a yellow tang", "a mandarin dragonet",
                          "a flame angel", "a cleaner shrimp", "a royal gramma"],
          ["added {v} to the tank today!! sat on the floor watching for an hour instead of "
           "going to bed",
           "{v} is hiding in the rockwork and wont come out, forty quid on something I cant even "
           "see",
           "Callum has named {v} Gordon. I said no names. weve had it two days and its called "
           "Gordon"],
          ["what did i put in the aquarium that had me sat on the carpet for ages when i "
           "should've been asleep",
           "whats the new resident that won't leave the rocks, the pricey one i never get to see",
           "which creature did my fella christen Gordon?"],
          ["Water change done, 20 litres, back's killing me.",
           "Fish shop in Syston has a sale on. Must not go. Must not go.",
           "Salinity was a bit high so I've been topping up with RO water."],
          ["rehomed {old} with a bloke off the forum, it was bullying everyone. got {v} instead",
           "lost {old} overnight, gutted. went out and got {v} to cheer myself up"],
          ["whats the latest thing I added to the reef",
           "newest fish or whatever in my tank?"]),
    Topic("tankwoe", ["a cyano outbreak", "aiptasia everywhere", "a hair algae explosion",
                      "sky high nitrates", "white spot on the fish", "a bristleworm plague"],
          ["tank's got {v} and I've no idea where it came from, everything looks manky",
           "the man at the shop says {v} is from overfeeding. Callum says thats my fault. it IS "
           "my fault",
           "spent my whole rest day fighting {v}, the lounge smells like a harbour"],
          ["what was going wrong in the aquarium that had it looking grim out of nowhere",
           "What did the shop guy blame on me chucking too much food in",
           "the problem in the tank that ate my entire day off, what was it"],
          ["Tested the water again, the colours on the kit are impossible to read at 4am.",
           "New light for the tank, it's basically a sunbed for coral.",
           "The return pump is making a noise like a fridge dying."],
          ["finally beat {old} but now theres {v}. this hobby hates me",
           "{old} has gone, thank god. new problem tho: {v}"],
          ["whats the latest drama in my tank",
           "reef problem now??"]),
    Topic("receptionvenue", ["the Athena on Queen Street", "Beaumanor Hall",
                             "a marquee on his uncle's farm in Rutland", "Stapleford Park",
                             "a barn near Foxton Locks", "the Platinum Suite in Belgrave"],
          ["we've put the deposit down on {v} for the reception!! 400 guests, mum's already "
           "crying",
           "went to look round {v} and Callum's mum asked the manager if the chandeliers were "
           "real. I wanted the floor to swallow me",
           "{v} said the dhol players can come in through the main doors, sold, done, booked"],
          ["where have we paid up front for the party after the ceremony",
           "which place did his mum show me up at, asking about the light fittings",
           "the venue thats fine with drummers marching in the entrance, which one was it"],
          ["Wedding spreadsheet now has 14 tabs. FOURTEEN.",
           "Mum and Callum's mum were on a video call about seating plans for two hours, I'm "
           "not getting involved.",
           "Table centrepieces cost how much?? It's flowers in a jar."],
          ["we've pulled out of {old}, they double booked us. it's {v} now, deposit paid, done",
           "not doing {old} anymore, the price went up again. went with {v} instead"],
          ["where's the reception now",
           "wedding do venue, where did we land in the end"]),
    Topic("weddingfood", ["Bobby's on Belgrave Road", "the Sharma sweet centre",
                          "a Punjabi dhaba van", "a hog roast bloke from Oakham",
                          "Callum's auntie's pie company", "a wood-fired pizza truck"],
          ["booked {v} for the wedding food, did the tasting and ate so much I had to lie down "
           "in the car after",
           "the menu from {v} came through and theres no veggie option at all?? half my family "
           "dont eat meat",
           "Callum's dad had an argument with {v} about gravy. at a tasting. for a wedding in "
           "july"],
          ["who's cooking for our big day, the tasting where i ate till i had to lie flat",
           "which caterer forgot vegetarians exist",
           "who did his dad have a row with over gravy"],
          ["Food tasting number three this weekend, I'm gonna need bigger trousers.",
           "Nani says if there's no rasmalai she isn't coming.",
           "Mum wants to count every samosa personally, she doesn't trust anyone."],
          ["cancelled {old}, they went quiet on us for a month. {v} are doing it now",
           "ditched {old} for {v}, cheaper and they do late night chips as well"],
          ["whos catering the wedding now",
           "food for the wedding, who've we got"]),
    Topic("henweekend", ["a lodge in the Peak District", "Benidorm",
                         "a canal boat on the Grand Union", "Newcastle",
                         "a spa hotel in Harrogate", "Blackpool"],
          ["Kirsty's booked the hen do, its {v} and she wont tell me anything else, just "
           "'bring a swimsuit and no dignity'",
           "hen weekend in {v} is confirmed, 14 girls, two aunties and a laminated itinerary",
           "still recovering from {v}, I have glitter in places glitter should never be"],
          ["where's my maid of honour taking us for the last night of freedom thing",
           "where are the girls and my aunties off to with the printed schedule",
           "Where did I come back from covered in sparkles?"],
          ["Hen do WhatsApp has 600 unread messages, I've muted it.",
           "Kirsty wants everyone in matching pink tracksuits with nicknames on the back.",
           "Aunty Jaswant asked if the hen party has a prayer break."],
          ["hen do's off at {old}, half the girls couldnt get the time off. Kirsty's rebooked "
           "it for {v}",
           "swapped {old} for {v} for the hen, cheaper and more of us can make it"],
          ["where's the hen weekend now",
           "remind me hen do location"]),
    Topic("ambocourse", ["a maternity emergencies course", "the practice educator qualification",
                         "the blue light driving refresher", "a mental health first aid course",
                         "the critical care module", "a safeguarding level 3 day"],
          ["signed up for {v} through work, three study days and an essay, on top of nights. "
           "what am I doing",
           "passed {v}!!! got the certificate and Callum's stuck it on the fridge like a kids "
           "drawing",
           "fell asleep in {v} during a powerpoint, the trainer threw a pen at me"],
          ["what training did i put myself down for with the study days and the assignment",
           "what did I pass that ended up on the fridge door",
           "the course where i nodded off and got a biro lobbed at me"],
          ["CPD portfolio due for the HCPC audit, praying they don't pick me.",
           "Mandatory training day tomorrow, same slides as last year.",
           "Union meeting about pay again, free biscuits at least."],
          ["dropped out of {old}, couldnt fit it round the rota. doing {v} instead, its online",
           "done with {old} at last, next up is {v}. never stop learning or whatever"],
          ["what course am i on at the moment",
           "training im doing now?"]),
    Topic("honeymoonplan", ["a week in Zanzibar", "the Gili islands", "a road trip round Iceland",
                            "Sri Lankan tea country", "a villa in Crete", "Tokyo and Osaka"],
          ["honeymoon sorted, we're doing {v}!! Callum wanted a golf holiday, I said over my "
           "dead body",
           "been looking at {v} for the honeymoon and the flights cost more than my car is worth",
           "Callum's mate did {v} last year and wont shut up about it, Callum reckons its "
           "destiny"],
          ["what did we pick for after the wedding, when callum was angling for golf",
           "where was I looking at for the honeymoon where the plane tickets were more than my "
           "motor",
           "which trip does callum think is fate cos his mate loved it"],
          ["Honeymoon fund on the gift list, feels a bit cheeky asking tbh.",
           "Need to renew my passport before anything, it's got my 18 year old face on it.",
           "Callum keeps sending me hotel links at 3am while I'm on shift."],
          ["honeymoon change: {old} is out, too pricey. we're going for {v}",
           "scrapped {old}, Callum found a deal on {v} and I caved"],
          ["where are we going for the honeymoon now",
           "honeymoon destination??"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("ok so I keep bailing off the board and sticking my hands out and my wrists are wrecked. "
     "as a paramedic I KNOW this is how you end up with a scaphoid fracture lol. how do "
     "skaters actually fall",
     "You're right to worry: a straight arm onto the palm is the classic way to break the "
     "scaphoid or the wrist. The trick is to practise falling on purpose so it becomes a reflex. "
     "Gear first: wrist guards, knee pads, elbow pads and a helmet; the pads are what make the "
     "safe falls possible. On a ramp, learn the knee slide: go up a little, turn to face the "
     "ramp and drop onto both knee pads, leaning back slightly so you slide down on the plastic "
     "caps instead of tipping forward. Do it deliberately ten times a session until it's "
     "boring. On the flat, keep your arms bent and tucked in, make yourself small, and roll "
     "onto the fleshy part of the shoulder and back, going with the momentum rather than "
     "stopping dead. Practising rolls on grass or a gym mat helps. Bend your knees more when "
     "you ride, because a lower centre of gravity gives you time to react. When a trick goes "
     "wrong, step off or run it out instead of hanging on. And commit once you start a trick: "
     "hesitating halfway through is what throws most people off.",
     "how are you meant to come off the deck without smashing your hands, what did you tell "
     "me"),
    ("heatwave this week and the tank hit 28.5 degrees while I was on nights, corals look "
     "miserable. no aircon in the flat and I can't afford a chiller rn. what do I do",
     "Most reef tanks are happiest around 25 to 26°C, and sudden swings do more harm than a "
     "steady degree or two high, so bring it down gently, roughly a degree over a few hours. "
     "The cheapest fix is evaporation: take the lid off or prop it open and point a desk fan or "
     "a clip-on fan across the water surface. Evaporation raises salinity, so top up more often "
     "with RO water, never tap water. Switch the heater off. Cut the lights' intensity or "
     "shorten the photoperiod, and shift it to run in the cooler evening and night. Keep the "
     "curtains closed on that room during the day. Warm water holds less oxygen, so keep the "
     "skimmer running and plenty of surface movement, and feed lightly because uneaten food "
     "rots faster in the heat. A sealed bag of ice or a frozen bottle floated in the sump is "
     "an emergency measure only; never add ice straight in and watch the thermometer so it "
     "doesn't overshoot. If summers keep going this way, a fan on a temperature controller "
     "is a cheap long-term fix.",
     "what were the tips for stopping the aquarium cooking when the weather got roasting"),
    ("Callum's mum has added 60 people to the guest list including her whole line dancing "
     "club and her hairdresser. we're at 400 already with my side. how do we say no without "
     "starting world war 3",
     "This is very common, and it usually goes best when you handle it as a couple with a "
     "clear number rather than arguing about individual names. First agree between the two "
     "of you what your total is and why: the venue's capacity and the cost per head are facts "
     "nobody can take personally. Then let Callum have the conversation with his own mum, "
     "kindly and in private, with you backing him up; a request from her son lands very "
     "differently from one that seems to come from the bride. Give her an allowance rather "
     "than a rejection: 'we can fit twenty from your side, who matters most to you?' lets her "
     "choose and keeps her in charge of something. Offer other ways to include the rest, such "
     "as the club at an evening do, a separate get-together, or photos and cake afterwards. If "
     "she's offering to pay for extra guests, decide together beforehand whether that changes "
     "anything. Hold the same rule for your side too, so it's fair and seen to be fair.",
     "what did you say about getting the mother in law to trim her invites without a war"),
    ("someone on station said we can claim tax back for washing our uniforms?? is that "
     "actually real or one of those scam things, and how",
     "It's real. HMRC gives tax relief to employees who have to wash, repair or replace a "
     "uniform they must wear for work, as long as the employer doesn't already launder it or "
     "pay for that. Many jobs have a flat-rate amount set by HMRC, and ambulance staff have "
     "their own figure, so you don't need receipts. You can also get relief on professional "
     "fees your job requires, such as your HCPC registration and some professional body "
     "subscriptions, if they're on HMRC's approved list. Claim on GOV.UK (search 'claim tax "
     "relief for your job expenses') or by post; the relief usually comes through as a change "
     "to your tax code, and you can backdate the claim for the previous four tax years, which "
     "may come as a lump sum. It's relief, not the whole amount back: you get the tax you "
     "would have paid on it, so 20% at the basic rate. The scam part is the firms that cold "
     "call or advertise to claim it for you and keep a big cut; it's free and takes a few "
     "minutes to do yourself.",
     "the thing about getting money off the taxman for my work gear, how did you say to do it"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("got a new student on my shifts, {p}, she used to be {x} before she retrained. sweetest "
     "girl, asks about a million questions a night",
     "{p} delivered a baby in the back of the motor on the A6 last night!! I just held the "
     "torch. proudest I've ever been of anyone",
     "my student who was {x} before, what did she do on that job",
     ["Shanice", "Bethany", "Halima", "Kelsey", "Rukhsana"],
     ["cabin crew for Jet2", "a dental nurse", "a lifeguard at Skegness",
      "a forklift driver at the Next warehouse", "a Greggs supervisor"]),
    ("theres a lad at the skatepark, {p}, about twelve, {x}. he's decided he's my coach now",
     "{p} filmed me bailing off the quarter pipe and posted it, 40k views and the comments are "
     "brutal",
     "that kid at the park, {x}, what did he do with the footage?",
     ["Kayden", "Tyler", "Rehan", "Alfie", "Mason"],
     ["rides in a Spider-Man helmet", "the one with the luminous green deck",
      "brings his nan to watch", "skates in his school uniform",
      "still skating with his arm in a cast"]),
    ("met {p} off the reef keepers group, {x}, came round to look at the tank and stayed three "
     "hours",
     "{p} sold me a second hand protein skimmer and it flooded the kitchen at 2am, Callum "
     "waded in in his socks",
     "the reef group person who's {x}, what happened with the stuff they sold me",
     ["Dilip", "Keith", "Marcia", "Gurdeep", "Denise"],
     ["a retired copper from Oadby", "a sixth former from Wigston", "a vicar in Syston",
      "a taxi driver with six tanks", "a nurse at the LRI"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("nightshifts", ["three cardiac arrests in one shift and then a man who rang 999 because "
                     "his cat looked at him funny. nights are mad",
                     "watched the sun come up over the M1 from the back of the motor, weirdly "
                     "peaceful",
                     "12 hour shift turned into 15, late finish again, got in as Callum was "
                     "leaving for work",
                     "crewmate brought in a whole tray of his mum's pakoras at 3am, I could "
                     "have cried"],
     "how've my night shifts been lately, everything i told you"),
    ("skatesessions", ["went to the skatepark at 7am straight after nights cos it's empty "
                       "then, just me and a man with a dog",
                       "fell off in front of a group of teenagers and one of them said 'you "
                       "alright nan'. I'm 29",
                       "bought proper skate shoes, my trainers had holes worn through the toes",
                       "rolled the whole riverside path by Abbey Park without stopping, felt "
                       "like flying"],
     "catch me up on how the skateboarding's going"),
    ("familiesandwedding", ["mum and Callum's mum went sari shopping together and came back "
                            "best friends, terrifying",
                            "Nani has opinions about Callum's beard and is not keeping them to "
                            "herself",
                            "Callum's dad is learning bhangra off YouTube for the wedding, best "
                            "thing I've ever seen",
                            "my brother Harj has been put in charge of the baraat and he's "
                            "already lost the spreadsheet"],
     "families + the wedding, whats been happening"),
]

CHAT = ["whats the quickest way to get turmeric stains off a white worktop",
        "how long does a cob stay fresh in the bread bin",
        "is it bad to have an energy drink at 4am if im going to sleep at 9",
        "what rhymes with Callum, writing a poem for the speech lol",
        "difference between a lehenga and a sharara?",
        "roughly how far is it from Leicester to the seaside at Skeg",
        "morning duck! well, evening for you probably",
        "good name for a playlist for a 3am ambulance drive",
        "can you freeze cooked rice or does it go weird",
        "is it fiancé or fiancée for a bloke, I always forget",
        "how do you say congratulations in Punjabi, asking for Callum",
        "ta duck, youre a lifesaver"]
REPLIES = ["Course, here's the gist.",
           "Good one, let me break it down.",
           "Sure thing, short version:",
           "It depends a bit, but roughly:",
           "No problem, this is what I'd say."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Just in from nights.", "Eating a cob in the car.", "Callum's snoring next to me.",
          "On my break outside A&E.", "Can't sleep, as per."]
