"""Variant `q` of the dialogue set: a fifteenth check set, written apart from `a` to `p` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one woman's, Ros, 59, a freelance British Sign Language
interpreter who lives aboard a narrowboat, Moorhen, on the Kennet and Avon canal in Wiltshire,
plays duplicate bridge, paints roses and castles and forages the hedgerows, and whose daughter
Nell lives in Melbourne: where the boat is moored, her regular interpreting booking, her bridge
partner, the job being done on the boat, the painted piece she is working on, what she burns in
the stove, her blood pressure tablet, what Nell does for work and what she makes from the
hedges; questions are asked as people ask an assistant to remember ("what did I bribe the chap
who works the gates with?", "the woman on the boat behind me who'd been a trapeze artist
before, what did she do when my engine died?"), some lowercase, some without a question mark,
some with context after the question, a few typos, a little West Country English, from the
specific to the vague, and mostly share no content word with the message that answers them.
Sessions run from one exchange to eight over 370 days; small talk may sit before and after a
fact in the same message; rows are one utterance each, among 3,600 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("boatmooring", ["the Dundas Aqueduct", "the top of the Caen Hill flight",
                          "the towpath by Sydney Gardens", "the wharf at Honeystreet",
                          "a farmer's field below Pewsey",
                          "the visitor moorings at Bradford on Avon"],
          ["Moved the boat this morning, tied up at {v} for the next fortnight. Phone signal is "
           "one bar on a good day but the view makes up for it",
           "woke up at {v} to a heron stood on the roof staring in at me like he owned the "
           "place",
           "Had words with a hire boat crew at {v}, they rammed my stern and then blamed the "
           "wind. There was no wind"],
          ["where did I say I'd be stopping for two weeks with the rubbish reception?",
           "where was I when a big grey bird perched up top and glared through the window",
           "Where did those holiday boaters bash into the back of me and blame the weather?"],
          ["Enforcement officer's been along again chalking everyone's names in his little "
           "book.",
           "Water point's broken so I'm rationing the kettle.",
           "Three days of rain and the towpath is just brown soup."],
          ["Shifted on from {old} yesterday, fourteen-day rule. Now at {v} and the water tap's "
           "a lot closer",
           "{old} got too noisy with the summer crowds so I've dragged myself along to {v}"],
          ["where's the boat to these days?",
           "Remind me where I'm tied up at the moment"]),
    Topic("signingwork", ["a deaf architect's practice in Swindon", "the maternity unit at the RUH",
                          "a foundation degree at Wiltshire College",
                          "the magistrates' court in Chippenham",
                          "a Deaf-led theatre company in Bristol",
                          "an engineering firm's graduate induction"],
          ["Got the contract for {v}, three mornings a week till Easter. Regular money at "
           "last!!",
           "Long one today at {v}. Eight hours and no co-worker, my arms are hanging off",
           "Agency's moved me off ad hoc jobs and onto {v}. Good for the bank balance, awful for "
           "my lie-ins"],
          ["which job did I land that means steady pay right through to the spring?",
           "where was I signing all day on my own with nobody to swap in",
           "what regular booking did the agency put me on that means 5am alarms"],
          ["Registration fee's gone up again, they must think we're made of money.",
           "Spent the evening watching a Deaf comedian online to keep my receptive skills "
           "sharp.",
           "Someone on the train asked if sign language is the same all over the world. Gave "
           "them the short version."],
          ["Finished at {old} on Friday, they got me a card and everything. Monday I start at "
           "{v}",
           "No more {old}, budget cuts. Agency have found me {v} instead, fingers crossed"],
          ["what's my main interpreting gig right now",
           "Where am I mostly working at present, for the BSL?"]),
    Topic("bridgepartner", ["Dilys from the Marlborough club", "a retired dentist called Howard",
                            "my old headmistress, Miss Pryce", "Sunil, the young accountant",
                            "Babs who farms near Avebury", "a Dutch chap named Joost"],
          ["New partner for Tuesday duplicate: {v}. One coffee and we'd agreed on a weak "
           "no-trump, that's practically a marriage",
           "Partnered {v} tonight and we came top! 64%, I've never been over 60 in my life",
           "{v} had a go at me at the table for leading away from a king and honestly I'm still "
           "fuming"],
          ["who did I pair up with for the weekly game after a single cup of coffee?",
           "who was I playing with the night we topped the room with my best ever score",
           "Who told me off mid-hand over my opening lead? still cross about it tbh"],
          ["Dealt myself a 4-4-4-1 three times tonight, which is statistically rude.",
           "The club's moving to bidding tablets and half the members are threatening to leave.",
           "Couldn't sleep, kept replaying a slam I went two off in."],
          ["{old} has given up bridge for golf, the traitor, so it's {v} and me on Tuesdays now",
           "Changed partners after Christmas, I'm playing with {v}. {old} and I were bickering "
           "every single week"],
          ["who am i partnering at the club these days",
           "remind me who I play bridge with now"]),
    Topic("boatwork", ["blacking the hull at Foxhangers", "a new multifuel stove",
                       "solar panels on the roof", "a replacement cratch cover",
                       "a composting toilet", "repainting the cabin sides in maroon"],
          ["Money pit update: I've booked in for {v}, £1,800 I don't have",
           "Spent the whole bank holiday on {v}. Everything aches and my good jeans are ruined",
           "the fella at the yard reckons {v} will be done by the end of the month, which in "
           "boat time means autumn"],
          ["what's the big job I signed Moorhen up for that I can't really afford",
           "What wrecked my best trousers over the long weekend?",
           "what did the boatyard bloke promise would be finished in a few weeks (ha)"],
          ["Bilge pump's making a noise like a dying goose.",
           "Found a drip by the side hatch, bucket deployed.",
           "Boat safety exam is due in March, must dig out the paperwork."],
          ["Forget {old}, the engine mount's cracked so that money's gone. Doing {v} instead "
           "once I've saved",
           "Right, {old} is finished and paid for. Next on the list: {v}"],
          ["what's the current project on the boat?", "wat am I doing to Moorhen now"]),
    Topic("canalart", ["a Buckby can for Nell", "the tiller pin", "a dipper for the water butt",
                       "the back cabin doors", "a bread bin for the club raffle",
                       "a little three-legged stool"],
          ["Started painting roses and castles on {v}. My castles look like garden sheds but "
           "the roses are coming on",
           "Varnished {v} last night and a daddy long legs got stuck in it. He's part of the "
           "design now",
           "A woman at the canal festival offered me forty quid for {v}! Told her it's not for "
           "sale"],
          ["what am I decorating with the traditional flowers, the one where the towers look "
           "like huts",
           "what's got an insect set in the lacquer for all eternity",
           "What did a stranger at the waterways fair try to buy off me?"],
          ["One Shot enamel is eye-wateringly dear for such tiny tins.",
           "Watched an old boatwoman paint a rose in four strokes. Took me forty.",
           "Brushes need a proper clean, they've gone stiff as twigs."],
          ["{old} is done and hung up! Primer's on {v} now, that's the winter sorted",
           "Put {old} aside, I'd botched the lettering too many times. Cracking on with {v} "
           "instead"],
          ["which painted piece is on the go at the moment",
           "What's my current roses and castles project?"]),
    Topic("stovefuel", ["smokeless ovals", "kiln-dried ash logs", "compressed sawdust briquettes",
                        "Excel coal", "Homefire nuggets", "driftwood off the towpath"],
          ["Fuel boat came past and I stocked up on {v}, ten bags on the roof",
           "{v} kept the fire in all night, first warm morning since October",
           "Burning {v} and the whole cabin smells like a chip shop chimney, not sure I can "
           "stand it"],
          ["what did I buy a roofload of when the delivery boat chugged by?",
           "What finally kept the burner going till morning?",
           "what was I putting in the stove that stank the place out"],
          ["CO alarm chirped its battery warning at 3am, of course it did.",
           "Chimney's leaning again after that low bridge.",
           "Had to chip ice off the front deck this morning."],
          ["Gave up on {old}, far too much ash. It's {v} this winter",
           "Switched to {v}. {old} was costing me a fortune for half the heat"],
          ["what am I heating the boat with now",
           "remind me what's going in the fire this year"]),
    Topic("bptablet", ["amlodipine", "ramipril", "losartan", "bisoprolol", "indapamide",
                       "candesartan"],
          ["GP's started me on {v} for the blood pressure. 5mg at night, we'll see",
           "My ankles have puffed up like balloons and the pharmacist thinks it's the {v}",
           "Six weeks on {v} and the home monitor is finally saying something sensible"],
          ["what did the doctor put me on for my pressure",
           "which pill did the chemist blame for my swollen feet?",
           "What's been getting my readings down, the one that's working?"],
          ["Nurse took my blood pressure three times and didn't like any of them.",
           "Cut right down on salt and everything tastes of cardboard.",
           "The cuff on my home machine pinches something awful."],
          ["Doctor's taken me off {old} because of the cough, I'm on {v} from tomorrow",
           "New prescription: {v}. {old} was making me dizzy on the lock ladders"],
          ["which blood pressure medication am I on these days?",
           "whats my bp tablet at the moment"]),
    Topic("nellwork", ["paramedic training", "barista shifts in Fitzroy",
                       "a keeper's job at the aquarium", "teaching English to refugees",
                       "grape picking in the Yarra Valley", "grant writing for a koala charity"],
          ["Nell rang before dawn to say she's started {v}. Means she's staying in Australia "
           "another year at least",
           "Nell's shattered, {v} is wearing her out but she won't admit it",
           "Nell's thinking of packing in {v} already, the boss is a nightmare apparently"],
          ["what did my daughter phone before sunrise to tell me she'd begun, the reason she "
           "isn't coming home yet",
           "what's running my girl ragged over in Oz that she won't own up to",
           "What was Nell ready to quit after a few weeks because of the manager?"],
          ["Nell and I keep missing each other, she's going to bed when I'm having breakfast.",
           "Posted Nell a parcel of Welsh cakes and the postage cost more than the baking.",
           "Looked at flights to Melbourne and shut the laptop very quickly."],
          ["Nell's left {old} and she's doing {v} now. Third thing this year, bless her",
           "Update from down under: {v}! {old} didn't last"],
          ["what's nell doing for work out there now",
           "So what's my daughter up to in Melbourne these days?"]),
    Topic("hedgerow", ["sloe gin", "elderflower cordial", "wild garlic pesto",
                       "blackberry whisky", "rosehip syrup", "crab apple jelly"],
          ["Made a batch of {v} from the bushes by the lock, a dozen bottles lined up on the "
           "roof",
           "Gave a jar of {v} to the lock keeper and he's been my best friend ever since",
           "The {v} went wrong, fizzed up and blew the lid off in the cupboard at 2am. Thought "
           "we were being shot at"],
          ["what did I make from the hedge near the gates, the twelve bottles",
           "What did I bribe the chap who works the gates with?",
           "what exploded in the night and made me think someone was firing at the boat"],
          ["Foraging book says half the white flowers out there will kill you. Comforting.",
           "Spent the morning picking along the hedges and came back scratched to bits.",
           "Sterilised all my jars in the one saucepan, took hours."],
          ["No {old} this year, the council flailed the hedges. I've made {v} instead",
           "Done with {old}, too sweet for me. This season it's {v}"],
          ["what's the hedgerow thing I'm making this year",
           "remind me waht I'm bottling from the wild stuff these days"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("Every morning the windows are streaming and there's black mould starting in the corner "
     "behind my bed. Steel boat, 57ft, I've got a solid fuel stove. What actually works? I "
     "can't run a big dehumidifier off 12 volts",
     "Condensation on a steel boat comes down to three things: less water in the air, more air "
     "moving, and fewer cold surfaces. Keep the stove in low overnight rather than letting it "
     "die and relighting, because the cabin cooling down at 4am is when the hull sweats. Never "
     "block the mushroom vents or the roof vents, even in a cold snap, and crack a side hatch "
     "whenever you cook or boil a kettle. Put lids on pans, and dry washing at the launderette "
     "or outside rather than round the stove. A gas hob adds a surprising amount of water, so "
     "boil the kettle on the stovetop when it's lit. Each morning run a window squeegee down "
     "the glass into an old towel; magnetic acrylic secondary glazing on the worst windows "
     "helps a lot. For the bed, pull the mattress a couple of inches off the hull side and put "
     "a slatted base or an anti-condensation mat under it so air can get behind. Wipe the "
     "mould with diluted white vinegar, not bleach, and dry it well; if it keeps coming back "
     "in one spot, the insulation behind that lining has probably got a gap.",
     "what did you say about the black spots and wet glass on the boat?"),
    ("i keep losing count of trumps. get to trick 9 and i have no idea if theres one still out "
     "there. any tricks for keeping track that dont need a photographic memory",
     "You don't need a memory for cards, just a habit. As declarer, when dummy goes down, add "
     "your trumps to dummy's and take the total from 13: that's what the defenders hold, say "
     "five. From then on count only their cards, not yours: 'five; both followed, three; one "
     "showed out, so the other has the rest.' Say it silently in the same words every time, "
     "because the fixed wording is what makes it automatic. The moment someone shows out is "
     "the most useful thing at the table, so make a point of noticing it. Practise at home: "
     "deal a hand, play the trumps off, stop at random and check your number. Count nothing "
     "but trumps for a month, then add one side suit. Once that's easy, start counting "
     "high-card points from the bidding as well; if an opponent opened a weak no-trump and "
     "has already shown eleven, you know who hasn't got the missing queen.",
     "what was your system so i stop forgetting whether the defenders have any left"),
    ("My right wrist aches after long jobs, sort of a burning up the forearm by the evening. "
     "I'm freelance so I can't really take weeks off. What can I do?",
     "Deal with it now; overuse injuries in interpreters get worse if you push through. Start "
     "with the work itself: for anything longer than an hour, insist on a co-worker and swap "
     "every twenty minutes, and write that into your terms so it's costed into quotes. Keep "
     "your signing within a comfortable space in front of your chest rather than letting it "
     "drift wide or high, drop your shoulders, and don't over-articulate your fingerspelling. "
     "In breaks, shake your hands out and do gentle stretches for the muscles on both sides "
     "of the forearm, holding each for about twenty seconds. Warm your hands before a job on "
     "cold mornings. If it's hot and burning in the evening, ten minutes of ice wrapped in a "
     "tea towel helps, and an anti-inflammatory gel can take the edge off. If you get "
     "tingling or numbness in your fingers, or it wakes you at night, see your GP or a "
     "physio; a cheap night splint that keeps the wrist straight often makes a big "
     "difference.",
     "How did you say I should look after my arm that's been playing up from all the "
     "signing?"),
    ("Nell's begging me to come out to Melbourne for three months over their summer. What do "
     "I do with the boat? Can I just leave it on the towpath? insurance? licence? I don't want "
     "to come back and find it sunk or nicked",
     "You can't leave it on an ordinary towpath mooring for three months: as a continuous "
     "cruiser the fourteen-day rule still applies and the Trust can start enforcement. Your "
     "two options are a winter mooring, which the Canal & River Trust sells by the month "
     "from November to March on set stretches, or a marina berth. A marina is the safer one "
     "for that long, since someone is on site and many will check a boat weekly for a small "
     "fee. Ring your insurer before you book anything; most policies have a clause about a "
     "boat left unattended for more than thirty days and want it in a marina or regularly "
     "checked. Keep the licence running while you're away. Before you go: drain the water "
     "tank and pipes or leave frost protection on, check the stern gland and pump out the "
     "bilge, leave the bilge pump on automatic with the solar keeping the batteries topped "
     "up, turn the gas off at the bottle, empty the toilet, and take anything valuable off. "
     "Leave a key with a boater you trust and ask them to check the ropes after any storm.",
     "if I go out to Australia to see my daughter, what did you tell me to sort out for the "
     "boat"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("Boat behind me belongs to {p}, who used to be {x}. She passed me a flapjack through the "
     "hatch within ten minutes of tying up",
     "Engine died at the bottom of the flight and {p} came down the towpath and fixed it with a "
     "jubilee clip and a shoelace. Hero",
     "the woman on the boat behind me who'd been {x} before, what did she do when my engine "
     "died?",
     ["Marigold", "Vonnie", "Noreen", "Zelda", "Cass"],
     ["a trapeze artist", "a prison officer", "a vicar in Leeds", "a marine biologist",
      "a long-haul air hostess"]),
    ("Interpreting for a lovely deaf lad, {p}, on his {x} course. He signs faster than I do, "
     "I'm sweating",
     "{p} got his results, a distinction!! He signed THANK YOU at me right across the car park "
     "and I had to pretend I'd got something in my eye",
     "how did the deaf student on the {x} course do in the end?",
     ["Lorcan", "Dev", "Olly", "Bashir", "Reuben"],
     ["carpentry", "motor vehicle", "horticulture", "catering", "sound engineering"]),
    ("Nice new woman at the bridge club, {p}. Used to be {x} and you can tell, she never forgets "
     "a single card",
     "Went to the county congress in Cheltenham with {p} and we won the Swiss pairs! Bottle of "
     "port each and a very wobbly drive home (she drove, I didn't)",
     "what did I win with the lady from bridge who used to be {x}",
     ["Blodwen", "Ottilie", "Mags", "Annelise", "Tessa"],
     ["a croupier in Monte Carlo", "a codebreaker at GCHQ", "a maths teacher",
      "a court stenographer", "an air traffic controller"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("liveaboardwinter", ["Canal froze solid overnight, I could hear the ice creaking against "
                          "the hull like someone knocking to come in",
                          "Ran out of water on Boxing Day because the tap at the lock had "
                          "frozen, melted snow in a pan for a cup of tea",
                          "Gale last night brought an oak down across the towpath and it missed "
                          "my roof by about a foot",
                          "Emptied the toilet cassette at 7am in sideways sleet. Glamorous life "
                          "I lead"],
     "what's it been like living on the water since the cold set in, everything I've told you"),
    ("memorablejobs", ["Did a wedding today, bride and groom both Deaf and it was the hearing "
                       "relatives who needed me. Loved every minute",
                       "Had to sign a very rude word in front of a magistrate. Kept a straight "
                       "face, just about",
                       "GP appointment where the doctor kept talking to me instead of the "
                       "patient, had to keep turning her back round to him",
                       "First ever remote job over video and the boat wifi dropped out twice "
                       "mid-sentence. Never again"],
     "What stand-out moments have I had at work lately?"),
    ("nellfaraway", ["Nell's got a boyfriend called Mitch and he calls me Mrs P. I quite like "
                     "it",
                     "Sent Nell her nan's bara brith recipe and she somehow baked it on a "
                     "barbecue",
                     "Had a little cry after the Christmas video call, thirty degrees there "
                     "and she was sat on a beach in a Santa hat",
                     "Nell's visa has been extended, so it's another two years at least"],
     "how's my girl getting on over there, from everything I've said"),
]

CHAT = ["What time is it in Melbourne right now?",
        "is 'fingerspelling' one word or two",
        "quick recipe for one person, I've got a tin of chickpeas, an onion and not much else",
        "crossword help: 'water barrier', four letters, second letter O",
        "What's a polite way to tell a hire boater they're doing the paddles in the wrong order?",
        "Morning! Kettle's on, ducks are shouting, let's do this.",
        "How long do I boil an egg for so the yolk's still runny",
        "Who wrote The Wind in the Willows?",
        "Do I write Deaf with a capital D in an email to a client or is that only in certain "
        "contexts",
        "how many feet in a metre, roughly",
        "what's the name for a bridge hand with no cards in one suit, my brain's gone",
        "lovely, ta ever so"]
REPLIES = ["Ah, I know this one.",
           "Sure, here's the gist.",
           "Good question, let me break it down.",
           "Okay, here's what I'd say.",
           "Happy to. A couple of points:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Signal keeps dropping.", "Ducks are pecking at the hull again.",
          "Just back from the club.", "wrapped in two jumpers here.", "typing this by the fire."]
