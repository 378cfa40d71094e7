"""Dialogue set "ao": Neema Mwakyusa, 24, Dar es Salaam, Tanzania.

Neema is a veterinary assistant at a small animal clinic in Mikocheni. She
lives alone, rides to work, and swims in the sea at Coco Beach before or
after her shifts; open-water swimming is her hobby and she trains with a
club coach called Ally. Her mum sells food at a stall in Kariakoo, her
younger brother Juma studies in Dodoma, and her bibi (grandmother) farms on
the slopes of Kilimanjaro near Moshi. Her closest friends are Zawadi (a
hairdresser) and Baraka (a nurse who teases her constantly). Her boss at
the clinic is Dr Mushi.

She writes to the assistant in short, informal messages: mostly lowercase,
"lol", "bc", "pls", the odd emoji and Swahili word, and she often crams two
unrelated bits of news into one message. The facts she tells come back
much later as questions in paraphrase: other words, often vaguer, and
rarely repeating the words she first used.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic(
        "neemapet",
        [
            "a one-eyed ginger cat called Pilipili",
            "a three-legged mongrel named Bahati",
            "an African grey parrot called Mzee",
            "a pair of lovebirds named Tom and Jerry",
            "a tortoise called Bibi that is older than me",
            "a black rabbit named Chapati",
        ],
        [
            "so i finally took one of the rescues home lol. it's {v}. the owner "
            "never came back after the surgery and i couldn't let them send it "
            "to the shelter. also Zawadi got a new salon chair, she's so proud",
            "new flatmate alert 😂 well not really a flatmate, it's {v}. my room "
            "smells like a zoo now but honestly i love having someone waiting "
            "when i get in after a long day",
            "my mum visited on sunday and met {v} for the first time. she "
            "pretended not to care but she was sharing her mandazi within an "
            "hour haha",
        ],
        [
            "what animal did I end up adopting from the clinic?",
            "remind me, which creature keeps me company at my place?",
            "do I have any furry or feathered friend?",
        ],
        [
            "so many strays came in at the clinic this week, it breaks my heart "
            "every single time",
            "is it ok to give an animal leftover rice? asking for reasons lol",
            "the neighbour kids keep knocking to play with my little housemate, "
            "i should start charging entry",
        ],
        [
            "sad news, had to rehome {old} bc the landlord complained. i've got "
            "{v} now instead, smaller and quieter so hopefully no drama",
            "update on the animal situation: {old} went to live with bibi in "
            "Moshi where there's space, and {v} moved in with me last week",
        ],
        [
            "which creature is living with me right now?",
            "who is my current little companion at home?",
        ],
    ),
    Topic(
        "ride",
        [
            "a red Bajaj Boxer with a cracked left mirror",
            "a secondhand blue Honda Dio scooter",
            "a Chinese e-bike with a pink basket",
            "a Raleigh bicycle my uncle rebuilt",
            "a dented white Toyota Passo",
            "a green TVS tuk-tuk I share with my cousin",
        ],
        [
            "ok i finally sorted the commute thing. bought {v} from a guy in "
            "Tandale, paid half now half in march. no more daladala squeezing "
            "at 6am!!",
            "Baraka laughed at me today bc i parked {v} outside and it fell over "
            "in the mud 🙈 anyway it gets me there in 20 min so who cares",
            "my daily transport is {v} now. cheaper than paying the boda guys "
            "and i can head to Coco Beach after my shift without waiting around",
        ],
        [
            "what did I buy to get myself to the job each morning?",
            "what vehicle was it that toppled into the dirt while my friend "
            "giggled?",
            "how do I travel through the city these days?",
        ],
        [
            "traffic on Bagamoyo road was insane today, took forever to get "
            "anywhere",
            "need to renew my licence soon ugh the queues at TRA",
            "fuel went up again, everything is expensive this month",
        ],
        [
            "sold {old} finally!! got {v} instead, much better on the hills "
            "around Mbezi",
            "new wheels: {v}. the old one died completely on Morogoro road, RIP",
        ],
        [
            "what am I riding at the moment?",
            "what's my current means of getting about town?",
        ],
    ),
    Topic(
        "home",
        [
            "a two-room flat above a tailor's shop in Sinza",
            "a bedsitter behind the Mwenge carvers market",
            "a rooftop room in Kariakoo next to a mosque",
            "a shared house in Mikocheni with three nurses",
            "a small bungalow in Kigamboni with a mango tree",
            "a fourth-floor apartment in Upanga with no lift",
        ],
        [
            "moved!! i'm now in {v}. rent is 180k a month which hurts but at "
            "least water actually comes out of the tap",
            "Zawadi helped me carry boxes all saturday to {v}. my arms are dead. "
            "she got paid in chips mayai lol. oh and Juma passed his exams!",
            "my address now is {v}, in case i ever need you to help me write a "
            "letter or fill in a form",
        ],
        [
            "where did I relocate to, and what's the place like?",
            "where was my friend hauling my stuff to that weekend?",
            "where do I live?",
        ],
        [
            "the landlord is being weird about the deposit again, so annoying",
            "looking at rooms online, everything decent is so pricey in Dar",
            "power cut AGAIN in my area, third time this week",
        ],
        [
            "moving again lol. leaving {old} for {v}, closer to work and "
            "quieter at night",
            "new place: {v}. took two trips with a borrowed pickup but done",
        ],
        [
            "where am I staying nowadays?",
            "what's my current accommodation?",
        ],
    ),
    Topic(
        "neemacourse",
        [
            "an evening diploma in animal nutrition",
            "a weekend short course in sign language",
            "an online certificate in poultry health",
            "Saturday French classes at the Alliance Française",
            "a night class in bookkeeping at the YMCA",
            "a lab techniques certificate at Muhimbili",
        ],
        [
            "signed up for {v}!! starts next month, my boss said the clinic "
            "will pay half if i pass",
            "so tired today, {v} ran late and then i had to catch the last bus "
            "home. worth it though, the teacher is amazing",
            "results came in, i passed the first module of {v} 🎉 mum cried on "
            "the phone lol",
        ],
        [
            "what training did I enrol in that my employer is partly funding?",
            "which lessons had me dragging myself back after dark?",
            "what am I studying on the side?",
        ],
        [
            "homework due friday and i haven't even opened the notes",
            "the fees for extra studies are crazy these days",
            "Baraka says i should learn something new this year, he's probably "
            "right",
        ],
        [
            "dropped {old}, too much with the shifts. started {v} instead",
            "switching programmes: from now on it's {v}",
        ],
        [
            "what qualification am I working towards currently?",
            "which studies am I doing these days?",
        ],
    ),
    Topic(
        "neemaallergy",
        [
            "a bad allergy to cashew nuts",
            "an allergy to penicillin",
            "a reaction to bee stings that needs an EpiPen",
            "an allergy to shellfish, especially prawns",
            "a sensitivity to latex gloves",
            "a gluten intolerance",
        ],
        [
            "doctor confirmed it today, i have {v}. explains the rash and "
            "swelling last month. need to be careful at weddings now with all "
            "the food",
            "fun fact about me: {v}. found out the hard way at my cousin's "
            "sendoff party when i couldn't breathe properly",
            "please remember i have {v} if you ever suggest recipes or meds for "
            "me",
        ],
        [
            "what did the medical tests reveal about me?",
            "what health issue did I discover at a family celebration?",
            "is there something I should steer clear of for my body's sake?",
        ],
        [
            "my skin has been itchy all week, no idea why",
            "went for a checkup at Aga Khan, waiting for results",
            "Baraka keeps telling me to carry antihistamines everywhere",
        ],
        [
            "new test results: turns out it's not {old} at all, it's actually "
            "{v}. so confusing",
            "the specialist changed the diagnosis, now they say {v}",
        ],
        [
            "per the most recent lab work, what am I truly reactive to?",
            "what's the verdict on my condition these days?",
        ],
    ),
    Topic(
        "race",
        [
            "the 5 km Zanzibar channel relay",
            "the Coco Beach 2 km sunrise swim",
            "a 10 km charity swim around Mbudya island",
            "the Lake Victoria open water cup in Mwanza",
            "the national masters 400m freestyle final",
            "a 3 km night swim at Kigamboni",
        ],
        [
            "decided i'm doing {v} this year!! training 4 mornings a week, Coach "
            "Ally says my breathing is still a mess lol",
            "registration fee paid for {v}. 50k shillings gone but it's for the "
            "orphanage so ok. also my phone screen cracked, great day",
            "my big goal right now is {v}. if i finish under the cutoff i'll "
            "buy myself new goggles",
        ],
        [
            "what event am I preparing for in the water?",
            "what did I fork out money to enter?",
            "what's my sporting ambition?",
        ],
        [
            "the sea was so rough this morning, swallowed half the ocean",
            "Coach Ally made us do intervals until i nearly cried",
            "need a new swimsuit, mine is basically see-through now lol",
        ],
        [
            "Coach moved me to {v} instead of {old}, he thinks i'm ready for "
            "more",
            "change of plans, i'm entering {v} now",
        ],
        [
            "which competition am I aiming at now?",
            "what swim am I currently registered in?",
        ],
    ),
    Topic(
        "saving",
        [
            "a secondhand Singer sewing machine for my mum",
            "a plane ticket to visit my aunt in Muscat",
            "a deposit on a plot in Bunju",
            "a laptop for my little brother Juma",
            "a fridge so mum can sell cold juice",
            "a used microscope for studying at home",
        ],
        [
            "putting 20k aside every payday now for {v}. i keep the cash in a "
            "tin under my bed don't judge",
            "joined a VICOBA group with the ladies from church, my share is "
            "going towards {v}",
            "long term plan: {v}. might take two years at this rate but i'm "
            "stubborn",
        ],
        [
            "what big purchase are my wages going towards bit by bit?",
            "what is my women's savings circle contribution meant for?",
            "what am I saving up for?",
        ],
        [
            "payday tomorrow thank God, i'm down to my last 5k",
            "spent too much at Mlimani City this weekend, oops",
            "mum says i should open a proper bank account instead of the tin",
        ],
        [
            "used the money for something else, so now the target is {v}",
            "ok {old} is sorted!! next target: {v}",
        ],
        [
            "what am I stashing funds for these days?",
            "what's my financial goal right now?",
        ],
    ),
    Topic(
        "neemadish",
        [
            "coconut bean stew with ugali",
            "pilau with goat and kachumbari",
            "Zanzibar pizza with banana and chocolate",
            "grilled octopus in lime and pili pili",
            "mchicha in peanut sauce",
            "chapati rolled with egg and avocado",
        ],
        [
            "i'm bringing {v} to the church potluck on sunday. it's the only "
            "thing i cook that people actually finish lol",
            "made {v} for Zawadi's birthday and she asked for the recipe twice 😌",
            "my signature thing in the kitchen is {v}, learned it from bibi "
            "when i was small",
        ],
        [
            "what food am I contributing to the shared meal at the parish?",
            "what did I prepare for my friend's special day?",
            "what do I like to make to eat?",
        ],
        [
            "so hungry, the canteen near the clinic was closed today",
            "mum's stall sold out of everything by noon, she's a legend",
            "trying to eat less fried stuff this month, going badly",
        ],
        [
            "new favourite to make: {v}. honestly {old} is boring me now",
            "retired my old go-to, now it's {v} every time there's a gathering",
        ],
        [
            "what's the food I'm known for nowadays?",
            "which meal do I whip up for people currently?",
        ],
    ),
    Topic(
        "neematattoo",
        [
            "a small sea turtle behind my left ear",
            "the words pole pole on my wrist",
            "a paw print on my ankle",
            "a tiny baobab on my shoulder blade",
            "a crescent moon on my ring finger",
            "a hummingbird on my collarbone",
        ],
        [
            "did it!! got {v} at a place in Msasani. hurt way less than i "
            "thought, mum doesn't know yet shh",
            "Baraka keeps staring at {v} lol he says it's crooked, it's NOT",
            "random but {v} is my only tattoo and i'm already thinking about a "
            "second one",
        ],
        [
            "what ink did I have done recently?",
            "what body art does my mate claim is wonky?",
            "do I have anything inked on my skin?",
        ],
        [
            "my cousin wants to get inked too but her dad would kill her",
            "how long should a fresh one stay out of seawater?",
            "saw the coolest designs on instagram today, so tempted",
        ],
        [
            "got the old one reworked, {old} is gone and now it's {v}",
            "covered up {old} with {v}, looks so much better",
        ],
        [
            "what design is on my skin at the moment?",
            "what does my body art look like now after the rework?",
        ],
    ),
]

ADVICE = [
    (
        "my boss Dr Mushi wants me to do the night shift alone twice a week and "
        "i'm scared tbh, there's no security guard. how do i say no without "
        "looking lazy?",
        "It's reasonable to be worried about being the only person in the "
        "building after dark, and raising it isn't laziness. Ask your manager "
        "for a short private talk rather than bringing it up in passing. Start "
        "with what you're happy to do, then explain the specific risk: nobody "
        "to call if a client turns aggressive or an animal needs two people to "
        "handle. Offer alternatives, for example doing those hours with a "
        "colleague, having a phone number for a guard company, or a panic "
        "button. Afterwards, send a short written summary of what you agreed so "
        "there's a record.",
        "what did you tell me to do about working by myself overnight at the "
        "vet?",
    ),
    (
        "Juma wants to drop out of university in Dodoma to sell phones with his "
        "friend. how do i talk to my brother without it turning into a fight?",
        "Start by asking him what is drawing him to the business, and really "
        "listen before giving your view; he'll be more open if he feels "
        "heard. Then ask practical questions together: how much money is "
        "needed to start, who supplies the stock, what happens if it fails. "
        "Suggest a middle path, such as trying the trade during the long "
        "holiday or part-time while he keeps studying, and checking whether "
        "the institution allows a deferred year. Keep your parents informed but "
        "let him be the one to tell them.",
        "what was your tip for handling my sibling's plan to quit his degree?",
    ),
    (
        "my left shoulder hurts after long swims, like a sharp pinch when i "
        "lift my arm. should i change my stroke or just push through?",
        "Don't push through a sharp pinch; that usually means a tendon is "
        "being squeezed. Take a few days off and use ice for fifteen minutes "
        "at a time. When you go back, shorten your sessions, breathe to both "
        "sides so the load is shared, and make sure your hand enters the water "
        "in line with your ear rather than crossing the middle. Resistance band "
        "exercises for the rotator muscles help a lot. If the pain is still "
        "there after two weeks, see a physiotherapist.",
        "what did you recommend for the joint pain I got in the pool?",
    ),
    (
        "Zawadi borrowed 200k from me in june and hasn't paid back. how do i "
        "bring up the loan without losing her as a friend?",
        "Pick a calm moment, one to one, not in front of others or over a "
        "tense text. Be direct but warm: say you value the friendship and that "
        "you need the money back because of your own plans. Ask what she can "
        "manage rather than demanding it all at once, and agree a simple "
        "schedule, maybe small amounts each month. Write down what you agreed "
        "in a friendly message afterwards. If she keeps avoiding it, decide "
        "how much the friendship matters compared with the amount.",
        "how did you say I should get my cash back from my girl?",
    ),
]

HOPS = [
    (
        "new neighbour next door is {p}, an old lady who {x}. she talks a LOT "
        "but i like her",
        "{p} fixed my broken gate this morning without even asking, just "
        "showed up with a hammer and nails haha",
        "what did the neighbour who {x} help me with at my house?",
        ["Mama Sauda", "Bi Fatuma", "Mama Rehema", "Bibi Halima", "Mama Grace"],
        [
            "sold fish at Feri market for thirty years",
            "raised nine children on her own",
            "was a nurse at Ocean Road hospital",
            "ran a tailoring shop in Kariakoo",
            "taught primary school in Tanga",
        ],
    ),
    (
        "client at the clinic today, {p}, who {x}. he brought in his goat with "
        "a swollen leg and told stories the whole time",
        "{p} came back today and gave me a whole jar of honey from his farm as "
        "a thank you 🍯",
        "what present did I receive from the man who {x}?",
        ["Mzee Salim", "Mr Kimaro", "Bwana Hassani", "Mr Mollel",
         "Mzee Athumani"],
        [
            "keeps forty goats on a farm in Kibaha",
            "drove a daladala for twenty years",
            "fought in the Kagera war",
            "used to be a ferry captain at Kigamboni",
            "sings in the cathedral choir",
        ],
    ),
    (
        "new girl at swim club, {p}, who {x}. she's so fast it's "
        "embarrassing lol",
        "{p} lent me her spare fins and a pull buoy for the whole month, such a "
        "sweetheart",
        "what did the swimmer who {x} let me borrow?",
        ["Upendo", "Rukia", "Salma", "Joyce", "Winfrida"],
        [
            "swam for Tanzania at the Commonwealth Games",
            "grew up on a fishing dhow in Bagamoyo",
            "works as a lifeguard at Slipway",
            "is studying marine biology at UDSM",
            "crossed to Mbudya island on her own at fifteen",
        ],
    ),
]

OPEN = [
    (
        "granny",
        [
            "bibi called today, she's 84 and still climbs up to her shamba "
            "every single morning",
            "my grandmother grows coffee and bananas on a tiny plot on the "
            "slopes of Kili",
            "bibi only speaks Chagga on the phone and i understand like half "
            "of it lol",
            "got a sack of dried bananas from my gran through the bus parcel "
            "service, the whole office smells of it",
        ],
        "what have I told you about my grandmother up north?",
    ),
    (
        "clinic",
        [
            "we had three puppies with parvo this week, one didn't make it 😢",
            "Dr Mushi let me do my first stitches on a cat today!!",
            "the clinic is getting a new x-ray machine from a donor in Norway",
            "i'm the one who sends the vaccination reminder sms to clients now",
        ],
        "tell me everything I've mentioned about my job at the animal "
        "hospital",
    ),
    (
        "brother",
        [
            "Juma got into the university in Dodoma for accounting, so proud",
            "Juma's phone screen is broken AGAIN, third time this year",
            "Juma started supporting Simba just to annoy me bc i'm Yanga",
            "Juma wants to come stay with me during the long holiday",
        ],
        "what do you know about my younger sibling from what I've said?",
    ),
]

CHAT = [
    "can you give me a quick recipe for mandazi without eggs?",
    "translate 'the dog needs rest for two weeks' into swahili pls",
    "roughly how many grams is a cup of rice?",
    "write a short happy birthday message for my mum",
    "what's a good stretch for my lower back after a long day?",
    "convert 250 US dollars to tanzanian shillings roughly",
    "suggest a funny name for a whatsapp group of swimmers",
    "how do i get a coffee stain out of a white uniform?",
    "give me 3 ideas for a cheap saturday in Dar",
    "what does bilirubin mean in simple words?",
    "write a polite text to my landlord saying rent will be 3 days late",
    "how long should i boil eggs for a soft yolk?",
]

REPLIES = [
    "Sure thing:",
    "Of course! Here you go:",
    "Happy to help:",
    "Here's a quick answer:",
    "Good question. In short:",
]

FILLER = [
    "haha ok long day today",
    "morning! it's so hot already and it's not even 7",
    "ugh the power went off again, typing on 12% battery",
    "just got back from the beach, salty and happy",
    "ok quick one before my shift starts",
]
