"""Variant `p` of the dialogue set: a fourteenth check set, written apart from `a` to `o` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one York wedding photographer's, Lou, married to Jude, who skates
roller derby, is learning stained glass at an evening class and whose father Ray, 84, has moved
in with them after a fall: the venue of the wedding she is booked for, the camera she shoots
on, what she charges for a full day, her role in the derby team, the glass piece on her bench,
where Ray goes in the daytime, what he watches, what she does for her bad knee and what Jude is
building in the garden; questions are asked as people ask an assistant to remember ("what did
my missus complete that we had to toast with bubbles", "that bride who got together with her
other half at a salsa class, what happened on the day?"), some lowercase, some without a
question mark, some with context after the question, a few typos, some in Yorkshire English,
from the specific to the vague, and mostly share no content word with the message that
answers them. Sessions run from one exchange to seven over 360 days; small talk may sit
before and after a fact in the same message; rows are one utterance each, among 3,400 coding
events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("weddingvenue", ["Castle Howard", "the Merchant Adventurers' Hall",
                           "a tipi field outside Malton", "the Hospitium in the Museum Gardens",
                           "Bolton Castle in Wensleydale", "a converted barn under Sutton Bank"],
          ["Signed a contract this morning for a June wedding at {v}. Bride's mother rang me "
           "three times before 9am so that's the tone set",
           "did a recce at {v} today for the Hendersons, light in the main room is gorgeous till "
           "about 4 then it's a cave",
           "Gutted. The couple getting married at {v} have postponed a whole year, her dad's "
           "poorly. Deposit's non-refundable but I feel rotten keeping it"],
          ["where's the do for the bride whose mum kept phoning me at the crack of dawn?",
           "Where did I go scouting ahead of a booking, the place that goes dark late "
           "afternoon",
           "which job got pushed back twelve months because of family illness - where was that "
           "one meant to be?"],
          ["Wedding season's started and I've already lost a lens cap in a churchyard.",
           "Couple asked if I can fly a drone over the confetti line. I cannot. I am not "
           "licensed.",
           "why does every best man think he's a photographer"],
          ["The {old} booking's fallen through (they've split up!!) but I've filled the date, "
           "I'm shooting one at {v} instead",
           "Swapped a date with another tog, she's taking {old} off me and I'm doing {v}"],
          ["so where's the big wedding I'm booked for, as it stands?",
           "remind me which venue I've got in the diary now after all the swapping"]),
    Topic("camerabody", ["a Nikon Z6 II", "a Canon R6 Mark II", "a Sony A7 IV", "a Fujifilm X-T5",
                         "a Leica Q2", "a battered Canon 5D Mark III"],
          ["Took the plunge on {v}, second hand off a bloke in Doncaster, shutter count under "
           "10k",
           "Typical. {v} froze mid-ceremony today, right in the VOWS, had to grab the backup "
           "off my hip and smile like nothing happened",
           "The eye tracking on {v} is unreal, it held focus on the bride through her veil in a "
           "gale on the moors"],
          ["what did i buy off that fella in south yorkshire with hardly any clicks on it",
           "Which body let me down while a couple were making their promises?",
           "what kit kept her face sharp behind the lace when the wind was howling"],
          ["Sensor's filthy again, there's a blob in every sky shot.",
           "Dropped a 50mm in a wet field. It survived, my nerves didn't.",
           "Spent two hours watching men on YouTube argue about mirrorless. Never getting "
           "that time back."],
          ["Sold {old} on eBay, I'm on {v} now and still finding where the buttons are",
           "Main body is {v} as of this week. {old} lives in the drawer as a spare"],
          ["What am I shooting weddings on at the mo?", "which camera's my main one now"]),
    Topic("dayrate", ["£1,450", "£1,695", "£1,850", "£2,100", "£2,350", "£2,600"],
          ["Put my full-day price up to {v} on the website. Felt sick pressing publish",
           "Jude says I'm mad charging {v} for ten hours plus editing but it works out near "
           "minimum wage once you count the evenings",
           "couple tried to haggle me down from {v} because their cousin 'has a good phone'. "
           "politely declined"],
          ["what did I nervously bump my rates to online?",
           "how much was i asking that my wife reckoned was bonkers",
           "What figure were the pair who think a mobile's as good as a pro trying to beat me "
           "down from"],
          ["Tax return's due and my receipts are in a carrier bag.",
           "Another enquiry that opens with 'what's your best price'. No hello.",
           "Accountant reckons I'll have to register for VAT soon. Marvellous."],
          ["New year, new prices: {v} for a full day from January. {old} was daft for the hours "
           "I put in",
           "I've come down to {v} from {old} for winter weekdays, diary was looking bare"],
          ["what am I charging for a whole wedding day now?",
           "current price for a full day, what did I land on in the end"]),
    Topic("derbyrole", ["jammer", "pivot", "blocker", "bench coach", "jam timer",
                        "penalty box official"],
          ["Coach has me down as {v} for Saturday's bout against the Sheffield lot. Bricking it",
           "first game back since my knee and they had me as {v}. felt like fresh meat all over "
           "again",
           "Best night in ages as {v} at the home bout, even got a shout out over the PA"],
          ["What am I doing in the game against the Steel City skaters, the one I'm dreading?",
           "what did they give me to do the first match after injury, when I was all at sea",
           "which job did I have on the night the announcer gave me a mention"],
          ["Fresh meat intake tonight, eleven newbies, two fell over before they'd even stood "
           "up.",
           "My wheels are worn to nothing on one side.",
           "Track tape took the varnish off the sports hall floor and the caretaker is NOT "
           "happy."],
          ["Moving off {old}, coach reckons I'm more use as {v} now",
           "Big shake-up in the line-up. It's {v} for me from here on, not {old}"],
          ["what do I play in derby nowadays?", "my spot on the team at the moment, remind me"]),
    Topic("glasspiece", ["a hare under a crescent moon", "a sunflower panel for the porch",
                         "a Tiffany-style lampshade", "a kingfisher suncatcher",
                         "a copy of one of the Minster's rose windows",
                         "a house number for Jude's mum"],
          ["At glass class I've started cutting the pieces for {v}. Lost about nine to bad "
           "scoring",
           "Soldered the last joint on {v} tonight, held it up to the window and actually "
           "welled up",
           "tutor told me {v} is too ambitious for a beginner. we'll see about that"],
          ["what's the thing I'm making on my evening course that I wasted loads of glass on",
           "Which bit of leadwork made me teary when the light came through it?",
           "what did my teacher say I was biting off more than I could chew with?"],
          ["Cut my thumb on an offcut, blood everywhere, very glamorous.",
           "The flux stinks. Jude makes me strip off in the utility.",
           "Priced up a proper grinder and nearly cried."],
          ["Finished {old} at last! Next up on the light box: {v}",
           "Given up on {old}, far too many tiny curves, I'm doing {v} now"],
          ["what's on my bench at glass class currently?",
           "which stained glass thing am I working on now"]),
    Topic("dayclub", ["the Tuesday lunch club at the Methodist chapel", "the men's shed in Acomb",
                      "the day centre on Tang Hall Lane", "crown green bowls in Rowntree Park",
                      "a memory café at the library", "chair exercises at the community centre"],
          ["Dad's agreed to try {v}. Took him in, he made out he didn't want to go and then "
           "didn't want to leave",
           "Ray got told off at {v} for cheating at dominoes. 84 years old. Mortified",
           "picking dad up from {v} now, apparently he's been chatting up one of the "
           "volunteers"],
          ["where did my father sulk going into and then refuse to come home from?",
           "Where did my dad get caught fiddling a game",
           "where was the old man flirting with a helper?"],
          ["Dad's hearing aid whistled all through the film and he swore blind it wasn't his.",
           "Social worker's coming Thursday to do his assessment.",
           "He's rearranged the kitchen cupboards AGAIN. I can't find a single mug."],
          ["Dad's packed in {old}, too many 'old folk' there apparently, so it's {v} on "
           "weekdays now",
           "Ray goes to {v} these days. {old} shut for the summer and he never went back"],
          ["Where's dad spending his days now?",
           "where does ray go in the daytime at the minute"]),
    Topic("raystelly", ["Countdown", "the snooker", "Bargain Hunt", "Antiques Roadshow",
                        "the cricket on Sky", "old Westerns on Talking Pictures"],
          ["Dad is glued to {v} every afternoon and shouts at the screen like it can hear him",
           "Sat through two hours of {v} with dad tonight and honestly? I get it now",
           "Ray's fallen asleep in front of {v} with his brew on his chest, I've took a photo "
           "for blackmail"],
          ["what programme has my dad bellowing at the telly daily?",
           "What did I end up enjoying after a whole evening on the sofa with Dad",
           "what was on when the old fella nodded off with a mug balanced on him"],
          ["Remote's gone missing. Found it in the bread bin.",
           "Dad has the volume that loud the neighbours can follow along.",
           "Got him a new armchair with the lever thing. He won't use the lever."],
          ["Dad's gone right off {old}, says it's 'not what it was', and he's onto {v} now",
           "New obsession in our front room: {v}. {old} is dead to him"],
          ["What's Dad's programme of choice at the moment?", "wat's ray watching lately"]),
    Topic("kneecare", ["a hinged knee brace", "ice baths in the garden",
                       "sports massage in Clifton", "turmeric capsules", "a TENS machine",
                       "compression tights"],
          ["Physio's put me onto {v} for the knee. Jude thinks it's hilarious",
           "Spent £60 on {v} and I'm not sure it's doing owt",
           "Say what you like about {v}, I skated the whole scrimmage without limping"],
          ["what did the physio get me on for my dodgy joint that my other half keeps "
           "laughing at",
           "what did I waste sixty quid on for my leg that might be doing nothing",
           "What got me through a full practice with no hobble?"],
          ["Knee clicked going downstairs, sounded like a knuckle.",
           "Doc says I'm 'not twenty-five any more'. Thanks Doc.",
           "Sat on the bench at training with a bag of frozen peas strapped on."],
          ["Ditched {old}, wasn't doing much, so I've moved on to {v}",
           "Knee update: it's {v} now, {old} went in the bin"],
          ["what am i using for my knee these days", "What's my current fix for the knee?"]),
    Topic("judebuild", ["a pizza oven", "a shed for her pottery wheel", "a raised pond",
                        "a greenhouse out of old windows", "a barrel sauna",
                        "a treehouse for the nephews"],
          ["Jude's started on {v} at the bottom of the garden. There are bricks all over my "
           "lawn",
           "Jude finally finished {v} and made us all stand round it with a glass of fizz",
           "neighbours have complained about {v} Jude's putting up, say it'll block their light"],
          ["what's my wife building out the back that's wrecked the grass?",
           "What did my missus complete that we had to toast with bubbles",
           "what did next door kick off about, the thing Jude's making"],
          ["Jude's bought a cement mixer. It lives on the drive now.",
           "B&Q on a Sunday is my idea of hell.",
           "Jude's watched that many YouTube builds she thinks she's an engineer."],
          ["Jude's abandoned {old} halfway through and now she's on about {v}. Course she is",
           "Garden project latest: {v}. {old} is off the table"],
          ["so what's the missus constructing out back at present",
           "What's Jude's latest garden job?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("Vicar at Saturday's wedding says no flash AND I can't move from the back during the "
     "service. The church is dark as a cave. What settings do I go in with?? bit panicky",
     "You can get clean frames there, it just needs planning. Put your fastest lens on: an "
     "85mm f/1.8 or a 70-200 f/2.8 from the back works well, and shoot at f/2 to f/2.8 so you "
     "still have some depth on two faces. Keep the shutter at 1/200 or faster for the "
     "procession and the kiss, and 1/125 is fine while they stand still at the front. Let ISO "
     "take up the rest: on a modern body 6400 to 12800 is usable, and a bit of clean noise "
     "beats a blurred face every time. Shoot RAW and expose for the faces, not the dark pews, "
     "because pushing a dark file later is what makes it muddy. Use the silent or electronic "
     "shutter so you are not clacking through the vows, and check the church lights don't "
     "flicker (if you see banding, drop to 1/100). Get there early, ask the vicar where you "
     "can stand and whether the lights can be turned up, and take test shots of the empty "
     "aisle. Rest your elbows on the end of a pew to steady the long lens.",
     "what did you tell me to do about the gloomy chapel where I wasn't allowed a flashgun"),
    ("Dad won't have a shower. It's been nine days. If I mention it he gets really defensive "
     "and says he's not a child. how do i handle this without it becoming a row every time",
     "Nine days is worth acting on, but try to find out what's behind it first, because it's "
     "rarely stubbornness. Common reasons at his age are being afraid of slipping, feeling "
     "cold, finding the controls confusing, or hating being seen undressed by his daughter. "
     "Make the bathroom feel safe and warm: heat it beforehand, put in a shower seat and a "
     "non-slip mat, and ask the council's occupational therapist for grab rails (the "
     "assessment is free). Give him control instead of instructions: 'morning or evening "
     "suits you better?' goes down better than 'you need a wash'. Tie it to something he "
     "looks forward to, like a shower before the lunch club or before his mate visits. "
     "Keep him covered with a towel over his lap on the seat and stay outside the door "
     "unless he asks. If it still sticks, a paid carer or a district nurse often gets a yes "
     "where family doesn't, and it's worth mentioning to his GP in case pain or low mood is "
     "behind it.",
     "how did you suggest getting the old man washed without it turning into a battle?"),
    ("Couple still owe me the last £900 and the wedding is a fortnight on Saturday. Two "
     "reminders ignored. My contract says the balance is due four weeks before. Do I turn up "
     "or not?? I hate this bit",
     "Don't quietly decide either way; give them one clear, friendly chance in writing. Send "
     "a short email today, quoting the clause: the balance of £900 was due on the date in "
     "your contract, and you need it by a set day (say seven days before the wedding) to "
     "keep the booking. Put your bank details in the same email so there's no excuse. If you "
     "don't hear back in two days, ring them, since emails often end up with the one who "
     "isn't dealing with the money. Offer a way through if they are struggling, for example "
     "half now and half on the morning of the wedding, but get that in writing too. If the "
     "deadline passes with nothing, email to say the booking is cancelled under the contract "
     "and that the deposit is retained. In future, send a reminder six weeks out and ask for "
     "the balance with the timeline questionnaire, so it never gets this close.",
     "What was your plan for the pair who hadn't settled up before their big day?"),
    ("my solder lines look like a lumpy caterpillar not the smooth rounded bead my tutor does. "
     "what am I doing wrong",
     "Lumpy seams are almost always heat, flux or order, not a shaky hand. Start with the iron: "
     "for 60/40 solder on copper foil you want the tip at about 370 to 400°C, with a clean, "
     "shiny tip that you wipe on a damp sponge every few inches. Too cool and the solder "
     "freezes in blobs; too hot and it runs through the gaps. Flux every seam just before you "
     "work it, because dry foil won't take a smooth bead. Do it in two passes: first tin "
     "the foil with a thin flat coat along every seam, then go back and build the raised bead "
     "by feeding a little solder and moving the iron slowly and steadily with the tip's flat "
     "side on the seam. If a patch goes lumpy, add a dab of flux and re-melt it without "
     "adding solder. Keep the panel flat (a tilt makes the solder run downhill) and check "
     "your pieces fit tightly: wide gaps are what make a seam sink and wobble.",
     "whats the trick you gave me for getting my seams neat on the glass"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("New booking! {p} and her fella, they met at {x}. She wants it candid, no cheesy poses, my "
     "kind of bride",
     "{p}'s wedding was yesterday. Groom went dizzy halfway through the vows and they finished "
     "them sat on the altar steps. Got every frame of it",
     "that bride who got together with her other half at {x}, what happened on the day?",
     ["Courtney", "Lydia", "Kirsty", "Danielle", "Georgina"],
     ["a salsa class", "a pub quiz in Whitby", "a hospital canteen", "a Parkrun in Harrogate",
      "the queue for a Take That gig"]),
    ("Fresh meat girl {p} used to do {x} and it shows, she's absolutely fearless on the track",
     "{p} passed her minimum skills tonight!! 27 laps in five minutes, she cried, I cried, "
     "the ref cried",
     "how did the new skater who came over from {x} get on with her assessment",
     ["Marley", "Jojo", "Prue", "Esme", "Tilly"],
     ["ice hockey", "rugby league", "ballet", "speed skating", "kickboxing"]),
    ("Dad's made a pal at his club, {p}, who used to be {x}. They sit in the corner and argue "
     "about the war",
     "{p} came round for Sunday dinner and brought dad a bottle of Bell's. Pair of them "
     "didn't stop nattering for three hours",
     "what did dad's mate, the one who was {x}, bring when he came for his dinner?",
     ["Albert", "Harold", "Frank", "Walter", "Cecil"],
     ["a lollipop man", "a miner at Kellingley", "a signalman on the railways",
      "a foreman at Rowntree's", "an RAF mechanic"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("weddingchaos", ["Ring bearer was a spaniel and it legged it across the field with the "
                      "rings. Best man caught it in a rugby tackle",
                      "Heavens opened right as we went out for couple portraits, ended up "
                      "shooting them under the bus shelter and it's my favourite set this year",
                      "Bride's uncle got up during the speeches to object. Nobody knows what "
                      "to. He sat back down",
                      "A groom's mum asked me to photoshop the ex-wife out of every group "
                      "shot. All 43 of them"],
     "what chaos have I had at weddings this year? remind me of the best bits"),
    ("dadathome", ["Dad set the smoke alarm off making toast at 5am and just stood in the "
                   "hall saluting it",
                   "Found three days' worth of dad's tablets in the spider plant",
                   "Dad and Jude do the crossword together every night now and I'm not "
                   "allowed to help",
                   "had a cry in the car after dad called me by mum's name at breakfast"],
     "How's it really been since dad came to live with us, all the stuff I've mentioned"),
    ("derbyseason", ["We won the tournament up in Newcastle! Three bouts in a day, I could "
                     "barely walk to the minibus",
                     "Sent to the box four times in one jam. FOUR. New league record",
                     "Minibus broke down at Scotch Corner on the way to Glasgow and we missed "
                     "the first half of the bout",
                     "Our league's lost its Tuesday slot at the leisure centre so we're "
                     "training in a car park"],
     "What's the derby season been like for me so far"),
]

CHAT = ["What time's sunset in York on the 21st of June?",
        "how many calories in a yorkshire pudding, asking for a friend (me)",
        "Is it 'bride and groom' or 'groom and bride' on a thank you card, is there a rule",
        "give me three first dance songs that aren't by Ed Sheeran",
        "can you freeze cooked rice or is that how you die",
        "Explain the LBW rule like I'm eight. Dad keeps trying and failing",
        "What's a word for 'golden' that isn't golden? writing a blog caption",
        "Right, morning. Three hours' sleep, two weddings to edit and a dad to feed.",
        "convert 180 fan to gas mark",
        "Who sang Tainted Love first?",
        "does lemon juice actually shift limescale off a shower head or is that a myth",
        "cheers, that's grand"]
REPLIES = ["Here's what I'd go with.",
           "Right, a few things on that.",
           "That one has a neat answer.",
           "Short answer first, more below if you want it.",
           "Let's get that sorted."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Just in from a shoot.", "Dad's having his nap.", "knees are killing me.",
          "Jude's got the kettle on.", "editing in bed again."]
