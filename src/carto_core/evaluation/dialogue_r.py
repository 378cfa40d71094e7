"""Variant `r` of the dialogue set: a sixteenth check set, written apart from `a` to `q` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one young Glasgow chef's, Ross, 26, from Paisley, a sous chef at
a small-plates place in Finnieston who boulders at an indoor wall, is learning Mandarin because
his girlfriend Mei's family are from Taichung, and walks dogs at a rescue on his days off: the
section he runs in the kitchen, the problem he is trying at the wall, how he is learning the
language, the shelter dog he walks, the dish he is practising for Mei's parents, the knife he
reaches for, what is hurting, how he gets to work and what his wee brother Kyle is doing;
questions are asked as people ask an assistant to remember ("what got a grudging 'not bad'
from Mei's father?", "my climbing pal who's a firefighter by day, what did she do when we went
outdoors?"), some lowercase, some without a question mark, some with context after the
question, a few typos, some in Glasgow English, from the specific to the vague, and mostly
share no content word with the message that answers them. Sessions run from one exchange to
nine over 350 days; small talk may sit before and after a fact in the same message; rows are
one utterance each, among 3,700 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("kitchensection", ["the fish section", "cold starters and larder", "the pastry corner",
                             "the charcoal grill", "sauces and braises",
                             "the wok burners on the far end"],
          ["Chef's moved me onto {v} from next week. In at 8 to prep and nobody to blame but "
           "myself when it goes wrong",
           "absolute carnage on {v} tonight, 140 covers and the ticket printer jammed twice",
           "Got a mention in the Herald review for {v}!! the critic loved the thing I've been "
           "doing with smoked butter"],
          ["what bit of the kitchen did my boss shift me to, the one with the early starts?",
           "which station was I on the night the docket machine kept packing in and we did a "
           "hundred and forty",
           "What part of the line did the newspaper write-up praise me for"],
          ["Walk-in fridge died overnight, binned about six hundred quid of stock.",
           "Head chef threw a pan at the wall today. Not at anyone, just the wall. Still.",
           "Did a fourteen hour double and my feet are screaming."],
          ["Handed {old} over to the new CDP, I'm running {v} now. Promotion or punishment, "
           "jury's still out",
           "They've shuffled the brigade AGAIN. Off {old}, on {v} from Saturday"],
          ["what section am I actually on at work now?",
           "which part of the kitchen do I run these days, lost track with all the reshuffles"]),
    Topic("wallproject", ["the orange V5 in the cave", "a crimpy pink slab",
                          "the yellow comp-wall dyno", "the green roof traverse",
                          "a black V6 on the prow", "the blue arete by the toilets"],
          ["Finally sent {v} after three weeks of falling off the last move!! screamed so loud a "
           "kids' birthday party turned round",
           "Ripped a flapper on {v}, blood on the holds, had to get the setter to scrub them",
           "been throwing myself at {v} all night, cannae do the heel hook at the top to save "
           "my life"],
          ["which climb did I finally top out on after weeks of peeling off the finish, the one "
           "where I yelled",
           "what problem tore my fingertip open so the grips had to be cleaned",
           "What was I stuck on where my foot wouldn't catch up high?"],
          ["Setters stripped the whole back wall today, everything I half knew is gone.",
           "chalk bag got knocked off the bench and exploded. looked like a crime scene",
           "Forearms so pumped I couldn't hold my phone on the way home."],
          ["Giving up on {old}, it's a short person's problem and I'm six foot two. New "
           "obsession: {v}",
           "{old} is ticked, done, dusted. So naturally I've gone straight on to {v}"],
          ["what am I projecting at the wall at the moment?",
           "whats the climb I keep banging on about currently"]),
    Topic("mandarinstudy", ["a Tuesday night class at the uni", "a tutor called Lin over Zoom",
                            "the HelloChinese app on my breaks",
                            "a language swap with a PhD student",
                            "Mei's old primary school workbooks",
                            "Peppa Pig dubbed into Chinese"],
          ["Signed up for {v} so I'm not totally useless before we fly out to Taichung. xie xie "
           "and ni hao is about my limit right now",
           "Been at {v} every day for a month and I finally understood Mei's mum on the phone. "
           "Well. One sentence",
           "{v} is killing me, the tones are impossible and I asked for a horse instead of my "
           "mum twice"],
          ["what did I enrol in so I could say more than thank you and hello by the time we go "
           "to see her folks",
           "What's been the thing that got me to actually follow a line from Mei's mother?",
           "how was I studying when I kept mixing up mother and a horse lol"],
          ["Mei laughed at my pronunciation for a solid minute.",
           "Tried to order in Chinese at the takeaway and the guy just answered in broad "
           "Glaswegian.",
           "Wrote my first proper character today, looks like a drunk spider did it."],
          ["Knocked {old} on the head, it wasn't sticking. Trying {v} instead",
           "Mei's mum suggested {v} rather than {old}, and you don't say no to Mei's mum"],
          ["how am i learning chinese these days",
           "What's my method for the Mandarin at the minute?"]),
    Topic("shelterdog", ["Biscuit the lurcher", "a Staffie cross called Tank",
                         "Pepper, an old greyhound", "a collie named Skye",
                         "Domino the deaf Dalmatian", "Rolo the Jack Russell"],
          ["Walked {v} at the rescue today, leaned their whole body against my legs the entire "
           "time. I'm done for",
           "{v} got adopted!! family with a big garden out in Milngavie, I was greetin in the "
           "car park",
           "They've paired me with {v} on Sundays because none of the other volunteers can get "
           "a lead on"],
          ["which dog at the shelter kept propping itself against me on our walk?",
           "who found a forever home out past Bearsden and had me in tears",
           "Which one am I the only helper who can get clipped up?"],
          ["Shelter's full again, they're having to turn strays away.",
           "Came home from the kennels and Mei says I smell like wet carpet.",
           "Bought a big bag of liver treats for the walkers' cupboard."],
          ["{old} went to a new home last week so my Sunday dog is {v} now",
           "Swapped from {old} to {v}, the staff reckon {old} needs a calmer walker than me"],
          ["which dog do I take out at the rescue now",
           "who's my regular walking buddy at the shelter currently? the four-legged one"]),
    Topic("inlawsdish", ["three-cup chicken", "hand-pulled beef noodles", "xiaolongbao",
                         "braised pork belly", "scallion pancakes", "a steamed whole sea bass"],
          ["Practising {v} for when Mei's parents come over. Third go this week and it's still "
           "not how her dad makes it",
           "Mei's dad tried my {v} and said 'not bad'. Mei says that's the highest praise he's "
           "ever given anyone",
           "Burnt {v} in front of Mei's whole family at her cousin's birthday. I'm a professional "
           "chef. I want the ground to swallow me"],
          ["what was I rehearsing to cook for her parents' visit",
           "What got a grudging 'not bad' from Mei's father? apparently that's huge",
           "what did I ruin at the family party, in front of everybody"],
          ["Mei's mum sent me home with a tupperware big enough to bathe in.",
           "Went to the Chinese supermarket and spent forty minutes just reading labels.",
           "Her dad still calls me 'the cook' instead of my name."],
          ["Dropping {old}, her dad does it better and always will. Doing {v} for New Year "
           "instead",
           "Plan's changed for the family dinner: {v}, not {old}. Her gran can't chew the "
           "other one"],
          ["what am I planning to cook for Mei's family now?",
           "remind me what I'm making for her folks, has it changed again"]),
    Topic("chefknife", ["a Takamura gyuto", "a Misono petty", "a carbon steel nakiri",
                        "a Tojiro bread knife", "an old Sabatier off eBay",
                        "a cleaver from Mei's dad"],
          ["Treated myself to {v}, cost more than my rent but it goes through a tomato like it's "
           "not there",
           "Some numpty put {v} through the dishwasher. Handle's cracked. I could actually cry",
           "Took {v} to get sharpened at the Japanese shop on Great Western Road, the guy was "
           "like a surgeon"],
          ["what blade did I splash out more than a month's rent on",
           "What got wrecked when one of the KPs stuck it in the machine?",
           "which of my knives did I get done by the sharpening man in the West End"],
          ["Six years in kitchens and a tin lid is what finally gets me.",
           "My knife roll's falling apart, the strap's held on with gaffer tape.",
           "Whetstone practice tonight, mostly just scratched the blade."],
          ["Retired {old} to the drawer at home, my go-to on service is {v} now",
           "{v} has replaced {old} in my roll. dont tell {old}"],
          ["whats my main knife at work these days?",
           "Which one am I reaching for most on the line now, knife-wise"]),
    Topic("niggle", ["a tweaked A2 pulley", "a burn on my wrist from the salamander",
                     "golfer's elbow", "a rolled ankle", "a bruised rib", "a cricked neck"],
          ["Physio says it's {v}. No climbing for a fortnight, which is basically a prison "
           "sentence",
           "Worked the whole of Friday with {v} and never said a word to chef. hero or idiot, "
           "you decide",
           "{v} is murdering me, couldn't even lift the stock pot this morning"],
          ["what did the physio diagnose that kept me off the wall for two weeks?",
           "What did I grit my teeth through a full Friday shift with, without telling the boss",
           "what had me unable to pick up the big pot for the bones and water"],
          ["Ice pack on, feet up, telly on. Wild Saturday.",
           "Mei bought me a foam roller for Christmas. Romantic.",
           "NHS physio waiting list is six weeks so I'm paying to go private, ouch."],
          ["Good news, {old} has finally settled down. Bad news, I've got {v} now. Falling apart "
           "at 26",
           "{old}'s healed up but now it's {v}, honestly can't win"],
          ["what's sore at the minute? the current injury I mean",
           "whats my body complaining about now"]),
    Topic("gettingtowork", ["the Subway from Partick", "a second-hand road bike",
                            "a hired e-bike", "walking along the Kelvin", "the number 2 bus",
                            "lifts from the head chef"],
          ["Trying {v} for getting to work, twenty minutes door to door and no more standing "
           "in the rain",
           "Late again because of {v}, chef gave me the look. You know the look",
           "{v} home at 1am is weirdly peaceful, just me and the foxes"],
          ["how was I getting in to the restaurant that took twenty minutes flat",
           "what made me late and got me a dirty look from the boss?",
           "What's my way back after a late finish with only the wildlife for company"],
          ["Glasgow weather did all four seasons on my way in today.",
           "Someone had been sick on the stairs this morning, lovely start.",
           "Lost a glove somewhere between the flat and work. The left one, always the left."],
          ["No more {old}, it got nicked outside work. So it's {v} for now, don't laugh",
           "Switched to {v}, {old} was doing my head in"],
          ["how do i get to work at the minute",
           "What's my commute like these days?"]),
    Topic("kylework", ["an electrician's apprenticeship", "a plastering course at the college",
                       "a joinery apprenticeship", "the army", "sweeping up at his pal's barbers",
                       "a call centre in Hillington"],
          ["Kyle's started {v}, my maw is over the moon, first thing he's ever stuck at",
           "Kyle phoned me moaning about {v} for an hour. Told him I did eighty hour weeks at "
           "his age. I did not",
           "Our Kyle's chucking in {v} already, says the gaffer's got it in for him"],
          ["what did my wee brother get into that had our mum delighted",
           "What was Kyle girning about down the phone for ages?",
           "whats my brother wanting to pack in because his boss picks on him"],
          ["Kyle borrowed a tenner and I'll never see it again.",
           "Maw wants us all round at hers on Sunday, no excuses.",
           "Kyle's got a new girlfriend and won't stop posting about it."],
          ["Kyle's dropped out of {old}. He's doing {v} now, third career before he's nineteen",
           "Update on the brother: {v}. {old} never suited him anyway"],
          ["what's Kyle doing now, work-wise",
           "so what's our kyle up to these days"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("ok so mandarin tones. I genuinely cannot hear the difference between the 2nd and 3rd one. "
     "Mei says them and they sound identical to me. is my ear just broken or is there a trick",
     "Your ear isn't broken: second and third tone are the pair nearly every English speaker "
     "mixes up, because in ordinary speech the third tone rarely does the full dip-and-rise "
     "the textbooks draw. Think of it like this: the second tone climbs, like a surprised "
     "'what?'; the third sinks low and stays there, a bit creaky, like a disappointed 'ohh'. "
     "It only bounces back up when it's said on its own or at the end of a phrase. So listen "
     "for low versus rising, not for the curve. Get Mei to record minimal pairs that differ "
     "only in those two tones, mái (bury) and mǎi (buy), táng (sugar) and tǎng (lie down), "
     "and test yourself blind until you're right nine times out of ten. Draw the pitch in the "
     "air with your hand as you speak, and hum the melody before you say the syllable. Also "
     "know the sandhi rule: when two third tones meet, the first becomes a second tone, so nǐ "
     "hǎo is actually said ní hǎo. Some of what sounds the same to you really is the same. "
     "Ten minutes a day of pairs will do more than an hour once a week.",
     "what did you tell me about hearing the rising one versus the low dipping one in chinese"),
    ("Dog I walk at the rescue goes absolutely mental when she sees another dog, lunging, "
     "barking, the lot. she's 30kg and nearly had me over on the canal path yesterday. how do "
     "I handle it without making her worse",
     "She's most likely frightened rather than aggressive, and the goal is to keep her under "
     "the point where she loses it. Distance is your main tool: when you spot another dog, "
     "turn and go the other way, cross the road or step behind a parked car before she locks "
     "on. Don't wait for the explosion. Walk her at quiet times on wide paths; a narrow "
     "towpath with no escape route is about the worst place for her. Carry something she "
     "really loves, chicken or cheese rather than biscuits, and every time she looks at a dog "
     "far enough away that she stays calm, feed her. Over weeks the other dog starts to mean "
     "chicken. If she looks at it and then back at you, make a big fuss. With 30kg on the "
     "end, use a front-clip harness rather than her collar, keep the lead short but slack, "
     "and stand with soft knees and your weight low. Never yank her or tell her off when she "
     "reacts; that adds pain to something that already scares her. And tell the staff "
     "exactly what happened: they may want her walked only by experienced people, or in a "
     "yellow 'I need space' lead.",
     "the big shelter girl who kicks off at every other pooch, what was your plan for walking "
     "her?"),
    ("Meeting Mei's parents properly for the first time next month, they're from Taiwan and "
     "fairly traditional. what should I bring and what should I NOT do. terrified",
     "Good on you for asking first. Take a proper gift, nicely wrapped, and hand it over with "
     "both hands. Safe choices: a box of good fruit (big glossy apples go down well), a tin "
     "of quality tea, or something properly Scottish, like shortbread in a nice tin or a "
     "bottle of single malt for her dad if he drinks. Avoid clocks (giving one sounds like "
     "seeing someone off to their death), umbrellas and pears (both sound like separating), "
     "anything in fours, and white or black wrapping. Don't be thrown if they put the gift "
     "aside unopened; that's polite, not a snub. Ask Mei how you should address them, often "
     "Uncle and Auntie rather than first names, and learn a greeting in Mandarin even if it "
     "comes out wrong; the effort counts for a lot. At the table, let her parents or any "
     "grandparent start first, don't stand your chopsticks upright in the rice, top up "
     "other people's tea before your own, and eat well; a chef who takes seconds is a "
     "compliment to the cook. Offer to help clear up and expect to be refused at least once. "
     "Leave politics alone unless they raise it.",
     "what were your dos and donts for the first dinner with my girlfriend's mum and dad"),
    ("Finish at midnight, home by 1, and then I'm lying there wired till 4. then I'm wrecked "
     "for climbing in the afternoon. any way to actually switch off after service?",
     "That post-service buzz is real: you've been running on adrenaline and probably caffeine "
     "for eight hours. A few things that work for people on late shifts. Stop caffeine after "
     "about 5pm, including the espresso shots and energy drinks that float round a kitchen. "
     "Eat one proper small meal when service ends instead of grazing all night and raiding "
     "the fridge at 1am; toast and eggs or a bowl of rice is plenty. Let the wind-down start "
     "on the way home: no work group chat on the journey. At home, a warm shower, low lights, "
     "and twenty minutes of something dull and repetitive, a paper book or stretching your "
     "forearms. Go easy on the after-work pints; they knock you out but wreck the second half "
     "of the night. Keep your wake-up time roughly the same even on days off, say half nine, "
     "and get daylight on your face soon after. Blackout blinds and earplugs help if the "
     "street's noisy in the morning. If you're still staring at the ceiling after twenty "
     "minutes, get up and read in the other room rather than lying there stewing.",
     "how do I come down after a late night on the line so I can get some kip, what did you "
     "suggest"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("New commis started today, {p}. Used to be {x} before catering college and you can tell, "
     "nothing fazes him",
     "{p} handed his notice in after one Saturday. Got offered a job cooking on a cruise ship "
     "round the Caribbean. Respect tbh",
     "the new junior in the kitchen who'd worked as {x}, what happened with him in the end?",
     ["Lachie", "Murdo", "Stevie", "Rhys", "Tadhg"],
     ["a scaffolder", "a bouncer on Sauchiehall Street", "a primary teacher",
      "a professional boxer", "a cook on an oil rig"]),
    ("Met a lassie at the wall, {p}, works as {x}. She offered to spot me and now we climb "
     "together on Thursdays (Mei's fine with it before you ask)",
     "{p} and me finally got out to Dumbarton Rock and she flashed a problem I've been failing "
     "on for a year. Some folk are just built different",
     "my climbing pal who's {x} by day, what did she do when we went outdoors?",
     ["Ishbel", "Eilidh", "Kirstin", "Marsaili", "Kenzie"],
     ["a vet nurse", "a tattoo artist", "a firefighter", "a night bus driver",
      "a marine engineer"]),
    ("Mei's cousin {p} is over from Taichung for a year doing {x} at Strathclyde. Staying on "
     "our sofa till she finds a flat",
     "{p} dragged me to a karaoke bar after my shift and made me sing a Jay Chou song in "
     "Mandarin. There is phone footage. I'm emigrating",
     "what did Mei's cousin who's over here doing {x} make me do on a night out",
     ["Yu-ting", "Hsin-yi", "Pei-shan", "Wan-ju", "Ya-wen"],
     ["naval architecture", "a masters in pharmacy", "fashion marketing",
      "civil engineering", "a PhD in robotics"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("rescuedays", ["A scruffy wee terrier was handed in today with a note tied to his collar "
                    "just saying sorry. Ruined me",
                    "Helped bath six dogs in a row this morning, I'm wetter than they are",
                    "Adoption open day went brilliant, eleven dogs reserved before lunch",
                    "Staff let me sit in on the new puppies' first vet check, tiny wee things "
                    "the size of my hand"],
     "what's been going on at the rescue where I volunteer, everything I've told you about it"),
    ("meisfamily", ["Mei's gran taught me to fold dumplings at Chinese New Year, mine looked like "
                    "wee handbags but she ate them anyway",
                    "Her dad took me fishing on Loch Lomond and said about eight words all day. "
                    "Mei says that means he likes me",
                    "Mei's mum texts me directly now asking for recipes, think I've made it",
                    "Got a red envelope from her parents for the first time, Mei says that "
                    "basically makes me family"],
     "How am I getting on with my girlfriend's lot, going by what I've said?"),
    ("servicehorrors", ["Guy sent his steak back three times for being too pink, then asked for "
                        "it well done 'but juicy'",
                        "Power cut halfway through Saturday dinner, we finished service in head "
                        "torches",
                        "Environmental health walked in unannounced bang in the middle of lunch. "
                        "We passed. Just",
                        "Table booked for twelve turned up as twenty-two with a birthday cake "
                        "they wanted us to plate"],
     "tell me about the nightmare shifts I've had lately"),
]

CHAT = ["whats the difference between a sous chef and a chef de partie, my maw keeps asking",
        "How do you say cheers in Mandarin when you're clinking glasses?",
        "is peanut butter ok for dogs? heard something scary about xylitol",
        "convert 180 fan to gas mark please",
        "Suggest a daft film for a rainy Monday off.",
        "does climbing actually make your fingers thicker or is that a myth",
        "Morning. Well, 2pm. Chef mornings.",
        "Give me a word that rhymes with brunoise, it's for a stupid poem on the kitchen "
        "whiteboard",
        "how long is the drive from Glasgow to Fort William",
        "What's the time difference with Taiwan just now?",
        "porridge or granola, which is actually better for you",
        "cheers pal, sorted"]
REPLIES = ["Right, let's get that sorted.",
           "Easy one, here you go.",
           "Depends a wee bit, but roughly:",
           "Good shout. Short version first:",
           "Fair question! Here's the lowdown."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Just off a double.", "On my break, quick one.", "Chalk all over my phone screen.",
          "Mei says hi.", "Sitting on the bus home."]
