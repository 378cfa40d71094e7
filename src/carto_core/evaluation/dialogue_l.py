"""Variant `l` of the dialogue set: a tenth check set, written apart from `a` to `k` by someone
given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one retired merchant-navy engineer's on the Clyde, a widower who
restores old motorbikes, volunteers at a food bank and looks after his sister Elspeth: the bike
on his bench, where his workshop is, the help Elspeth gets, what she uses to get about, his job
at the food bank, what the food bank has run short of, the old steamer he volunteers on, the
bike rally he is going to and what he uses for his hearing; questions are asked as people ask
an assistant to remember ("what did my girl badger me into getting that I'm grudgingly glad
about", "what was your way of making the engine make sense to the bairns?"), some lowercase,
some without a question mark, some with context after the question, from the specific to the
vague, and mostly share no content word with the message that answers them. Sessions run from
one exchange to seven over 375 days; small talk may sit before and after a fact in the same
message; rows are one utterance each, among 2,700 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("workbench", ["a 1958 BSA Gold Star", "a Triumph Bonneville T120",
                        "a Norton Commando 750", "a Velocette Venom", "an Ariel Square Four",
                        "a Vincent Comet"],
          ["Got {v} home on a borrowed trailer today. It's been sat in a hen house on a farm "
           "outside Dumfries since 1979 and the chickens have left their mark, believe me.",
           "the engine on {v} fired up second kick tonight and I just stood there in the "
           "garage grinning like an idiot",
           "Elspeth says I've spent more on {v} than I paid for my first house. She's "
           "probably right, but don't tell her that."],
          ["what was it I towed back from down south, the one the hens had been living in?",
           "Which machine was it that started on the second go and had me beaming?",
           "my sister reckons I've put more money into it than into a house. which bike was "
           "that"],
          ["Rebuilt a magneto for the third time this week and it still won't give a spark.",
           "Whitworth spanners cost a fortune at the autojumbles these days.",
           "Paint stripper fumes in a shut garage are not a good idea, I've learned."],
          ["Sold {old} to a collector from Harrogate, and {v} is on the bench now.",
           "New project in the garage: {v}, in bits in about forty boxes."],
          ["what bike am I rebuilding just now",
           "Which old motorcycle is my current restoration?"]),
    Topic("bikeshed", ["the lock-up behind the Co-op", "my brother-in-law's barn at Kilmacolm",
                       "a unit at the men's shed in Port Glasgow", "a railway arch in Paisley",
                       "the old boathouse at Gourock",
                       "the single garage at the side of the house"],
          ["I've got the key to {v} now. Forty quid a month and it's dry, which is more than "
           "I can say for the last place.",
           "Somebody tried to break into {v} last night, the padlock's bent but they never got "
           "in.",
           "It's baltic working in {v} in January, I've had to put a paraffin heater in."],
          ["where did I get the keys to for my spannering, the place that doesn't leak",
           "Where was it the thieves had a go at the lock?",
           "Which place was so freezing I had to bring in something to warm it over the "
           "winter?"],
          ["Need a bigger workbench, I keep losing wee bits underneath it.",
           "Borrowed an engine hoist off a lad from the bike club.",
           "The strip light over the lathe keeps flickering on and off."],
          ["Gave up {old}; I'm working out of {v} from this month.",
           "Moved all the tools and the half-built bikes into {v}, took three trips in a "
           "borrowed van."],
          ["where do I do my motorbike work these days", "Where's my workshop now?"]),
    Topic("carehelp", ["a district nurse three mornings a week", "a council carer called Theresa",
                       "a place at the Larkfield day centre",
                       "a week's respite at Ardgowan Hospice every couple of months",
                       "a live-in carer from Gdansk called Kasia",
                       "a Crossroads sitter on Friday afternoons"],
          ["Good news for once: Elspeth's getting {v} now, so I can get to the shops without "
           "panicking the whole time.",
           "Between you and me, {v} is the only reason I'm still sane.",
           "The social work assessment finally came through and they've offered {v}. Took "
           "them long enough."],
          ["What help has my sister been given that means I can nip out for the messages?",
           "what's keeping me from losing my marbles with all the caring",
           "After that assessment, what support did they finally come up with for us?"],
          ["Elspeth had a bad night, up three times, so neither of us slept.",
           "The care agency rang to say they're short-staffed again this week.",
           "Her tablets are in a dosette box now so I don't mix them up."],
          ["They've stopped {old}; Elspeth has {v} instead now.",
           "Support for Elspeth's changed again, it's {v} these days."],
          ["who's helping me with my sister at the moment",
           "What care does Elspeth get now?"]),
    Topic("getabout", ["a rollator with a seat", "a riser-recliner chair", "a stairlift",
                       "a mobility scooter", "a wheelchair from the Red Cross",
                       "a perching stool in the kitchen"],
          ["The OT came out and got Elspeth {v}, and she's been a wee bit more independent "
           "since.",
           "Took Elspeth round the garden centre with {v} and she managed the whole place, "
           "cafe and all.",
           "Spent the afternoon adjusting {v} for Elspeth. She's only five foot so nothing "
           "ever fits her."],
          ["What did the occupational therapist sort out for my sister?",
           "how did my sister manage to get right round the plant nursery",
           "what was I fiddling about with because she's so wee?"],
          ["Elspeth's legs were worse today, she barely got from the bed to her chair.",
           "We had a fall in the bathroom last week. She's fine but it shook us both.",
           "The physio gave her exercises but she won't do them for me."],
          ["Elspeth's moved on from {old} to {v}; her legs aren't what they were.",
           "What gets Elspeth about now is {v}."],
          ["What does Elspeth use to get around these days?",
           "whats my sister using for getting about now"]),
    Topic("pantryrole", ["sorting donations in the warehouse",
                         "driving the van round the supermarkets",
                         "running the Thursday distribution",
                         "keeping the stock spreadsheet",
                         "looking after the chillers and freezers",
                         "greeting folk at the front door"],
          ["The coordinator's asked me to take on {v} at the food bank, starting after Easter.",
           "Four hours of {v} this morning and my back's telling me all about it. Still, "
           "better than sitting in the house. Elspeth had her sitter so I didn't feel bad.",
           "Honestly {v} suits me better than I expected, I've got it running like an engine "
           "room."],
          ["What did the woman in charge at the food bank want me doing from the spring?",
           "what had me aching after a morning volunteering",
           "which job at the foodbank did I say I'd got shipshape"],
          ["Referrals at the food bank are up again, mostly working families now.",
           "We had a volunteers' meeting that went on two hours about the rota.",
           "The church hall heating's broken so we all work in our jackets."],
          ["I've handed over {old} to a younger lad and I'm on {v} now.",
           "New job at the food bank for me: {v}."],
          ["What's my job at the food bank now?", "what do I do when I volunteer these days"]),
    Topic("shortfall", ["tinned meat", "UHT milk", "size 5 nappies", "toiletries", "tea bags",
                        "tinned tomatoes"],
          ["We're completely out of {v} at the food bank, the shelves are bare.",
           "Put a post on the Greenock community page begging for {v} and folk have been "
           "brilliant.",
           "Had a rotten shift. A young mum came in and I had to tell her we'd no {v} left, "
           "and I felt sick about it all the way home."],
          ["what's the food bank run out of completely",
           "What did I appeal for on the local facebook group? people were great about it",
           "What couldn't I give that young mother, the thing that upset me?"],
          ["Harvest festival donations were mostly beans, as usual.",
           "Somebody donated a tin of caviar, which gave us all a laugh.",
           "The supermarket collection bin was half full of out-of-date stuff."],
          ["We've got plenty of {old} now thanks to the appeal; it's {v} we're short of.",
           "This week the gap on the shelves is {v}."],
          ["What is the food bank running low on at the moment?",
           "what are we short of at the foodbank now"]),
    Topic("steamer", ["the paddle steamer Waverley", "the puffer VIC 32",
                      "the Sir Walter Scott on Loch Katrine", "the Maid of the Loch at Balloch",
                      "the TS Queen Mary", "the steam yacht Carola"],
          ["I've signed on as a volunteer engineer on {v}. First time I've been near a boiler "
           "since 2009!",
           "Spent Saturday down below on {v} with a grease gun and I was happy as a pig in "
           "muck.",
           "Took Elspeth to see {v} and she couldn't believe her big brother's allowed to "
           "touch any of it."],
          ["what old boat did I join the crew of as a volunteer",
           "Where was I crawling about at the weekend, oiling things?",
           "What vessel did my sister come to look at, where she couldn't get over me being "
           "let loose on the machinery?"],
          ["The heritage boat lot are always desperate for folk who can read a steam gauge.",
           "Coal prices have gone through the roof for the old steam boats.",
           "Young engineers now have never even seen a triple expansion engine."],
          ["I've stepped back from {old}; it's {v} I give my Saturdays to now.",
           "These days I volunteer on {v}."],
          ["Which old steam vessel am I volunteering with at the moment?",
           "what ship do I help out on now"]),
    Topic("rally", ["the Banbury Run", "the Manx Grand Prix", "the Scottish Six Days Trial",
                    "the Ace Cafe Reunion in Brighton", "the Kop Hill Climb",
                    "the Pendine Sands speed weekend"],
          ["Booked the ferry and a B&B for {v}. It'll be the first time I've left Elspeth "
           "overnight and I'm already fretting.",
           "Me and the lads from the bike club have been planning {v} since Hogmanay.",
           "Got a wee trophy at {v} for best restored machine, I'm chuffed to bits."],
          ["Where am I off to that means leaving my sister on her own for a night for the "
           "first time?",
           "what's the trip the motorcycle club has been plotting since new year",
           "where did I win that little cup for my restoration? someone asked me and I went "
           "blank"],
          ["The bike club's AGM was mostly arguing about the Christmas dinner.",
           "Got my old leathers out the loft and they still fit, just.",
           "What they charge to take a motorbike on the boat is a scandal."],
          ["Cancelled {old} because of Elspeth, so I've put my name down for {v} instead.",
           "The big outing this year is {v}."],
          ["What bike event am I going to next?", "which rally's on my calendar now"]),
    Topic("earpiece", ["NHS hearing aids in both ears", "a pair of private Phonak aids",
                       "a TV listener headset", "a Bluetooth neckloop",
                       "a single aid in my left ear", "a flashing doorbell"],
          ["Forty years in engine rooms have caught up with me: the audiology clinic has given "
           "me {v}.",
           "With {v} I actually heard Elspeth calling from upstairs for the first time in "
           "ages.",
           "My daughter nagged me into getting {v} and I'm annoyed to say she was right."],
          ["what did the hearing clinic give me, after all those years down with the engines",
           "What let me hear my sister shouting from the top of the stairs?",
           "what did my girl badger me into getting that I'm grudgingly glad about"],
          ["Had to ask the minister to repeat himself three times at the funeral, mortifying.",
           "The telly's up that loud the neighbours have complained.",
           "My ears ring all the time, a proper whistle like a kettle."],
          ["Swapped {old} for {v}, and what a difference.",
           "My hearing's sorted now with {v}."],
          ["What am I using for my ears at the moment?",
           "how am I getting by with my bad hearing these days"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("Piston's seized solid in the barrel of an old single I've just bought. how do I get it "
     "out without cracking the cast iron",
     "Be patient rather than forceful. Take the head off, fill the bore above the piston with "
     "a 50/50 mix of automatic transmission fluid and acetone, and top it up daily for a week "
     "or two. Then try rocking the crank gently back and forth using the back wheel with the "
     "gearbox in top, or tap the crown through a hardwood block with a mallet. If it still "
     "won't budge, warm the barrel evenly all round with a hot air gun, never a flame on one "
     "spot, because cast iron cracks with uneven heat, and as a last resort press it out with "
     "a threaded puller bridged across the studs.",
     "what was the home-made soak you said would free up the stuck engine"),
    ("Elspeth won't drink much during the day because she doesn't want to be up all night "
     "for the toilet, and now the GP says she's dehydrated. Any tricks?",
     "Front-load her drinks: most of the day's fluid before mid-afternoon, then only sips in "
     "the two hours before bed. Small cups topped up often go down better than one big mug. "
     "Food counts too: soup, jelly, ice lollies, melon, custard and yoghurt are mostly water, "
     "and weak squash may tempt her more than plain water. Ask the district nurse whether a "
     "commode by the bed would take away the dread of getting up, and whether any of her "
     "tablets, such as water pills, could be moved to the morning.",
     "You had a few ideas for getting my sister to take on more liquid, what were they?"),
    ("We've a lady coming in to the food bank tomorrow who's got no cooker and no fridge, just "
     "a kettle. What can I put in her bag that she can actually use?",
     "Make her a kettle pack: instant porridge sachets, cup-a-soups, pot noodles, instant "
     "mash and couscous, which only need boiling water; ring-pull tins of fish, beans and "
     "fruit she can eat cold; crackers, oatcakes and peanut butter; small cartons of "
     "long-life milk; cereal bars; and tea, coffee and sugar. Leave out anything that needs an "
     "oven or freezer, big tins she'd have to keep once opened, and tins without a ring pull "
     "unless you add an opener.",
     "what did you suggest we pack for the woman who could only boil water?"),
    ("I'm doing a wee talk for a primary school trip on the boat next week. How would you "
     "explain a triple expansion engine to ten-year-olds?",
     "Tell them the steam gets used three times, like squeezing a sponge again and again. Hot, "
     "high-pressure steam from the boiler pushes the first, smallest piston. It comes out "
     "weaker but still puffed up, so it goes into a bigger cylinder to push the second piston, "
     "then into the biggest one for a last shove: each time it's more tired, so it needs a "
     "bigger piston to do the same work. All three push the same crankshaft round, which "
     "turns the paddles, and then the condenser cools the steam back into water so the boiler "
     "can use it all over again.",
     "what was your way of making the engine make sense to the bairns on the school trip?"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("Had a phone call out of the blue from {p}. We sailed together as juniors on the {x} "
     "back in the seventies, can you believe it.",
     "{p} posted me a parcel of his late brother's Whitworth spanners and a pre-war workshop "
     "manual, I was nearly in tears.",
     "What did my old shipmate from the {x} send me in the post?",
     ["Archie", "Rab", "Shug", "Tam", "Eck"],
     ["Clan Macintyre", "Benvorlich", "British Argosy", "Loch Etive", "Esso Kilmarnock"]),
    ("There's a new volunteer at the food bank, {p}, who was a {x} for thirty years before she "
     "retired.",
     "{p} has sweet-talked the manager at Morrisons into giving us all their leftover bread "
     "every night.",
     "the retired {x} who joined us at the foodbank, what did she wangle for us",
     ["Senga", "Morag", "Isobel", "Rena", "Catriona"],
     ["midwife", "head teacher", "bus driver", "court clerk", "pharmacist"]),
    ("Elspeth's old pal {p} from her years at the {x} has started sitting with her on "
     "Wednesday afternoons so I can get out for a bit.",
     "{p} took Elspeth in the car down to Largs for a 99 and a look at the sea, the first time "
     "she's been out in weeks.",
     "Where did my sister's friend from the {x} take her?",
     ["Nettie", "Bridie", "Ina", "Peggy", "Jeanette"],
     ["sewing machine factory", "tax office", "Woolworths on the high street",
      "Fort Matilda primary", "sugar refinery"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("seayarns", ["Told the lads at the bike club about the time we lost the main engine in a "
                  "Biscay gale and drifted for nine hours.",
                  "Was remembering my first trip as a cadet, seventeen and seasick all the way "
                  "from Tilbury to Lagos.",
                  "We once had a stowaway cat on a tanker out of Kuwait. The crew called her "
                  "Bilge and she stayed aboard three years.",
                  "crossed the line for the first time in 1974 and they shaved half my head "
                  "and dunked me in a tank of fish guts"],
     "What stories from my seagoing days have I been telling you about?"),
    ("elspethdays", ["Elspeth laughed till she cried at an old photo of the two of us on the "
                     "beach at Largs in our cossies.",
                     "She finished the crossword with me this morning and got the last clue "
                     "before I did.",
                     "Elspeth sang along to the Alexander Brothers on the radio, every word, "
                     "and she's not sung in a year.",
                     "we got her out in the garden for her tea yesterday, first time since the "
                     "autumn, and she fed the robin off her plate"],
     "Has my sister had any good days recently?"),
    ("pantryfaces", ["A lad about nineteen came in asking if we had dog food, because he'd been "
                     "sharing his own dinner with the dog.",
                     "A retired teacher I recognised came in for a parcel and could hardly look "
                     "at me, so I just gave her a hug.",
                     "A wee girl drew us a rainbow with a tin of soup in it and it's up on the "
                     "wall now.",
                     "A man we helped last winter came back with a box of shopping to donate. "
                     "He's working again."],
     "which folk at the food bank have really got to me"),
]

CHAT = ["whats the difference between BSF and BSW threads again",
        "Can you convert 45 foot-pounds to newton metres?",
        "Morning. She's asleep so I've got ten minutes to myself.",
        "how long will a pint of milk keep once its opened",
        "Write a short thank-you note to the church for letting us use the hall.",
        "what does 'knots' actually mean, where does it come from",
        "Suggest a film from the fifties I might not have seen.",
        "Give me a simple soup recipe that's soft enough for someone who struggles to chew.",
        "How many miles is it from Glasgow to Hull?",
        "Thanks pal, that's grand.",
        "spell check this for me: 'recieved with thanks'",
        "Is there a trick for getting a stubborn jar lid off?"]
REPLIES = ["Right, here's how I'd go about it.",
           "Happy to help with that. Details below.",
           "Good one. A quick explanation follows.",
           "Of course, and I hope your sister's having a settled day.",
           "Here's the short version, ask if you want the long one."]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["Rain's battering off the roof again.", "She's having her nap so I've a minute.",
          "Just back in from the messages.", "Cup of tea in one hand, oily rag in the other.",
          "Knees are playing up today."]
