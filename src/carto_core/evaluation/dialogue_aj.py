"""Variant `aj` of the dialogue set: a thirty-fourth check set, written apart from `a` to `ai` by
someone given only the format (its own topics, values, people, places, questions, chit-chat and
replies), kept unseen so that a default chosen on the others can be checked once more on a set
nobody tuned on. The facts are one young woman's, Marisol "Mari" Castañeda, 20, of the south
side of San Antonio, Texas, in the second year of a mortuary science degree at a community
college, who does her clinical hours at funeral homes around the city, plays the vihuela in the
college mariachi and does acrylic nails from her bedroom for cash; she lives with her mother,
who works nights, her abuela, who plays bingo wherever it is cheapest, and her little brother
Gabe, 14, while her older sister Vero is an enlisted sailor in the Navy and her best friend
Yesi keeps changing schools: the funeral home she does her hours at, the song the mariachi is
rehearsing, the nail set her clients book, where Vero is stationed, where her abuela plays
bingo, the class that is beating her this semester, where her mother works nights, what she is
saving up for and where Yesi is studying. She texts the assistant as she texts her friends: all
lower case, no apostrophes ("im", "dont"), no question marks, "u" and "r" and "rn", "ngl",
"lowkey", "fr", "istg", "lmaooo", stretched words ("sooo", "thank uuu"), Spanish words dropped
in ("abuela", "tía", "mija"), and she asks as people ask an assistant to remember ("the
funeral director who drives a pink cadillac, what did she do for me", "where did grandma win
big and keep all the money to herself"), the topic first and the question after a comma ("vero,
where is she at these days"), some as a few words ("where is yesi at now"), from the specific
to the vague, mostly sharing no content word with the message that answers them; some advice
answers name their subject only in the message before them. Sessions run from one exchange to
eight over 420 days; small talk may sit before and after a fact in the same message; rows are
one utterance each, among 5,500 coding events.
"""

from __future__ import annotations

from carto_core.evaluation.topic import Topic

TOPICS: list[Topic] = [
    Topic("mortuaryrotation", ["the Villarreal funeral home on Zarzamora",
                               "Sunset Hills chapel off Culebra",
                               "the Guadalupe mortuary downtown",
                               "the Hillcrest crematory by the airport",
                               "Rosales and Sons in Seguin",
                               "the Memorial Oaks chapel in New Braunfels"],
          ["ok so my clinical rotation got assigned and its {v} lol i start monday at 7am which "
           "is criminal",
           "first time i did a whole dressing and casketing by myself at {v} and the family "
           "hugged me after ngl i cried in the prep room",
           "the director at {v} yelled at me in front of everyone bc i put the wrong name on the "
           "register book like sir that was ur typo"],
          ["where did they put me for my hands on hours for school the one where i gotta be "
           "there at the crack of dawn",
           "which place did the relatives thank me after i got their person ready solo and i "
           "bawled",
           "where did i get screamed at over the sign in book mixup that wasnt even my fault"],
          ["rotation hours are due end of the month and im at like 40 out of 120",
           "my feet hurt sooo bad from standing at visitations all day",
           "people get so weird when i tell them what my major is lmao"],
          ["{old} ran out of spots for students so they moved me to {v} for the rest of the "
           "semester",
           "finally done at {old}!! new semester new place, im at {v} now"],
          ["where am i doing my hours now",
           "the funeral home for school rn, which one"]),
    Topic("mariachisong", ["El Son de la Negra", "Volver Volver", "La Bikina", "Si Nos Dejan",
                           "El Cascabel", "Cielito Lindo"],
          ["maestro ramos picked {v} for the spring showcase and the vihuela part goes sooo fast "
           "my fingers r dead",
           "we played {v} at a quince on saturday and the tías were literally crying and "
           "throwing dollar bills at us",
           "i messed up the intro of {v} at the mass on sunday and the trumpets gave me the look"],
          ["what tune did our director choose for the big concert in april that wrecks my hands",
           "the party where the aunties cried and tossed money, what were we playing",
           "which number did i flub at church while the horn guys stared at me"],
          ["mariachi practice ran till 10 again",
           "my traje needs to be taken in its literally falling off me",
           "bought new strings for the vihuela they were like 30 bucks??"],
          ["we dropped {old} from the set list bc the violins couldnt get it, now its {v}",
           "maestro says enough {old} we start {v} tomorrow"],
          ["the song were practicing at mariachi rn",
           "what r we rehearsing these days"]),
    Topic("nailsets", ["chrome french tips", "3D flower acrylics", "Hello Kitty charm sets",
                       "glazed donut nails", "cow print coffins", "sugar skull nail art"],
          ["everybody and their cousin wants {v} this month i did 6 sets this weekend and made "
           "like 240",
           "my first ever tiktok that went viral was me doing {v} on yesi 40k views im famous",
           "a lady left me 1 star bc her {v} popped off after 3 days like maam u opened a can "
           "with them"],
          ["which design was everyone booking from me that weekend i made bank",
           "the video of mine that blew up online, what was i doing on my best friend",
           "what kind of set was it that customer said broke off and gave me a bad review for"],
          ["my uv lamp is dying i need a new one",
           "acetone smell is in my whole room and abuela is complaining",
           "booked out every saturday till next month"],
          ["nobody asks for {old} anymore, its all {v} now",
           "im over {old} honestly, been pushing {v} and people r booking it"],
          ["what set r my clients asking for these days",
           "nails, whats the popular one right now"]),
    Topic("verostation", ["Naval Station Norfolk", "a destroyer out of San Diego",
                          "the base in Rota, Spain", "Pearl Harbor", "Yokosuka in Japan",
                          "Great Lakes for A school"],
          ["vero finally got her orders and its {v}, mom cried for like an hour then made "
           "tamales about it",
           "vero facetimed from {v} at 3am our time to show us around and abuela thought she "
           "was on tv lol",
           "vero says the food at {v} is so bad she lost 10 pounds, mom is mailing her a box of "
           "hot cheetos"],
          ["where did my sister get sent, the news that made my mom cry and cook",
           "where was my sis video calling from in the middle of the night when grandma got "
           "confused",
           "where is the chow hall so nasty that my big sister is wasting away"],
          ["vero missed christmas again",
           "care package for vero cost $47 to mail istg",
           "vero says the navy haircut rules are so dumb"],
          ["vero left {old} today, new orders, shes going to {v}",
           "no more {old} for vero!! she reports to {v} next month"],
          ["wheres my sister stationed now",
           "vero, where is she at these days"]),
    Topic("abuelabingo", ["the bingo hall on Military Drive", "St. Leo's parish hall",
                          "the senior center on Nogalitos", "the Eagle Pass casino",
                          "the VFW post on Pleasanton Road", "her comadre's carport"],
          ["abuela made me drive her to {v} on tuesday and she won 300 dollars and didnt share a "
           "single peso",
           "abuela got in a fight with a lady at {v} over a lucky seat. shes 78",
           "abuela goes to {v} every thursday now and comes back smelling like cigarettes"],
          ["where did grandma win big and keep all the money to herself",
           "where did my grandmother almost throw hands over a chair",
           "where does my grandma go each week that makes her come home stinking of smoke"],
          ["abuelas dauber collection is getting out of hand",
           "abuela wants me to take her again this week and i have an exam",
           "abuela says the numbers are rigged whenever she loses lol"],
          ["abuela quit {old} bc they raised the price so now its {v}",
           "{old} shut down so abuela and her friends moved to {v}"],
          ["where does abuela play her bingo now",
           "grandmas game night, which place these days"]),
    Topic("hardclass", ["embalming lab", "restorative art", "pathology",
                        "funeral law and ethics", "microbiology", "grief counseling"],
          ["{v} is literally going to be the death of me no pun intended, got a 58 on the "
           "midterm",
           "pulled an all nighter at the library for {v} and fell asleep on my textbook, drooled "
           "on it and everything",
           "the professor for {v} is the only one who actually makes it make sense shes so good"],
          ["which course did i almost fail the midterm in",
           "what was i studying for when i passed out on the book",
           "whose class is it where the teacher explains stuff so i actually get it"],
          ["finals week is in 2 weeks im not ready",
           "my gpa is hanging by a thread fr",
           "study group flaked on me again"],
          ["survived {old}!! new semester and now {v} is the one kicking my butt",
           "{old} is over thank god but {v} is worse"],
          ["which class is the hard one this semester",
           "the subject thats killing me rn"]),
    Topic("momjob", ["the H-E-B warehouse on Walters", "the Toyota truck plant",
                     "the laundry at Baptist hospital", "the Amazon warehouse in Schertz",
                     "the TSA line at the airport", "a call center for Frost Bank"],
          ["mom started nights at {v}, she leaves at 9pm and gets home when im leaving for class",
           "mom got employee of the month at {v}, they gave her a $50 gift card and a pizza lol",
           "mom hurt her back lifting at {v} and they still want her to come in"],
          ["where did my mother pick up that overnight job where we never see each other",
           "where did my mom win that award with the pizza",
           "the place where mom messed up her back, which was it"],
          ["mom is sleeping all day so we have to whisper",
           "mom keeps falling asleep at church",
           "mom says she needs a raise fr"],
          ["mom quit {old}, too many hours, she got hired at {v}",
           "mom left {old} and started at {v} this week, better pay"],
          ["where does my mom work now",
           "moms job these days, where is it"]),
    Topic("savingfor", ["a used Honda Civic", "a trip to Mexico City", "a new vihuela",
                        "a tattoo of grandpa's name", "an apartment deposit",
                        "a real nail desk with the lamp built in"],
          ["ok im officially saving up for {v}, no more starbucks no more shein im serious this "
           "time",
           "i have 612 dollars so far for {v}!! progress",
           "mom says {v} is a waste of money and i should put it in savings. like that IS the "
           "savings mom"],
          ["what am i putting money away for that made me cut out coffee and online shopping",
           "that little pile of 600 bucks, what was it for",
           "the thing my mother thinks is throwing cash away, what was it"],
          ["my paycheck was gone in two days again",
           "i should make a budget spreadsheet or smth",
           "im so broke its not even funny"],
          ["forget {old}, im putting the money toward {v} now",
           "gave up on {old} and now im saving for {v} instead"],
          ["what am i saving up for now",
           "my savings goal, whats it for rn"]),
    Topic("yesischool", ["Texas State in San Marcos", "UTSA", "a cosmetology school in Laredo",
                         "Lackland for basic training", "a dental assistant program in Houston",
                         "UT in Austin"],
          ["yesi got in at {v}!! im so proud of her but whos gonna do my eyebrows now",
           "drove up to see yesi at {v} this weekend and we got lost 3 times and ate at "
           "whataburger twice",
           "yesi is dropping out of {v} and hasnt told her parents yet i am sworn to secrecy"],
          ["where did my best friend get accepted, the one who does my brows",
           "where was i visiting my bestie when we kept getting lost and had burgers twice",
           "which place is my girl quitting that her folks dont know about"],
          ["yesi and i havent talked in a week its weird",
           "yesi sent me a 14 minute voice memo",
           "i miss having yesi down the street"],
          ["yesi transferred out of {old}, shes at {v} now",
           "yesi left {old} and started at {v}, she says its way better"],
          ["where is yesi at now",
           "my best friend, where is she going these days"]),
]

#: (ask, the assistant's answer (the evidence), the later question about the answer)
ADVICE = [
    ("so in the prep lab at school we use formaldehyde based fluid and we wear gloves but my "
     "hands and wrists have been getting red and itchy and bumpy after every lab, like it "
     "starts a few hours after and lasts days, and now its on my neck too?? my instructor "
     "says everybody gets it and to just put lotion on. is that true or should i be worried",
     "Don't just put up with it. What you describe, redness, itching and bumps that start hours "
     "after contact and last for days, then spread to places the fluid never touched, is what "
     "an allergy to that chemical looks like (allergic contact dermatitis), and an allergy like "
     "that usually gets worse with each exposure rather than better. It is also one of the "
     "best-known risks of the job, so it is not something to hide. First, check your gloves: "
     "thin latex or vinyl lets it through. Nitrile gloves of a decent thickness, changed as "
     "soon as they are splashed or torn, with long cuffs or sleeves over the wrists, are the "
     "usual recommendation; wash your hands and arms with plain soap and water after taking "
     "them off, and keep the lab coat out of your backpack and away from your neck. The neck "
     "suggests vapour or touching your skin with contaminated hands, so the ventilation of "
     "the room matters too. In the US, OSHA has a specific standard for it (29 CFR 1910.1048): "
     "the school or funeral home must give you suitable protective equipment, measure the "
     "air, and offer a medical evaluation to anyone with signs of irritation or allergy, so "
     "you can ask for that in writing. See a doctor, the campus health clinic or a "
     "dermatologist, and say exactly what you handle; a patch test can confirm the allergy and "
     "you can get a cream for the flare-ups. If it is confirmed, it does not have to end your "
     "career, but you will need a plan with your program for protection and exposure. And if "
     "you ever feel wheezing, chest tightness or trouble breathing in the lab, leave the room "
     "and get checked that day.",
     "my skin freaking out after the lab with the chemicals, what did u tell me to do"),
    ("my financial aid got flagged for verification and the school wants my moms tax "
     "transcript from the irs but my mom didnt file taxes last year bc she only worked like 3 "
     "months. the deadline is in 2 weeks and if i dont turn it in they wont give me my pell. "
     "what do i even send them",
     "This happens a lot and it can be sorted in two weeks if you start now. Being selected "
     "for verification does not mean you did anything wrong; the school just has to check the "
     "numbers on your form before it pays the grant. When a parent did not file, the school "
     "usually needs proof of that instead of a transcript. The standard proof is the IRS "
     "Verification of Non-filing Letter. Your mom can request it online through the IRS "
     "'Get Transcript' service if she can verify her identity there, or by mailing or faxing "
     "Form 4506-T with the box for non-filing checked; by mail it can take a couple of weeks, "
     "so do it today. Many schools also ask for every W-2 she received for the months she "
     "worked, so look for those too, and a signed statement listing her income and where it "
     "came from. Before you send anything, go to the office in person or call and ask exactly "
     "which documents they accept for a non-filing parent, and whether they will accept the "
     "letter late if you show them you already requested it. Ask for that answer in an email. "
     "Keep copies of everything and write down the name of whoever you talk to. Two other "
     "things: check that what you put on the form about her income matches the W-2s, because "
     "a mismatch means corrections and more waiting, and do not leave the deadline to chance. "
     "If it slips, ask the office whether you can still get the grant later in the term, and "
     "whether they have an emergency loan or payment plan so you are not dropped from classes "
     "in the meantime.",
     "the school money paperwork thing with my mom not doing her taxes, what was the fix"),
    ("found a vape in my little brothers backpack when i was looking for my charger. hes 14. "
     "it was one of those fruity ones. do i tell my mom or talk to him first. i dont want him "
     "to hate me but i also dont want him addicted. mom works nights and is already so "
     "stressed",
     "You are doing the right thing by taking it seriously, and you are probably the person he "
     "will listen to most. Talk to him first, soon, and in private, but don't make it an "
     "ambush. Tell him plainly what you found and how, that you are not trying to get him in "
     "trouble, and that you are worried. Then ask more than you tell: how often he uses it, "
     "where he gets them, whether his friends do, whether he has tried to stop. Most of those "
     "flavoured devices have a lot of nicotine, often as much as a pack of cigarettes or more, "
     "and a brain of fourteen gets hooked faster than an adult's, so if he uses it every day "
     "he may already feel anxious, irritable or unable to concentrate without it; that is "
     "withdrawal, not weakness, and it helps him to hear that. Don't promise to keep it a "
     "secret from your mom. Tell him instead that she needs to know, and offer to tell her "
     "together, on a day she is not coming off a shift, so it is the three of you against the "
     "habit rather than everyone against him. There is free help made for his age: the "
     "'This is Quitting' text program from the Truth Initiative (text DITCHVAPE to 88709) "
     "sends short messages and tips, and his doctor or the school nurse can help too, without "
     "treating him like a criminal. Expect slips; quitting often takes several tries. If you "
     "ever see signs of THC vapes or pills, or he seems low or is changing friends, bring in "
     "an adult you trust straight away.",
     "what did u say about my little bro and the thing i found in his bag"),
    ("so today at my rotation we had a service for a little girl, she was 6, and i helped get "
     "her ready and i held it together the whole time but now its 2am and i cant stop seeing "
     "her face and her moms voice. i keep thinking maybe im not cut out for this. is this "
     "normal or am i too soft for this job",
     "What you are feeling tonight is normal, and it does not mean you are too soft. It means "
     "you did something very hard with care. The deaths of children are the ones that stay "
     "with people in this field the longest, even the ones with thirty years in it, and being "
     "shaken by your first one is a human reaction, not a sign you chose the wrong work. "
     "Caring about families is exactly what makes someone good at it. For tonight: you don't "
     "have to make any decisions about your career at 2am. Try something that settles your "
     "body, a shower, slow breathing with a longer breath out than in, something to eat, a "
     "show you know by heart, and if the images keep coming back, let them come without "
     "fighting them; they usually lose their strength over days. Tomorrow, talk about it with "
     "someone who gets it. Tell your supervising director or your instructor; most experienced "
     "directors have a story like this and will be glad you came to them, and some funeral "
     "homes and schools have an employee assistance program or free counseling for exactly "
     "this. Your college's counseling center is free for students too. Keep the details "
     "private in the way your program requires, but you can share how it made you feel with "
     "friends or family. Watch how it goes over the next two or three weeks: if you are still "
     "not sleeping, are dreading going back, feeling numb or cut off, or drinking to cope, "
     "that is the point to see a counselor rather than wait. If you ever have thoughts of "
     "hurting yourself, call or text 988 any time, day or night.",
     "that service for the little kid that messed me up, what did u tell me"),
]

#: (first hop: who and a detail, second hop: the answer, the question naming the detail,
#: people, details)
HOPS = [
    ("theres a new guy in mariachi {p} he {x} and ngl hes kinda cute",
     "my car wouldnt start after practice and {p} drove me all the way home to the south side "
     "and didnt even make it weird. a gentleman fr",
     "the mariachi guy who {x}, what did he do for me",
     ["Diego Villanueva", "Mateo Saldívar", "Julián Treviño", "Andrés Cantú",
      "Ismael Olivarez"],
     ["plays the guitarrón", "works at a tire shop", "has his moms name tattooed on his arm",
      "is from Monterrey", "does the super high grito"]),
    ("the new director at my rotation is {p}, she {x} and she does not play",
     "{p} wrote me a recommendation for the memorial scholarship and i GOT IT 1500 dollars "
     "omg",
     "the funeral director who {x}, what did she do for me",
     ["Ms. Delia Garza", "Mrs. Rosalinda Peña", "Ms. Consuelo Ybarra", "Mrs. Norma Zamora",
      "Ms. Graciela Lozano"],
     ["has been doing this for 35 years", "drives a pink cadillac",
      "used to be an army nurse", "keeps a parrot in her office",
      "does the makeup for every service herself"]),
    ("abuela has a new friend from church {p}, he {x} and he calls her mi reina",
     "{p} came over and fixed our ac for free when it went out in july, abuela is convinced "
     "hes her boyfriend now lmaooo",
     "abuelas church friend who {x}, what did he fix",
     ["Don Refugio Salinas", "Don Eusebio Cárdenas", "Don Aurelio Montemayor",
      "Don Chuy Elizondo", "Don Tomás Benavides"],
     ["was a mechanic at Kelly Field", "rides a three wheel bike everywhere",
      "grows huge tomatoes in his yard", "sings in the choir", "has eleven grandkids"]),
]

#: (theme, evidence lines, the open question)
OPEN = [
    ("fiesta", ["went to night in old san antonio with the girls and ate like 4 chicken on a "
                "stick",
                "got 12 medals trading with strangers at fiesta my lanyard weighs a ton",
                "we watched the battle of flowers parade from lawn chairs since 6am and abuela "
                "brought a whole cooler",
                "got cascarones cracked on my head so many times theres still confetti in my "
                "hair"],
     "fiesta this year, what all did i get up to"),
    ("muertos", ["set up the ofrenda for grandpa with his red coffee can and his cigarettes and "
                 "a pic of him at the flea market",
                 "painted my face like a catrina for the procession downtown and a lady asked "
                 "to take a pic with me",
                 "abuela made pan de muerto and burned the first batch so we ate it anyway",
                 "at the cemetery we cleaned grandpas grave and i played his favorite corrido "
                 "for him"],
     "everything i told u about day of the dead and my grandpa"),
    ("major", ["my tía asked at thanksgiving in front of everybody if i touch dead people",
               "i picked this major bc of how the funeral people treated us when grandpa died",
               "a guy on hinge unmatched me the second i told him what i study lmaooo",
               "my counselor in high school kept saying i should do nursing instead"],
     "what have i said about people being weird about what i study and why i chose it"),
]

CHAT = ["give me a caption for a gym selfie thats not cringe",
        "how many calories r in a pork tamale",
        "is it bad to sleep in ur acrylics",
        "rewrite this email to my professor so i sound professional",
        "how do u spell guarantee",
        "whats the weather gonna be like saturday",
        "make me a study schedule for 4 exams in one week",
        "what rhymes with corazon",
        "thank uuu",
        "r u there",
        "whats a cute name for a chihuahua",
        "how long do u boil eggs for deviled eggs"]
REPLIES = ["Here you go, Mari:",
           "Sure thing, quick answer:",
           "Got it, here's the short version:",
           "Of course! Here it is:",
           "Okay, this is what I'd say:"]
#: Small talk around a fact (before it, and sometimes after it, in the person's message).
FILLER = ["omg hi sorry i disappeared",
          "typing this in the parking lot before class",
          "lol ok so",
          "ugh my phone is on 3%",
          "abuela is yelling at me to take out the trash brb"]
