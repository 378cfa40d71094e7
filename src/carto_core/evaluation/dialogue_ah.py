"""Variant `ah` of the dialogue set: a thirty-second check set, written apart from `a` to `ag` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Brazilian woman's, Luana Ferreira, 37, from the Guamá
neighbourhood of Belém do Pará at the mouth of the Amazon, a dentist in the public health
service who works wherever the city posts her, dances carimbó in a folk group and is learning
to throw pots in the marajoara style at a workshop in Icoaraci; her husband Rafa repairs boat
engines at a yard on the river, their son Caio, 15, plays football and wants to go pro, their
daughter Clarinha is 7, her mother, Dona Socorro, sells tacacá from a street stall, her younger
brother Júnior works away on fourteen-day rotations, her grandmother, Vó Benedita, 86, is
getting too frail to live alone on Marajó island, and her mother-in-law, Dona Graça, has an
opinion on everything: where she is posted, what is on her pottery wheel, where the carimbó
group dances next, the team Caio plays for, where her mother's stall stands, where Júnior
works, where Vó lives, where the family goes for the July holidays and what Clarinha does
after school; she writes in long run-on messages with Portuguese mixed in ("égua", "né",
"mamãe", "kkkk"), and asks as people ask an assistant to remember ("the lady with the chickens
on her roof, what did she do when someone went for the bike", "where did the boy get a double
and his avó pass out watching"), mostly lowercase, often without a question mark or
apostrophes, some as a few words ("next gig for the dance group?"), a few typos ("wich",
"whre", "u"), some with the topic first and the question after a comma ("july trip, where
are we going now"), from the specific to the vague, and mostly share no content word with the
message that answers them. Sessions run from one exchange to eight over 410 days; small talk
may sit before and after a fact in the same message; rows are one utterance each, among 5,300
coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("dentalpost", ["the health post in Terra Firme", "the little clinic on Combu island",
                         "the dental wing of the Jurunas polyclinic",
                         "the night emergency at the Pronto-Socorro in Umarizal",
                         "the hospital boat that goes up the Acará river",
                         "the mobile dental van at Outeiro"],
          ["égua, they finally posted me, from Monday I'm at {v}, forty hours, fillings and "
           "extractions all day and no aircon in the surgery obviously, né",
           "pulled eleven teeth today at {v}, one senhor had an abscess the size of a lime and "
           "told me he'd been treating it with cachaça kkkk",
           "the health secretary came to visit {v} with a photographer so we all had to pretend "
           "the compressor works, I smiled like an idiot next to a dead machine"],
          ["which posting did i get in the end, the forty hour one drilling and pulling in a "
           "hot room",
           "where was i when the old guy was curing his swollen jaw with sugarcane liquor",
           "the place where we faked the equipment working for the politicians photos, which "
           "one was it"],
          ["Out of anaesthetic cartridges again, the patients have to wait until Thursday.",
           "My back is killing me from bending over the chair all day.",
           "The queue for a dental appointment starts at five in the morning, people bring "
           "their own stools."],
          ["they moved me from {old} to {v}, the new coordinator wanted someone who is good "
           "with children",
           "finished my time at {old}, from this month I'm at {v}, closer to home at least "
           "graças a Deus"],
          ["where am i working these days, the teeth job",
           "my clinic now?"]),
    Topic("potterywheel", ["a marajoara funeral urn", "a vase with tapajó caryatids",
                           "six coffee cups with incised black lines",
                           "an oil lamp shaped like a turtle",
                           "a big platter with a snake pattern",
                           "a money box shaped like a manatee"],
          ["on Saturdays at the workshop in Icoaraci I'm doing {v}, Mestre Cabeça says my clay "
           "is too wet but honestly what does he know kkkk he's been saying that since 1985",
           "{v} cracked in the kiln, three weeks of work gone, I almost cried in front of "
           "everybody and Mestre just said 'acontece'",
           "sold {v} to a tourist from São Paulo for 250 reais!!! my first sale ever, nossa, I "
           "took a photo of the money"],
          ["what am i shaping at the clay place on weekends, the one the old teacher says is "
           "soggy",
           "which thing of mine split in the oven after weeks of work",
           "what was the first piece i ever got paid for, the one the lady from down south "
           "bought"],
          ["My nails are always full of clay, terrible look for a dentist.",
           "The kiln at the workshop is fired with wood, it smokes out the whole street.",
           "Bought a sack of the grey clay from the riverbank, thirty reais."],
          ["gave up on {old}, the walls kept collapsing, now I'm making {v}",
           "finished {old} at last, it's on mamãe's shelf, next one is {v}"],
          ["whats on my wheel now at icoaraci",
           "the pottery thing im making lately?"]),
    Topic("carimbogig", ["the Estação das Docas", "the steps of the Theatro da Paz",
                         "the festival in Marapanim", "the Mangal das Garças park",
                         "the cruise ship terminal welcome",
                         "the Praça da República on a Sunday morning"],
          ["the carimbó group is dancing at {v} on the 15th and I have to sew a new skirt, the "
           "big round flowery one, where am I going to find the time gente",
           "we danced at {v} last night and I spun so hard my skirt hit a gringo in the face "
           "kkkkk he laughed thank God",
           "it poured during our show at {v}, we kept dancing barefoot in the puddles and the "
           "people cheered more than when it was dry"],
          ["where is the dance group going to perform, the one i need to make a new outfit for",
           "where did i smack a foreign guy with my clothes while twirling",
           "the show where we carried on in the rain with no shoes, where was that"],
          ["Rehearsal ran until eleven, my calves are on fire.",
           "The group's banjo player is sick again, we might have to dance to a recording.",
           "Carimbó skirts cost a fortune now, the fabric alone was 120 reais."],
          ["the date at {old} got cancelled, the prefeitura didn't pay, we're dancing at {v} "
           "instead",
           "after {old} our next booking is {v}, the coordinator just confirmed on the group "
           "chat"],
          ["next gig for the dance group?",
           "where are we dancing now, the carimbo girls"]),
    Topic("caioteam", ["the Paysandu under-15 squad", "Clube do Remo's youth academy",
                       "Tuna Luso's under-15s", "a futsal team at the SESI",
                       "the Castanhal youth side", "a beach soccer school on Cotijuba island"],
          ["Caio passed the trial for {v}!!! Rafa cried, then said it was dust in his eye kkk",
           "Caio scored twice for {v} on Sunday and Dona Graça fainted in the stands, she's "
           "fine, it was just the heat and the excitement",
           "{v} made Caio sit on the bench for three games because he missed school, good, I "
           "support the coach one hundred percent"],
          ["which team did my son get into, that my husband got all teary about",
           "where did the boy get a double and his avó pass out watching",
           "who benched my kid for skipping classes"],
          ["Caio's boots already have a hole in them, three months old.",
           "Football practice is at six so I'm up at five making his tapioca.",
           "Caio wants to dye his hair blond like Neymar, over my dead body."],
          ["Caio left {old}, the coach only ever played his own nephew, he's at {v} now",
           "Caio got released by {old} but {v} picked him up the same week, égua what a "
           "week"],
          ["which club is caio playing for at the moment",
           "my sons team now"]),
    Topic("mumstall", ["the corner of Praça Batista Campos", "the front of the Basílica de Nazaré",
                       "the fish hall at Ver-o-Peso", "the gate of the Bosque Rodrigues Alves",
                       "the entrance of the Federal University", "the Praça Brasil"],
          ["mamãe moved her tacacá stall to {v}, she says the people there tip better and the "
           "guarda municipal leaves her in peace",
           "a TV crew filmed mamãe's tacacá at {v}, she wore her Sunday dress and talked for "
           "twenty minutes, they used eight seconds kkkk",
           "somebody stole mamãe's gas cylinder from her stall at {v}, she served the whole "
           "afternoon on a borrowed one from the pastel man"],
          ["where did my mother take her soup business, where the cops dont bother her",
           "where was mum when the television people came and she wouldnt stop talking",
           "where did mum get her cooking gas nicked"],
          ["Mamãe's jambu supplier didn't come, the tacacá was missing the tingle.",
           "Helped mamãe peel shrimp until midnight for tomorrow's pots.",
           "Mamãe says she'll retire every year and never does."],
          ["the prefeitura kicked mamãe out of {old}, she's set up at {v} now",
           "mamãe gave up on {old}, too much competition, she's at {v} from Monday"],
          ["where does mum sell her tacaca now",
           "mamães stall these days?"]),
    Topic("juniorwork", ["the Carajás iron mine", "a bauxite mine at Paragominas",
                         "the Belo Monte dam", "a grain port at Barcarena",
                         "an oil platform off Macaé", "a nickel plant in Ourilândia"],
          ["Júnior got the job at {v}, fourteen days on and seven off, and he's promised to "
           "send money for mamãe every month, let's see",
           "Júnior hurt his hand at {v}, two stitches, and they made him fill in twenty forms "
           "about it kkk",
           "Júnior says the food at {v} is so good he's put on eight kilos, he sent a selfie with "
           "a double chin"],
          ["where's my brother working, the two weeks away one week home thing",
           "where did my maninho cut his hand and drown in paperwork",
           "where is my brother eating so well he's gotten chubby"],
          ["Júnior called from the airport, his flight was delayed five hours.",
           "Júnior wants to spend his whole bonus on a pickup, the fool.",
           "Mamãe prays for Júnior every night because of the accidents you see on the news."],
          ["Júnior quit {old}, he's going to {v}, better money and a better roster",
           "Júnior's contract at {old} ended and now he's at {v}"],
          ["where is junior working now",
           "my brothers job currently?"]),
    Topic("vohome", ["her stilt house in Soure", "Tia Dirce's place in Salvaterra",
                     "a care home in Marambaia", "our back room in Guamá",
                     "Tio Lauro's farm on the Arari river", "Júnior's flat in Parauapebas"],
          ["Vó Benedita is staying at {v} now, she says she'd rather die than leave her "
           "buffalo behind but fine, she went",
           "went to see Vó at {v}, she made me maniçoba and asked me three times if I was "
           "married kkk I've been married sixteen years Vó",
           "Vó fell in the bathroom at {v}, nothing broken graças a Deus, they found her sitting "
           "on the floor singing hymns"],
          ["where's my grandma living, the one who wont part with her animals",
           "where did i visit vó and she kept asking if i had a husband",
           "where did my gran slip and get found singing"],
          ["Vó Benedita turned 86 and wants a party with a brass band.",
           "Vó still won't take her blood pressure pills, she says they're bitter.",
           "The boat to Marajó takes three hours and Clarinha throws up every single time."],
          ["we moved Vó from {old} to {v}, she didn't speak to me for a week",
           "Vó couldn't stay at {old} any longer, the family decided on {v}"],
          ["where does vo live now",
           "grandmas place these days"]),
    Topic("julybeach", ["Salinópolis", "the island of Algodoal", "Alter do Chão", "Mosqueiro",
                        "Ajuruteua beach", "Marudá"],
          ["we rented a little house in {v} for July, Rafa is taking the whole month off, the "
           "kids are going crazy already",
           "Clarinha got stung by a jellyfish at {v}, a fisherman poured vinegar on it and she "
           "stopped crying just like that",
           "Rafa burned like a shrimp at {v}, he refused sunscreen, now he sleeps standing up "
           "kkkkk"],
          ["where are we spending the school break, the month my husband isnt working",
           "where did my little one get that sea sting the fisherman sorted out",
           "where did rafa get cooked red because he wouldnt put cream on"],
          ["July in Pará means every beach is full of people from Belém.",
           "Bought the kids new swimsuits, Caio wanted one with a football badge.",
           "The bus to the coast on a holiday Friday takes six hours."],
          ["no {old} this year, too expensive, we're doing {v} in July",
           "Rafa's cousin lent us his house so it's {v} instead of {old}"],
          ["july trip, where are we going now",
           "whre are we going for the holidays in the end"]),
    Topic("clarinhaclass", ["swimming lessons at the SESC pool", "ballet at a studio in Marco",
                            "capoeira at the community centre",
                            "violin in a music project for kids",
                            "karate at the military police club",
                            "a children's theatre class at the Casa das Artes"],
          ["Clarinha started {v} on Tuesdays and Thursdays, she makes me watch the whole hour "
           "through the window and wave every five minutes",
           "Clarinha got a little medal from {v}, she sleeps with it under her pillow",
           "Clarinha threw a tantrum and refused to go to {v}, lay down on the floor of the "
           "bus kkkk I wanted to disappear"],
          ["what's my youngest doing twice a week, the one where i have to watch through the "
           "glass",
           "where did clarinha win the tiny prize she keeps under her pillow",
           "what was clara screaming on the bus floor to get out of"],
          ["Clarinha lost her second front tooth, of course the dentist mother kept it in a "
           "box.",
           "Clarinha wants a cat and Rafa says no.",
           "Clarinha's school uniform is already too short for her."],
          ["Clarinha is done with {old}, she wants {v} now like her best friend",
           "{old} changed to mornings when she has school, so Clarinha moved to {v}"],
          ["clarinhas after school thing now?",
           "wich class does my little girl do after school these days"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("ok so I'm a dentist at a public clinic here in Belém and today I stuck myself with the "
     "needle right after giving anaesthetic to a patient, a man I don't know, and he left "
     "before I could ask him anything. it bled a little. my assistant says relax, it's a dental "
     "needle, it happens to everyone. honestly I'm scared. what should I do, is it too late, "
     "it was three hours ago",
     "It is not too late, but act today rather than waiting until tomorrow. First, if you have "
     "not already, wash the spot with soap and running water; do not squeeze it, scrub it or "
     "put bleach on it. Then treat it as what it is, an occupational exposure to blood, and go "
     "now to the service your city uses for accidents with biological material (the clinic "
     "coordinator or the municipal health secretariat will know which one; often it is an "
     "emergency unit or an infectious diseases hospital). The reason for hurry is that if "
     "post-exposure prophylaxis for HIV is advised, it works best started as early as "
     "possible, ideally within two hours and no later than 72 hours, and is then taken for 28 "
     "days. The doctor there will weigh the risk: a needle that was inside a patient and had "
     "blood on it carries some risk, even if it is small, for HIV and more for hepatitis B and "
     "C. They will take your own baseline blood tests and check whether you are protected "
     "against hepatitis B; if you had the vaccine series and a good antibody result, that risk "
     "is very low, and if not you may be given vaccine or immunoglobulin. Ask the clinic to "
     "try to reach the patient through his record and invite him, with his consent, for rapid "
     "tests; a negative result for him can let you stop the medicines early. Report the "
     "accident formally at work (in Brazil, the occupational accident report, the CAT, and "
     "the notification the health system requires); it protects your rights if anything "
     "comes of it. You will have follow-up tests over the next months. Until you are cleared, "
     "use condoms and do not donate blood. And your assistant is wrong that it is nothing: "
     "needlestick injuries are common in dentistry, which is exactly why there is a protocol.",
     "the time i jabbed myself at work with the anaesthetic thing from a stranger, what was "
     "your advice"),
    ("my grandmother is 86 and lives alone in a wooden house on stilts on Marajó island, three "
     "hours by boat from us. these last months she forgets the gas on, she called me twice in "
     "one night asking where my grandfather is (he died twenty years ago) and once she walked "
     "down to the port in her nightdress. my uncle says it's just old age. she refuses to come "
     "and live in Belém. what do we do",
     "Forgetting the gas, asking for a husband who died long ago and walking out at night in "
     "nightclothes are not simply old age, and they deserve a proper medical look. Some causes "
     "of confusion in old people are treatable: a urine infection, dehydration, low sodium, "
     "thyroid problems, lack of vitamin B12, poor hearing or eyesight, depression, or the side "
     "effects of medicines. If the change came on quickly over days, or she is drowsy or "
     "feverish, that can be delirium and she should be seen urgently. If it has crept up over "
     "months, it may be dementia, which a doctor can assess with simple memory tests and blood "
     "tests; the family health team at her local health post can start, and a geriatrician in "
     "Belém can confirm. Meanwhile, make her safe where she is. For the gas, fit a shut-off "
     "valve or a gas leak alarm, or switch her to an electric hotplate with a timer. For "
     "walking out at night, a simple door alarm or bell helps, and she should wear a bracelet "
     "or carry a card with her name and your phone number; in a house over water, a gate or "
     "rail on the steps matters too. Put her medicines in a weekly pill box that someone "
     "checks. Ask a trusted neighbour to look in on her every day and to call you, and "
     "consider paying one. Then hold a family meeting, with her in it: talk about what she "
     "wants and fears, not only what you want. The options are usually a relative moving in, a "
     "paid carer, family taking turns, or a move, and people often accept a trial stay more "
     "easily than a permanent one. While she can still decide, help her sign a power of "
     "attorney so that someone can handle her money and health matters later. And share the "
     "load: caring from three hours away is hard, and it should not all fall on you.",
     "vó getting muddled and wandering off at night over on the island, what did you tell me"),
    ("my son Caio is 15, plays football almost every day, he trains at 6am and then plays "
     "futsal at school too. for two months he's had pain just below the kneecap, there's a hard "
     "bump there that hurts when he kneels or goes up stairs, worse after training. he grew "
     "like 10 cm this year. the coach says play through it, he has a big game in two weeks. "
     "should I worry",
     "What you describe sounds very much like Osgood-Schlatter disease, a common problem in "
     "active teenagers during a growth spurt. The tendon below the kneecap pulls on the growth "
     "area at the top of the shin, which becomes sore and forms a bony bump. It is not "
     "dangerous and usually settles when he stops growing, though the bump often stays. It is "
     "still worth having a doctor, a paediatrician or a sports or orthopaedic doctor, examine "
     "him to confirm it; sometimes an X-ray is done. See someone sooner if the pain wakes him "
     "at night or is there at rest, if the whole knee swells, locks or gives way, if he has a "
     "fever, limps, or also has pain in the hip or thigh, since at his age a hip problem can "
     "show up as knee pain. Treatment is mainly managing the load, not stopping everything. "
     "Two sessions a day with football and futsal is a lot for a growing body: drop one of "
     "them for now and give him at least one or two full rest days a week. Let the pain guide "
     "him: mild discomfort that is gone by the next morning is acceptable; pain that makes him "
     "limp or is worse the next day means he did too much. Ice for fifteen to twenty minutes "
     "after training, gentle stretching of the front and back of the thigh, and strengthening "
     "exercises a physiotherapist can show him all help. A knee pad for kneeling and a strap "
     "below the kneecap may ease it. Paracetamol or a short course of ibuprofen can help on "
     "bad days but should not be used to play through heavy pain. Whether he plays the big "
     "game can depend on how he is by then; many boys with this condition can play with a "
     "sensible plan. Share the doctor's advice with the coach, because growing players need "
     "rest to develop as well.",
     "caio with the lump under his knee from all the training, what was your take on it"),
    ("the street flooded again with the high tide plus the rain, water up to the knee, sewage "
     "and everything. Rafa walked home through it barefoot because his sandal broke, and he has "
     "a cut on his foot. that was eight days ago. since yesterday he has a high fever, headache, "
     "his calves hurt so much he can hardly walk and his eyes are red. he says it's just a "
     "gripe and wants to take dipirona and sleep it off. I'm a dentist not a doctor, what do "
     "you think",
     "Please don't let him sleep it off. Fever, headache, strong pain in the calves and red "
     "eyes about a week after wading through flood water, with a cut on his foot, is the "
     "classic picture of leptospirosis, an infection carried in rat urine that spreads in "
     "floods; it is common in Brazil after heavy rains. Dengue and other fevers are also "
     "possible, but either way he needs to be examined today, at a UPA or emergency service. "
     "Tell the doctor clearly that he walked through flood water eight days ago with a wound, "
     "because that changes what they test for and treat. Leptospirosis is treated with "
     "antibiotics, and they work best when started early, so the doctor may start them before "
     "the test results are back. Go to an emergency department at once, without waiting, if "
     "his eyes or skin turn yellow, he passes little urine or it is very dark, he becomes short "
     "of breath or coughs blood, he bleeds from the gums or nose or has unusual bruises, or he "
     "becomes confused or very drowsy: the severe form can damage the kidneys, liver and lungs. "
     "Until he is seen, he should drink plenty of fluids and rest. For the fever, paracetamol "
     "or dipirona is what doctors usually allow, but it only hides the fever; it does not "
     "treat the infection. He should not take ibuprofen, diclofenac or aspirin, because if "
     "this is dengue or leptospirosis they raise the risk of bleeding and can harm the "
     "kidneys. Ask about a tetanus booster for the cut too. For the next flood: rubber boots "
     "and gloves for anyone who must go into the water, keep the children out of it, and "
     "after the water goes down, clean floors and furniture with diluted household bleach and "
     "throw out any food the water touched.",
     "rafa burning up with the aching legs after he waded home through the dirty water, what "
     "did you say it could be"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("there's a new dental nurse working with me, {p}, she {x}, hums brega songs all day while "
     "she sterilises the instruments, I love her already",
     "{p} noticed the autoclave wasn't reaching temperature and stopped us using a whole tray "
     "of instruments, the technician came and said she was right",
     "the nurse who {x}, what did she catch at work",
     ["Rosilene Pantoja", "Jaqueline Barbosa", "Keila Moraes", "Suellen Cardoso",
      "Taynara Lobato"],
     ["came down from Breves on the river boat", "studies nursing at night",
      "used to sell açaí on the street", "has five sisters", "goes to a Pentecostal church"]),
    ("there's an old drummer in the carimbó group, {p}, he {x}, plays with his eyes closed and "
     "a straw hat he never takes off",
     "{p} carved me a new pair of maracas from a cuia gourd and painted my name on them, I "
     "almost cried",
     "the old drummer who {x}, what did he make me",
     ["Seu Raimundo Quaresma", "Seu Benedito Corrêa", "Seu Manoel Tavares",
      "Seu Osvaldo Maia", "Seu Domingos Farias"],
     ["was a fisherman in Vigia for forty years", "builds his own drums from avocado trunks",
      "has never once missed the Círio", "lost two fingers in a sawmill",
      "learned to play from his grandmother"]),
    ("the lady who moved into the house across the passagem, {p}, she {x}, talks to everyone "
     "from her window at seven in the morning",
     "{p} caught a guy trying to take Rafa's motorbike at 2am and screamed until he ran, the "
     "whole street woke up",
     "the neighbour who {x}, what did she do when someone went for the bike",
     ["Dona Lúcia Pinto", "Dona Iracema Gomes", "Dona Zuleide Castro",
      "Dona Francisca Amaral", "Dona Marlene Viana"],
     ["reads tarot cards for the whole street", "keeps twelve chickens on her roof",
      "was a cook on the river boats to Manaus", "has a parrot that shouts football goals",
      "runs a little church in her front room"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("cirio", ["Círio day, we left the house at four in the morning and the crowd by the Sé was "
               "so packed my feet didn't touch the ground",
               "Rafa held the rope for six hours this Círio and his hands are raw, he says it "
               "was for Vó's health",
               "Círio lunch at mamãe's, pato no tucupi and maniçoba for twenty-two people, I "
               "washed dishes until ten at night",
               "cried when the berlinda with Nossa Senhora passed our corner, every year I say "
               "I won't and every year I do"],
     "the big procession in october, what have i told you about it"),
    ("upstairs", ["we started building the second floor, Rafa's cousin is the mason, I paid for "
                  "the first load of bricks with my thirteenth salary",
                  "the laje is poured, half the street came to help and we fed all of them "
                  "feijoada",
                  "rain got into the new upstairs through the unfinished wall and Caio's "
                  "mattress is ruined",
                  "the building stopped again, cement went up and Rafa's cousin disappeared to "
                  "a job in Ananindeua"],
     "the extra floor on our house, everything i said about that"),
    ("sogra", ["Dona Graça came for lunch and said my açaí was watery in front of everybody",
               "my mother-in-law gave Clarinha a phone for her birthday without asking me, "
               "seven years old!",
               "Dona Graça and mamãe had a shouting match at the football over whose family "
               "Caio takes after",
               "Dona Graça had her gallbladder out, I took her soup every day for a week and she "
               "said thank you, first time in fifteen years"],
     "rafas mum, what have i told u about her"),
]

CHAT = ["how do you say 'bite down gently' in English, I have a tourist patient tomorrow",
        "convert 180 reais to dollars",
        "a cheap vatapá recipe for fifteen people",
        "write a message for the school parents' group saying the June party is cancelled",
        "is it 'teeths' or 'teeth' kkk",
        "how many hours by boat from Belém to Santarém",
        "translate 'fique tranquilo' to english",
        "ideas for a seventh birthday party on a small budget",
        "what's the difference between a UPA and a UBS, explain like for my mother",
        "a short prayer for someone having surgery",
        "valeu, obrigada, that's it",
        "wait one more question"]
REPLIES = ["Claro, here you go:",
           "Right, in a few lines:",
           "Okay, short and practical:",
           "Good question, here's the gist:",
           "Here is what I would do:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Égua, the rain just started, three in the afternoon on the dot as always.",
          "Typing from the bus, it's so full I'm holding the phone over someone's head.",
          "Clarinha is shouting for me from the bathroom, one second.",
          "Just ate açaí with fried fish, now I need a nap.",
          "Power cut in the whole neighbourhood again, phone on 12%."]
