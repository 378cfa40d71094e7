"""Variant `i` of the dialogue set: a seventh check set, written apart from `a` to `h` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one long-distance lorry driver's, separated, with his young son
every other weekend: his regular run, racing pigeons, his best lift and the strongman
competitions he enters, the transport café he swears by, his son's latest craze, where he and
his ex hand their son over, what he has fitted out his cab with and his eyesight; questions are
asked as people ask an assistant to remember ("where was I left hanging when his mum didn't
turn up?", "what sorted me out for my licence health check?"), from the specific to the vague,
and mostly share no content word with the message that answers them. Sessions run from one
exchange to nine over 340 days; small talk may sit before and after a fact in the same
message; rows are one utterance each, among 2,800 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("haul", ["the overnight trunk to Felixstowe docks", "the Holyhead ferry run",
                   "supermarket drops round Cornwall", "the Daventry to Glasgow shuttle",
                   "the Channel crossing to Lille", "brick deliveries round the Peak District"],
          ["The transport office has put me on {v} from next week.",
           "Doing {v} means I don't see my own bed till Saturday.",
           "My tacho's maxed out every single shift on {v}."],
          ["Which job did the planners give me starting the week after?",
           "What work keeps me away from home until the weekend?",
           "Which stint has me hitting my legal driving hours limit daily?"],
          ["Roadworks on the M6 at junction 15 added two hours to my day.",
           "The planners never leave enough time for the queue at the loading bays.",
           "Found a layby with toilets that actually work, which is a miracle."],
          ["They've taken me off {old} and stuck me on {v}.",
           "New regular run for me: {v}."],
          ["Where are they sending me in the wagon these days?",
           "What's my usual work on the road now?"]),
    Topic("pigeons", ["Fougères", "Bourges", "Tarbes", "Lerwick", "Alençon", "Messac"],
          ["My blue chequer hen won the club race from {v} on Saturday!",
           "The lads at the club can't believe I clocked a bird from {v} on the day.",
           "I've put in for the national from {v} with six of my best yearlings."],
          ["Where was my bird let go from in the race she came first in?",
           "Which distant race did one of mine get back from on the day, shocking the other "
           "fanciers?",
           "What's the long-distance event I've entered half a dozen young birds in?"],
          ["A sparrowhawk took one of my young birds off the loft roof.",
           "Corn and grit prices have gone through the roof.",
           "Basketing night at the club went on till gone eleven."],
          ["Beat my win from {old}: I've just topped the fed from {v}.",
           "My best result ever is now a win from {v}."],
          ["What's the proudest result my loft has had now?",
           "Where was my latest big winner flown from?"]),
    Topic("liftpb", ["a 250-kilo deadlift", "a 130-kilo log press", "a 160-kilo atlas stone",
                     "a 320-kilo yoke walk", "a 140-kilo axle clean", "a 400-kilo tyre flip"],
          ["Hit a new personal best at the gym tonight: {v}!",
           "Coach Dazza filmed me doing {v} and it's got two thousand views.",
           "My back's been twinging ever since I did {v}."],
          ["What did I manage in training that beat anything I'd done before?",
           "What clip of me went a bit viral after the trainer posted it?",
           "Which effort left me with a sore spine?"],
          ["I'm eating six meals a day and the food bill is scary.",
           "The strongman gym has finally got a proper set of stones.",
           "My knees creak like an old gate after leg day."],
          ["Smashed my old best of {old}, it's {v} now.", "New PB for the record: {v}."],
          ["What's my heaviest lift so far?", "What's my top number under the bar these days?"]),
    Topic("strongcomp", ["Staffordshire's Strongest Man", "the Potteries Novice Strongman",
                         "an England's Strongest Man qualifier", "the Braemar Highland Games",
                         "Wales' Strongest Masters", "a Giants Live novice show"],
          ["I've entered {v} in the under-105s!",
           "Came fourth at {v}, gutted to miss the podium.",
           "Dazza reckons I'm ready for {v} by the summer."],
          ["What contest have I signed up for in my weight class?",
           "Where did I just miss out on a medal?",
           "What event does my coach think I can be fit for in a few months?"],
          ["Entry fees are sixty quid a pop now.",
           "The farmer's walk handles rip my hands to shreds.",
           "Weigh-ins are brutal when you've been living on service-station food."],
          ["Done {old}; next up is {v}.", "The comp I'm training for now is {v}."],
          ["Which competition am I preparing for at the moment?",
           "What's the next big day on my lifting calendar?"]),
    Topic("cafe", ["Bev's Butty Bar on the A1", "the Copper Kettle at Penrith",
                   "Big Lil's near Ashford", "the Dragonfly Café outside Wetherby",
                   "Sunny's Diner in Rugby", "the Tailgate Café at Carlisle"],
          ["Best full English on the road is at {v}, and it's only a fiver.",
           "I always time my break so I can stop at {v}.",
           "The waitress at {v} saves me a slice of bread pudding."],
          ["Where do I get the top fry-up for cheap when I'm out driving?",
           "Which place do I work my driving hours around so I can eat there?",
           "Where's the woman who puts a bit of dessert aside for me?"],
          ["Motorway services coffee is four quid now and tastes like dishwater.",
           "Half the truck stops round here have shut down.",
           "I'm trying to eat better on the road but there's nothing healthy open at 3am."],
          ["Gone off {old} since it changed hands; my stop now is {v}.",
           "New favourite greasy spoon: {v}."],
          ["Where's my go-to place to eat on the road these days?",
           "Which caff am I loyal to now?"]),
    Topic("sonshobby", ["the Titanic", "volcanoes", "Warhammer", "magic tricks", "Formula One",
                        "sharks"],
          ["Kai's obsessed with {v} at the moment, it's all he talks about.",
           "Spent all Sunday afternoon at the library with Kai reading about {v}.",
           "Got Kai a birthday cake themed on {v} and he went mad for it."],
          ["What can't my boy stop going on about?",
           "What did me and my son look up in books at the weekend?",
           "What did I pick for the design of my lad's celebration bake?"],
          ["Kai's teacher says he's bright but daydreams a lot.",
           "Every other weekend with Kai goes far too fast.",
           "Kai wants to come out in the lorry with me in the school holidays."],
          ["Kai's gone right off {old}; it's all {v} now.", "Kai's new craze is {v}."],
          ["What's my son into these days?", "What's the little man mad about right now?"]),
    Topic("handover", ["the McDonald's at Keele services", "Shelley's mum's in Kidsgrove",
                       "the big Tesco car park in Hanley", "the school gates on a Friday",
                       "the Costa at Stafford services", "the leisure centre in Leek"],
          ["Shelley and I have agreed to swap Kai over at {v}.",
           "Kai was in tears at {v} on Sunday when I had to give him back.",
           "Waited forty minutes at {v} and Shelley never showed."],
          ["Where do me and my ex meet to pass our son between us?",
           "Where was my boy upset when our weekend ended?",
           "Where was I left hanging when his mum didn't turn up?"],
          ["Shelley and I are getting on better since the mediation.",
           "The court order says every other weekend and half the holidays.",
           "Kai's stuff lives in two houses and something's always missing."],
          ["We've stopped meeting at {old}; handovers are at {v} now.",
           "Changed where we swap Kai: it's {v} these days."],
          ["Where do I pick up and drop off my son now?",
           "Where does my lad get passed between his parents at the moment?"]),
    Topic("cabkit", ["a 12-volt slow cooker", "a diesel night heater", "a portable induction hob",
                     "a rear-view dash cam", "a mini fridge under the bunk",
                     "a memory foam mattress topper"],
          ["Treated myself to {v} for the cab.",
           "Fitting {v} has changed my life on nights out.",
           "Kai thinks {v} in Dad's lorry is the best thing ever."],
          ["What did I buy to make my truck more like home?",
           "What made sleeping over in the wagon so much better?",
           "What did my lad get excited about when he had a look round my work vehicle?"],
          ["The bunk in these sleepers is about as wide as an ironing board.",
           "I've run the truck battery flat twice this month.",
           "There's never enough storage space behind the seats."],
          ["Binned {old} and got {v} instead.", "Latest addition to the cab: {v}."],
          ["What's the newest thing I've kitted out my wagon with?",
           "What have I added to where I sleep on the road most recently?"]),
    Topic("specs", ["varifocals", "prescription sunglasses", "daily contact lenses",
                    "anti-glare driving glasses", "reading glasses", "photochromic lenses"],
          ["The optician says I need {v} now, I'm officially old.",
           "Picked up my {v} from Specsavers and the road signs are crystal clear.",
           "The DVLA medical went fine once I'd got {v}."],
          ["What was the verdict at my eye test?",
           "What did I collect from the high street that made the motorway boards sharp again?",
           "What sorted me out for my licence health check?"],
          ["Night driving with oncoming headlights is getting harder.",
           "My eyes are knackered after a twelve-hour shift.",
           "The HGV medical is due again when I turn forty-five."],
          ["Swapped {old} for {v} after my last check-up.", "New eyewear: {v}."],
          ["What do I wear to see properly nowadays?",
           "What's my current fix for my eyesight?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("how do i stay awake on the M1 at 4am without necking five energy drinks",
     "If you're fighting to keep your eyes open, pull in at the next safe place and take a 15 "
     "to 20 minute nap with a coffee just before it, so the caffeine kicks in as you wake. Keep "
     "the cab cool, eat light through the night rather than a big fry-up, and try to take your "
     "main sleep at the same hours every day; energy drinks only give you a crash an hour "
     "later.",
     "What did you tell me to do when I'm nodding off at the wheel in the early hours?"),
    ("One of my young birds has gone light and fluffed up, droppings all watery. What could it "
     "be?",
     "Take it out of the loft and away from the others straight away, give it clean water with "
     "electrolytes and keep it warm. Weight loss with wet droppings in youngsters is often "
     "canker, coccidiosis or young bird sickness, so get a dropping sample to an avian vet and "
     "scrub the drinkers before it spreads.",
     "What was your advice about the poorly youngster in the shed?"),
    ("how much protein do i actually need? 18 stone, training four times a week for strongman",
     "For strength training aim for about 1.6 to 2.2 grams per kilo of body weight a day; at "
     "around 115 kilos that's roughly 180 to 250 grams, spread over four or five meals. On the "
     "road, tinned fish, chicken, Greek yoghurt, eggs and a shake in the cab make that much "
     "easier than relying on service-station sandwiches.",
     "How much of the muscle-building stuff did you say a big lad like me should eat daily?"),
    ("Kai's birthday's coming up, where can I take a nine-year-old in the Midlands that isn't "
     "soft play",
     "He'd probably love the National Space Centre in Leicester, or Drayton Manor if he's into "
     "rides. For something cheaper, the Black Country Living Museum has trams and an "
     "old-fashioned sweet shop, and Go Ape at Trentham lets kids his age do the junior course "
     "with you.",
     "Where did you recommend for my son's big day out?"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("{p} at the pigeon club is selling me a pair of {x} stock birds.",
     "{p} wants two hundred quid for the pair and I'm collecting them from his place on Sunday.",
     "What's the fancier with the {x} pair asking, and when do I get them?",
     ["Alwyn", "Stan", "Ravinder", "Kenny", "Horace"],
     ["Janssen", "Busschaert", "Van Loon", "Soontjen", "Stichelbaut"]),
    ("The yard's paired me with a trainee, {p}, for his first week on {x}.",
     "{p} clipped a bollard reversing onto the bay and the manager's put him back on yard "
     "shunting.",
     "What happened to the new driver I was showing the ropes on {x}?",
     ["Jordan", "Kieran", "Tyrese", "Mikey", "Callum"],
     ["container work", "tipper work", "fridge trailers", "flatbed loads", "curtainsiders"]),
    ("My old school mate {p} has asked me to be best man at his wedding in {x}.",
     "{p}'s stag is a weekend in Magaluf and I've said yes, God help me.",
     "Where's the stag do for my pal getting married in {x}?",
     ["Wayne", "Deano", "Gav", "Lloyd", "Shaun"],
     ["Cyprus", "Gretna Green", "Lake Garda", "Tenby", "Las Vegas"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("roadsights", ["Saw a bloke on the hard shoulder walking a goat on a lead.",
                    "A fox ran alongside me for a good minute on the A50 at dawn.",
                    "Some lad in a Corsa overtook me on a roundabout eating a Pot Noodle.",
                    "Watched a hot-air balloon come down in a field by the M6."],
     "What strange things have I spotted out on the motorways?"),
    ("weekends", ["Took Kai go-karting and he beat me fair and square.",
                  "Me and Kai built a den at the bottom of the garden out of pallets.",
                  "Kai and I watched all the Star Wars films back to back on Saturday.",
                  "Taught Kai to ride his bike without stabilisers down the rec."],
     "What have me and my lad got up to when he's with me?"),
    ("kindness", ["A lady at Tebay bought my coffee because I looked knackered.",
                  "Another driver helped me change a tyre in the pouring rain.",
                  "The farmer at a drop gave me a dozen eggs to take home.",
                  "A copper pulled me over just to tell me a trailer light was out, no fine."],
     "Have strangers done me any good turns lately?"),
]

CHAT = ["Evening. Parked up for the night at last.",
        "How long does it take to drive from Stoke to Aberdeen at 56 miles an hour?",
        "What's a meal I can make with just a kettle that isn't noodles?",
        "Give me a riddle to tell a nine-year-old.",
        "How do you spell 'conscientious'?",
        "Roughly how cold does it get in the Highlands in February?",
        "Explain the offside rule in football as simply as you can.",
        "Can you suggest a gripping audiobook for a ten-hour drive?",
        "Write a cheeky text telling my mate he still owes me a pint.",
        "How many grams of protein are in a tin of tuna?",
        "What year did the first Severn Bridge open?",
        "Cheers pal, sorted."]
REPLIES = ["No problem. Here's the short answer, with a bit more underneath if you want it.",
           "Good one! A couple of ideas for you.",
           "Any time. Drive safe out there.",
           "Right then, here's how I'd go about it.",
           "Sure. Shout if you want me to change anything."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Parked up at the services with a brew.", "Just finished my forty-five-minute break.",
          "Kai's fast asleep on the sofa.", "Long shift today, legs are shot.",
          "Sat in the cab waiting to get tipped."]
