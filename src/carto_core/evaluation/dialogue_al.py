"""Variant `al` of the dialogue set: a thirty-sixth check set, written apart from `a` to `ak` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one woman's, Inês Carvalho, 36, born in Porto and living in a
triplex in Rosemont, Montréal, who is the production stage manager of a contemporary circus
company that tours for months at a time, calls every cue of the show from the prompt desk and,
at home, chases rare contacts on the amateur radio bands from an aerial on the roof; her partner
Mathieu is a luthier with his workshop in the basement, her father in Porto is living with
Parkinson's disease and her brother Rui fishes out of Póvoa de Varzim: where the show is
playing, which act closes the first half, the aerial she transmits on, the rarest station in
her log, what is on Mathieu's bench, who looks in on her father, what Rui's boat is fishing
for, who her assistant stage manager is and what she cooks for the crew on a day off. She writes
to the assistant in terse notes full of abbreviations ("tmrw", "w/", "b/c", "FYI", "bc", "pls",
"thx"), the trade's shorthand ("ASM", "LX", "get-in", "bump-out", "DX", "SWR", "QSL") and the
odd Portuguese word ("pai", "saudades", "pá"), and she asks later by paraphrase rather than by
the words she used the first time ("what aerial did I string up while my boyfriend steadied the
ladder and grumbled", "whose confirmation postcard took most of a year to reach me"), some as a
few words ("pai, who helps him day to day now"), from the specific to the vague, mostly
sharing no content word with the message that answers them; the advice answers speak of their
subject without the name she gave it in the message before them. Sessions run from one
exchange to eight over 430 days; small talk may sit before and after a fact in the same
message; rows are one utterance each, among 5,700 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("circustourvenue", ["the Roundhouse in Camden", "a big top in Lyon",
                              "the Teatro Circo in Braga", "the Kennedy Center in Washington",
                              "a festival tent in Ghent", "the Chamäleon in Berlin"],
          ["get-in @ {v} today. loading dock 20cm too low for the swing frame, had to tip it "
           "on its side, 2h lost. LX focus till 1am. me: 3 coffees, 0 food. pls remind me to "
           "eat.",
           "opening night @ {v}: 2 standing ovations + 1 fire alarm (haze, obvs). house mgr "
           "furious, audience thought it was part of the show. Eli cried in the wings. not me. "
           "ok a bit me.",
           "FYI whole run sold out @ {v}, producers adding 2 matinées. also my locker there "
           "has a family of mice in it. naming them after the LX crew."],
          ["where were we unpacking the trucks when the giant metal contraption only went in "
           "lying down and I forgot meals?",
           "the premiere where the smoke set off the building's sirens and people clapped "
           "anyway, where was that?",
           "which place had every seat gone and extra afternoon performances, the one with "
           "rodents in my cupboard?"],
          ["spring sched just dropped, 11 cities in 14 wks. send help.",
           "venue tech specs never match reality. never.",
           "hate the last wk of any run, everyone sick + sad."],
          ["closed @ {old} sun, bump-out till 4am. trucks gone, we open {v} thurs. living out "
           "of a suitcase again.",
           "{old} run done. next stop {v}, tech wk starts mon."],
          ["where are we performing at the moment?",
           "this week's stop on the tour, which house?"]),
    Topic("actonecloser", ["the Chinese pole duo", "the teeterboard trio", "the Cyr wheel solo",
                           "the hand-to-hand pair", "the aerial straps number",
                           "the juggling quartet"],
          ["dir moved {v} to close act 1. transition into interval now 40 sec longer, 11 new "
           "cues. calling it blind tonight, pray for me.",
           "{v} dropped the last trick again @ the 9pm show. crowd didn't notice, artists "
           "devastated. ice packs + pizza after. foyer coffee machine died too, bad night.",
           "reviewer in the Gazette said {v} was 'the best six minutes in Montréal this "
           "summer'. printing it for the callboard. costume dept already sick of hearing it."],
          ["which turn did the director shift to end the first half, the change that gave me a "
           "pile of fresh calls to learn?",
           "which act fluffed its finale and needed cold compresses and takeaway afterwards?",
           "what part of the show did the newspaper critic single out as the season's high "
           "point?"],
          ["running order meeting again. 3h. nothing decided.",
           "interval is 20 min + the bar still can't serve everyone.",
           "dir wants a new end to act 1 every wk lol."],
          ["dir swapped the order: {old} opens act 2 now, {v} closes the first half.",
           "{old} out of act 1 b/c injury. {v} takes the pre-interval slot."],
          ["which number sends the audience out for drinks these days?",
           "right before intermission, whose act is it at present?"]),
    Topic("roofaerial", ["a 40m dipole off the chimney", "a hex beam on the roof",
                         "an end-fed wire to the maple", "a magnetic loop on the balcony",
                         "a vertical on the fire escape", "a Yagi on a push-up mast"],
          ["put up {v} sat. Mathieu held the ladder + complained the whole time. SWR 1.3 on "
           "20m, heard a JA station first try!! bliss.",
           "wind storm last night, {v} came down on the landlord's car. no dent but he's "
           "'concerned'. buying him beer.",
           "ice on {v} detuned everything, SWR through the roof. worked 0 DX all wk. tour "
           "starts tmrw anyway."],
          ["what did I string up outside while my boyfriend steadied the steps and grumbled?",
           "what fell onto the owner's vehicle in the gale, the thing I'm apologising to him "
           "for with a six-pack?",
           "which of my radio setups got frozen over and went useless the week before I left "
           "on the road?"],
          ["propagation garbage this wk, solar flux in the basement.",
           "landlord asked what 'all those wires' are for. told him weather science.",
           "want to get on 160m before I die."],
          ["took down {old}, too noisy w/ the new LED streetlight. running {v} now, RX way "
           "quieter.",
           "{old} retired. put {v} up in its place, signal reports 2x better."],
          ["what's my current antenna setup at home?",
           "ham radio: what am I transmitting through these days?"]),
    Topic("rarestdx", ["a ham on Pitcairn Island", "the research station on South Georgia",
                       "a yacht rounding Cape Horn", "an operator in the Chatham Islands",
                       "a lighthouse keeper on Flores", "the crew of the space station"],
          ["3am after the show, 17m open, worked {v}!!! 59 both ways. screamed, woke Mathieu, "
           "no regrets.",
           "QSL card from {v} arrived, 8 months in the mail. framing it. best thing I own.",
           "pile-up for {v} was like 3000 ppl, got through in 40 min on 100W. hands still "
           "shaking at tech rehearsal after."],
          ["who did I reach in the small hours that had me yelling and waking my partner?",
           "whose confirmation postcard took most of a year to reach me and went straight "
           "behind glass?",
           "which contact did I fight through a huge crowd of callers for, and was trembling "
           "at work later?"],
          ["DXpeditions so expensive, they beg for donations every time.",
           "logbook passed 5000 contacts.",
           "some ppl only chase paper cards, I'm an eQSL girl."],
          ["new record, beat {old}: tonight I worked {v}.",
           "{old} is no longer my best DX. {v} tops the list now."],
          ["the most far-flung station I've ever reached, who is it now?",
           "my best catch on the bands so far?"]),
    Topic("luthierbench", ["a baroque viola", "a hurdy-gurdy", "a Portuguese guitar",
                           "a double bass with a split top", "a nyckelharpa",
                           "a cello for a girl from Laval"],
          ["Mathieu started on {v} this wk, whole basement smells of hide glue. he hums at it. "
           "cute + annoying.",
           "M. finished {v}, the owner played it in our kitchen and cried. I cried. cat left.",
           "M. broke a $400 chisel on {v}. swearing in French from downstairs all eve."],
          ["what has my boyfriend got on the workbench below us that makes the house reek of "
           "animal gum?",
           "which of his instruments made the customer weep at our table when she tried it?",
           "what was he carving when the pricey blade snapped and he cursed the whole "
           "evening?"],
          ["M's workshop is colder than outside, he works in a toque.",
           "M wants a bandsaw for his bday. romantic.",
           "tonewood prices insane this yr."],
          ["M. shelved {old} (client stopped paying), deep into {v} now.",
           "{old} went home w/ its owner yesterday. next on M's bench: {v}."],
          ["what's Mathieu building at the moment?",
           "the luthier's current project downstairs?"]),
    Topic("paicarer", ["Dona Fátima from the ground floor", "a carer sent by the parish",
                       "his sister Graça from Gaia", "a Brazilian nursing student in the back room",
                       "Rui's wife Sandra", "a retired nurse called Dona Lurdes"],
          ["called pai. {v} comes mornings now to do his pills + shower. he says he doesn't "
           "need it. he needs it. saudades.",
           "pai fell in the kitchen tues, {v} found him, called 112. wrist sprained, nothing "
           "broken. I'm 5000km away and useless.",
           "{v} taught pai to video call. now he rings me at 4am my time to show me the "
           "sardines he's grilling. love him."],
          ["who began helping my father with his medicine and washing before lunch?",
           "who discovered my dad on the floor after his tumble and phoned the emergency "
           "number?",
           "who showed my father how to do calls with the camera on, so he wakes me in the "
           "middle of the night?"],
          ["pai's meds changed again, tremor better, sleep worse.",
           "pai refuses the walker. calls it 'the shopping cart'.",
           "booking flights to Porto again, $1600, ugh."],
          ["{old} can't anymore, so {v} looks in on pai now.",
           "pai fought w/ {old} (of course). {v} has taken over."],
          ["who's keeping an eye on my father these days?",
           "pai, who helps him day to day now?"]),
    Topic("ruiboatcatch", ["sardines with the purse seine", "octopus in clay pots",
                           "hake on longlines", "horse mackerel",
                           "spider crabs in tangle nets", "sea bass off the reefs"],
          ["Rui says the boat is after {v} this month, 2am starts, he sleeps 4h. sounds like "
           "tour.",
           "Rui sent vid of the deck full of {v}, best haul in 3 yrs. pai watching it on "
           "repeat.",
           "auction price for {v} crashed, 80 cents a kg. Rui talking about quitting the sea. "
           "again."],
          ["what is my brother going out for, the month he's up at two and we compared our "
           "lack of sleep?",
           "what was piled up on my brother's boat in the clip dad kept replaying?",
           "what is my brother landing that barely pays anything at the market, the time he "
           "spoke of giving up?"],
          ["Rui's engine needs a rebuild, €9000.",
           "Póvoa harbour fogged in all wk, nobody went out.",
           "Rui says young guys don't want to fish anymore."],
          ["Rui gave up on {old}, not worth the diesel. crew going for {v} instead.",
           "season for {old} closed, so Rui switched to {v}."],
          ["what's Rui fishing for now?",
           "my brother's boat these days, what's it after?"]),
    Topic("touringasm", ["Noor Haddad", "Kenji Ota from Vancouver", "Lore Van Damme",
                         "Dédé Tremblay", "Priya Nair the ex-dancer", "Tomás Reyes"],
          ["new ASM starts today: {v}. knows every knot, can't read a cue sheet yet. "
           "teachable.",
           "{v} called the show tonight bc I had food poisoning. 0 missed cues. proud + "
           "slightly threatened.",
           "{v} + I had a screaming match over the prop table. resolved w/ poutine. we're "
           "fine."],
          ["who came on as my deputy, brilliant with ropes but lost with the paperwork?",
           "who ran the whole performance from the desk without a slip while I was sick from "
           "something I ate?",
           "who did I have the big shouting fight with about where the props go, patched up "
           "over fries and gravy?"],
          ["ASMs on this tour paid less than the merch guy. scandal.",
           "need a 2nd ASM for the big venues, budget says no.",
           "training a deputy is half my job."],
          ["{old} left the tour for a Broadway gig. my new ASM: {v}.",
           "{old} moved to the creation team, {v} is my 2nd on the road now."],
          ["who's my ASM right now?",
           "my number two on tour at present?"]),
    Topic("crewdayoffdish", ["bacalhau à Brás", "a francesinha", "caldo verde",
                             "arroz de pato", "tripas à moda do Porto",
                             "a tray of pastéis de nata"],
          ["day off. cooked {v} for 14 in the company flat. 2 burners. miracle. crew says "
           "I'm wasted in SM.",
           "acrobats ate {v} at 11pm after the show + 1 of them was sick on the bus. NOT my "
           "food's fault. probably.",
           "pai gave me his recipe for {v} by phone, 45 min call, 80% about my mother. worth "
           "it."],
          ["what did I make for the whole troupe on our rest day with just two hobs?",
           "what did the artists eat late at night before one threw up on the coach?",
           "which of dad's recipes did he dictate over a long call spent mostly remembering "
           "mum?"],
          ["company kitchen has 1 pot + no salt.",
           "catering on this tour is beige food only.",
           "I miss real bread so much."],
          ["crew is sick of {old}. my day-off dish now is {v}.",
           "no more {old}, too heavy before a 2-show day; doing {v} for the gang now."],
          ["what do I cook for the company on days off now?",
           "my go-to dinner for the crew these days?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("q re RFI: every time I key up on 40m the downstairs neighbour's touch lamp flickers + "
     "his smart speaker starts talking by itself. he's 80, lovely, thinks the house is "
     "haunted. I run 100W into a wire ~10m from his window. ferrites? less power? how do I "
     "fix w/o losing my hobby or my neighbour?",
     "You can very likely fix this without giving anything up, and the way you handle it with "
     "him matters as much as the technical side. First, make sure it really is you: note the "
     "times it happens and check them against your log, or ask him to tell you when it "
     "starts while you transmit short bursts. What is usually going on is that your signal is "
     "picked up by his house wiring and by the leads of those devices, which act as small "
     "antennas, and the cheap electronics inside a touch-sensitive lamp are among the most "
     "easily upset things in any home. So work at both ends. At his end: clip-on ferrite "
     "chokes of a material suited to HF (mix 31 is the usual choice), with the lamp's cord and "
     "the speaker's power lead wound several turns through each, right next to the device. "
     "Offer to replace the lamp with one that has an ordinary mechanical switch; it costs "
     "you twenty dollars and ends the haunting. At your end: a common-mode choke on the "
     "feedline where it enters the house and at the feedpoint, a proper RF ground, and, if "
     "you can, moving the radiating part of the wire farther from his window, since signal "
     "strength falls off quickly with distance. Try 50 W instead of 100 W and see whether it "
     "stops; on digital modes you may lose almost nothing. Legally, in Canada interference "
     "complaints go to Innovation, Science and Economic Development Canada, and a station "
     "that meets its licence conditions is generally not at fault when an appliance lacks "
     "immunity, but that is a last resort, not an argument to open with. Radio Amateurs of "
     "Canada has a guide on this with worked examples. Knock on his door, explain in plain "
     "words what you do, show him your radio, fit the chokes together, and give him your "
     "number so he tells you before he tells anyone else.",
     "my neighbour's gadgets acting up whenever I'm on the air, what fixes did you give me?"),
    ("incident tonight: flyer hit her head on the catch bar in act 2, concussion? she says "
     "she's fine + wants to do both shows tmrw. didn't lose consciousness I think. no medic "
     "on this tour. what do I do tonight + what goes in my incident report?",
     "Treat it as a real injury even though she feels fine: adrenaline after a show hides "
     "symptoms, and artists very often play down a knock so as not to lose their spot. "
     "Tonight, she should not be alone or drive, and someone should check on her through the "
     "night. Call emergency services or take her to an emergency department straight away if "
     "any of these appear: a headache that gets worse, repeated vomiting, confusion or not "
     "recognising people, one pupil larger than the other, slurred speech, weakness or "
     "numbness, a seizure, increasing drowsiness, or clear fluid from the nose or ears. "
     "Tomorrow she sees a doctor before anyone decides anything about the shows, and she "
     "does not go up on any apparatus until she is cleared. The usual return is step by step: "
     "rest until symptom-free, then light exercise, then skills on the ground, then work at "
     "low height, then the full act, moving on only if nothing comes back, which usually "
     "takes days, not a night's sleep. Take the decision off her shoulders: ask the director "
     "tonight to plan tomorrow's shows without her act, so she feels no pressure to perform. "
     "For the report, write facts, not conclusions: date, time and show; the apparatus and "
     "the point in the act; exactly what happened and what part of her head hit what; who saw "
     "it, with names; what she said and how she seemed (dazed, pale, asking the same "
     "question twice); what was done and by whom, including ice and who stayed with her; who "
     "was informed and when. Do not guess the diagnosis or assign blame. Ask the rigging crew "
     "to inspect the bar and the catch position and note that too. Keep a copy yourself, and "
     "follow up in writing once she has seen the doctor.",
     "when one of the acrobats knocked her skull mid-show, what were the steps you told me "
     "to follow?"),
    ("pai has Parkinson's freezing now: feet glued to the floor in doorways + when he turns "
     "around in the kitchen. fell twice this month. neuro appt is in 3 months (public "
     "system). anything he or the people helping him can do before that?",
     "What you describe, his feet seeming to stick to the floor for a few seconds, "
     "especially at thresholds, in narrow spaces and when he turns, is a well known part of "
     "his illness as it advances, and there are tricks that help many people get moving "
     "again. The idea is to give the brain an outside cue that replaces the automatic step. "
     "Visual: strips of bright tape across the floor at doorways and in the kitchen where he "
     "turns, spaced a step apart, so he steps over a line; there are also canes and walker "
     "attachments that project a laser line in front of the foot. Sound: counting out loud, "
     "a metronome app, or humming a march and stepping to the beat. Movement: when stuck, "
     "stop trying to push forward, stand tall, shift the weight from one foot to the other, "
     "then take one big deliberate step; turn by walking in a wide arc rather than pivoting "
     "on the spot. Whoever is with him should not pull him forward by the arm, which makes "
     "falls more likely; a calm word and a cue work better. Note when it happens against the "
     "times of his tablets for a week or two: it is often worse when a dose is wearing off, "
     "and that diary is exactly what the neurologist will want. Meanwhile, ask his family "
     "doctor at the health centre to bring the appointment forward after two falls, and for a "
     "physiotherapy referral; physiotherapists who know this condition teach these "
     "strategies in a few sessions. The national patients' association in Portugal runs "
     "exercise classes and can give advice. At home: clear rugs and clutter from his routes, "
     "good light at night, and ask the municipality about a tele-assistance alarm he can wear, "
     "so a fall never means lying on the floor waiting.",
     "when pai's legs lock up on him, what tricks did you suggest?"),
    ("Mathieu sprays nitrocellulose lacquer in the basement workshop. furnace + water heater "
     "down there w/ pilot lights. smell goes through the whole triplex, upstairs tenant "
     "complained. is this as dangerous as I think? what should he change?",
     "Yes, it is, and he should stop spraying down there until things change. The solvents in "
     "that finish are very flammable, their vapour is heavier than air and drifts along the "
     "floor, and a pilot light is exactly the kind of flame that ignites it; the dried "
     "overspray dust that settles on surfaces is flammable too. The smell reaching the other "
     "flats means the vapour is not staying in the workshop, which is a health issue for "
     "everyone in the building as well as a fire risk. Options, from simplest: spray only "
     "outdoors or in a detached garage in warm, dry weather; rent time in a shared woodshop "
     "or a body shop that has a proper booth; or brush or pad the finish, or use a "
     "water-based alternative for some jobs, even if many luthiers prefer the traditional one "
     "for its sound and look. A real spray booth in a basement means a spark-proof fan ducted "
     "outside, no ignition sources in the room and approval under the fire code, which in a "
     "residential triplex may simply not be allowed, so ask the city's fire prevention "
     "service before investing. Whatever he does, he should wear a fitted respirator with "
     "organic vapour cartridges, keep the cans in a closed metal cabinet away from the "
     "furnace, keep a suitable extinguisher near the door, and deal with rags safely. Also "
     "check your home insurance: a fire from a business activity the insurer was not told "
     "about may not be covered, and the other tenants' belongings would be part of that. Talk "
     "to the upstairs tenant too, so they know it is being dealt with.",
     "my partner's spraying downstairs near the gas heater: what did you say he should do "
     "differently?"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("local head rigger at this venue is {p}, she {x}. v calm, v fast. likes me I think.",
     "{p} did a last check before the half, found a cracked shackle on the trapeze point + "
     "swapped it. could have been a disaster. buying her everything.",
     "the rigger who {x}, what did she catch before the show?",
     ["Saoirse Quigley", "Malika Benali", "Ingeborg Lund", "Daniela Ferraro", "Wren Okafor"],
     ["used to climb wind turbines", "has a carabiner tattoo", "rides a unicycle to work",
      "rigged an Olympic opening ceremony", "learned rigging on tall ships"]),
    ("worked {p} tonight on 20m, he {x}. 40 min ragchew. nicest QSO in months.",
     "card from {p} came, hand-painted, + a packet of tomato seeds from his garden. crying a "
     "bit.",
     "the radio friend who {x}, what came from him in the mail?",
     ["Aldo Bertolucci", "Hamish Grieve", "Yusuf Demirci", "Bohdan Kravets",
      "Lars-Erik Nyström"],
     ["is 91 and a retired telegraphist", "operates from a sailboat in Greece",
      "built his whole rig from scrap", "taught Morse to blind kids",
      "runs a station on a hill farm in Wales"]),
    ("new tenant upstairs, {p}, she {x}. seems lovely, loud boots.",
     "{p} took in our cat for 3 wks while M + I were both away, sent daily photo reports. "
     "hero.",
     "the upstairs neighbour who {x}, what favour did she do us?",
     ["Chantal Bouchard", "Mireille Laroche", "Amaya Quispe", "Hélène Pothier",
      "Ophélie Marchand"],
     ["plays the tuba", "drives a snowplough at night", "is studying to be a notary",
      "makes her own hot sauce", "ran the Boston marathon"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("portochristmas", ["xmas eve in Porto: cod, potatoes + cabbage w/ pai, Rui + the kids. pai "
                        "danced w/ his walker. best night in years.",
                        "midnight mass w/ pai, he slept through the sermon + woke up for the "
                        "singing.",
                        "rained every single day in Porto over the holidays. didn't matter.",
                        "flight home via Lisbon, bag lost, still lost. my headset was in it."],
     "that year-end visit back home to see dad, what did I tell you about it?"),
    ("icestorm", ["ice storm. power out since 6am, all of Rosemont dark. running the rig off "
                  "the car battery, on the emergency net all night.",
                  "trees down all over our street, the big maple lost half its arms. M "
                  "mourning the wood tbh.",
                  "no heat day 3, neighbours all in our kitchen round the gas stove. candlelit "
                  "fondue.",
                  "hydro back after 4 days. fridge smells like a crime scene."],
     "the time the city froze over and we had no electricity, tell me all of it again."),
    ("newcreation", ["new show premiere tonight, 412 cues, called every one. hands still "
                     "shaking.",
                     "standing ovation at the premiere, dir hugged me in the booth + spilled "
                     "coffee all over my script.",
                     "premiere party till 4am, danced w/ the rigging crew, feet destroyed.",
                     "first reviews of the new show: 3 good, 1 mean. the mean one spelled my "
                     "name wrong."],
     "the opening of our newest production, what did I share about it?"),
]

CHAT = ["convert 450 lbs to kg pls",
        "fr to en: 'sortie de secours'",
        "how many hrs ahead is Tokyo from Montréal rn?",
        "quick email to a venue: truck arrives 7am, need 4 local crew to unload.",
        "what does 73 mean at the end of a radio contact?",
        "spell check: proscenium",
        "packing list for 3 days, carry-on only",
        "'focussed' or 'focused'?",
        "overnight oats, lazy version",
        "shorten pls: 'Please be advised that the half-hour call will be given at 7:00 pm "
        "sharp.'",
        "thx",
        "still there?"]
REPLIES = ["Sure thing, Inês:",
           "On it, Inês. Here:",
           "Quick version, Inês:",
           "Here it is, short and sweet:",
           "Done. As asked:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["ok quick one.",
          "on a break, 10 min.",
          "writing from the prompt desk, sorry typos.",
          "jet lag brain, bear w/ me.",
          "M says hi."]
