"""Variant `ak` of the dialogue set: a thirty-fifth check set, written apart from `a` to `aj` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Finnish woman's, Marjatta Turunen, 57, who keeps about
seventy Finnsheep ewes on a small farm by the lake Haukivesi near Rantasalmi, in South Savo,
and runs a summer café (kesäkahvila) in the old village dairy from June to August; she plays
the kantele at the civic college's evening course, her husband Esa takes winter work when the
café is shut, their daughter Sanna is a nurse who goes where the work is, and her mother Aune,
86, is losing her memory: what sells best in the café, where the breeding ram came from, where
the fleeces are spun, where the flock grazes in summer, where Sanna is nursing, what Esa does
in the winter, where Aune lives, the piece she is learning on the kantele and who helps her in
the café. She writes to the assistant in a slightly formal English that is not her own ("it is
so that", "I must", "already third day", "how I can"), with the odd Finnish word ("äiti",
"voi ei", "kiitos", "perkele", "juhannus"), in long messages that often tell two things at
once, and she asks later by paraphrase rather than by the words she used the first time ("the
male sheep my husband fetched with the trailer", "where did my mother go with only her rocking
chair"), some as a few words ("äiti, where does she stay these days"), from the specific to
the vague, mostly sharing no content word with the message that answers them; the advice
answers speak of their subject without the name she gave it in the message before them.
Sessions run from one exchange to eight over 425 days; small talk may sit before and after a
fact in the same message; rows are one utterance each, among 5,600 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("cafebestseller", ["the blueberry quark pie", "cardamom buns with pearl sugar",
                             "the Karelian rice pasties", "smoked vendace on dark rye",
                             "the rhubarb crumble cake", "salmon soup with dill"],
          ["Good evening. The café is open now third week and I must say the tourists are "
           "buying {v} more than anything else, on Saturday I baked double amount and still at "
           "two o'clock it was all gone. Also the lambs are growing nicely, the smallest one "
           "drinks from the bottle still.",
           "A lady journalist from a Helsinki newspaper stopped in the café and wrote a small "
           "story, and she praised {v} as the best she has eaten in all of Savo. Now people "
           "come and ask for exactly that one. Esa says I will be famous, höpö höpö.",
           "Voi ei. On Sunday I put salt instead of sugar in {v} and a whole bus of German "
           "pensioners ate it before I noticed. Nobody complained, they are very polite "
           "people, but I wanted to go under the floor."],
          ["Which thing from my oven was disappearing fastest from the counter in the first "
           "weeks of the summer?",
           "The reporter woman from the capital who wrote about us, what did she say was so "
           "delicious?",
           "What did I spoil with the wrong white powder on the day the coach of old visitors "
           "came?"],
          ["The café opening is in two weeks and I have not yet washed one window.",
           "Coffee has gone up again at the wholesaler, maybe I must ask three euros for the "
           "cup now.",
           "Only eleven customers today in the café, rainy day, and I ate the leftovers myself "
           "in the evening."],
          ["Nobody wants {old} anymore this summer, what the guests order now is {v}.",
           "I stopped making {old} because butter is so expensive, and now the favourite on "
           "the counter is {v}."],
          ["What is selling best in my café these days?",
           "the most popular thing I bake for the guests now, which is it?"]),
    Topic("ramorigin", ["the Kärkkäinen farm in Juva", "a Finnsheep breeder in Ilomantsi",
                        "the farming college in Kitee", "an old couple on Sulkava island",
                        "a Kainuu grey flock near Kajaani",
                        "the spring sheep auction in Ylivieska"],
          ["We have now the new ram for the autumn, he came from {v}. Esa drove the trailer "
           "six hours both ways and complained the whole time about the price of diesel. He is "
           "a big handsome fellow, I call him Herra Pässi.",
           "The ram I bought from {v} has a very bad character. Today he hit me in the back of "
           "the knees when I was carrying water and I fell straight into the mud, and Esa "
           "laughed so much he had to sit on the bucket.",
           "The sheep adviser from ProAgria looked at the ram from {v} and said he is perfect, "
           "fine wool, good legs, straight back, and that I should show him at the "
           "agricultural fair in August. I was proud like a mother."],
          ["The male sheep my husband fetched with the trailer on that long drive, where was "
           "he from?",
           "The bad-tempered breeding animal who knocked me into the dirt, where did I buy "
           "him?",
           "Where was the tup raised that the adviser admired and wanted me to take to the "
           "show?"],
          ["The ram is in his own pen now until September and he is shouting all night.",
           "I must decide soon which ewes go in with the ram this autumn, maybe forty of them.",
           "The ram has eaten the bark from my young apple tree, perkele."],
          ["I sold the ram from {old} to a young farmer in Mikkeli, and the one for our ewes "
           "now comes from {v}.",
           "The ram from {old} died in the winter, poor thing, so I bought another one from "
           "{v}."],
          ["Where does the ram I have now come from?",
           "our present ram, from which place is he?"]),
    Topic("woolspinning", ["the spinning mill in Kangasala", "a wool cooperative in Lieksa",
                           "a small mill near Tartu in Estonia", "the carding workshop in Kuopio",
                           "a hand-spinning circle in Savonlinna", "a yarn buyer from Gotland"],
          ["Today I packed all the autumn fleeces in big sacks, nineteen sacks, and sent them "
           "to {v} to be made into yarn. At the same time the freezer of the café broke, so it "
           "was not a good day, everything comes at once.",
           "The yarn came back from {v} and oh, it is so soft and the grey colour is "
           "beautiful, I sat on the porch and stroked it like a crazy woman while the coffee "
           "went cold.",
           "With the women of the Martha association I visited {v} and they showed us how the "
           "machine combs the wool. I bought also a small part for my grandmother's old "
           "spinning wheel, the rukki."],
          ["Where did the nineteen bags of fluff go to be turned into knitting thread?",
           "The place that sent back the grey skeins I could not stop petting, which was it?",
           "Where did I go with the village housewives' club to watch the carding machine?"],
          ["Shearing is next week, I hope the weather stays dry so the wool does not get wet.",
           "Many farmers here just burn the wool because nobody pays for it, it makes me sad.",
           "This winter I knitted socks for the whole family from our own yarn, even the dog "
           "wants a pair."],
          ["I will not send the wool to {old} anymore, the postage is too much, this year it "
           "goes to {v}.",
           "{old} has closed its doors, so now our fleeces travel to {v}."],
          ["Where are my fleeces being spun nowadays?",
           "the wool, who is making it into yarn for me at present?"]),
    Topic("summerpasture", ["Lammassaari island", "the nature reserve meadows at Puumala",
                            "the manor's shore meadow in Oravi", "the old schoolhouse field",
                            "the church island off Kerimäki",
                            "the power line clearing at Haapala"],
          ["We moved the flock to {v} for the summer, two trips, and one ewe jumped into the "
           "lake and swam to the shore on her own. The landscape contract pays only a little, "
           "but the grass there is like a green carpet.",
           "Some hikers left the gate open at {v} and the sheep walked over to the neighbour's "
           "strawberry field. Esa and I chased them two hours in the rain and I lost one rubber "
           "boot in the ditch, it is still there I think.",
           "The municipality pays us this year to keep the meadows open at {v}, the sheep eat "
           "the bushes and the old flowers come back. A professor came with a net to count "
           "butterflies there and he was very excited about one blue one."],
          ["Where did the animals go over the water, the summer one of them swam back to land "
           "by herself?",
           "Where were the walkers who let my flock out into the berry rows?",
           "The grazing land the council pays me to keep from growing over, where the man "
           "counted butterflies, where was it?"],
          ["I must check the electric fence on the summer grazing, the battery goes empty so "
           "fast.",
           "Counting the sheep every morning in the summer is my meditation.",
           "The flies are terrible this summer, the sheep stand in the shade the whole "
           "afternoon."],
          ["No more grazing at {old}, the owner sold the land. This summer the sheep are at "
           "{v}.",
           "After three summers at {old} we take the flock now to {v}, the grass is better."],
          ["Where are the sheep grazing this summer?",
           "the summer field for my flock, which is it now?"]),
    Topic("sannanursing", ["the children's hospital in Helsinki", "a health centre in Rovaniemi",
                           "a care home in Stockholm", "the maternity ward in Jyväskylä",
                           "a clinic in Tromsø", "a medical mission in Tanzania"],
          ["Sanna telephoned, she got the permanent job at {v}! I cried a little into the "
           "dough. But now I must find someone else for the café in July, because she cannot "
           "come home to help.",
           "Sanna says the night shifts at {v} are so heavy that she sleeps the whole day "
           "after and she does not answer my messages. I worry, but she is thirty-one, what "
           "can a mother do.",
           "I travelled to see Sanna at {v}, a long journey with two changes, and she showed "
           "me the ward and her colleagues. They gave me coffee like brown water and I said "
           "nothing, I was a polite guest."],
          ["Where did my girl get the steady post that made me weep into the baking?",
           "Where is my daughter doing those exhausting nights after which she never replies?",
           "Where did I make the long trip with two changes to meet my daughter's workmates and "
           "drink the bad coffee?"],
          ["Sanna sent a photo in her uniform, she looks so grown up.",
           "Sanna is thinking of the specialist training, but it costs so much.",
           "My daughter says the nurses' union will maybe strike again."],
          ["Sanna has left {old}, she says the boss was impossible, and she started at {v}.",
           "Sanna moved from {old} to {v}, more money and shorter travel she says."],
          ["Where is Sanna working now?",
           "my daughter's hospital job these days, which place?"]),
    Topic("esawinterwork", ["the school taxi route to Enonkoski", "the village snowplough contract",
                            "the sawmill in Kerimäki", "a timber lorry for the forest cooperative",
                            "the snowmobile garage in Savonlinna", "the ski lifts at Tahko"],
          ["Esa has taken {v} for the winter months, he starts at five in the morning so I "
           "must make his coffee at half past four. At least the sheep are happy, they think it "
           "is breakfast time.",
           "Esa came home very proud, the boss at {v} gave him a bonus because he was not "
           "sick one single day. We bought a new mattress with it, my back thanks him.",
           "There was an accident at {v}. Esa is fine but his colleague broke his arm, and now "
           "Esa must do double shifts until February and I feed the sheep alone in the dark."],
          ["What job did my husband take on for the cold season that has me brewing coffee "
           "before dawn?",
           "Where did Esa earn the extra money for never missing a day, the one we spent on a "
           "bed?",
           "Where was my husband working when his workmate hurt an arm and he had to cover for "
           "two?"],
          ["Esa says his back hurts from the winter work but he will not go to the doctor, "
           "typical Finnish man.",
           "Esa fell asleep in the sauna again after his shift.",
           "Esa wants to buy a new snow shovel, he has already four."],
          ["Esa quit {old}, the pay was too bad, and this winter he is at {v}.",
           "This winter Esa is not at {old} anymore, he got a place at {v}."],
          ["What does Esa do in the winter now?",
           "my husband's winter job currently, which one?"]),
    Topic("auneliving", ["the service home in Rantasalmi", "my sister Pirjo's house in Varkaus",
                         "her own flat in Savonlinna with home care",
                         "the geriatric ward at the central hospital",
                         "the group home in Heinävesi", "the little cottage on our own yard"],
          ["Äiti moved to {v} on Tuesday, she took only her rocking chair and the photo of my "
           "father. It was a hard day, and in the evening one lamb was sick too, so I did not "
           "sleep at all.",
           "I visited äiti at {v} and she was singing the old hymns with the others and knew "
           "every verse. My name she did not remember at first, but every word of the hymns, "
           "yes.",
           "The staff at {v} called me at night, äiti tried to walk home in her nightdress in "
           "minus fifteen. They found her at the bus stop. Voi äiti, voi äiti."],
          ["Where did my mother go with only her rocking chair and the picture of dad?",
           "Where was my mum singing the church songs on the day she could not say my name?",
           "From where did my mother wander out in her nightgown into the freezing cold?"],
          ["Äiti turns 86 in March, I must plan a small coffee party for her.",
           "I brought my mother a bag of fresh lamb's wool to hold, she likes the feeling in "
           "her fingers.",
           "My mother asks every time when father is coming home. He died eleven years ago."],
          ["Äiti could not stay at {old} anymore, from Monday she lives at {v}.",
           "We moved my mother from {old} to {v}, it is nearer for me to drive."],
          ["Where is my mother living now?",
           "äiti, where does she stay these days?"]),
    Topic("kantelepiece", ["Karjalan kunnailla", "Tuoll' on mun kultani", "Kalliolle kukkulalle",
                           "the Andante festivo", "Konevitsan kirkonkellot",
                           "Kotimaani ompi Suomi"],
          ["At the kantele course of the civic college the teacher gave me {v} to learn. There "
           "are so many strings to remember and my fingers are like sausages after the "
           "shearing time.",
           "I played {v} in the church at the Christmas party of the old people, my hands were "
           "shaking, but äiti sang along and knew all the words.",
           "On a quiet afternoon in the café I practised {v} and a Japanese tourist filmed me, "
           "and now it is on the internet. Sanna says five thousand people have watched it. "
           "How embarrassing."],
          ["What tune did the teacher at the evening classes give me for my zither, when my "
           "fingers were too clumsy?",
           "The song I performed in church for the elderly at Christmas with trembling hands, "
           "which was it?",
           "Which melody was I practising when the visitor from Japan recorded me and put it "
           "online?"],
          ["My kantele needs new strings, the teacher says it is easy but I am afraid to break "
           "it.",
           "I practise the kantele in the sheep barn, the ewes do not complain.",
           "The kantele lesson was cancelled because of the snowstorm."],
          ["I have finished with {old} at last, now the teacher started me on {v}.",
           "No more {old}, I was bored of it, I am learning {v} now."],
          ["What piece am I working on with my kantele at the moment?",
           "the music on my strings right now, which one?"]),
    Topic("cafehelper", ["Iida Hyvönen", "Eetu Räsänen", "Venla from the Mononen farm",
                         "Aleksi Kinnunen", "a Ukrainian student called Oksana",
                         "Esa's niece Minttu"],
          ["For the café this summer I have hired {v}, a good worker but always with the "
           "telephone in the hand. And the coffee machine is making a strange noise, I must "
           "call the repair man.",
           "On the first day {v} dropped a full tray, eleven cups broken, but the customers "
           "clapped their hands and then everybody was laughing, even me.",
           "Today I paid {v} the summer wages and put fifty euros extra, for working the busy "
           "midsummer weekend without complaining once."],
          ["Who did I take on to help at the café that summer, the one glued to the phone?",
           "Which of my helpers smashed a whole tray of cups and got applause from the guests?",
           "To whom did I give a bonus for the crowded holiday weekend without a single "
           "complaint?"],
          ["I need a helper for the café again this summer, the notice is in the village shop.",
           "Young people today do not know how to make coffee in the big pot.",
           "The helper asked if we can play music in the café, I said only Finnish tango."],
          ["{old} went to study in the city, so the one helping in the café now is {v}.",
           "I had to let {old} go, always late, and now {v} is behind the counter with me."],
          ["Who is working in the café with me now?",
           "my café helper this summer, who is it?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("Hyvää päivää. I have a worry with the ram. He walks on his front knees when he eats, "
     "and there is a smell from between the claws, very bad, like something rotten, and the "
     "skin there is grey and wet, and on one claw the horn is coming loose. Also two ewes are "
     "limping a little since last week. In Finnish I think it is sorkkamätä. This wet autumn "
     "has been terrible, the paddock is only mud. What should I do, and must I be afraid for "
     "the whole flock?",
     "He must be in pain, and you are right to act now and not wait for the frost. Grazing on "
     "his knees, a rotten smell between the claws, grey wet skin and horn lifting away from "
     "underneath: that is the picture of the infectious form, caused by bacteria that pass "
     "from animal to animal over wet ground, and the two others going lame makes it likely "
     "that it is already moving through the flock. Ask your vet to come this week. They can "
     "take a swab to confirm it, tell it apart from the milder inflammation between the toes, "
     "and they will know whether it has to be reported where you are. Meanwhile, catch every "
     "animal and look at all four hooves, not only the lame ones, and write down which sheep "
     "and which leg. Move the affected ones onto dry, hard standing, away from the rest. Do "
     "not pare hard or until it bleeds: the current advice is to trim as little as possible "
     "on an infected hoof, because cutting spreads the bacteria and slows healing, and clean "
     "the shears between animals. What usually works best is a prescribed antibiotic "
     "injection for each lame sheep, given early, often with a spray on the lesion; let the "
     "vet decide the dose and the withdrawal time before any meat goes for slaughter. A "
     "footbath for the flock (zinc sulphate is common) can help, with the sheep standing on a "
     "dry floor afterwards. Mark any animal that goes lame again and again: chronic carriers "
     "keep it going, and flocks that get rid of it mostly do so by culling them. And think "
     "back whether it began after an animal came in from outside, bought or borrowed; keep "
     "newcomers apart for three or four weeks and check them before they join the others. "
     "Gravel or lime in the muddy gateways and moving the feeders to drier ground help too.",
     "That thing with the ram's foot in the muddy autumn, what did you tell me to do?"),
    ("Last night the neighbour Lauri saw a big grey animal like a dog but bigger at the edge of "
     "our summer pasture, and this morning two ewes are missing. One of them I found dead by "
     "the ditch with the throat open. I am still shaking. Esa says it is susi for sure. What "
     "must I do now, to whom do I call, and how do I protect the rest of them?",
     "I am so sorry, that is a terrible thing to find, and it is normal that you are shaking. "
     "Here are the practical steps, roughly in this order. Leave the dead ewe where she lies, "
     "covered with a tarpaulin if birds come, and do not let anyone move or bury her: in "
     "Finland the state compensates livestock killed by large carnivores, but only when the "
     "damage has been inspected, so the body, the tracks and the place all matter. Report it "
     "today to your municipality's rural business office (maaseutuelinkeinoviranomainen); "
     "they arrange the inspection, and the notice has a short time limit. Tell also the local "
     "large carnivore contact person of the Finnish Wildlife Agency (Suomen riistakeskus); "
     "they often come to look at the tracks, can say what it most likely was, and the "
     "observation is recorded. Take photographs now: the carcass, the wounds, footprints with "
     "something beside them for scale, the fence, and note the times. Look for the missing "
     "one with another person, in daylight, not alone. For the rest of the flock, bring them "
     "tonight into the barn or a small pen near the house. The lasting protection is a "
     "predator-proof electric fence: five wires, the lowest close to the ground, about 120 "
     "centimetres high, a strong energiser with good earthing, checked every day. The "
     "Wildlife Agency has supplied fencing materials to sheep farmers in risk areas, so ask "
     "them whether you qualify. Lights and a radio playing in the pasture can help for a few "
     "nights, not longer. Do not try to deal with it yourself; if it keeps coming back, the "
     "Wildlife Agency decides on a permit based on the damage. And when the urgent things are "
     "done, sit down with Esa and drink something warm. It is a real loss, not only money.",
     "When something came out of the forest and killed my sheep, whom did you say I must "
     "phone first?"),
    ("Esa's father Veikko is 88 and he still drives his old Volvo to the shop every day. Last "
     "week he hit the post box of the neighbours and he said the post box moved. Esa will not "
     "say anything to him, he says 'it is his life'. I am afraid that in summer, when the "
     "children are cycling everywhere, he kills somebody. How I can talk to him without he is "
     "offended for ever?",
     "You are not being unkind by worrying. At his age a knock he does not even notice is "
     "exactly the kind of sign families are told to take seriously, and a summer road full of "
     "children on bicycles is the right thing to fear. Some ideas for the conversation. "
     "Choose a calm moment, not straight after an incident, and let Esa be there even if you "
     "do the talking; it lands better coming also from his own son. Begin with what he would "
     "lose, not with what he did wrong: the shop, the freedom, the coffee with his friends. "
     "Ask before you tell: how his eyes are in the dark, whether he feels as quick as before. "
     "Men of his generation often know already and are only waiting to be allowed to stop "
     "without shame. Have an answer ready for every trip he makes now: who takes him to the "
     "shop on which days, that the shop in town can deliver, and that the municipality's "
     "service transport and the Kela-reimbursed taxi for health visits exist for people like "
     "him. Without a plan, handing over the keys feels like a prison. If he refuses, the "
     "doctor is an ally, not a betrayal: in Finland an older person's licence is renewed on a "
     "medical certificate, and a doctor who finds that someone no longer meets the health "
     "requirements must inform the police, who can withdraw it. Ask him to book a check of "
     "his eyes, memory and reactions, and tell the doctor beforehand what you have seen. Some "
     "families agree on a trial: daylight only, to the village only, for a month, and then "
     "they look again together. Whatever happens, let him keep his dignity and thank him for "
     "all his safe years. Keep the words about hurting a child for the very last; they are "
     "true, but they end conversations.",
     "The old man in our family who ought to give up the wheel, how did you suggest I "
     "bring it up with him?"),
    ("A tourist from Germany wrote on Google that my café is 'overpriced, slow, and the owner "
     "was unfriendly and spoke no proper English', and he gave one star. It is true I was "
     "slow that day, because a ewe was lambing in the barn and I ran between. I am so angry "
     "and also ashamed. Should I answer him? What to write? My English is not so good, as you "
     "see.",
     "Yes, answer, but not tonight while you are angry; tomorrow morning with a coffee is "
     "better. A calm reply is less for him than for the hundreds of people who will read it "
     "later when they decide whether to stop, and they judge the owner more by the answer "
     "than by the one star. Keep it short and friendly, with no excuses and no argument about "
     "prices. Something like this, in your own words: 'Thank you for visiting us and for your "
     "honest words. I am sorry your visit was not what you hoped for. That afternoon one of "
     "our ewes was giving birth in the barn next door and I was running between her and the "
     "counter, so you waited longer than you should have, and I understand it was "
     "frustrating. Everything we serve is baked here by hand from local ingredients, which is "
     "why it costs what it does, but I take your comments seriously and hope you will give us "
     "another chance if you pass this way again. Best regards, Marjatta, owner.' A few notes. "
     "Do not defend your English; it is clear and warm, and many visitors find a real owner "
     "more charming than perfect grammar. Do not ask him to remove it, and do not flag it "
     "unless it breaks the site's rules (insults, things that did not happen, or someone who "
     "was never there); an honest bad experience stays up. Answer the good ones too, "
     "briefly, so the page does not look as if you only react to criticism. And when regular "
     "guests tell you they enjoyed themselves, it is fine to say that a few words online "
     "would help a small place like yours; most simply do not think of it. One star among "
     "many kind words hurts you much more than it hurts the business.",
     "The angry visitor from abroad who wrote nasty things about us on the internet, how did "
     "you say I should respond?"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("We have a new municipal veterinarian, {p}, she {x}. Very young, but she seems to know "
     "her work, and she did not laugh at my English.",
     "{p} came at two in the night in the snowstorm when the ewe had the lambs stuck, and she "
     "pulled out triplets and all three are living. I gave her a jar of cloudberry jam, what "
     "else can I give at such hour.",
     "The new animal doctor who {x}, what did she do for us?",
     ["Dr. Kaisa Lipponen", "Dr. Hanna Vartiainen", "Dr. Elina Pesonen", "Dr. Tiina Rytkönen",
      "Dr. Johanna Kärnä"],
     ["came here from Swedish-speaking Ostrobothnia", "rides a big black motorbike",
      "has three Lapphunds in her car", "was a reindeer vet in Lapland before",
      "plays in the women's ice hockey team"]),
    ("A summer man is renting the Laitinen cottage, {p}, he {x}, and he comes to the café "
     "every morning at ten for coffee and two pieces of pulla.",
     "{p} went back to the city today, and in the tip jar there was a hundred euro note and a "
     "letter that our café reminded him of his grandmother's kitchen. I had to sit down.",
     "The summer cottage guest who {x}, what did he leave behind for me?",
     ["Pentti Salonen", "Kalevi Heinonen", "Raimo Lindqvist", "Olavi Tuominen",
      "Reijo Ojala"],
     ["was a ship captain on the Baltic", "writes crime novels",
      "swims in the lake every morning even in the rain", "used to teach mathematics in Espoo",
      "plays the accordion on his porch every evening"]),
    ("The shearer who comes this spring is {p}, he {x}. He is quick, seventy sheep in one day "
     "and not one cut.",
     "{p} bought all my black and grey fleeces for his wife's weaving studio and paid cash on "
     "the spot, so this year the shearing cost me nothing.",
     "The sheep-clipping man who {x}, what did he buy from me?",
     ["Jarmo Pitkänen", "Tapio Huttunen", "Antti Mustonen", "Sami Kauppinen",
      "Mikko Hakkarainen"],
     ["learned the trade in New Zealand", "has a long red beard", "sings while he works",
      "drives an old orange van", "is the Finnish champion of shearing"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("juhannus", ["At juhannus we burned the kokko on the shore, the whole village came, and "
                  "Esa made the fire too big so the volunteer fireman was nervous.",
                  "I heated the midsummer sauna with fresh birch vihta and afterwards we swam "
                  "in the lake, the water only fourteen degrees, brr.",
                  "The café was full on midsummer eve, I sold everything, even the last dry "
                  "biscuits, and we closed only at nine in the evening.",
                  "Following the old custom I put seven flowers under my pillow on midsummer "
                  "night, but I dreamed only of sheep, no handsome man, haha."],
     "The festival of the longest day this year, remind me of everything we did."),
    ("lambing", ["Lambing started in the night, the first two from the old ewe Mansikka, both "
                 "black with a white star.",
                 "Three nights I have slept in the barn on a camp bed, I smell like a sheep and "
                 "I am happy.",
                 "One ewe refused her lamb, so now it lives in our kitchen in a box by the "
                 "oven and Esa gives it the bottle at night.",
                 "Fifty-four lambs born this spring from thirty ewes, Finnsheep are famous for "
                 "many babies."],
     "What did I tell you in the spring when the little ones were arriving?"),
    ("winter", ["I went to the avanto with the village women at minus twenty-two, and after I "
                "felt like a new woman.",
                "The snow is so heavy on the barn roof that Esa climbed up with the shovel and "
                "I stood below praying.",
                "We saw revontulet over the lake, green and pink, and the sheep did not even "
                "look up.",
                "The dark here is hard, the sun goes down at three, I put candles in every "
                "window."],
     "What have I been telling you about the cold dark months here?"),
]

CHAT = ["Please translate to English: 'Kahvila on avoinna kesäkuusta elokuuhun.'",
        "How many grams is one decilitre of wheat flour?",
        "Write a short sign for the café door that we take cards but not 500 euro notes.",
        "Which is correct English, 'on Monday' or 'in the Monday'?",
        "Make a shopping list for eighty cups of coffee and sixty sweet rolls.",
        "How long must potatoes boil in a big pot for twenty people?",
        "Will it freeze tonight around Savonlinna, do you know?",
        "Kiitos, that was very good.",
        "Are you still there, or did the internet go again?",
        "Can you write a happy birthday verse for an old lady who turns 86?",
        "What is the English word for sorkka?",
        "Count please: 37 sheep times 4.5 kilos of wool each, how much together?"]
REPLIES = ["Of course, Marjatta, here it is:",
           "Certainly. The short answer first:",
           "Glad to help, here you are:",
           "Here is what I would suggest, Marjatta:",
           "Yes, short and simple:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Hyvää iltaa, it is me again, the sheep woman.",
          "Sorry for my English, I write quickly before the café opens.",
          "The sauna is warming, so I have a little time now.",
          "Here it rains already third day, everything is mud.",
          "Our cat Miisu walks over the keyboard, sorry for mistakes."]
