"""Variant `am` of the dialogue set: a thirty-seventh check set, written apart from `a` to `al` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Georgian man's, Guram Beridze, 72, a retired professor of
hydraulic engineering and a widower, who lives in an old house with a carved wooden balcony in
the Sololaki quarter of Tbilisi, makes wine in clay jars buried in the cellar of his late wife
Nana's family house in a Kakhetian village with her cousin Gela, sings the bass in an ensemble
of old men who keep the polyphonic songs, translates the Georgian poets into English with his
father's dictionary and is still called by the ministry to look at dams and rivers; his
daughter Tamar is a diplomat sent from post to post, his son Levan lives nearby and his
grandson Sandro, ten, comes on Sundays: what is in the jar this year, which poem he is
translating, where Tamar is posted, the route of the morning walk his cardiologist ordered,
the works he is consulting on, what the ensemble is rehearsing, where his old classmates go on
their autumn trip, the job on the house and what he teaches Sandro. He writes to the assistant
in long, digressive, courteous messages ("forgive me for writing at such length", "if you will
permit an old man"), with the history of every object and a remembrance of Nana on the way to
the point, a few Georgian words ("batono", "marani", "supra", "tamada"), and he asks later by
paraphrase rather than by the words he used the first time ("which of my vintages was in the
glasses when the toastmaster spoke so long that everyone rose", "where was that snapshot of us
old classmates sucking in our bellies"), some as a few words ("Tamar, which city is she serving
in at present"), from the specific to the vague, mostly sharing no content word with the
message that answers them; the advice answers speak of their subject without the name he gave
it in the message before them. Sessions run from one exchange to eight over 435 days; small
talk may sit before and after a fact in the same message; rows are one utterance each, among
5,800 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("qvevrivintage", ["an amber Rkatsiteli", "a Saperavi from the old vines",
                            "a skin-contact Kisi", "a Mtsvane from the upper terrace",
                            "a pale Tavkveri", "a Chinuri from Kartli grapes"],
          ["Good evening, and forgive me for writing at such length again, but I have been in "
           "the village since Thursday and there is no connection there, only the rooks and "
           "my late wife's cousin Gela, who talks enough for a whole telephone exchange. We "
           "finished picking on Saturday, and on Sunday, after the priest had blessed the "
           "press, we sealed {v} into the big clay jar under the floor of the marani, where it "
           "will sleep on its skins until spring. Gela says it will be the best in ten years. "
           "He has said this every autumn since 1998.",
           "I must tell you about Gela's name day, because I am still moved. At the supra the "
           "tamada, an old schoolteacher with a moustache like a broom, raised a glass of {v} "
           "from my own jar and made a toast of forty minutes to my Nana, to her laugh and her "
           "stubbornness and her pkhali, and the whole table stood up. I could not drink for "
           "the tears, and then, naturally, I drank.",
           "A small disaster, which I tell you calmly because I am a calm man, whatever my son "
           "says: the beeswax seal on the lid over {v} cracked in the frost, and Gela noticed "
           "only after a week, being busy with his pigs. We have tasted it and it is still "
           "alive, thank God, but a little tired, like its maker."],
          ["After the blessing in the country, what did my wife's talkative relative and I "
           "shut away below ground to rest until the warm months?",
           "Which of my vintages was in the glasses when the toastmaster spoke so long in "
           "memory of my late companion that everyone rose?",
           "Which wine was it whose vessel lost its stopper in the cold snap, so that it came "
           "out a little weary?"],
          ["The grapes are ripening slowly this year; the summer in Kakheti was dry and Gela "
           "prays for rain every evening, loudly, so that God cannot pretend not to hear.",
           "I must buy new beeswax and a cherry-bark brush for cleaning the jars; the old brush "
           "is older than my grandson and has fewer hairs than I have.",
           "My doctor tells me to drink less wine. I have told her that then I must make less "
           "wine, and that this is a sin."],
          ["This autumn I have not made {old}; it was Nana's favourite, and without her I lost "
           "the heart for it. Instead the jar under the marani floor holds {v}.",
           "Gela and I have agreed that {old} has had its turn, and so this year we have "
           "buried {v} in the cellar instead."],
          ["What wine is in my clay jar at the moment?",
           "the wine I am making this year, which one is it?"]),
    Topic("poemtranslation", ["the prologue of The Knight in the Panther's Skin",
                              "Baratashvili's Merani", "Galaktion's poem Mary",
                              "Vazha-Pshavela's Host and Guest", "Ilia Chavchavadze's The Hermit",
                              "Akaki Tsereteli's Suliko"],
          ["I have begun, God help me, to put {v} into English. Every morning from seven to "
           "nine, with the dictionary my father bought in Moscow in 1961, which weighs as much "
           "as a small goat and smells of his pipe still. Yesterday I spent the whole two "
           "hours on one line, and at nine o'clock I went back to the word I had at seven. "
           "Nana would have laughed at me, and then made coffee.",
           "If you will permit an old man a little pride: an American professor of comparative "
           "literature, very polite, wrote to me after she read my version of {v} in the "
           "journal of the Writers' House, and said it was the first English rendering that "
           "made her cry. I read her letter three times and then I went out and stood on the "
           "balcony for some time, looking at nothing.",
           "Last night I read my {v} aloud at a small evening in the old library, and a young "
           "man with a ring in his nose stood up afterwards and argued with me for twenty "
           "minutes about one adjective. I enjoyed it enormously. In my youth one argued about "
           "adjectives only in the kitchen, with the radio on."],
          ["Which verses did I start turning into your language, with that enormous old "
           "lexicon that still smells of tobacco?",
           "Whose lines did the scholar from the United States say moved her to tears in my "
           "rendering in the magazine?",
           "What did I present in public that made a pierced youngster challenge my choice of "
           "a single descriptive word?"],
          ["Translating poetry is like carrying water in a sieve: one arrives with a little, "
           "and one is wet everywhere.",
           "The dictionary has lost its spine; I hold it together with one of Nana's hair "
           "ribbons, which seems right.",
           "A publisher says perhaps a small book one day, if there is money, which there never "
           "is."],
          ["I have put {old} aside for a while, it was defeating me, and now I am struggling "
           "with {v} instead.",
           "After two years {old} is finished at last, and the next one on my desk is {v}."],
          ["Which poem am I translating now?",
           "my work with the dictionary these days, what is it on?"]),
    Topic("tamarposting", ["the embassy in Vilnius", "the mission in Geneva",
                           "the consulate in Thessaloniki", "the embassy in Ottawa",
                           "the delegation in Strasbourg", "the embassy in Seoul"],
          ["Tamar telephoned on Sunday: the ministry is sending her to {v} as first secretary "
           "from September. She was very happy, and I was happy for her, truly, and after I put "
           "the telephone down I sat in the kitchen and ate a whole plate of the walnut cake "
           "Nana's sister had brought, which the doctor would not like and which I do not "
           "regret.",
           "At {v} there was a reception for our Independence Day, and Tamar sang, on a stage, "
           "with a microphone, 'Tbiliso', which she has not done since school. A colleague of "
           "hers filmed it and sent it to me. Her voice is her mother's, exactly, the same "
           "little break on the high note.",
           "I flew to see Tamar at {v}, my first aeroplane since Nana died. At the airport "
           "they took away my jar of homemade tkemali at the security, and I am afraid I was "
           "not courteous to the young man in the uniform. Tamar laughed at me all the way to "
           "her flat, and then she bought me another jar, which was terrible."],
          ["Where did my girl get her new diplomatic assignment, the evening I comforted "
           "myself with sweets I should not eat?",
           "Where was it that my daughter took the stage at the May celebration and sounded "
           "just like Nana?",
           "Which of her postings did I fly out to, the trip where the inspectors confiscated "
           "my sour plum relish?"],
          ["Tamar works too much; diplomats, it seems, are never off duty, like doctors and "
           "grandfathers.",
           "Tamar sends me a parcel every month with the coffee I cannot find here and a book "
           "I do not have time to read.",
           "I worry that Tamar will never come back to live in Georgia, and I worry that she "
           "will, for my sake."],
          ["Tamar's time at {old} is over; the ministry has moved her to {v}, and she leaves "
           "next month.",
           "From {old} Tamar has been sent on, as diplomats always are, to {v}."],
          ["Where is my daughter posted now?",
           "Tamar, which city is she serving in at present?"]),
    Topic("morningwalk", ["the path up to Mtatsminda", "the embankment along the Mtkvari",
                          "the circuit of Turtle Lake", "the alleys of Vake park",
                          "the botanical garden below the fortress",
                          "the riverside Rike park"],
          ["My cardiologist, a very severe young woman who could be my granddaughter, has "
           "ordered me to walk for one hour every morning, so now I take {v}, with my stick "
           "and my cap, and I greet the same old ladies every day and the same stray dog, a "
           "yellow gentleman with one ear, whom I have named Professor.",
           "This morning on {v} I slipped on the wet leaves and sat down very suddenly, with "
           "dignity, more or less. A young couple helped me up and the girl asked whether I "
           "needed an ambulance. I said no, only a new pair of knees, and she did not laugh, "
           "which tells you something about the young.",
           "On {v} I have met every morning for a week an old classmate from the Polytechnic, "
           "Otar, whom I had not seen for thirty years; we walk together now and argue about "
           "the dams of the 1970s as if the decisions were still to be made, and the dog walks "
           "between us like a referee."],
          ["Where does the exercise the strict specialist insisted on take me each day, the "
           "stroll where I have a four-legged companion?",
           "Where did I take that undignified tumble on the damp foliage and get lifted up by "
           "two youngsters?",
           "Along which way do I bump into my long-lost fellow student each day, to quarrel "
           "about the engineering of half a century ago?"],
          ["It rained all week and I did not walk once; my legs are complaining and so is my "
           "doctor.",
           "I have bought proper walking shoes; the girl in the shop said they are 'for "
           "trekking', at my age.",
           "The walking is good for the heart, they say, but the coffee after the walking is "
           "better for the soul."],
          ["I no longer go along {old}, there is building work and the dust is terrible, so I "
           "have changed to {v}.",
           "{old} has become too steep for my knees, and so now my morning hour is spent on "
           "{v}."],
          ["Where do I go for my morning walk these days?",
           "my daily stroll the doctor ordered, which route now?"]),
    Topic("damcommission", ["the Enguri dam inspection", "the Zhinvali reservoir spillway",
                            "the Rioni embankments at Kutaisi", "the Tbilisi Sea dam",
                            "the Alazani irrigation canal", "the Vardnili power station"],
          ["The ministry has asked me, a pensioner with a stick, to sit on the commission for "
           "{v}. I am flattered like a schoolboy. They pay almost nothing and I would have done "
           "it for less. I have taken my old slide rule out of the drawer for luck; it has not "
           "calculated anything since 1989, but neither have some of my colleagues.",
           "I spent two days crawling in the galleries of {v} with young engineers who could "
           "be my grandchildren. They have instruments I never dreamed of, tablets and little "
           "flying cameras, but when a crack in the concrete had to be read it was the old man "
           "they called. Forgive my vanity; I have so little else left.",
           "My report on {v} was published, and a journalist has quoted it in the newspaper, "
           "but wrongly, so that it sounds as if I said the whole thing will fall down "
           "tomorrow. My telephone has not stopped ringing. I have said nothing will fall down, "
           "at least not before I do."],
          ["Which official technical panel did they call me out of retirement for, the one I "
           "dug out an antique calculating instrument for as a charm?",
           "Which structure did I clamber through underground with a youthful team who still "
           "needed an old man to interpret a fissure?",
           "Which of my written assessments was misquoted in the press so that people thought "
           "a collapse was coming?"],
          ["The young engineers today do everything with computers; I do not object, but they "
           "should also learn to look.",
           "I have been asked to give a lecture to the students again in the spring, on water "
           "hammer, my old love.",
           "My old colleagues are leaving one by one; at the last funeral there were only four "
           "of us from the department."],
          ["My work on {old} is completed; now they have asked me to advise on {v}.",
           "The commission for {old} has been dissolved, and I am consulting on {v} instead."],
          ["Which engineering project am I consulting on these days?",
           "my work for the ministry at present, what is it about?"]),
    Topic("ensemblesong", ["Chakrulo", "Mravalzhamieri", "Tsintskaro", "Shen Khar Venakhi",
                           "Alilo from Guria", "Odoia"],
          ["At the ensemble of old men on Wednesday our leader, Batono Jumber, decided that we "
           "shall learn {v}. I sing the bass, the bani, which means I hold the ground while the "
           "others fly about above me, which is also what I did in my marriage, Nana would "
           "say, and she would be right.",
           "We sang {v} at the supra for my friend Zaza's eightieth birthday, and the waiter, a "
           "boy from Svaneti, stopped serving and joined in with the top voice, perfectly, "
           "with a tray of khinkali still in his hand. We all wept into the wine. This is "
           "Georgia; I cannot explain it better.",
           "A group of Japanese musicologists came to record us singing {v} in the old church "
           "on Betlemi street, with microphones covered in fur like little animals, and "
           "afterwards they bowed so low that I was afraid for their backs."],
          ["What piece did our director choose for the old fellows' choir, in which I keep "
           "the low line steady?",
           "What were we performing at my friend's eightieth feast when the young server from "
           "the mountains joined in?",
           "Which song did the researchers from the Far East tape in the church, bowing "
           "alarmingly afterwards?"],
          ["My voice is not what it was; the low notes are still there, but the breath is "
           "shorter.",
           "Rehearsal was cancelled because our tenor has the flu, and without him we are only "
           "a murmur.",
           "The ensemble has been invited to a festival in the spring, if we all live that "
           "long."],
          ["We have put {old} to rest for the season, and Batono Jumber has started us on "
           "{v}.",
           "Enough of {old}, says our leader; now we rehearse {v}."],
          ["What are we rehearsing in the ensemble now?",
           "the song the old men are learning at present, which?"]),
    Topic("classmatestrip", ["Ushguli in Svaneti", "the Tusheti villages",
                             "the Gergeti church above Kazbegi", "the cave city of Vardzia",
                             "the Okatse canyon", "the monastery at David Gareja"],
          ["Every September the six of us who are left from the class of 1975 go somewhere "
           "together, and this year it was {v}. Six old engineers with nine good knees between "
           "us. We ate, we sang, we quarrelled about Soviet concrete and about a girl we all "
           "loved in 1973, who married a dentist. Perfect.",
           "On the way to {v} our driver lost the road and we spent three hours on a track "
           "that was not a road, and Dato got out and pushed in his best suit. We arrived at "
           "night and the woman of the guest house gave us soup and chacha and scolded us like "
           "children, which we enjoyed.",
           "I have tried to send you a photograph; it is of the six of us at {v}, standing in "
           "a row like a school photograph, all holding our stomachs in. My grandson says we "
           "look like the Politburo, and I am afraid he is right."],
          ["Where did the survivors of my university year travel together in the autumn, "
           "with so few sound joints among us?",
           "Where were we heading when the van went astray and my old friend shoved it in his "
           "good clothes?",
           "Where was that snapshot of us old classmates lined up and sucking in our bellies?"],
          ["Our autumn journey is in danger this year; two of us are in hospital.",
           "We used to be twenty-eight in our year; now we are six, and we have a telephone "
           "list with crosses on it.",
           "We have been planning the trip since March; the planning is half the pleasure."],
          ["We had planned {old}, but the road is closed by a landslide, so this year the trip "
           "goes to {v}.",
           "We have been to {old} too many times, said Dato, and so this autumn the class goes "
           "to {v}."],
          ["Where are my old classmates and I going on our trip this year?",
           "the autumn journey with the old boys from university, where now?"]),
    Topic("houserepair", ["the carved balcony railings", "the leaking tin roof",
                          "the wiring from 1956", "the cracked courtyard staircase",
                          "the wooden shutters on the street side", "the tiled stove in the study"],
          ["The carpenter Zurab has at last begun on {v}, after promising since Easter. He "
           "works for two hours, smokes for one, and tells me about his divorce for the rest. "
           "But what he does is beautiful; his hands are from the nineteenth century, even if "
           "his telephone is not.",
           "The city heritage office has sent an inspector about {v}, because the house is on "
           "the list of protected buildings, and she says we must use only the old materials. "
           "The old materials cost three times the new ones. The past is very expensive, and "
           "she was very charming about it.",
           "Sandro helped me on Sunday with {v}; he held the tools and asked four hundred "
           "questions, and then he wrote in his school composition that his grandfather is 'a "
           "builder of the old world'. I have framed it, naturally."],
          ["What did the tradesman with the troubled marriage at last begin mending in my "
           "home?",
           "What was the conservation lady from the city insisting be redone the expensive "
           "traditional way, at triple the price?",
           "What did my grandson assist me with at home before describing me in his essay as "
           "a builder?"],
          ["The house is older than anyone in it and complains every winter like an old man.",
           "I have asked three builders for a price and received four different prices.",
           "Nana always said we should sell the house and buy a flat with a lift; I did not "
           "listen, and now my knees remind me every day."],
          ["{old} is finished at last, thank God and Zurab; now he has moved on to {v}.",
           "We have stopped work on {old} until the money comes; meanwhile Zurab is busy with "
           "{v}."],
          ["What is being repaired in my house at the moment?",
           "Zurab's job on the old place now, which is it?"]),
    Topic("sundaylesson", ["to swim in the Lisi lake", "the old asomtavruli letters",
                           "the names of the constellations", "to play the panduri",
                           "to fly-fish on the Aragvi", "technical drawing with compass and ruler"],
          ["Every Sunday now I teach Sandro {v}. He is ten and thinks I am a museum, but a "
           "museum with sweets in its pockets. Today he was patient for forty minutes, which "
           "for a boy of ten is a geological age.",
           "Levan complains that since I began teaching Sandro {v}, the boy speaks of nothing "
           "else at dinner, and his teacher wrote in his diary that he is 'distracted by his "
           "grandfather'. I consider this the best compliment of my career.",
           "Sandro and I were busy with {v} when it began to pour, and we sheltered under a "
           "bridge eating cherries from my bag, and he told me that he wants to be an engineer "
           "'like you, Babua, but with computers'."],
          ["What is it that I pass on to my grandson each week, which he bore for the better "
           "part of an hour?",
           "What have I been showing the lad that my son grumbles has taken over every family "
           "meal?",
           "What were the little one and I doing when the downpour drove us under a crossing "
           "to eat fruit?"],
          ["Sandro has a cold and missed our Sunday; the week felt long.",
           "Levan says I spoil the boy; I say that is what I am for.",
           "Sandro asked me why I still wear a tie on Sundays; I said it is for his "
           "grandmother."],
          ["Sandro has had enough of {old}, he says, and so now on Sundays I am teaching him "
           "{v}.",
           "We have finished with {old}; the new thing I am showing Sandro is {v}."],
          ["What am I teaching my grandson these days?",
           "Sandro's Sunday lessons with me now, on what?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("Forgive me for troubling you with a question of the cellar. On the wine in one of my "
     "clay jars, Gela's white, there has appeared a thin pale skin, wrinkled like an old man's "
     "face, which my grandfather called 'the flower' and the books call mycoderma. It smells a "
     "little of bread and a little of sherry, not yet of vinegar. Gela says skim it off and "
     "drink quickly; my neighbour says pour the whole jar into the river. What is your "
     "opinion, and how do I keep it from coming back?",
     "Please do not pour it into the river: from what you describe, the wine can very likely "
     "be saved, and it would do the fish no good either. A pale, wrinkled film with a bready, "
     "slightly sherry-like smell is usually made by surface yeasts that grow wherever wine "
     "meets air. It is not harmful to drink, but it slowly eats alcohol and flavour, and if it "
     "is left it opens the door to the bacteria that turn wine sour. Your nose is the judge: "
     "as long as there is no sharp, vinegary or nail-varnish smell, you are in time. Lift the "
     "film off gently without breaking it into the wine, with a clean ladle, or by topping "
     "the vessel up with the same or a similar wine until the film rises to the neck and can "
     "be taken off. Then the whole cure is about air. Keep the vessel completely full, check "
     "and top it up every two or three weeks through the winter, and seal the lid well, with "
     "clay and beeswax as you do, or with a water seal that lets gas out and nothing in. Keep "
     "it cool. If you accept a little sulphur, a small dose of potassium metabisulphite stops "
     "the yeasts, and many traditional makers burn a sulphur wick in any empty space in a "
     "vessel. Taste it after a week: if it is sound, move it soon into a smaller vessel that "
     "it fills completely, or into bottles, and drink it within the year rather than keeping "
     "it. For next season, clean the jar thoroughly as your grandfather did, with water, the "
     "cherry-bark brush and lime, and let it dry before filling. If one day a wine has turned "
     "to vinegar, keep it for the kitchen; a good homemade vinegar is no small thing.",
     "The trouble with the white in the cellar that had grown a wrinkled coat, how did you "
     "say to rescue it?"),
    ("My severe young cardiologist has told me that I have atrial fibrillation, which I had "
     "taken for my heart being excited about the harvest. She wants me to take a blood "
     "thinner, and my neighbour Gogi, who is not a doctor but has an opinion on everything, "
     "says these pills make you bleed to death from a shaving cut. I confess I am more afraid "
     "of the pills than of the heart. What should I understand, and what questions should I "
     "take to her?",
     "Your fear is very common, and it is worth taking to her openly rather than quietly "
     "leaving the tablets in the drawer. The irregular rhythm she found matters less for the "
     "heart itself than for what it allows: when the upper chambers quiver instead of "
     "beating, blood can pool there and form a clot, which can travel to the brain and cause "
     "a stroke, and strokes from this cause are often severe. The risk rises with age, high "
     "blood pressure, diabetes and some other conditions, which is why at seventy-two "
     "doctors usually recommend a medicine that makes the blood clot less easily. Gogi is "
     "half right: these medicines do raise the risk of bleeding, more bruising, nosebleeds, a "
     "shaving cut that takes longer to stop. But for most people of your age serious bleeding "
     "is much less likely than the strokes the medicine prevents, and the newer tablets do "
     "not need regular blood tests. Questions to take to her: how high is my stroke risk, and "
     "my bleeding risk, by the scores you use? Which medicine, and why that one? What do I do "
     "if I miss a dose? What must I tell the dentist or a surgeon? Which painkillers are "
     "safe, since aspirin and ibuprofen add to the bleeding risk? How much wine is sensible, "
     "given that alcohol can set off the rhythm and also adds to bleeding? Should my thyroid "
     "be checked, or my breathing at night? Is the aim to slow the rhythm or to restore it? "
     "Never stop the tablets on your own. Call 112 at once for sudden weakness or numbness of "
     "the face, arm or leg, trouble speaking, or a sudden severe headache, and see a doctor "
     "promptly for black stools, blood in the urine or bleeding that will not stop. An "
     "electric razor ends the shaving question.",
     "When the heart doctor found my pulse was out of step and wanted me on those pills, "
     "what did you tell me to ask her?"),
    ("A man telephoned yesterday, very polite, in perfect Georgian, saying he was from my "
     "bank's security department and that someone in another country was trying to take "
     "money from my pension card. He asked me to read him the code that had just come in a "
     "text message, to 'block the thief'. I read him four numbers before something in me said "
     "stop, and I put the telephone down. My grandson says this is called vishing and that "
     "old professors are the favourite victims. Have I lost my money? What must I do now?",
     "You did well to stop, and better still to hang up: many people read out the whole code "
     "before they feel that something is wrong. That call was almost certainly a fraud. A "
     "bank never asks you to read out a code sent by text message, because that code is "
     "exactly what a criminal needs to approve a payment or to connect your card to his own "
     "phone. Whether you lost anything depends on whether he managed to use it, so act now, "
     "in this order. First, call your bank yourself on the number printed on the back of "
     "your card, not a number the caller gave you and not by calling back the number that "
     "rang you. Tell them exactly what happened, ask them to block the card and issue a new "
     "one, and to check for any payment or new device added since yesterday. Second, look at "
     "your account in the app or at the branch, and dispute anything you do not recognise "
     "straight away; speed matters for getting money back. Third, if you use online banking, "
     "change your password and PIN. Fourth, report it to the police, through 112 or at a "
     "station; they collect these cases and it helps your claim with the bank. Be ready for "
     "a second call: the same people often ring again pretending to be the police or the "
     "bank's fraud team 'to help you recover the money'. Hang up. The rules to keep: no real "
     "bank or police officer asks for codes, PINs or card numbers; hang up and call the "
     "official number; and urgency is itself the warning. Tell your friends in the ensemble "
     "as well. These callers are professionals, and there is no shame in having been their "
     "target.",
     "The smooth-talking caller who pretended to guard my pension card, what did you tell me "
     "to do afterwards?"),
    ("My son Levan insists that I must write my memoirs for Sandro, before, as he puts it so "
     "delicately, 'the archive closes'. I have seventy-two years of material and no idea where "
     "to begin. Should I start from my birth in Chiatura in 1953? Should I write in Georgian or "
     "in English? And how does one write about the difficult years, the nineties, the war, "
     "the darkness, without boring a child or frightening him?",
     "Levan is right, and the fact that you worry about boring the boy is a good sign. Do not "
     "start with your birth. Start with a scene you can see clearly: the smell of the "
     "manganese town, the first dam you stood on, the day you met Nana. Readers, and "
     "grandsons above all, follow a story far more willingly than a timeline, and you can put "
     "the pieces in order later. Make a list of twenty or thirty moments, places and objects, "
     "and write one a week, two or three pages, each able to stand alone, almost like the "
     "letters you write to me. Put in the concrete things that will vanish with your "
     "generation: what bread cost, what was in the shops, what people wore, the names of "
     "streets that have been renamed, the songs at a particular table. As for the language, "
     "write in the one you think in, which I suspect is Georgian: the voice will be truer, "
     "and Tamar, or you yourself with your dictionary, can translate later. For the hard "
     "years, tell them honestly but through what people did: the queues, the candles and "
     "the cold, carrying water up the stairs, what neighbours shared. A child can hear hard "
     "things when he also hears how people got through them, and you are really writing for "
     "Sandro at twenty, not at ten. Record your voice too: let Sandro ask you questions with "
     "the phone on the table; those recordings will be treasures of their own. Label every "
     "photograph you put in with names, places and years, which is what families most often "
     "lose. When it is done, a small printing house can make a few bound copies, one for each "
     "grandchild.",
     "The book of my life my son keeps urging me to set down, how did you suggest I "
     "begin?"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("A new voice has joined our ensemble, {p}, who {x}. He sings the middle part, the one "
     "that carries the melody, and he has a voice like old honey, slow and dark, which makes "
     "the rest of us sit up straighter.",
     "{p} came to rehearsal with a reel of tape from 1966 on which, imagine it, my own father "
     "sings at a supra in Racha; he found it in his late brother's attic. I heard my father's "
     "voice for the first time in forty years and could not speak for the rest of the "
     "evening.",
     "The singer new to our group who {x}, what did he bring me?",
     ["Bondo Kiknadze", "Temur Jorjadze", "Avtandil Gogoberidze", "Shota Lominadze",
      "Revaz Chkheidze"],
     ["drove a tram for forty years", "sang at the opera house in his youth",
      "keeps bees above Mtskheta", "was a champion wrestler in 1979",
      "repairs clocks at the Dry Bridge market"]),
    ("Today a former student of mine came to the house, {p}, who {x}. She was the best in her "
     "year, and the most stubborn, which in engineering is the same thing, and she still "
     "corrects my arithmetic.",
     "A parcel came from {p}: a bound copy of her new book on river sediments, and on the "
     "first page she has written that it is dedicated to me, 'who taught me that water always "
     "wins'. I have put it on the shelf next to Nana's photograph.",
     "My one-time pupil who {x}, what did she send me through the post?",
     ["Dr. Maia Tsiklauri", "Dr. Eka Javakhishvili", "Dr. Ketevan Abashidze",
      "Dr. Lela Mamaladze", "Dr. Salome Gelashvili"],
     ["now builds dams in Norway", "teaches at the university in Delft",
      "was the first girl from her village to study engineering",
      "designed the new waterworks in Batumi", "left engineering to direct films"]),
    ("At the New Wine Festival in the old town a foreign merchant tasted my wine, {p}, who "
     "{x}; he asked a hundred questions and wrote the answers in a small green notebook, even "
     "my answer about the moon and the bottling.",
     "{p} has written from abroad: he wants sixty bottles of my wine for his restaurant, and "
     "he has sent a photograph of the wine list with my name printed on it, spelled almost "
     "correctly.",
     "The foreign wine buyer who {x}, what did he want from me?",
     ["Mr. Julien Morel", "Mr. Tobias Brandauer", "Mr. Declan Furey", "Mr. Piotr Zieliński",
      "Mr. Casper van Rooij"],
     ["wears a bow tie even in the vineyard", "came by bicycle from Vienna",
      "spoke to me in perfect Russian", "carries his own tasting glass in a leather case",
      "has a wine bar in a former church"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("rtveli", ["At the harvest this year we were fourteen pickers, from Sandro, who is ten, to "
                "Gela's aunt, who is ninety-one and picked faster than any of us.",
                "We trod the grapes barefoot in the old wooden trough, and Sandro refused to "
                "wash his purple feet for three days.",
                "The harvest supra went on until two in the morning; Gela was tamada and made "
                "twenty-six toasts, I counted, and the last one was to the grapes themselves.",
                "Afterwards we distilled chacha from the skins in Gela's copper still, and the "
                "first drops, the strongest, we gave to the neighbour for his bad back."],
     "Remind me of everything I told you about the weekend of gathering the grapes in the "
     "village."),
    ("nana", ["It is three years today since Nana died; I went to the cemetery with her yellow "
              "roses and told her the news of the family, as I do.",
              "I found in a drawer Nana's handwritten recipe for pkhali, with a note in the "
              "margin: 'Guram puts in too much garlic, ignore him.'",
              "Nana's piano has not been played since she went; yesterday Sandro sat at it and "
              "played a scale, and I had to go out onto the balcony.",
              "Nana taught Russian literature for thirty-eight years, and her old pupils still "
              "come on her name day with flowers."],
     "What have I told you about my wife who passed away?"),
    ("newyear", ["For the New Year I made gozinaki, walnuts in boiled honey, in Nana's copper "
                 "pan, and burned only the first batch.",
                 "Sandro was our first foot this year, the first guest over the threshold after "
                 "midnight, and he brought us luck in the form of a chocolate bar.",
                 "We set up the chichilaki, the little tree of shaved wood, on the balcony, and "
                 "on the old New Year we burned last year's one in the courtyard.",
                 "On Christmas, the seventh of January, the carollers' procession came down our "
                 "street with banners, and I gave them wine and coins from the window."],
     "What did I write to you about the festive days at the turn of the year?"),
]

CHAT = ["Would you be so kind as to tell me how many gallons there are in two hundred litres?",
        "Please help me with an English word: is a 'cellar' the same thing as a 'basement'?",
        "How would one close a formal letter in English with deep respect, without sounding "
        "like a Victorian?",
        "Could you remind me at what temperature water boils at 1,500 metres of altitude?",
        "I beg your pardon, what is today's date in the Julian calendar?",
        "Please write a short greeting for an old friend turning eighty, warm but not "
        "sentimental.",
        "What is the correct English plural of 'aquarium'?",
        "If it is not too much trouble, how long should one boil a chicken for soup?",
        "Thank you, my friend; you are more patient than my students ever were.",
        "Are you still with me? The internet in this old house comes and goes like a cat.",
        "Could you check my arithmetic: 340 litres into bottles of three quarters of a litre?",
        "What is the time difference between Tbilisi and London in winter?"]
REPLIES = ["With pleasure, Batono Guram:",
           "Of course, Professor. Here it is:",
           "Gladly. The answer is this:",
           "Certainly, Batono Guram, briefly:",
           "Here you are, with my respects:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Good evening, my patient friend; I hope I do not disturb you.",
          "Forgive an old man the length of what follows.",
          "The kettle has boiled and the house is quiet, so I write.",
          "I am on the balcony, where the light is best at this hour.",
          "As Nana used to say, come to the point, Guram; I shall try."]
