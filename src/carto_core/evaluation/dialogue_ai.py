"""Variant `ai` of the dialogue set: a thirty-third check set, written apart from `a` to `ah` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one retired Cretan man's, Giorgos "George" Manousakis, 69, who
left his village in Apokoronas, near Chania, at nineteen, ran a fish and chip shop in Oakleigh,
Melbourne, for thirty years and came home in retirement; he picks the family olives, chants as
the cantor (psaltis) in church on Sundays, plays tavli (backgammon) at the village kafeneio
and is slowly restoring his grandfather's stone house; his wife Eleni, Melbourne-born, cooks
for the village women's cooperative and lets the rooms upstairs to tourists, their son Nick
stayed in Melbourne and runs a souvlaki van, their daughter Maria, 38, is a substitute teacher
the ministry sends to a different school every year, his brother Manolis lives alone and
stubborn in the upper village, and his Australian pension is lost between offices on two
continents: where his olives are pressed, the church he chants at, the kafeneio he sits at,
where Maria is teaching, the job on the stone house, who is renting upstairs, which office has
his pension papers, where Nick's van parks and what Eleni makes for the cooperative. He
dictates every message into his phone in a Greek-Australian English ("I tell you before",
"the wife she says", "mate", "po po po"), so there is no punctuation at all, a "full stop"
spoken aloud now and then, words the phone misheard ("cafe Neo" for kafeneio), and he asks as
people ask an assistant to remember ("the young doctor who plays the lyra at weddings what did
she find with me", "where did my girl get sent to teach this year the one that made her
cry"), some as a few words ("nicks van where now"), from the specific to the vague, and
mostly share no content word with the message that answers them. Sessions run from one
exchange to seven over 415 days; small talk may sit before and after a fact in the same
message; rows are one utterance each, among 5,400 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("olivemill", ["the cooperative press in Vryses",
                        "old Psarakis's stone mill in Gavalochori",
                        "the new centrifuge mill at Armeni", "the organic mill up in Fres",
                        "the Daskalakis brothers' press in Stylos",
                        "the big factory press outside Souda"],
          ["we finish the last trees today my back is finished too mate tomorrow five in the "
           "morning we take the sacks to {v} before the queue gets long",
           "the oil from {v} came out green green and peppery it burns the throat like it "
           "should the wife she says it's the best we ever had",
           "big argument at {v} they put my sacks together with another fellow's I was watching "
           "the whole time and still I think I came home with his rubbish oil"],
          ["after the picking where was i bringing the crop to be crushed",
           "which place gave us that spicy oil that scratches your throat eleni loved it so much",
           "where did they muddle up my bags with some other bloke's so i ended up with worse "
           "stuff"],
          ["Picked from seven until the sun was too hot my hands are black from the olives",
           "The nets are full of holes I need new ones before November",
           "Price for the oil is very good this year but the fly ate half the crop po po po"],
          ["no more {old} for me they charge too much and they are slow full stop this year we go "
           "to {v}",
           "{old} closed down the old man retired so my olives go to {v} now"],
          ["where's my oil getting made these days",
           "the olives now which place crushes them for me"]),
    Topic("chantchurch", ["the little church of Agios Pavlos above the village",
                          "the Trimartiri cathedral in Chania",
                          "the monastery of Agia Triada on Akrotiri",
                          "the Panagia church in Kefalas",
                          "Agios Georgios down by the beach at Kalyves",
                          "the cemetery chapel of Agios Lazaros"],
          ["Father Antonis asked me to be the chanter at {v} every Sunday from now on the old "
           "chanter his voice is gone so I said yes of course I said yes",
           "sang the whole liturgy at {v} this morning three hours standing the knees they cry "
           "but a lady came after and kissed my hand she says I sing like her late father",
           "at {v} today I lost my place in the book and I sing the wrong hymn for a whole "
           "minute nobody said nothing only the priest gave me the eye"],
          ["where did the priest want me doing the singing every week since the old man lost "
           "his voice",
           "which place was it that woman kissed my hand after the service saying i remind her "
           "of her dad",
           "where did i mix up the music in front of everyone and the priest looked at me "
           "funny"],
          ["Practised the Easter hymns in the car all the way to town the tourists at the lights "
           "were looking at me",
           "My voice is not like when I was forty but still it goes",
           "Bought new reading glasses just to see the small letters in the old church books"],
          ["the bishop sent a young chanter with a degree to {old} so they moved me to {v} no "
           "problem I go where they need me",
           "I finished at {old} it was too far to drive every Sunday now I chant at {v}"],
          ["the church im singing at on sundays now",
           "where do i do my salty's job these days the chanting"]),
    Topic("kafeneio", ["Kostis's kafeneio under the plane tree",
                       "the Cultural Association's coffee room",
                       "Argyro's place next to the church steps",
                       "the new café bar in the old school building",
                       "the coffee shop at the petrol station on the highway",
                       "Pantelis's kafeneio in the lower neighbourhood"],
          ["every morning now I go to {v} for my Greek coffee and tavli the old boys there play "
           "for the coffees and I am winning mate three days straight",
           "big fight at {v} about politics chairs fell over Kostas threw a dice at Mitsos I "
           "just finished my coffee and went home",
           "I won the tavli tournament at {v} forty euros and a bottle of raki and they put my "
           "photo on the wall next to the football team"],
          ["where do i go first thing for my cup and the backgammon with the old fellas",
           "which cafe Neo was it the men started throwing things over the elections",
           "where did i win that board game competition and they hung my picture up"],
          ["Lost five games in a row today Manolis he cheats I am sure of it",
           "Too many flies at the coffee tables this summer",
           "The old men talk only about pensions and the price of diesel"],
          ["I don't go to {old} no more the owner said something about Eleni I will not repeat "
           "so now I sit at {v}",
           "{old} closed for the winter so the whole gang moved to {v} the coffee is worse but "
           "the company is the same"],
          ["where am i having my morning coffee now",
           "which place do i sit with the boys these days"]),
    Topic("mariaposting", ["the primary school on Gavdos", "the high school in Chora Sfakion",
                           "a little school on Kasos", "the junior high in Kissamos",
                           "the evening school in Heraklion", "the special school in Rethymno"],
          ["Maria got her posting for this year {v} po po po she cried on the phone for one hour "
           "she has to find a room and take the cat and everything",
           "went to visit Maria at {v} the kids there made a cake for the grandpa that's me they "
           "all call me papou now",
           "Maria says the heating at {v} is broken since October the children wear their coats "
           "in class she bought a heater with her own money"],
          ["where did my girl get sent to teach this year the one that made her cry",
           "where did the students bake something for me when i went to see my daughter",
           "where is my daughters classroom so freezing the little ones keep their jackets on"],
          ["Maria still waiting for a permanent job after eleven years of this",
           "The ministry always sends the lists at night like thieves",
           "Maria called she sounds tired all the time these days"],
          ["Maria finished at {old} in June the new list came out she goes to {v} from "
           "September",
           "they moved Maria from {old} to {v} in the middle of the year because the other "
           "teacher came back from maternity"],
          ["wheres maria working at the moment",
           "my daughters school now which one"]),
    Topic("stonehouse", ["the roof with the cypress beams", "the old bread oven in the yard",
                         "the cistern under the courtyard",
                         "the wooden balcony on the upper floor",
                         "the stone arch in the big room", "the animal stable under the house"],
          ["started on {v} at my grandfather's old house today Sifis the builder says it takes "
           "one month which means three months",
           "we opened up {v} at the grandfather house and found a coin from the Venetian time "
           "and a bullet from the war the wife says give it to the museum",
           "rain came in and wrecked {v} at the stone house all the work of the summer I could "
           "cry mate"],
          ["what part of grandpas place did the builder begin the one he promised in a month",
           "where did we dig up the antique money and the old ammunition",
           "what got ruined by the storm up at the old family place"],
          ["Carried stones up the hill all afternoon my arms are like spaghetti",
           "The engineer wants two thousand euros just for one paper",
           "Lime for the mortar is very expensive this year"],
          ["{old} is finished at last looks beautiful now Sifis moves on to {v}",
           "we stop with {old} no money left for now we do {v} instead it's cheaper"],
          ["what are we working on at grandfathers house right now",
           "the builder up the hill what's he doing now"]),
    Topic("upstairsguests", ["a Dutch couple with their bicycles",
                             "two German girls walking the E4 trail",
                             "a French writer who wants silence",
                             "an American family with three little boys",
                             "a Polish man who paints the goats",
                             "a honeymoon couple from Israel"],
          ["the upstairs is rented from Saturday to {v} for three weeks Eleni is cleaning like "
           "the queen is coming",
           "{v} from upstairs came down and ate with us last night Eleni made the stifado and "
           "they drank all my raki the whole bottle",
           "{v} upstairs complained about the rooster at five in the morning what can I do mate "
           "it's a village the rooster doesn't read the booking website"],
          ["who did we let the top floor to for three weeks that had my wife scrubbing like mad",
           "which guests finished off my homemade spirit at dinner",
           "who was moaning about my chook waking them up too early"],
          ["The booking website took fifteen percent again thieves",
           "Put a new mattress in the upstairs room my back did not thank me",
           "Eleni wants to paint the upstairs shutters blue like in the postcards"],
          ["{old} left this morning they gave us a bottle of wine and a hug now {v} arrive "
           "tonight",
           "{old} cancelled at the last minute but {v} took the dates straight away"],
          ["whos staying in our upstairs now",
           "the people renting the rooms at the moment who are they"]),
    Topic("pensionpapers", ["the Centrelink international office in Hobart",
                            "the Australian embassy in Athens", "the EFKA office in Chania",
                            "the KEP counter in Vamos", "a lawyer's office in Rethymno",
                            "the Greek consulate in Melbourne"],
          ["sent all the pension papers to {v} registered post twelve euros now we wait they say "
           "eight weeks we will see",
           "rang {v} about the pension forty minutes on hold with the music and then the girl "
           "says the file is not there",
           "{v} says they need my Australian tax number again the third time I give it to them "
           "I swear"],
          ["where did i mail the retirement forms with that expensive letter",
           "who kept me hanging on the line nearly an hour and then couldnt find my documents",
           "which mob wanted that aussie tax code off me yet again"],
          ["The pension came in late again this month the bank says it's the exchange",
           "Eleni keeps all the papers in a shoebox under the bed",
           "I need a certified translation of my birth certificate again"],
          ["{old} finally passed the pension papers to {v} at least it is moving",
           "{old} says it's not their job anymore now {v} has my file"],
          ["where's my australian pension stuff stuck now",
           "who has got the pension papers at the moment"]),
    Topic("nickvan", ["the Queen Victoria Market on Wednesday nights",
                      "the MCG gates on footy days", "the Oakleigh station carpark",
                      "a brewery in Brunswick", "the beach road at St Kilda",
                      "the building sites in Docklands at lunchtime"],
          ["Nick rang his souvlaki van is parking at {v} now he sells three hundred souvlaki in "
           "one night he sounds happy",
           "the council fined Nick eight hundred dollars at {v} for the wrong permit he is very "
           "angry I told him pay and shut up",
           "Nick says a famous cricket player bought a souvlaki from him at {v} and put it on "
           "Instagram now the line goes around the block"],
          ["where does my son sell his gyros off the truck hundreds of them a night",
           "where did my boy cop the big penalty for his paperwork",
           "where was my son when that sports star ate his food and posted it"],
          ["Nick works too much I never see him on the video call he is always frying",
           "The price of lamb in Australia is crazy Nick says",
           "Nick wants my tzatziki recipe I told him it's only in my head"],
          ["Nick gave up on {old} not enough people now the van is at {v}",
           "{old} didn't renew Nick's spot so he moved the van to {v}"],
          ["where is nicks van parked these days",
           "nicks van where now"]),
    Topic("elenicoop", ["kalitsounia with mizithra cheese", "rusks with barley and carob",
                        "fig jam with walnuts", "Sfakian pies with honey",
                        "bitter orange spoon sweets", "mountain tea in cloth bags"],
          ["Eleni joined the women's cooperative in the village she is making {v} for them every "
           "Tuesday and the tourists buy everything",
           "a German tour bus bought all the {v} Eleni made in one morning two hundred euros she "
           "bought me a new shirt",
           "Eleni burned the whole tray of {v} because she was on the phone to Nick the smoke "
           "went all the way to the neighbours"],
          ["what is the wife cooking for the ladies group to sell once a week",
           "which of my wifes things did the busload of tourists clear out",
           "what did my missus char while she was gossiping with our son"],
          ["The cooperative ladies fight more than the men at the kafeneio",
           "Eleni got a stall for the cooperative at the Sunday market",
           "Eleni's hands hurt from the rolling pin every evening"],
          ["Eleni stopped making {old} the other ladies complained it's too much like theirs now "
           "she does {v}",
           "no more {old} the season is finished Eleni moved on to {v}"],
          ["whats eleni making for the womens group now",
           "the wifes stuff for the co op these days what is it"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("my cardiologist in Melbourne put me on warfarin for the heart the atrial fibrillation "
     "before we came back and here the doctor in the village keeps me on it I do the blood test "
     "every month in Chania now my brother Manolis says I can't eat my horta the wild greens "
     "and I can't drink my raki is this true I eat horta since I was a baby and one small glass "
     "of raki after lunch is like medicine for us what do I do",
     "You do not have to give up your greens. Warfarin works against vitamin K, and wild greens "
     "are full of it, but the danger is not the greens themselves: it is big changes. Your "
     "monthly blood test, the INR, is what your doctor uses to set the dose, and that dose has "
     "already been set around the way you eat now. If you eat horta most days, keep eating a "
     "similar amount most days; what upsets the INR is a sudden switch, such as a week of big "
     "plates of greens after a month without, or stopping them completely. If your diet is "
     "going to change, for example in the season of wild greens or during a fast before "
     "Easter, tell the doctor and have the test a little sooner. Raki is similar. One small "
     "glass with lunch is usually acceptable for most people on warfarin, but ask your own "
     "doctor. The risk is heavy drinking, several glasses at a wedding or at the raki still in "
     "November, which can push the INR up and make bleeding more likely; and a fall after "
     "drinking is more dangerous when your blood clots slowly. Be careful with other things "
     "too: ordinary painkillers like ibuprofen, diclofenac or aspirin raise the bleeding risk "
     "(paracetamol in normal doses is usually the safer choice), many antibiotics change the "
     "INR, and so can herbal remedies. Whenever a doctor or pharmacist gives you something new, "
     "say that you take warfarin. Go to the emergency department straight away if you have "
     "black stools, blood in your urine, vomit that looks like coffee grounds, a nosebleed that "
     "will not stop, a sudden bad headache, or if you hit your head, even if you feel fine. "
     "That matters on the ladder in the olive harvest. Finally, ask your doctor whether one of "
     "the newer blood thinners would suit you. They need no monthly test and are hardly "
     "affected by food, and many people with atrial fibrillation now take them instead.",
     "my blood thinner and the wild greens and the raki what did you tell me"),
    ("a man rang me this morning with an Australian accent he says he is from Centrelink and my "
     "pension will stop unless I confirm my bank details and he needs the code that comes on my "
     "phone he knew my name and my date of birth very polite he said it is urgent today I almost "
     "gave it to him but Eleni said hang up so I hung up did I do the right thing he says he "
     "calls back at five",
     "Yes, you did exactly the right thing, and Eleni was right. This is a scam. A government "
     "agency will never ring you to ask for your bank details, and nobody genuine will ever "
     "ask for a code that arrives by text message. That code is the key to your bank account "
     "or your myGov account; it lets the caller change your details or move your money. The "
     "fact that he knew your name and date of birth proves nothing, because that kind of "
     "information is sold after data leaks. The pressure, 'it must be today', is the usual "
     "trick, so that you do not stop to think. If he calls back at five, do not talk to him: "
     "say nothing, hang up, or do not answer at all. If you want to know whether anything is "
     "really wrong with your pension, contact Services Australia yourself, using the number "
     "on their official website or on a letter they sent you, or log in to myGov, and not any "
     "number the caller gives you. If you did give him anything, even part of a number or a "
     "code, ring your bank at once on the number on the back of your card, ask them to block "
     "the card and watch the account, and change your myGov password. You can report the call "
     "to Scamwatch, the Australian government's scam service, and in Greece to the police "
     "cybercrime unit. Tell your friends from Melbourne who have come back too; these callers "
     "often target people who get an Australian pension overseas. A simple rule for the "
     "family: never give a code from a text message to anyone who rings you, and the more "
     "someone rushes you, the surer you can be it is a scam.",
     "the phone call from the fake pension fellow what was your advice"),
    ("there is a fire on the hill behind the village since two hours the smoke is black and the "
     "wind is bringing it this way we got the message on the phone from 112 saying be ready "
     "maybe to leave Eleni wants to go now I want to stay and wet the house with the hose like "
     "my father did in the seventies and we have the olive trees up there what do we do quick",
     "Go with Eleni, and go now, while the roads are still open. Do not stay to defend the "
     "house. A hose will not stop a fire pushed by the wind; it is the smoke and the heat "
     "that kill people, and in a village the roads fill with cars and smoke quickly. A house "
     "can be repaired and trees can be replanted, you cannot. If the 112 message names a "
     "route or a meeting place, follow it exactly, and never drive towards the smoke or up "
     "the hill to look. Take a few minutes only to get ready: your medicines, identity papers, "
     "phones and chargers, water, a cloth you can wet to breathe through, strong shoes, and "
     "long cotton or wool clothes, not synthetics. If you have the time on the way out, close "
     "all windows, doors and shutters, turn off the gas bottle and move it away from the "
     "house, carry anything that burns easily, such as plastic chairs, firewood and cushions, "
     "away from the walls, and leave the gate open for the fire service. Take your pets with "
     "you; if you have animals you cannot take, open their pens so they can run rather than "
     "leaving them shut in. Drive with your headlights on, windows closed and the air on "
     "recirculate, slowly, watching for fire engines and people on foot. If you are ever "
     "trapped, go to an open place without vegetation, such as a large paved square, a "
     "ploughed field or the beach, not among the olive trees. Tell Maria or Nick where you are "
     "going, and do not go back until the authorities say it is safe. Afterwards, if the trees "
     "or the house are damaged, take photos before you clear anything; there is usually "
     "state compensation for farmers, and the photos help the claim.",
     "the fire behind the village when the warning came on my phone what did you say we "
     "should do"),
    ("my father left me two fields and a house but nothing was ever written properly only a "
     "paper from 1962 with the neighbours signatures now they say the ktimatologio the land "
     "registry is finished in our area and my cousin looked on the internet and one of my "
     "fields is written owner unknown and there is a deadline for corrections I don't "
     "understand the Greek legal words what do I do",
     "Act on this now, and do not wait for the deadline. When the Hellenic Cadastre (the "
     "Ktimatologio) finishes an area, it records an owner for every plot from the declarations "
     "people made. A plot nobody declared is recorded as of unknown owner. That first "
     "recording can be corrected, but only within a time limit, and after it runs out an "
     "unclaimed plot can pass to the Greek state. The limits have been extended before, but "
     "do not count on it. Check the exact date for your area at the local cadastre office or "
     "on the cadastre's website. First, find your plots: on the cadastre's online map, with "
     "your tax codes for the government websites, you can look up each field and the house by "
     "its cadastral number (the KAEK) and print what is recorded. Check the other field and the "
     "house too, not only the one your cousin saw, because a wrong owner or a wrong boundary "
     "also needs correcting. Then gather your proof: the 1962 paper, your father's death "
     "certificate, the certificate of his next of kin, and, if you have not done it yet, the "
     "acceptance of the inheritance before a notary. Add old tax returns or property "
     "declarations (the E9) that list the fields, any receipts for work on the land, and the "
     "names of neighbours who can confirm that your family used it for decades. A licensed "
     "surveyor can draw a plan of each plot. Then see a lawyer who does cadastre cases; a "
     "lawyer in Chania will know the local office and can file the request for correction, "
     "or a court case if one is needed. Ask for the costs in writing before you start. If the "
     "Greek papers are hard for you, Maria can come with you, or you can sign a power of "
     "attorney so that she or the lawyer can act for you.",
     "my fathers fields showing no owner on the government land records what should i do you "
     "said"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("there is a new young doctor at the health centre in Vamos {p} she {x} very clever girl "
     "she listens properly not like the old one",
     "{p} heard something funny in my chest with the stethoscope and sent me to the cardiologist "
     "in Chania the valve is not closing right good thing she caught it",
     "the young doctor who {x} what did she find with me",
     ["Dr Eirini Vlachaki", "Dr Sofia Tzanakaki", "Dr Katerina Fragiadaki",
      "Dr Despina Markogiannaki", "Dr Chrysa Kounelaki"],
     ["did her training in Glasgow", "rides a motorbike to work",
      "plays the lyra at weddings", "grew up in Toronto", "has twin babies"]),
    ("a German fellow bought the ruin next to the church {p} he {x} and he says kalimera to "
     "everybody with a big smile",
     "{p} came with his tractor in the storm and pulled my car out of the ditch on the village "
     "road he didn't want any money so I gave him oil",
     "the german neighbour who {x} what did he do for me when i got stuck",
     ["Klaus Hoffmann", "Dieter Brandstätter", "Jürgen Albers", "Uwe Kesselring",
      "Rainer Vogtmann"],
     ["used to be a submarine officer", "speaks Greek better than Nick",
      "keeps forty cats", "builds his own solar panels", "walks barefoot everywhere"]),
    ("a young lad came to help with the olives this year {p} from Albania he {x} works like "
     "two men",
     "{p} fixed the old Same tractor with a bit of wire and a tin can it runs better than when "
     "it was new I gave him a bonus",
     "the albanian lad who {x} what did he fix for me",
     ["Ardit Hoxhaj", "Erion Qendro", "Besnik Lekaj", "Gentian Dautaj", "Klodian Shehaj"],
     ["studies engineering at night", "sends all his money to his mother in Korçë",
      "sings Italian songs up the ladder", "was a boxer back home",
      "has a little girl of two"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("pascha", ["midnight at the church for the Anastasi the boys threw the firecrackers and one "
                "landed nearly in the priest's beard everybody laughing Christos Anesti",
                "lamb on the spit from six in the morning turning and turning and drinking Nick "
                "video called from Melbourne and he cried seeing it",
                "Eleni dyed forty red eggs and I won the egg cracking with the same egg the whole "
                "day Manolis says I cheated",
                "Good Friday we walked behind the Epitaphios with the candles around the whole "
                "village the old women singing I had the goosebumps"],
     "easter here in the village what have i told you about it"),
    ("water", ["Stratis opened the irrigation on my day again the water went to his tomatoes and "
               "mine are dying",
               "the water committee meeting finished in shouting Stratis called me the "
               "Australian like it's a swear word",
               "the pump in the well burned out in the middle of August we carried water in "
               "buckets like in the war",
               "me and Stratis shook hands at the funeral of his aunt but nothing is fixed I "
               "think"],
     "the fight with the neighbour about the watering everything i said"),
    ("melbourne", ["Eleni cried watching the footy grand final at six in the morning she misses "
                   "Melbourne more than she says",
                   "I dreamed about the fish shop last night the smell of the fryer the sea "
                   "salt crazy I know after all these years",
                   "talked to old Bill from the newsagent next to our shop in Oakleigh he has a "
                   "new hip and a new girlfriend at eighty",
                   "maybe we go back to Melbourne for Christmas to see the grandkids the tickets "
                   "are two thousand each po po po"],
     "what have i said to you about missing australia and the old life"),
]

CHAT = ["how do you say the olive fly in english for the tourists",
        "convert three hundred and fifty australian dollars to euro",
        "what time is it in melbourne now",
        "write a nice message for my granddaughter she turns ten on Friday",
        "how many grams of sugar for one kilo of figs",
        "spell the word receipt for me",
        "which saint is it today",
        "translate kalo taxidi into english",
        "how long do I boil an octopus",
        "thank you very much my friend that's all",
        "hello are you there can you hear me",
        "what is the score of the Carlton game"]
REPLIES = ["Yes, I can hear you. Here you go:",
           "Right, George, here it is:",
           "No worries, the short version:",
           "Happy to help, in a few words:",
           "Here's what I've got for you:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["sorry mate I'm talking to the phone on the tractor excuse the noise",
          "the goats are shouting next to me one minute",
          "Eleni says hello to you she thinks you are a real person",
          "hot today thirty eight in the shade even the dog doesn't move",
          "the phone writes what it wants sorry for the mistakes"]
