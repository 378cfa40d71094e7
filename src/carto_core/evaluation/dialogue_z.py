"""Variant `z` of the dialogue set: a twenty-fourth check set, written apart from `a` to `y` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one Nigerian woman's, Ijeoma "Ije" Okafor, 44, from Enugu, the
Coal City in the south-east of Nigeria, a newsreader and presenter at the state radio station
who plays tournament Scrabble at a club, is learning the saxophone from a retired highlife
bandleader and keeps catfish ponds behind the house as a side business; her husband Chinedu
"Nedu" lectures at the university in Nsukka, which is on strike, their daughter Nkem, 23, is on
her youth service year far from home, their son Kamsi, 11, is in his last year of primary
school, and a house is going up in Nedu's hometown, Umunze: the programme she presents, the
Scrabble tournament she is preparing for, who buys her catfish, the tune she is learning on the
saxophone, where Nkem is serving, which secondary school Kamsi is going to, how far the village
house has gone, what Nedu does for money while the strike lasts and the savings group her
monthly contribution goes into; questions are asked as people ask an assistant to remember
("where was hubby till 12am coming back reeking of fuel", "that word-game man who drives up
from Awka every week, what did he do to me"), some lowercase, some without a question mark or
apostrophes, some as a few words ("current sax piece"), a few typos, some in Nigerian English
("how far with the village house", "abeg remind me"), from the specific to the vague, and
mostly share no content word with the message that answers them. Sessions run from one
exchange to eight over 365 days; small talk may sit before and after a fact in the same
message; rows are one utterance each, among 4,500 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("onairslot", ["the six o'clock morning news", "Market Women's Hour",
                        "the Sunday health phone-in", "the Igbo midday bulletin",
                        "the late-night highlife requests", "the Thursday farmers' programme"],
          ["my oga finally gave me {v} to present, starting Monday, I have to be at the "
           "station by 5am, goodbye sleep",
           "a man called into {v} today and proposed to his girlfriend live, she said no, I "
           "didn't know where to put my face",
           "NEPA took light in the middle of {v} and the station generator refused to start, "
           "eleven minutes of dead air, my heart"],
          ["which programme did the boss hand me that means waking up before the cock crows",
           "that show where the guy asked a lady to marry him over the phone and got turned "
           "down, which one was it",
           "when we had that long silence because there was no current, what was i "
           "presenting"],
          ["The transmitter is down again, we're only on the internet stream today.",
           "Recorded three jingles for a paint company, they want my voice to sound 'more "
           "excited', as if paint is exciting.",
           "My producer wants more listener calls, as if I can force people to phone in."],
          ["they moved me off {old}, the new GM wants a younger voice there, so I'm now on {v}",
           "handed {old} over to Adaora and I'm presenting {v} from next week"],
          ["which programme am i presenting now",
           "my current slot on radio?"]),
    Topic("scrabbleopen", ["the Coal City Scrabble Open", "the Nsukka campus classic",
                           "the national women's championship in Abuja",
                           "the Owerri invitational", "the Calabar Christmas tournament",
                           "the West Africa open in Accra"],
          ["registered for {v}, 15k entry fee, Nedu asked if they give prize money to people "
           "who come last, very funny",
           "came fourth at {v}, I was holding the Q with no U for five turns in the final game, "
           "I could have cried",
           "{v} was a rated event so I gained 40 points, I'm now top ten in the state, "
           "somebody hold me"],
          ["the word-game competition my husband joked about paying losers, which was it",
           "where did i end up just off the podium because of that letter with no partner",
           "which event pushed my ranking into the best in enugu"],
          ["Spent the evening memorising words with J and X, my brain is full.",
           "The club moved our Tuesday games to the library because the hall roof leaks.",
           "Lost three games in a row online to someone in Ghana, I'm deleting the app."],
          ["withdrew from {old}, it clashes with Nkem's passing-out parade, so I entered {v} "
           "instead",
           "{old} is done, 7 wins from 12, not bad at all, the next one I'm preparing for is "
           "{v}"],
          ["whats the next word game competition on my calendar",
           "next tourney im playing in?"]),
    Topic("catfishbuyer", ["the pepper-soup joint at Ogui Junction", "a fish smoker from Nsukka",
                           "the supermarket in Polo Park", "a wedding caterer in Independence "
                           "Layout", "Madam Joy at Kenyatta market",
                           "the mammy market at the barracks"],
          ["{v} took 200 kilos from my ponds today, cash on the spot, I counted it twice in "
           "the car",
           "{v} has been owing me 180k for two months now, every time I call it's 'next week "
           "madam'",
           "{v} complained that my fish were too small this batch, they want nothing under one "
           "kilo"],
          ["who carried off a big load of my catfish and paid me there and then",
           "which customer keeps dodging me about the money they owe",
           "who said my last harvest was too tiny for them"],
          ["Fingerlings went up again, the hatchery man says it's the dollar.",
           "Feed prices are killing me, one bag of floating feed is almost 30k now.",
           "A heron has been stealing from the back pond, Kamsi wants to catch it with a net."],
          ["stopped selling to {old}, they kept pricing me down, my fish go to {v} now",
           "{old} closed shop, so {v} is taking all my harvest"],
          ["who buys my catfish now",
           "main customer for the ponds these days"]),
    Topic("saxtune", ["Sweet Mother", "Osondi Owendi", "Joromi", "Nwa Baby", "Guitar Boy",
                      "Jailer"],
          ["Pa Okonji says I'm ready to start {v}, he played it for me first and I just sat "
           "there smiling like a small girl",
           "played {v} at the harvest thanksgiving in church, I squeaked twice but the women "
           "danced anyway",
           "Kamsi recorded me practising {v} and his friend put it on his status, now the whole "
           "street knows I can't reach the high notes"],
          ["which song did the old man who teaches me say i could finally begin",
           "what did i perform for the congregation that had the mothers dancing despite my "
           "mistakes",
           "the tune my son filmed and shared that made me a neighbourhood joke"],
          ["New reeds arrived from Lagos, half of them are too hard for me.",
           "My lips are numb after an hour of long tones.",
           "The neighbour knocked to ask if someone was strangling a goat, it was my "
           "practice."],
          ["{old} is finally sounding like music, so Pa Okonji moved me on to {v}",
           "gave up on {old} for now, the fast runs are beyond me, I'm learning {v} instead"],
          ["what am i learning on the sax now",
           "current sax piece"]),
    Topic("nkemposting", ["a community secondary school in Jalingo", "the general hospital in "
                          "Lafia", "a radio station in Yola", "a law firm in Ilorin",
                          "the ministry of agriculture in Lokoja", "a primary school in Gusau"],
          ["Nkem's call-up letter came, they posted her to {v}, I've been praying since "
           "morning",
           "Nkem says the people at {v} are lovely, they gave her a room and her boss's wife "
           "brings her soup every Sunday",
           "Nkem's allowance from {v} hasn't been paid for three months, so I'm still sending "
           "her money, this youth service is for parents"],
          ["where was my daughter sent when her letter for the service year arrived",
           "the place nkem said treats her well and someone keeps feeding her, where is it",
           "which place is owing my girl her stipend so i keep transferring to her"],
          ["Nkem lost her khaki at camp and had to buy another one from a tailor outside the "
           "gate.",
           "Nkem called crying because there's no network in her lodge, she climbs a hill to "
           "call me.",
           "Sent Nkem a carton of noodles and garri through the motor park, the driver better "
           "not eat it."],
          ["Nkem got redeployed from {old} because of the security situation, she's now at {v}",
           "Nkem left {old} after they stopped paying corpers, the NYSC office moved her to "
           "{v}"],
          ["where is nkem serving now",
           "my daughters youth service posting currenly?"]),
    Topic("kamsiadmission", ["Federal Government College Enugu",
                             "Christ the King College in Onitsha",
                             "Loyola Jesuit College in Abuja", "a day school at Trans-Ekulu",
                             "Command Day Secondary School", "the Seat of Wisdom seminary"],
          ["Kamsi wrote the entrance exam for {v} today, he came out saying it was 'very easy', "
           "which worries me more",
           "we went to see {v} today, the hostels are clean but the fees, chei, Nedu was quiet "
           "the whole drive back",
           "Kamsi's name is on the admission list for {v}, I screamed in the office and my "
           "colleagues thought something happened"],
          ["which secondary school did my boy sit the test for and say it was a walkover",
           "the school we visited where my husband went silent after seeing how much it costs",
           "where did my son get in, the news that had me yelling at my desk"],
          ["Bought Kamsi a past-questions book, he's using it as a doorstop.",
           "Kamsi wants to board so he can 'be free', he's eleven.",
           "The lesson teacher says Kamsi is strong in maths but his composition is a "
           "disaster."],
          ["we've dropped {old}, too far, Kamsi is going to {v} in September",
           "Kamsi didn't make the cut for {old}, but he got into {v}, we thank God"],
          ["which school is kamsi going to now",
           "my sons secondary school final choice?"]),
    Topic("villagebuild", ["the foundation and German floor", "the blockwork up to lintel",
                           "the decking of the first floor",
                           "the roofing with stone-coated sheets",
                           "the plastering and POP ceilings", "the tiling and the fence"],
          ["sent 1.2 million to the site for {v}, the contractor sent pictures, I'm praying "
           "it's not the neighbour's building",
           "Nedu drove down to Umunze to check {v} and said the bricklayers were sleeping under "
           "the mango tree",
           "my cousin says {v} in the village is being done with sand from the stream, I've "
           "told them to stop everything"],
          ["what part of the house at home did i wire all that money for, the one with photos",
           "what stage was my husband inspecting when he caught the workmen napping",
           "which stage did i put on hold because the materials were dodgy"],
          ["Cement is now 9,500 a bag, I don't know who they want to build houses.",
           "The carpenter in the village wants advance again, I told him to show me work "
           "first.",
           "Our kinsmen are asking when we're doing the house-warming, the building isn't even "
           "finished."],
          ["{old} is finished at the village house, the builders moved on to {v} this week",
           "we're done with {old}, thank God, now they're on {v}"],
          ["how far with the village house now",
           "what stage is the building at home currently"]),
    Topic("strikehustle", ["a small printing press at Ogui", "supplying cement to builders",
                           "driving Bolt in the evenings", "JAMB lessons for school leavers",
                           "a rice mill in Adani", "selling solar panels"],
          ["Nedu has started {v} since the strike has no end, he says a man must not sit at "
           "home counting ceiling fans",
           "Nedu came home at midnight from {v} smelling of diesel and said it's going well, I "
           "said ehen",
           "Nedu made his first profit from {v}, 45k, he bought suya for the whole street"],
          ["what did my husband start doing because the university shut down and he refused "
           "to be idle",
           "where was hubby till 12am coming back reeking of fuel",
           "his first gain came from what, the time he treated everyone on our road to roasted "
           "meat"],
          ["ASUU and the government are meeting again, I'm not holding my breath.",
           "Nedu's salary has not entered for four months, we're managing.",
           "Nedu's students keep calling him to ask when school will resume, as if he's the "
           "minister."],
          ["Nedu packed up {old}, too much wahala, he's into {v} now",
           "Nedu handed {old} to his cousin and moved on to {v}, this one he says is the real "
           "money"],
          ["what is nedu doing for money now",
           "hubby's current hustle?"]),
    Topic("thriftgroup", ["the Ogbete traders' esusu", "the station staff cooperative",
                          "the Catholic women's thrift", "the August-meeting savings circle",
                          "an online ajo on WhatsApp", "my secondary school classmates' pool"],
          ["joined {v}, 50k a month and my turn to collect is in October, that's Kamsi's school "
           "fees sorted",
           "{v} paid out to me today, 600k, I went straight to the bank before anyone could ask "
           "me for anything",
           "the woman holding the money for {v} hasn't picked her phone for a week, my chest is "
           "doing gbim gbim"],
          ["which contribution did i enter so my boys tuition would be covered",
           "where did that lump sum i rushed to deposit come from",
           "the group whose treasurer vanished and stopped answering, which one"],
          ["Someone posted a ponzi scheme in the family chat again, I left it for an hour.",
           "My bank charged me for SMS alerts I never asked for.",
           "Trying to save 20 percent of my salary this year, so far I'm at 3."],
          ["I pulled out of {old} after the collector ran off with two people's money, I'm in "
           "{v} now",
           "{old} has finished its cycle, I've moved my monthly savings to {v}"],
          ["which thrift group am i in now",
           "where do my monthly contributions go these days"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("by the end of my four-hour shift my voice is scratchy and cracking, and by Friday it's "
     "almost gone. I talk for a living, what can I do",
     "Hoarseness that builds over a working day and a working week is usually vocal strain: the "
     "vocal folds get irritated and swollen from long use without enough rest or moisture. "
     "Start with hydration, which matters more than people think: drink water steadily through "
     "the shift, keep a bottle at the desk, and cut down on coffee, very cold drinks and "
     "alcohol. Air-conditioned studios are dry, so breathing steam for ten minutes before and "
     "after work helps. Warm up for five minutes before you go on air: gentle humming, lip "
     "trills and sliding up and down your range. On air, let the microphone do the work: sit "
     "close to it and speak at a comfortable level instead of projecting as if to a room, and "
     "keep your pitch near your natural speaking note rather than pushing it lower or higher "
     "for effect. Breathe from the belly and take small pauses instead of running to the end "
     "of a long sentence on empty lungs. Avoid clearing your throat hard or whispering, both "
     "strain the folds more; swallow or take a sip instead. Use the music and adverts as real "
     "vocal rest, and keep talking to a minimum between shifts and at the weekend when it's "
     "bad. Acid reflux can also cause morning hoarseness and a lump feeling, so avoid heavy, "
     "spicy meals late at night. If your voice has been hoarse for more than three weeks, or "
     "you have pain, cough up blood, find a lump in the neck, or have trouble swallowing or "
     "breathing, see an ear, nose and throat doctor; a speech therapist who works with "
     "professional voice users can then help a lot.",
     "what was your advice for the croak i get from talking on radio"),
    ("my catfish gather at the top of the pond every morning with their mouths open and two "
     "died this week. the water is very green and has started to smell",
     "Fish crowding at the surface gulping air in the early morning is the classic sign of low "
     "dissolved oxygen. Green water means a heavy algae bloom: algae make oxygen in the day "
     "but use it up at night, so oxygen is lowest just before dawn, and a bad smell suggests "
     "waste and uneaten feed rotting at the bottom, which uses up more oxygen and releases "
     "ammonia. Act today: stop feeding for a day or two, since fish eat little when stressed "
     "and leftover feed makes it worse. Change a good part of the water, about a third to a "
     "half, draining from the bottom where the waste sits and refilling with clean water, "
     "and repeat over the next days until the colour and smell improve. Add aeration if you "
     "can, even a small pump or splashing water back into the pond in the early morning helps. "
     "Remove dead fish at once. When you start feeding again, give only what they finish in "
     "about five to ten minutes, and feed less on hot or cloudy days. Check your stocking "
     "density, since too many fish for the volume is a common root cause, and harvest or move "
     "some if the pond is crowded. If you have a test kit, check ammonia and pH; agricultural "
     "lime can help steady the pH in earthen ponds. If fish keep dying after the water is "
     "better, or you see sores, red patches or fish swimming in circles, call a fisheries "
     "officer or a vet, because that can be disease.",
     "the time my catfish were struggling to breathe in the early hours, what did you say to do"),
    ("at Scrabble I keep getting stuck with racks full of vowels or all consonants, and I "
     "waste turn after turn. how do the stronger players deal with this",
     "Stronger players think about the tiles they keep as much as the points they score. This "
     "is called the leave. After each move you want a balanced rack, roughly three or four "
     "consonants with two or three vowels, and as few duplicates as possible. So when you "
     "choose a move, don't just take the highest score: a play worth a few points less that "
     "gets rid of two Is or a U and keeps something like E, R, S, T is often better, because "
     "your next rack will be far stronger. Keep the blank and the S unless using them scores "
     "a lot. Learn the short words that dump awkward letters: all the two-letter words first, "
     "then vowel-heavy ones like AA, AE, AI, OE, EAU, EUOI and AIOLI, and consonant-heavy ones "
     "like BRR, HMM, PST, NTH, CWM and TSK, which are valid in the Collins list most "
     "tournaments use. Don't be afraid to exchange: if your rack is hopeless and no move "
     "scores decently, swapping five or six tiles and keeping a good core is often the best "
     "move, even though it scores zero. Keep track of which letters are already on the board, "
     "so you know whether it's worth waiting for a U or an E. Finally, play through a few of "
     "your lost games afterwards and look at the racks you kept: you will usually see the "
     "turn where a better leave would have changed things.",
     "what was your tip for my lopsided draws at the club"),
    ("the builder in the village keeps asking for money for materials that never seem to "
     "arrive, and I'm in Enugu, I can only go down once a month. how do I manage this",
     "Building from a distance works best when money follows progress you can see, not "
     "requests. First, get a written agreement with the builder if you don't have one: the "
     "work to be done, a bill of quantities listing materials and amounts, a price for labour "
     "and a timeline, signed by both of you and ideally witnessed by a family member. Then pay "
     "in stages tied to finished milestones rather than in advance, for example a set sum "
     "when the blocks reach lintel level, and the next when the lintel is cast. Where you can, "
     "buy the main materials yourself or pay the supplier directly, and ask for receipts and "
     "delivery notes for everything. Have someone you trust nearby, a relative, a neighbour or "
     "better still an independent engineer or quantity surveyor you pay for a few visits, "
     "check deliveries and workmanship and count bags and blocks on site. Ask for video calls "
     "while walking around the site rather than photos, which can be old or of another "
     "building, and keep a simple record of every payment, what it was for and when. Make "
     "your monthly visits unannounced now and then. If the builder keeps asking for money "
     "without matching progress and can't account for what you've already paid, settle what "
     "is genuinely owed for work done and change builders before more goes missing.",
     "how did you say i should handle the man doing our house project from far away"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("we have a new sports reporter at the station, {p}, he {x}, he talks fast but the "
     "listeners love him",
     "{p} rescued me today, my phone rang live in the middle of the bulletin and he slid a "
     "note across the desk and took over the next story like it was planned",
     "the reporter who {x}, how did he bail me out on air",
     ["Tochukwu", "Ebuka", "Kelechi", "Nnamdi", "Ikenna"],
     ["used to commentate on the Rangers matches", "commutes every day from Nsukka",
      "played football until his knee went", "has a big following on TikTok",
      "reads the news in Pidgin at weekends"]),
    ("there's a new man at our Scrabble club, {p}, he {x}, he plays very slowly and hums the "
     "whole time",
     "{p} put all seven tiles down on a triple-word square in our last match and beat me by "
     "120 points, I congratulated him with my teeth",
     "that word-game man who {x}, what did he do to me",
     ["Babatunde", "Oluwaseun", "Alhaji Sani", "Dr Anozie", "Ugochukwu"],
     ["is a retired customs officer", "drives up from Awka every week",
      "is a pastor at a Pentecostal church", "once won a medal for Nigeria in Dakar",
      "is only fifteen"]),
    ("met {p} at the fish farmers' association meeting, she {x}, she has twelve ponds and "
     "talks to them like children",
     "{p} came over at night when my water pump packed up and lent me her own until mine was "
     "fixed, she refused to take a kobo",
     "the fish farmer woman who {x}, what did she do for me",
     ["Nneoma", "Aunty Chinwe", "Ogechi", "Adaobi", "Mrs Nwosu"],
     ["was a nurse in London for twenty years", "breeds snails as well",
      "supplies the prison kitchen", "is the association's treasurer",
      "started with one plastic tank"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("fuel", ["queued four hours at the filling station near Garden Avenue, by the time I "
              "reached the pump they said it's finished",
              "petrol price jumped again overnight, the keke men doubled their fares and "
              "looked at me like I did it",
              "bought black-market petrol in a jerrycan by the roadside, the generator "
              "coughed for two days",
              "somebody siphoned the tank of Nedu's car right in front of our gate"],
     "my fuel scarcity troubles over the months, remind me of all of it"),
    ("callers", ["a listener called in to say she named her goat after me, I'm choosing to "
                 "take it as a compliment",
                 "an old man phones every morning to correct my Igbo pronunciation, and he's "
                 "always right",
                 "a caller mistook me for the governor's spokesman and abused me for five "
                 "minutes before I could talk",
                 "a schoolgirl rang to say she wants to read the news like me, I saved the "
                 "voicemail"],
     "the people who phone in to the show, what stories have i told you about them"),
    ("functions", ["went to a wedding in Nnewi, the aso-ebi cost more than my salary and the "
                   "jollof finished before we sat down",
                   "my cousin's child dedication ran from 10am to 6pm, the pastor preached "
                   "three sermons",
                   "a burial in Udi, the family killed two cows and the music didn't stop "
                   "until dawn",
                   "my colleague's fortieth, the DJ played only Afrobeats and the old people "
                   "walked out"],
     "all those owambes and ceremonies ive been to, what did i say about them"),
]

CHAT = ["how many naira is 50 dollars roughly",
        "whats the plural of cul-de-sac",
        "jollof for 20 people, how many cups of rice",
        "give me three headline ideas for a story about potholes",
        "what is the past tense of broadcast",
        "is it bring or take when im going to my mums",
        "abeg a short birthday message for my parish priest",
        "how long do I boil yam for",
        "convert 5 kilos to pounds",
        "what time is it in London when its 8pm in Enugu",
        "thank you o",
        "ok one more"]
REPLIES = ["No wahala, see it here:",
           "Okay o, quick answer:",
           "Here's a simple way to put it:",
           "Alright, the short of it:",
           "Got you, try this:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Sitting in the studio during a long advert break.",
          "Waiting for the generator to come on.",
          "Stuck in go-slow on Ogui Road.",
          "Eating roasted corn and ube by the roadside.",
          "Just back from feeding the fish."]
