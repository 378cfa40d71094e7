"""Variant `h` of the dialogue set: a sixth check set, written apart from `a` to `g` (its own
topics, values, people, places, questions, chit-chat and replies), kept unseen so that a
default chosen on the others can be checked once more on a set nobody tuned on. The facts are
one newly retired woman's: a part in the village panto, the pub quiz team, minding a
grandson, the gas and electric supplier, dance lessons with her husband, her hair colour,
birdwatching, tracing the family tree and a sponsored charity challenge; questions are asked
as people ask an assistant to remember ("what did the stylist persuade me to try?", "who's
the earliest relative I've found so far?"), from the specific to the vague, and mostly share
no content word with the message that answers them. Sessions run from one exchange to six
over 350 days; small talk may sit before and after a fact in the same message; rows are one
utterance each, among 3,000 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("panto", ["Widow Twankey", "the back end of the horse", "the Fairy Godmother",
                    "one of the Ugly Sisters", "Captain Hook", "the Wicked Queen"],
          ["The am-dram lot have cast me as {v} in the Christmas panto!",
           "I'm playing {v}, and the costume is ridiculous.",
           "Keith laughed for a full five minutes when I told him I'm {v} this year."],
          ["Which role did the theatre group hand me for their December production?",
           "Who am I dressing up as in that outfit I said was daft?",
           "What part had my husband in stitches?"],
          ["Our leading man has dropped out with his knees again.",
           "Ticket sales for the panto are slow this year.",
           "The village hall stage creaks every time anyone walks across it."],
          ["They've moved me from {old} to {v} after the read-through.",
           "Last-minute recasting: I'm {v} now."],
          ["Which character am I playing in the show now?",
           "Who am I going on stage as these days?"]),
    Topic("quizteam", ["The Quizzly Bears", "Les Quizerables", "Agatha Quiztie",
                       "Universally Challenged", "The Smarty Pints", "Quiz Team Aguilera"],
          ["We've entered the Thursday quiz at the Red Lion as {v}.",
           "Last night {v} came second and won a voucher for the meat raffle.",
           "Maureen came up with {v} for our team name and we all cracked up."],
          ["What name do we go by at the pub trivia night?",
           "Under what name did we end up runners-up and bag some sausages?",
           "What did my friend suggest we call ourselves that had everyone in fits?"],
          ["The quizmaster at the Red Lion always slips in a question about Elvis.",
           "We lost by one point because nobody knew the capital of Canada.",
           "Brian insists he knows every answer and never does."],
          ["We've dropped {old} and we're going by {v} now.",
           "New name on our answer sheets: {v}."],
          ["What's our quiz team called these days?",
           "Which name are we using down the pub on a Thursday now?"]),
    Topic("grandson", ["baby ballet", "Tumble Tots", "Monkey Music", "toddler swimming lessons",
                       "a messy play group", "Sing and Sign"],
          ["Every Wednesday I take Reuben to {v} while our Kirsty's at work.",
           "I've paid for a term of {v} for Reuben as an early birthday present.",
           "Reuben cried all the way through {v} this morning, bless him."],
          ["Where do I go with my grandson midweek while his mum's busy earning?",
           "What did I treat the little one to a whole term of?",
           "Which session did the littlest one scream the place down at?"],
          ["Reuben's teething again and nobody in that house is sleeping.",
           "Kirsty's asked if I can do an extra day when she goes back full time.",
           "I'd forgotten how heavy a car seat is."],
          ["Reuben's finished with {old}, so we've started {v} instead.",
           "Our new outing together is {v}."],
          ["What do I take my grandson to nowadays?",
           "Which toddler class are we going to at the moment?"]),
    Topic("energy", ["Octopus Energy", "British Gas", "EDF", "E.ON Next", "Ovo Energy",
                     "Scottish Power"],
          ["We've switched our gas and electric to {v}.",
           "I spent an hour on hold to {v} about a smart meter that doesn't talk to anything.",
           "The direct debit to {v} has gone up to a hundred and forty a month."],
          ["Who did we move the household utilities over to?",
           "Which company left me waiting on the phone over that useless gadget?",
           "Which firm is taking more off us every month for the bills?"],
          ["Keith goes round turning radiators off behind my back.",
           "The price cap's going up again in October.",
           "I've put thermal curtains up in the back bedroom."],
          ["Switched again, from {old} to {v}, to save a few quid.",
           "Our gas and electric are with {v} now."],
          ["Who supplies our heating and lights at the moment?",
           "Which company do we pay for our energy now?"]),
    Topic("dance", ["cha-cha-cha", "foxtrot", "Argentine tango", "quickstep", "rumba",
                    "Viennese waltz"],
          ["Keith and I have signed up for lessons in the {v} at the Miners' Welfare.",
           "Ramon says my {v} is coming on a treat but Keith's got two left feet.",
           "We did the {v} at our niece's wedding and got a round of applause."],
          ["What style are me and my other half being taught?",
           "What's the instructor been praising me for?",
           "What did we show off on the floor at that family do that got people clapping?"],
          ["My feet are killing me after class.",
           "Keith keeps counting out loud under his breath.",
           "Ramon wants us to enter a little competition in the spring."],
          ["We've finished the {old} and moved on to the {v}.",
           "This term's dance is the {v}."],
          ["Which dance are we working on now?",
           "What steps are me and Keith learning at the moment?"]),
    Topic("haircolour", ["copper red", "ash blonde", "silver grey", "chestnut brown", "lilac",
                         "honey highlights"],
          ["I've had my hair coloured {v} for the first time in years.",
           "Jackie at the salon talked me into going {v}.",
           "The grandkids say I look like a film star now it's {v}."],
          ["What shade did I get done at the hairdresser's?",
           "What look did the stylist persuade me to try?",
           "What had the little ones telling me I'm glamorous?"],
          ["The salon's put its prices up again, forty-five quid for a trim.",
           "My roots are showing already.",
           "I can't decide whether to grow it out or keep it short."],
          ["I've gone from {old} to {v}, and Keith hasn't even noticed.",
           "Back from the salon: {v} this time."],
          ["What colour is my hair right now?", "What shade am I wearing these days?"]),
    Topic("birding", ["a kingfisher", "a barn owl", "a red kite", "a waxwing", "a little egret",
                      "a hoopoe"],
          ["I saw {v} down by the river on my morning walk!",
           "The RSPB group went mad when I showed them my photo of {v}.",
           "I sat in the hide at Fairburn Ings for three hours hoping to spot {v} again."],
          ["What did I spot near the water on my early stroll?",
           "What had the nature club all excited when I passed my picture round?",
           "What am I hoping to catch sight of again from that wooden shelter at the reserve?"],
          ["Someone's left bread out for the ducks again, which is bad for them.",
           "The squirrels emptied the feeder in a single day.",
           "My binoculars have steamed up on the inside somehow."],
          ["Ticked off {v} today, even better than {old}.",
           "The rarest one in my notebook now is {v}."],
          ["What's the best bird I've seen so far?",
           "Which sighting am I proudest of now?"]),
    Topic("ancestor", ["a lacemaker in Nottingham", "a Cornish tin miner",
                       "a ship's carpenter from Hull", "a workhouse master in Leeds",
                       "a brewer's drayman", "a Huguenot silk weaver"],
          ["My great-great-grandfather turns out to have been {v}.",
           "I found a marriage certificate naming {v} as the bride's father.",
           "The family history society helped me track down {v} in the 1851 census."],
          ["What did I learn about the relative I'd been researching from four generations "
           "back?",
           "Who was listed as the dad on that old wedding paper I dug out?",
           "Who did the genealogy people help me find in the old records?"],
          ["The parish records for that village were lost in a fire.",
           "Half the family trees online are somebody else's guesswork.",
           "My cousin swears we're related to a duke, which I very much doubt."],
          ["I'd got it wrong about {old}; the records now point to {v}.",
           "The furthest back I've got now is {v}."],
          ["Who's the earliest relative I've found so far?",
           "Where has my digging into the family's past got to now?"]),
    Topic("challenge", ["a sponsored walk up Pen-y-ghent", "a skydive", "the Great North Swim",
                        "a hundred-mile bike ride", "a wing walk", "the Three Peaks"],
          ["I've signed up to do {v} for Macmillan in memory of Mum.",
           "My JustGiving page for {v} has hit six hundred pounds!",
           "Everyone thinks I'm mad doing {v} at sixty-three."],
          ["What did I volunteer to put myself through for the cancer charity?",
           "What's all that sponsorship money I've raised for?",
           "What have people been telling me I'm too old to attempt?"],
          ["Sponsor forms are a nightmare to chase up.",
           "I've been training by going up and down the stairs twenty times a day.",
           "Keith says he'll sponsor me a pound a mile, the cheapskate."],
          ["Now that {old} is done, I've set my sights on {v}.",
           "My next fundraising challenge: {v}."],
          ["What's my next fundraiser?", "What am I doing for charity now?"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("how do i do a video call on whatsapp on my new ipad?? want to see the grandkids",
     "Install WhatsApp from the App Store and sign in with your mobile number (it texts you a "
     "code), then open the chat with your daughter and tap the little camera icon at the top. "
     "Say yes when it asks to use the camera and microphone. If she adds you to a family group, "
     "you can call everyone at once.",
     "How did you say I could get the little ones up on the tablet screen?"),
    ("Can I freeze leftover cooked rice? Made far too much for curry night",
     "Yes, as long as you cool it quickly: spread it out on a tray, get it into the fridge "
     "within an hour, then bag it in portions and freeze. It keeps for about a month; reheat it "
     "only once, until it's steaming hot all the way through.",
     "Was it safe to keep the spare grains from that Indian meal I cooked in the freezer?"),
    ("what do i need to do about tax now I've retired, do i still have to fill in a self "
     "assessment?",
     "Probably not, if your income is just pensions: the providers take the tax off before "
     "paying you, using the code HMRC sends them. Check your code in the HMRC app, because with "
     "two pensions one of them often ends up on the wrong code. You'd only need a return for "
     "things like rental income, savings interest over your allowance or a business on the "
     "side.",
     "Remind me, did I still have to send forms in to the taxman after finishing work?"),
    ("Keith snores like a freight train. Anything that actually works?? I'm in the spare room "
     "most nights",
     "Get him sleeping on his side (a tennis ball sewn into the back of a pyjama top is the old "
     "trick), cut out alcohol in the evening and try nasal strips. If he stops breathing or "
     "gasps in his sleep, or he's tired all day, he should see the GP about sleep apnoea, which "
     "is common and treatable.",
     "What did you suggest for my husband's racket at night?"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("{p} from the panto is organising a coach trip to {x} for the over-sixties club.",
     "{p} has collected everyone's deposits and the coach leaves the Miners' Welfare at seven "
     "sharp.",
     "What time do we have to be ready for the outing to {x}?",
     ["Glenys", "Trevor", "Pamela", "Clive", "Sandra"],
     ["Blackpool", "Chatsworth House", "Bath", "Lincoln", "Llandudno"]),
    ("My neighbour {p} has asked me to feed her {x} while she's in hospital.",
     "{p} rang from the ward to say the op went fine and she'll be home on Friday.",
     "How did the operation go for the lady whose {x} I've been looking after?",
     ["Edna", "Winifred", "Barbara", "Hazel", "Margaret"],
     ["cat", "tortoise", "chickens", "budgie", "ferrets"]),
    ("Keith's old workmate {p} has put us in touch with a man who does {x}.",
     "The chap {p} recommended came round, quoted eight hundred pounds and can start after "
     "Easter.",
     "How much did the fellow who does {x} want?",
     ["Norman", "Derek", "Malcolm", "Terry", "Vernon"],
     ["block paving", "fascias and guttering", "garden fencing", "loft insulation",
      "resin driveways"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("gadgets", ["The new telly came with four remotes and I can't work any of them.",
                 "I've been locked out of my email for the third time this week.",
                 "The self-checkout at Morrisons shouted at me about an unexpected item again.",
                 "Keith put up a Ring doorbell and now it pings every time a cat walks past."],
     "What's been driving me up the wall with modern technology?"),
    ("retired", ["I've started doing the crossword over a long breakfast every morning.",
                 "Keith and I have joined the U3A and go to the local history talks.",
                 "I'm swimming lengths at the lido before it gets busy.",
                 "We've been on a few coach day trips with the over-sixties club."],
     "How have I been filling my days since I stopped working?"),
    ("sayings", ["Poppy told the vicar he looked like a penguin.",
                 "Reuben calls the vacuum cleaner the roar monster.",
                 "Poppy asked me if I was alive when the dinosaurs were about.",
                 "Reuben told his nursery teacher that Grandad sleeps on the sofa all afternoon."],
     "Any funny things the little ones have come out with?"),
]

CHAT = ["Good morning! Up early with the birds again.",
        "How long do I boil an egg for a runny yolk?",
        "What's another word for 'delighted' with seven letters?",
        "Can you write a short verse for my sister's seventieth birthday card?",
        "Is it 'stationary' or 'stationery' when you mean envelopes?",
        "Roughly what time does it get dark in December?",
        "How do I make the writing bigger on this phone?",
        "What's the difference between a scone and a rock cake?",
        "Give me an easy pudding I can make with stewed apples.",
        "Who sang 'Puppy Love' back in the seventies?",
        "How many teaspoons are in a tablespoon?",
        "Thank you, dear, that's lovely."]
REPLIES = ["Of course. Here's a simple version first, and you can ask me for more detail.",
           "Lovely question! Here's what I'd suggest.",
           "You're very welcome. Enjoy the rest of your day.",
           "Good thinking. Here are a few options for you to choose from.",
           "Sure thing. Let me know if you'd like it shorter or a bit more formal."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Keith's out at the golf so I've got a minute.", "Just back from the shops.",
          "Lovely sunny morning here.", "Had a little nap after lunch, feeling much better.",
          "Sitting here with a cuppa and the paper."]
