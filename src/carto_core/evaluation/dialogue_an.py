"""Dialogue set "an": Rosalia "Lia" Fernandes, rural post carrier in Tras-os-Montes.

Lia is 54 and has driven the same mountain mail round out of the CTT depot in
Mirandela, north-east Portugal, for twenty-two years: pensions, parcels, letters
from France. Her husband Abilio is a retired stonemason with a worn-out knee; their
daughter Sonia is a nurse in Porto and mother of Duarte (turning seven); their son
Tiago fixes tractors. Her sister Graca has lived in Lyon since 1989. Hobbies: she
breeds singing canaries on the back veranda, sings alto in the parish choir, and
cures olives from the family's six trees every November.
She writes to the assistant in English learned from subtitled TV: short sentences,
small grammar slips ("I am thinking to enter"), lots of "ai", "pronto", "ha ha" and
"...", Portuguese words dropped in (chefe, festa, carteira, horta), no formality.
Facts are told once, casually, in the middle of her day; months later she asks
about them again by paraphrase, in other words than she first used (the leg joint
for the knee, the feathered singer for the canary), so a search has to match the
meaning and not the words.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic(
        "van",
        [
            "a white Citroen Berlingo with a cracked wing mirror",
            "a yellow Renault Kangoo with the CTT logo half peeled off",
            "an old Peugeot Partner that smells of diesel",
            "a little electric Nissan e-NV200 that hums like a fridge",
            "a red Fiat Doblo with a sliding door that sticks",
            "a four-wheel-drive Dacia Duster borrowed from the Braganca depot",
        ],
        [
            "Ai, news from the depot today... the chefe finally took away my old car for the "
            "post round and gave me {v}. I took it up to Vale de Salgueiro this morning and "
            "pronto, it climbs the hills better than the last one. Abilio says it looks like a "
            "toy but I think he is jealous ha ha.",
            "Little thing for you to know about my work: every day I do 140 kilometres of "
            "mountain road in {v}. It is not mine, it belongs to the CTT, but after so many "
            "months I talk to it like a person. When it rains the wipers squeak a song.",
            "My grandson Duarte sat in {v} on Saturday and pretended to be the carteira, "
            "pressing the horn until all the neighbours came out to look. Tiago says the engine "
            "needs looking at soon, he hears a small knock.",
        ],
        [
            "What vehicle do I use now to carry the letters between the villages?",
            "What do I drive on the job?",
            "What sort of thing gets me around during the week?",
        ],
        [
            "The car for work was making a strange noise going up the hill to Lamas today, I "
            "had to stop twice and let it cool down. Is that the radiator?",
            "Do you think it is dangerous to drive the route when there is ice? My chefe says "
            "we must go anyway, the pensions must arrive on the day.",
            "Today I washed the work car myself because the machine at the depot is broken "
            "again, my arms are dead now.",
        ],
        [
            "Goodbye to {old}... the depot took it back and now I have {v}. Everything is in a "
            "different place, I turned on the hazard lights three times looking for the radio.",
            "New news on the work car: from this month I am driving {v}, because the other one "
            "failed the inspection.",
        ],
        [
            "What am I currently taking on my mail round?",
            "These days, what carries me and the letters through the hills?",
        ],
    ),
    Topic(
        "canary",
        [
            "a yellow Timbrado cock called Fadista",
            "a green Spanish Timbrado named Pimenta",
            "a little orange Gloster with a crest, called Bolacha",
            "a variegated roller canary called Maestro",
            "a white Malinois called Neve",
            "a cinnamon Timbrado cock called Ze do Telhado",
        ],
        [
            "I have eleven birds now in the cages on the back veranda, but the star of all is "
            "{v}. When I come home from the round he starts before I even open the gate. Abilio "
            "pretends he doesn't like the noise but I find him whistling back.",
            "I am thinking to enter {v} in the regional show in Mirandela in November. The "
            "judges listen for the rolling notes, the agua and the floreio, and he does them "
            "all when he is in the mood.",
            "My favourite in the aviary is {v}, I raised him from the egg when his mother "
            "abandoned the nest. Sonia laughs that I love him more than her.",
        ],
        [
            "Which of my feathered singers is the best one?",
            "What did I want to put into the competition this autumn?",
            "Tell me again about the little creature I'm fondest of at home?",
        ],
        [
            "The seed prices went up again at the cooperative, five kilos of mix is almost 14 "
            "euros now, for the birds it is a fortune.",
            "One of my canaries is losing feathers on the head, is it the moult or some bug? "
            "What should I look for?",
            "The bird club meeting is on Sunday after mass, they want to talk about the leg "
            "rings for next season.",
        ],
        [
            "Sad news, {old} stopped singing this spring, he is getting old. Now the voice of "
            "the veranda is {v}, young and very proud of himself.",
            "The club president says my top bird now should be {v}, he sings cleaner than any "
            "of the others this year.",
        ],
        [
            "Who is my leading songster nowadays?",
            "Which of my birds is the champion at the moment?",
        ],
    ),
    Topic(
        "remedy",
        [
            "three injections of hyaluronic acid in the knee",
            "a course of twenty sessions of physiotherapy at the Macedo clinic",
            "glucosamine tablets and a copper bracelet",
            "a knee brace with metal hinges on both sides",
            "a cortisone shot and two weeks of rest",
            "warm mud baths at the Caldas de Carlao spa",
        ],
        [
            "Abilio went finally to the orthopaedist in Braganca about his knee, forty years of "
            "carrying stones is paying the bill now. The doctor decided on {v} and we will see. "
            "He is grumpy, he wanted a miracle pill.",
            "For my husband's bad knee the answer is {v}, so say the medical people. He calls "
            "it torture but he goes, I drive him myself on my day off.",
            "Abilio's old stonemason knee is being treated with {v}. If it works maybe he can "
            "do the pilgrimage to Fatima with the choir in May.",
        ],
        [
            "What did the specialist prescribe for my husband's leg joint?",
            "How is Abilio being looked after for the pain when he walks?",
            "What are they doing about the problem my man has with his walking?",
        ],
        [
            "Abilio couldn't climb the stairs to the church today, I had to help him like an "
            "old man, and he is only 58.",
            "Is it normal that a knee swells more when the weather is going to change? Abilio "
            "says he can predict rain better than the TV.",
            "We waited three hours at the health centre today for nothing, the doctor was "
            "called away to an emergency.",
        ],
        [
            "The orthopaedist says {old} did not help enough, so now they try {v}. Poor Abilio, "
            "always the guinea pig.",
            "New plan for Abilio's knee: {v}. The last thing made no difference at all.",
        ],
        [
            "What's the current approach for my husband's joint trouble?",
            "These days, what is Abilio doing for his leg?",
        ],
    ),
    Topic(
        "hymn",
        [
            "the Ave Maria by Schubert in Portuguese",
            "an old Mirandese hymn called Senhora da Serra",
            "Panis Angelicus by Cesar Franck",
            "the Hallelujah from Handel's Messiah",
            "the Ave de Fatima in four voices",
            "a Gregorian Salve Regina that the priest found in an old book",
        ],
        [
            "At choir practice Padre Vitor told us what we will sing at the August festa: {v}. "
            "I am in the altos and our part is very hard in the middle, I practise in the car "
            "between villages.",
            "The conductor chose {v} for the feast of Nossa Senhora, and I have the solo in the "
            "second verse! My legs shake already and it is two months away.",
            "Every Thursday night we rehearse {v} in the sacristy. It is so cold in there that "
            "we sing in our coats and scarves, and the sacristan lends us a small heater.",
        ],
        [
            "What piece are we preparing for the summer celebration in church?",
            "Which song will I be performing alone in front of everyone?",
            "What are we working on each week with the singers?",
        ],
        [
            "Choir was cancelled tonight, half the sopranos have the flu.",
            "How can I breathe better when I sing a long note? I always run out of air before "
            "the end of the phrase.",
            "The new organist is from Porto, very young, he plays too fast for us old ladies.",
        ],
        [
            "Change of plans for the festa! Padre Vitor got tired of {old}, now we sing {v} and "
            "we have only five weeks to learn it.",
            "They replaced the piece for the feast, it is {v} now. I must learn everything "
            "again.",
        ],
        [
            "What is the choir actually going to perform at the festival now?",
            "After all the changes, which music did we end up with?",
        ],
    ),
    Topic(
        "present",
        [
            "a red bicycle with stabiliser wheels",
            "a toy tractor with a trailer full of plastic olives",
            "a Benfica football shirt with his name on the back",
            "a drum set from the music shop in Mirandela",
            "a wooden fort with knights that Abilio will carve himself",
            "a little fishing rod for the river Tua",
        ],
        [
            "Duarte makes seven in March and after much thinking we decided: from the "
            "grandparents he gets {v}. Sonia said yes, so it is a secret now, don't tell him "
            "ha ha.",
            "I already hid {v} in the wardrobe of the spare room, under the winter blankets. "
            "Duarte looks everywhere when he visits so I lock the door.",
            "For Duarte's aniversario I ordered {v} on the internet. It arrives next week I hope, "
            "the website was so confusing that Tiago had to finish the payment.",
        ],
        [
            "What are Abilio and I buying the little boy for his big day?",
            "What's the surprise stashed away for my grandson?",
            "What gift is coming for the little one?",
        ],
        [
            "Duarte lost his first tooth! Here the fairy leaves a coin under the pillow, one "
            "euro, but Sonia says now the kids want five.",
            "What do boys of seven like these days? Everything is tablets, I don't understand.",
            "Sonia wants a small party for Duarte's birthday but Tiago wants a big lunch with "
            "all the family, always the same fight.",
        ],
        [
            "Sonia told me {old} is not a good idea in the flat in Porto, so we changed the "
            "plan and Duarte gets {v} instead.",
            "I returned the first present, now the birthday boy receives {v}.",
        ],
        [
            "So in the end, what is the boy getting from us?",
            "What did we finally settle on for Duarte?",
        ],
    ),
    Topic(
        "dog",
        [
            "a grey Serra da Estrela mastiff called Lobo",
            "a small black podengo named Farrusco",
            "a three-legged Rafeiro do Alentejo called Tripe",
            "a fat beagle called Bolota",
            "a white poodle with a pink collar called Princesa",
            "a shaggy Cao da Serra de Aires called Pirata",
        ],
        [
            "There is a farm after Vila Verde where {v} waits for me at the gate every single "
            "day. The first year he tried to bite my ankle, now I bring him a biscuit and he "
            "walks me to the letterbox.",
            "The only creature on my route that scares me is {v}. The owner says he is gentle "
            "but he shows all the teeth when I open the van door.",
            "Dona Amelia's letters I put in the box very fast because of {v}. He knows the "
            "sound of my engine from the bottom of the road and comes running.",
        ],
        [
            "Which animal accompanies me at that place on my round?",
            "Which beast am I afraid of while doing the mail?",
            "Which four-legged friend do I run into at work?",
        ],
        [
            "Should postmen carry something against dogs? My colleague in Vinhais got bitten on "
            "the hand last week.",
            "I always keep dog biscuits in the glovebox, the whole route knows me now.",
            "A farmer near Lamas got a new puppy and it chased my car for one kilometre, I was "
            "laughing so much.",
        ],
        [
            "{old} died in his sleep, the owner cried when she told me. Now they have {v} and I "
            "must make friends from zero.",
            "There is a new guard at the farm after Vila Verde: {v}.",
        ],
        [
            "Which animal is at that farm gate now?",
            "Who protects that place on my route nowadays?",
        ],
    ),
    Topic(
        "brine",
        [
            "a branch of wild fennel and strips of orange peel",
            "crushed garlic with bay leaves and a chilli",
            "lemon slices and fresh oregano from the hill",
            "a spoon of coarse salt from Aveiro and thyme",
            "cracked coriander seeds and a splash of vinegar",
            "rosemary, laurel and a little bit of sugar",
        ],
        [
            "In November I cure the olives from our six trees. The secret of my mother, that I "
            "give you now: in the water goes {v}, nothing else. Everybody at church asks and I "
            "say it is magic.",
            "My olives are famous in the village because I put {v} in the salt water. Abilio's "
            "cousin tried to copy and failed ha ha.",
            "This year I filled twenty jars and each one has {v} in it. The whole kitchen smells "
            "like my childhood, Abilio keeps stealing from the first jar.",
        ],
        [
            "What flavouring did my late mae teach me to add when pickling?",
            "What makes the pickled fruit I'm known for taste special?",
            "What do I add to the preserves every autumn?",
        ],
        [
            "The olive harvest starts next week, my back is already crying.",
            "How long should olives sit in plain water before I start the brine? My mother did "
            "it by feeling but I want to be sure.",
            "The cooperative press in Mirandela paid only 40 cents a kilo this year, a shame.",
        ],
        [
            "I am trying something new this year: instead of {old}, the jars get {v}. Don't "
            "tell my mother in heaven.",
            "New recipe for the olives, I now use {v}.",
        ],
        [
            "What do I flavour the cured olives with these days?",
            "What's my current pickling secret?",
        ],
    ),
    Topic(
        "liatrip",
        [
            "a week in Ponta Delgada on Sao Miguel",
            "three nights in a pousada in the Douro valley",
            "a bus tour to Santiago de Compostela",
            "a boat cruise on the river Douro to Regua",
            "five days in Madeira with a levada walk",
            "a long weekend in Paris to see the Eiffel Tower at last",
        ],
        [
            "In September Abilio and I have 35 years of marriage. My children are paying for "
            "{v}, I cried on the phone when Sonia told me.",
            "We never travelled, only to Fatima and to my sister in Lyon. Now we go for {v}, I "
            "must buy a suitcase with wheels.",
            "The anniversary trip is booked: {v}. Abilio asked if there are stairs, always his "
            "knee.",
        ],
        [
            "Where are the kids sending us to celebrate the wedding anniversary?",
            "What journey am I packing for?",
            "Remind me what holiday is planned for us?",
        ],
        [
            "What do you pack for a trip when you never went anywhere? I have one old bag from "
            "my wedding.",
            "I asked my chefe for holidays in September, he made a face but said yes.",
            "Abilio doesn't want to fly, he says the aeroplane is a bus in the sky with no place "
            "to stop.",
        ],
        [
            "We cancelled {old} because of Abilio's knee, now it is {v}.",
            "The children changed the gift, now the anniversary is {v}.",
        ],
        [
            "Where are my husband and I going for our celebration now?",
            "What did our holiday plan end up being?",
        ],
    ),
    Topic(
        "boots",
        [
            "brown leather Gore-Tex boots from Decathlon",
            "black steel-toe boots from the fire station shop",
            "green rubber wellies lined with sheepskin",
            "a pair of grey Merrell hiking shoes",
            "old army boots that belonged to my father",
            "blue waterproof trainers with orange laces",
        ],
        [
            "Finally my feet are happy: I bought {v} and I walked twelve kilometres of the round "
            "today without one blister. 79 euros, a crime, but my feet are worth it.",
            "For the mud in winter I only trust {v}. The farmers laugh but I stay dry.",
            "Sonia says {v} make me look like a soldier. I say yes, I am a soldier of the post, "
            "and soldiers need good feet.",
        ],
        [
            "What footwear did I get for the job?",
            "What do I put on to keep out the wet in cold months?",
            "What do I wear going from door to door?",
        ],
        [
            "My feet are destroyed after today, there was no parking in the centre of Mirandela "
            "and I walked everywhere.",
            "How do you dry wet leather shoes without ruining them? Newspaper or by the stove?",
            "I have a blister the size of a coin on my heel, what is best to put on it?",
        ],
        [
            "{old} finally died, the sole came off in a puddle. Now I wear {v}.",
            "New shoes for the round: {v}.",
        ],
        [
            "What am I walking around in these days for my job?",
            "Which footwear do I use at work now?",
        ],
    ),
]

ADVICE = [
    (
        "The bird club says my canaries have piolho vermelho, the red mite. They scratch all "
        "night and one hen is pale. How do I get rid of it?",
        "Those tiny parasites feed on blood at night and hide by day in cracks in perches, "
        "nest pans and cage corners, so the birds look fine in daylight. Take the birds out, "
        "scrub every cage with very hot soapy water, and throw away old wooden perches or "
        "boil them. Spray the empty cages and the cracks with a permethrin product made for "
        "aviaries, let it dry, then put the birds back. To check, cover a cage with a white "
        "cloth overnight and look for red specks in the morning. Repeat the cleaning every "
        "seven days for three weeks, because new ones hatch from eggs the first round missed. "
        "Give the pale hen some egg food and greens while she recovers.",
        "What did you tell me to do about the little bloodsuckers bothering my birds at night?",
    ),
    (
        "Abilio snores like a tractor, a real roncadeira, I have not slept a full night in a "
        "month. What can I do?",
        "That noisy breathing usually gets worse when he lies on his back, so the first thing "
        "is to keep him on his side: some people sew a tennis ball into the back of the "
        "pyjama top. Raise the head of the bed a little with blocks or an extra pillow. "
        "Wine or a heavy dinner late in the evening relaxes the throat and makes it louder, "
        "so an earlier, lighter meal helps. If you ever notice pauses where he stops "
        "breathing and then gasps, or he is very sleepy in the day, ask the family doctor to "
        "test him for sleep apnoea. Meanwhile good foam earplugs can save your nights.",
        "What were your tips for the racket my husband makes while he sleeps?",
    ),
    (
        "Padre Vitor wants me to be the treasurer of the festa committee this year. I never "
        "did anything like that, I only count stamps. Should I say yes, and how do I do it?",
        "You can do it well if you keep it simple and open. Keep one notebook where every "
        "euro coming in and going out is written the same day, with the date and who. Put "
        "every receipt in an envelope for each month. Ask that the bank account needs two "
        "signatures, yours and someone else's, so nobody can ever say anything. Bring a "
        "short summary to each meeting: what came in from the raffle and the stalls, what "
        "went out for the band and the fireworks, what is left. At the end ask a person you "
        "trust to check everything before the final report to the parish.",
        "What did you suggest about handling the money for the church celebration?",
    ),
    (
        "The doctor at the health centre says I have tendinite in my right wrist from "
        "sorting the letters and carrying the bag. What can I do while I keep working?",
        "That kind of inflammation comes from the same movement repeated thousands of times, "
        "so the main thing is to vary it. Change hands for sorting when you can and carry "
        "the bag across the body instead of on one side. Put ice wrapped in a cloth on the "
        "sore place for fifteen minutes in the evening. A wrist splint at night keeps the "
        "joint straight while you sleep. Gentle stretches, bending the hand back and forward "
        "slowly, a few times a day help too. If it does not improve in a few weeks, ask "
        "about physiotherapy before it becomes chronic.",
        "What did you say about the pain in my arm from work?",
    ),
]

HOPS = [
    (
        "On my round there is {p}, an old man who {x}. Every time I bring his pension he "
        "makes me sit for five minutes and tells me a story.",
        "{p} gave me a jar of his own honey today, dark chestnut honey, because I carried "
        "his gas bottle into the kitchen for him.",
        "What did the man who {x} give me?",
        ["Senhor Amadeu", "Ti Joaquim", "Senhor Herculano", "Ti Manel da Ponte", "Senhor Bento"],
        [
            "drove a tram in Lisbon for forty years",
            "fought in Angola in the colonial war",
            "was the village barber for half a century",
            "still plays the bagpipe at every festa",
            "built his own house with his hands",
        ],
    ),
    (
        "In the choir I sit next to {p}, a lady who {x}. We share a thermos of tea at the "
        "rehearsals and she knows everybody's business.",
        "{p} lent me her black lace mantilla for the procession, it was her grandmother's and "
        "she never lends it to anyone.",
        "What did the lady who {x} let me borrow?",
        ["Dona Celeste", "Dona Filomena", "Dona Ermelinda", "Dona Lurdes", "Dona Arminda"],
        [
            "lost her husband in the mines in France",
            "sings soprano louder than the organ",
            "runs the bakery beside the church",
            "taught half the village to read",
            "came back from Venezuela after thirty years",
        ],
    ),
    (
        "There is a new colleague at the depot, {p}, a young man who {x}. The older ones "
        "tease him but I like him.",
        "{p} fixed the heater of my van on his lunch break with a piece of wire, now I don't "
        "freeze in the mornings.",
        "What did the young guy who {x} repair for me?",
        ["Ruben", "Nelson", "Diogo", "Helder", "Fabio"],
        [
            "studied philosophy in Coimbra before the post office",
            "plays drums in a heavy metal band",
            "moved here from Cape Verde last year",
            "wants to become a firefighter",
            "knows every football score since 1990",
        ],
    ),
]

OPEN = [
    (
        "sister",
        [
            "My sister Graca lives in Lyon since 1989, she cleans offices at night in the "
            "business district.",
            "Graca phones every Sunday at nine exactly, you can set the clock by her.",
            "Graca's husband is French, Gerard, he doesn't speak one word of Portuguese but he "
            "loves my chourico.",
            "Graca wants to come home for good when she stops working, to the old house of our "
            "parents in Carrazeda.",
        ],
        "What have I told you about my sibling abroad?",
    ),
    (
        "garden",
        [
            "In the horta this year I planted only ox-heart tomatoes, the others always get "
            "the blight.",
            "The wild boars came down and dug up all my potatoes last night, Abilio wants to "
            "put an electric fence.",
            "My cabbages for the caldo verde are taller than Duarte now.",
            "I water the vegetables at six in the morning before the round, with the water "
            "from the old well.",
        ],
        "Tell me everything I mentioned about what grows behind our house.",
    ),
    (
        "daughter",
        [
            "Sonia works in cardiology at the Santo Antonio hospital in Porto, mostly nights.",
            "Sonia is separated from Duarte's father, he has the boy every other weekend.",
            "Sonia is doing a master's degree in the evenings, I don't know when she sleeps.",
            "Sonia comes up on the bus to Mirandela once a month and goes back with the car "
            "full of my food.",
        ],
        "What do you know about my girl in Porto?",
    ),
]

CHAT = [
    "How many grams is one cup of flour?",
    "Write a short birthday message for my cousin Fernanda who turns 60.",
    "What is the weather usually like in Lyon in April?",
    "How do I make the letters bigger on my phone?",
    "Give me a simple recipe for bacalhau a Bras for four people.",
    "Translate 'thank you for your patience' into French for my brother-in-law.",
    "How long do I boil an egg for a soft yolk?",
    "Help me write a note to the school that my grandson was sick on Friday.",
    "What is a good name for a white kitten?",
    "How many calories are in one pastel de nata?",
    "Explain in simple words what the cloud on my phone is.",
    "Write a short thank-you text for the neighbour who brought us cabbages.",
]

REPLIES = [
    "Sure:",
    "Of course, here you go:",
    "Happy to help, Lia:",
    "Here is a simple answer:",
    "Good question!",
]

FILLER = [
    "Bom dia! Rain again in Tras-os-Montes, what else is new.",
    "Ai, long day, my back is telling me I am 54.",
    "Just home from the round, the kettle is on.",
    "Abilio is watching the football so I have the phone to myself ha ha.",
    "Pronto, quick thing before I forget, my memory is like a sieve these days.",
]
