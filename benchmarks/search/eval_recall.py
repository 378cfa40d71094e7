"""The recall table of docs/ranking.md: analyzers x decay x fusion x embedder on every set.

Sets (generated, deterministic, with one fixed clock):

- `year`: a generated year of coding work (20,000 events, seed 11): known-item cases per age
  bucket (the harness of `carto eval`, queries sampled with upstream's tokens, as wave 1 did)
  and recency cases;
- `dlg-a`: dialogues variant a (one row per utterance) x 3 seeds among 6,000 coding events;
- `dlg-b`: dialogues variant b (carto turn rows, other phrasings) x 3 seeds, no coding work;
- `dlg-c`: dialogues variant c (written apart: other topics, lengths and session layouts) x 3
  seeds among 2,000 coding events: the check that defaults chosen on a and b hold;
- `dlg-d`: dialogues variant d (written apart again: other topics, questions that mostly share
  no word with their answer, one row per utterance, mid-length sessions) x 3 seeds among 4,000
  coding events: the second check set;
- `dlg-e`: dialogues variant e (written apart a third time: everyday topics of work, family,
  health, money, home and travel, questions from specific to vague, one row per utterance,
  sessions of one to nine exchanges over 360 days) x 3 seeds among 3,000 coding events: the
  third check set;
- `dlg-f`: dialogues variant f (written apart a fourth time: topics the others leave alone, a
  club, Lent, neighbours, the dog, the car, committees, friends' news, study and faith,
  questions from specific to vague, one row per utterance, sessions of one to seven exchanges
  over 330 days) x 3 seeds among 2,500 coding events: the fourth check set;
- `dlg-g`: dialogues variant g (written apart a fifth time: one person's side job, elderly
  father, teenage daughter's options, online returns, small pets, metal detecting, tattoos,
  dentist and dating, questions from specific to vague, one row per utterance, sessions of
  one to eight exchanges over 380 days) x 3 seeds among 3,500 coding events: the fifth check
  set;
- `dlg-h`: dialogues variant h (written apart a sixth time: a newly retired woman's panto
  part, pub quiz team, grandson's classes, energy supplier, dance lessons, hair colour,
  birdwatching, family tree and charity challenge, questions from specific to vague, one row
  per utterance, sessions of one to six exchanges over 350 days) x 3 seeds among 3,000 coding
  events: the sixth check set;
- `dlg-i`: dialogues variant i (written apart a seventh time: a long-distance lorry driver's
  regular run, racing pigeons, best lift and strongman competitions, transport café, his son's
  craze, where he and his ex hand the boy over, cab kit and eyesight, questions from specific
  to vague, one row per utterance, sessions of one to nine exchanges over 340 days) x 3 seeds
  among 2,800 coding events: the seventh check set;
- `dlg-j`: dialogues variant j (written apart an eighth time: a school caretaker and amateur
  astronomer's telescope, the object he photographs, his dark-sky spot, the repair job at
  school, his astronomy society talk, the lodger, his homebrew, who hires the school hall and
  what's in his flask, questions from specific to vague, one row per utterance, sessions of one
  to ten exchanges over 370 days) x 3 seeds among 3,200 coding events: the eighth check set;
- `dlg-k`: dialogues variant k (written apart a ninth time: a hospital night-shift
  radiographer's post on the rota, her night-shift partner, her car, what helps her sleep in
  the day, where her hives stand, what ails them, where she sells her honey, how she learns
  Welsh and what her choir is rehearsing, questions from specific to vague, one row per
  utterance, sessions of one to eight exchanges over 390 days) x 3 seeds among 2,600 coding
  events: the ninth check set;
- `dlg-l`: dialogues variant l (written apart a tenth time: a retired merchant-navy engineer's
  motorbike on the bench, his workshop, the help his sister gets and what she uses to get
  about, his job at the food bank and what it has run short of, the old steamer he volunteers
  on, the bike rally he's going to and his hearing, questions from specific to vague, one row
  per utterance, sessions of one to seven exchanges over 375 days) x 3 seeds among 2,700
  coding events: the tenth check set;
- `dlg-m`: dialogues variant m (written apart an eleventh time: a young software tester in
  Leeds, her five-a-side team, the kittens she fosters, the flat she and her girlfriend are
  trying to buy and what they've given up to save for it, what she tests at work and the exam
  she studies for, her girlfriend's job, her D&D character and her nan's gadget, questions
  from specific to vague, one row per utterance, sessions of one to six exchanges over 365
  days) x 3 seeds among 2,900 coding events: the eleventh check set;
- `dlg-n`: dialogues variant n (written apart a twelfth time: a tree surgeon in Norwich from
  Sligo, the job her crew is on and who works the ground for her, where her dawn sea-swimming
  group meets, the fiddle tune she learns for a pub session, the car her son learns to drive
  in, her shoulder physio, the latest machine for her firm, her partner's covers band and what
  she carves from offcuts, questions from specific to vague, one row per utterance, sessions
  of one to seven exchanges over 355 days) x 3 seeds among 3,100 coding events: the twelfth
  check set;
- `dlg-o`: dialogues variant o (written apart a thirteenth time: a Manchester bus driver, the
  route he is rostered on, the piece his brass band rehearses and the part he plays in it,
  where the under-12s netball team he coaches trains and his daughter's position, his Open
  University history essay, his son's job, the family's summer holiday and what keeps him off
  cigarettes, questions from specific to vague, one row per utterance, sessions of one to
  eight exchanges over 345 days) x 3 seeds among 3,300 coding events: the thirteenth check
  set;
- `dlg-p`: dialogues variant p (written apart a fourteenth time: a York wedding photographer,
  the venue of the wedding she is booked for, the camera she shoots on, her full-day price, her
  role in the roller derby team, the stained glass piece she is making, where her father goes
  in the daytime since he moved in and what he watches, what she does for her bad knee and
  what her wife is building in the garden, questions from specific to vague, one row per
  utterance, sessions of one to seven exchanges over 360 days) x 3 seeds among 3,400 coding
  events: the fourteenth check set;
- `dlg-q`: dialogues variant q (written apart a fifteenth time: a sign language interpreter
  who lives on a narrowboat in Wiltshire, where the boat is moored, her regular interpreting
  booking, her bridge partner, the job being done on the boat, the roses and castles piece she
  is painting, what she burns in the stove, her blood pressure tablet, her daughter's work in
  Melbourne and what she makes from the hedgerows, questions from specific to vague, one row
  per utterance, sessions of one to eight exchanges over 370 days) x 3 seeds among 3,600
  coding events: the fifteenth check set;
- `dlg-r`: dialogues variant r (written apart a sixteenth time: a young sous chef in Glasgow
  who boulders, is learning Mandarin for his girlfriend's family and walks dogs at a rescue,
  the kitchen section he runs, the problem he is trying at the wall, how he is learning the
  language, the shelter dog he walks, the dish he is practising for her parents, his go-to
  knife, what is hurting, how he gets to work and what his younger brother is doing, questions
  from specific to vague, one row per utterance, sessions of one to nine exchanges over 350
  days) x 3 seeds among 3,700 coding events: the sixteenth check set;
- `dlg-s`: dialogues variant s (written apart a seventeenth time: a retired deli worker in
  Cork who rows in a coastal crew, learns the button accordion and minds her grandchildren,
  the race her crew trains for, what her granddaughter does after school, the tune she is
  learning, where the family's holiday caravan is, her husband's latest hobby, the Camino route
  she is planning, what she is knitting, what she has given up for her blood sugar and where
  her sister in America lives, questions from specific to vague, one row per utterance,
  sessions of one to eight exchanges over 360 days) x 3 seeds among 3,800 coding events: the
  seventeenth check set;
- `dlg-t`: dialogues variant t (written apart an eighteenth time: a young night-shift paramedic
  in Leicester who is learning to skateboard, keeps a reef aquarium and is planning her
  wedding, the ambulance station she is based at, the trick she is learning, the newest
  creature in the tank, what has gone wrong with the tank, where the reception is, who is doing
  the wedding food, where her hen weekend is, the course she is doing through work and where
  the honeymoon is, questions from specific to vague, one row per utterance, sessions of one
  to eight exchanges over 365 days) x 3 seeds among 3,900 coding events: the eighteenth check
  set;
- `dlg-u`: dialogues variant u (written apart a nineteenth time: a power line technician in
  Thunder Bay who curls, builds a cedar-strip canoe, ice fishes and smokes meat and fish, with
  a daughter choosing a university and a son in minor hockey, the town his crew is sent to on
  storm restoration, the bonspiel his rink is in, how far along the canoe is, what is wrong
  with his pickup, where his daughter wants to study, where the ice shack sits, the job being
  done on the house, his son's hockey team and what is on the smoker, questions from specific
  to vague, one row per utterance, sessions of one to seven exchanges over 355 days) x 3 seeds
  among 4,000 coding events: the nineteenth check set;
- `dlg-v`: dialogues variant v (written apart a twentieth time: a large-animal vet in Central
  Hawke's Bay, New Zealand, on a lifestyle block with her shearing-contractor partner, their
  baby daughter and his teenage son every other week, who trains a young heading dog for the
  dog trials, plays social touch and goes deer stalking with her father, the station where she
  does the herd work, what she is teaching the dog, her touch team, where they hunt, what her
  stepson is into, who minds the baby on her on-call days, the job on the block, her father's
  operation and the clinic she works out of, questions from specific to vague, one row per
  utterance, sessions of one to eight exchanges over 370 days) x 3 seeds among 4,100 coding
  events: the twentieth check set;
- `dlg-w`: dialogues variant w (written apart a twenty-first time: a pharmacist in Durban,
  South Africa, who owns a small independent pharmacy, paddles a surf-ski, grows bonsai and
  cooks the family's Sunday lunch, married to a school principal, with a daughter at medical
  school in Cape Town, a son finding his feet after school and his elderly mother staying with
  one child after another, the event he is training for, the tree on his bench, his daughter's
  block at medical school, where his son works, the job on the house, the dish he is
  perfecting, where his mother is staying, the anniversary trip and what the pharmacy cannot
  get, questions from specific to vague, one row per utterance, sessions of one to eight
  exchanges over 365 days) x 3 seeds among 4,200 coding events: the twenty-first check set;
- `dlg-x`: dialogues variant x (written apart a twenty-second time: a civil engineer in
  Mandaue City, Cebu, in the Philippines, who supervises road and drainage works for the
  city, freedives on weekends, plays in a barangay volleyball league, strums a ukulele and
  sells home baking through her own page, with her husband at sea on nine-month contracts,
  a teenage daughter, a young son, her mother-in-law at home and a younger brother trying to
  get work abroad, the freediving course she is on, what sells best on her page, the site
  she is assigned to, the ship her husband is on, what her daughter does at school, the pet
  her son keeps, the job abroad her brother is going for, the song she is learning and her
  position in the league, questions from specific to vague, one row per utterance, sessions
  of one to eight exchanges over 375 days) x 3 seeds among 4,300 coding events: the
  twenty-second check set;
- `dlg-y`: dialogues variant y (written apart a twenty-third time: a chemistry teacher at a
  public school in Valdivia, in southern Chile, who runs mountain trail races, throws pots at
  an evening ceramics workshop and plays charango in a folk group, married to a midwife, with
  a son in his last year of school, a young daughter and his widowed father living alone in
  another town, the race he is training for, what is on his potter's wheel, the song the
  group is rehearsing, what his son wants to study, his daughter's sport, where his wife
  works, what heats the house, who looks in on his father and the extra duty he has at
  school, questions from specific to vague, one row per utterance, sessions of one to eight
  exchanges over 360 days) x 3 seeds among 4,400 coding events: the twenty-third check set;
- `dlg-z`: dialogues variant z (written apart a twenty-fourth time: a newsreader and presenter
  at the state radio station in Enugu, in south-east Nigeria, who plays tournament Scrabble,
  is learning the saxophone from a retired highlife bandleader and keeps catfish ponds behind
  the house as a side business, married to a university lecturer whose university is on
  strike, with a daughter on her youth service year far from home, a son finishing primary
  school and a house going up in her husband's hometown, the programme she presents, the
  tournament she is preparing for, who buys her catfish, the tune she is learning, where her
  daughter is serving, which secondary school her son is going to, how far the village house
  has gone, what her husband does for money during the strike and the savings group she pays
  into, questions from specific to vague, one row per utterance, sessions of one to eight
  exchanges over 365 days) x 3 seeds among 4,500 coding events: the twenty-fourth check set;
- `dlg-aa`: dialogues variant aa (written apart a twenty-fifth time, the first variant named by
  two letters: an instrument technician at a fertiliser and methanol plant in Point Lisas, in
  central Trinidad, who plays tenor pan in a steelband, enters his seed finches in Sunday
  bird-singing competitions and grows food on his late father's land in the hills, married to
  a court clerk, with a son sitting his school-leaving exams, a young daughter, his mother
  living with them and a sister in Brooklyn who sends barrels home, the tune the band is
  playing for Panorama, the bird he competes with, the unit he is posted to at the plant, what
  his son wants to do after school, what his daughter is playing in the children's carnival,
  where he buys his breakfast, what is growing on the land, which court his wife works at and
  the big item in his sister's latest barrel, questions from specific to vague, one row per
  utterance, sessions of one to seven exchanges over 370 days) x 3 seeds among 4,600 coding
  events: the twenty-fifth check set;
- `dlg-ab`: dialogues variant ab (written apart a twenty-sixth time: a conservation architect
  at a small practice in George Town, on Penang Island in Malaysia, who restores pre-war
  shophouses, paddles in a dragon boat team, plays social badminton doubles and chases the
  best durian every season, married to a hawker who fries noodles at his late father's stall,
  with a young daughter, a teenage son, her mother-in-law living with them and a brother gone
  to work in Singapore, the building she is restoring, where she sits in the dragon boat, her
  badminton partner, her daughter's weekend class, where her husband's stall is, what her
  mother-in-law does in the mornings, where the family holds its New Year reunion dinner, her
  brother's job across the causeway and her durian of the season, questions from specific to
  vague, one row per utterance, sessions of one to eight exchanges over 380 days) x 3 seeds
  among 4,700 coding events: the twenty-sixth check set;
- `dlg-ac`: dialogues variant ac (written apart a twenty-seventh time: a locomotive driver
  with Pakistan Railways who drives expresses out of Lahore Junction, umpires club cricket on
  Sundays, plays carrom at the mohalla club and keeps a garden of pots on his roof, married to
  an Urdu lecturer at a government women's college, with a daughter doing her house job as a
  young doctor, a son preparing for the medical entry test and his mother living with them,
  the train he is rostered on, the ground where he umpires, what is growing on the roof, his
  daughter's hospital ward, his son's tuition academy, where his mother spends her afternoons,
  the college his wife is posted to, the family's car and the animal bought for Eid ul Adha,
  questions from specific to vague, one row per utterance, sessions of one to seven exchanges
  over 385 days) x 3 seeds among 4,800 coding events: the twenty-seventh check set;
- `dlg-ad`: dialogues variant ad (written apart a twenty-eighth time: a deckhand on the car
  ferries of Nordland in Norway, living in Bodø, who goes ski touring, runs orienteering with a
  club and is doing up her father's old wooden boat to jig for cod before her shifts,
  with a partner who works offshore on rotations, a daughter in the school band, a young son
  who plays football and her father, a retired fisherman, getting too old to live alone, the
  crossing she crews, the summit she is aiming to ski, the job on the boat, where she fishes,
  the orienteering race she is entered in, the installation her partner flies out to, her
  daughter's instrument, her son's team and where her father lives, questions from specific
  to vague, one row per utterance, sessions of one to eight exchanges over 390 days) x 3 seeds
  among 4,900 coding events: the twenty-eighth check set;
- `dlg-ae`: dialogues variant ae (written apart a twenty-ninth time: a welder at a shipyard on
  the Inland Sea in Japan, living in Onomichi, who practises kyudo (Japanese archery) at the
  municipal dojo, rides the island bridges with a cycling group, sings enka in a neighbourhood
  karaoke contest and keeps a small plot on the hillside, with a husband who drives a taxi on
  nights, a son whose company moves him around the country, a daughter who has opened a hair
  salon in Fukuoka and a stray cat that has moved in, the ship she is welding, the archery
  grade she is going for, the long ride she has entered, her contest song, the cab her husband
  drives, where her son is posted, where her daughter's salon is, what the cat is called and
  what is growing on her plot, questions from specific to vague, one row per utterance,
  sessions of one to eight exchanges over 395 days) x 3 seeds among 5,000 coding events: the
  twenty-ninth check set;
- `dlg-af`: dialogues variant af (written apart a thirtieth time: a driver-guide in Mongolia,
  living in a ger district on the edge of Ulaanbaatar, who takes foreign tourists across the
  country in an old Russian van in summer, shoots knucklebones (shagai) for a team at a hall
  behind the market and is learning the old vertical script with a brush, with a wife who
  keeps a stall at the Narantuul market, a daughter sitting the university entrance exam, his
  widowed mother living in a ger in their yard, a brother herding in Arkhangai and a nephew who
  rides the family's horses in the races, the tour he is leading, the guests he is driving,
  where his brother's camp stands, the horse his nephew rides, the team he shoots for, the text
  he is copying, what his wife sells, what his daughter means to study and what his mother is
  trying for her knees, questions from specific to vague, one row per utterance, sessions of
  one to seven exchanges over 400 days) x 3 seeds among 5,100 coding events: the thirtieth
  check set;
- `dlg-ag`: dialogues variant ag (written apart a thirty-first time: an air traffic controller
  at Bole airport in Ethiopia, living in a condominium block on the eastern edge of Addis
  Ababa, who plays chess at a club in Arat Kilo, is learning the masinqo (the one-stringed
  fiddle) from an old azmari in Piassa and saves with colleagues in an equb (a rotating savings
  circle), divorced, raising her late sister's twin daughters, with a younger brother running
  at a training camp in Sululta, an unmarried aunt in Debre Markos who goes on pilgrimages and
  a tenant in the studio flat she started out in, the position she works at the airport, the
  twins' school, what the twins do at weekends, the race her brother is preparing for, the tune
  she is learning, what her equb payout is for, the chess opening she is studying, where her
  aunt is going to pray and who rents the studio, questions from specific to vague, one row per
  utterance, sessions of one to seven exchanges over 405 days) x 3 seeds among 5,200 coding
  events: the thirty-first check set;
- `dlg-ah`: dialogues variant ah (written apart a thirty-second time: a dentist in the public
  health service in Belém do Pará in Brazil, living in the Guamá neighbourhood, who dances
  carimbó in a folk group and is learning to throw marajoara-style pots at a workshop in
  Icoaraci, writing long run-on messages with Portuguese mixed in, with a husband who repairs
  boat engines, a son who plays football, a young daughter, a mother who sells tacacá from a
  street stall, a brother who works away on rotations, a grandmother getting too frail to live
  alone on Marajó island and a mother-in-law with an opinion on everything, where she is
  posted, what is on her pottery wheel, where the folk group dances next, the team her son
  plays for, where her mother's stall stands, where her brother works, where her grandmother
  lives, where the family goes in the July holidays and what her daughter does after school,
  questions from specific to vague, one row per utterance, sessions of one to eight exchanges
  over 410 days) x 3 seeds among 5,300 coding events: the thirty-second check set;
- `dlg-ai`: dialogues variant ai (written apart a thirty-third time: a retired Cretan man in
  a village of Apokoronas near Chania, back home after thirty years running a fish and chip
  shop in Melbourne, who picks the family olives, chants as the cantor in church on Sundays,
  plays backgammon at the village kafeneio and is restoring his grandfather's stone house,
  dictating every message into his phone in Greek-Australian English with no punctuation,
  with a wife who cooks for the village women's cooperative and lets the rooms upstairs, a son
  with a souvlaki van in Melbourne, a daughter sent to a different school every year as a
  substitute teacher, a stubborn brother in the upper village and an Australian pension lost
  between offices, where his olives are pressed, the church he chants at, the kafeneio he sits
  at, where his daughter teaches, the job on the stone house, who rents upstairs, which office
  has his pension papers, where his son's van parks and what his wife makes for the
  cooperative, questions from specific to vague, one row per utterance, sessions of one to
  seven exchanges over 415 days) x 3 seeds among 5,400 coding events: the thirty-third check
  set;
- `dlg-aj`: dialogues variant aj (written apart a thirty-fourth time: a young woman of 20 on
  the south side of San Antonio, Texas, in the second year of a mortuary science degree at a
  community college, who does her clinical hours at funeral homes around the city, plays the
  vihuela in the college mariachi and does acrylic nails from her bedroom for cash, texting
  the assistant in lower case with no apostrophes or question marks, "u", "rn", "ngl" and
  Spanish words dropped in, with a mother who works nights, an abuela who plays bingo wherever
  it is cheapest, a little brother of 14, an older sister enlisted in the Navy and a best
  friend who keeps changing schools, the funeral home she does her hours at, the song the
  mariachi is rehearsing, the nail set her clients book, where her sister is stationed, where
  her abuela plays bingo, the class that is beating her this semester, where her mother works
  nights, what she is saving up for and where her best friend studies, questions from
  specific to vague, one row per utterance, sessions of one to eight exchanges over 420 days)
  x 3 seeds among 5,500 coding events: the thirty-fourth check set;
- `dlg-ak`: dialogues variant ak (written apart a thirty-fifth time: a Finnish woman of 57 who
  keeps about seventy Finnsheep ewes on a small farm by the lake Haukivesi near Rantasalmi, in
  South Savo, runs a summer café in the old village dairy and plays the kantele at the civic
  college's evening course, writing to the assistant in a slightly formal English that is not
  her own, with the odd Finnish word, in long messages that tell two things at once, with a
  husband who takes winter work, a daughter who nurses wherever the work is and a mother of 86
  losing her memory, what sells best in the café, where the breeding ram came from, where the
  fleeces are spun, where the flock grazes in summer, where her daughter is nursing, what her
  husband does in the winter, where her mother lives, the piece she is learning on the kantele
  and who helps her in the café, questions by paraphrase from specific to vague, one row per
  utterance, sessions of one to eight exchanges over 425 days) x 3 seeds among 5,600 coding
  events: the thirty-fifth check set;
- `dlg-al`: dialogues variant al (written apart a thirty-sixth time: a woman of 36 born in
  Porto and living in a triplex in Rosemont, Montréal, the production stage manager of a
  contemporary circus company that tours for months at a time, who calls every cue from the
  prompt desk and chases rare contacts on the amateur radio bands from an aerial on her roof,
  writing to the assistant in terse notes full of abbreviations and the trade's shorthand,
  with the odd Portuguese word, with a partner who is a luthier working in the basement, a
  father in Porto living with Parkinson's disease and a brother who fishes out of Póvoa de
  Varzim, where the show is playing, which act closes the first half, the aerial she transmits
  on, the rarest station in her log, what is on her partner's bench, who looks in on her
  father, what her brother's boat is fishing for, who her assistant stage manager is and what
  she cooks for the crew on a day off, questions by paraphrase from specific to vague, one row
  per utterance, sessions of one to eight exchanges over 430 days) x 3 seeds among 5,700
  coding events: the thirty-sixth check set;
- `dlg-am`: dialogues variant am (written apart a thirty-seventh time: a retired Georgian
  professor of hydraulic engineering of 72, a widower in an old house with a carved wooden
  balcony in the Sololaki quarter of Tbilisi, who makes wine in clay jars buried in the cellar
  of his late wife's family house in a Kakhetian village, sings the bass in an ensemble of old
  men who keep the polyphonic songs, translates the Georgian poets into English and is still
  called by the ministry to look at dams and rivers, writing to the assistant in long,
  digressive, courteous messages with a remembrance of his wife on the way to the point, with
  a daughter who is a diplomat sent from post to post, a son nearby and a grandson of ten who
  comes on Sundays, what is in the jar this year, which poem he is translating, where his
  daughter is posted, the route of the morning walk his cardiologist ordered, the works he is
  consulting on, what the ensemble is rehearsing, where his old classmates go on their autumn
  trip, the job on the house and what he teaches his grandson, questions by paraphrase from
  specific to vague, one row per utterance, sessions of one to eight exchanges over 435 days)
  x 3 seeds among 5,800 coding events: the thirty-seventh check set;
- `dlg-an`: dialogues variant an (written apart a thirty-eighth time, after the learned order
  was fitted: a rural post carrier of 54 in Tras-os-Montes who breeds singing canaries, sings
  alto in the parish choir and cures olives, writing in short English with small slips and
  Portuguese words, sessions over 440 days) x 3 seeds among 5,900 coding events;
- `dlg-ao`: dialogues variant ao (written apart a thirty-ninth time, the same round: a
  veterinary assistant of 24 in Dar es Salaam who swims in the sea with a club, writing short
  lowercase messages with two pieces of news in one and Swahili words, sessions over 445 days)
  x 3 seeds among 6,000 coding events.
  dlg-e, dlg-f, dlg-g, dlg-h, dlg-i, dlg-j, dlg-k, dlg-l, dlg-m, dlg-n, dlg-o, dlg-p, dlg-q,
  dlg-r, dlg-s, dlg-t, dlg-u, dlg-v, dlg-w, dlg-x, dlg-y, dlg-z, dlg-aa, dlg-ab, dlg-ac, dlg-ad,
  dlg-ae, dlg-af, dlg-ag, dlg-ah, dlg-ai, dlg-aj, dlg-ak, dlg-al, dlg-am, dlg-an and dlg-ao are built with the
  others but not in the default --sets: they stay unseen until a default chosen on the other
  sets is checked on them.
- `pair-1`, `pair-2`, `pair-3`: chats between two people over about fourteen months (24
  sessions, 420-480 turns), written by hand apart from the ranking and from one another,
  asked about in the third person as LoCoMo asks ("When did Tomasz finish the roof?"; single
  facts, several evidence turns, when things happened, how things are now, inferences), the
  questions in other words than the turns use; one row per turn, "Speaker: text", among 4,000
  coding events (`evaluation/pairs.py`, the chats in `pair_sets/`); `pair-2d` asks pair-2's
  chat again in the plain words of its turns, as LoCoMo's annotators did. `pair-N-bare` stores
  the same chat without the speakers' names. `pair-4` (a paramedic and a marine engineer,
  written apart after the others) was first run to check one step (docs/ranking.md); its
  cases are not read; `pair-5` and `pair-6` (written apart, committed unseen) were first run
  to check the next step, their cases not read either; `pair-7` and `pair-8` (written apart,
  committed unseen) were first run as a check, their cases not read; `pair-9` and `pair-10`
  (written apart, committed unseen) were first run as a check, their cases not read; `pair-11`,
  `pair-12` and `pair-13` (written apart after the learned order was fitted) were first run to
  check it, and `pair-14`, `pair-15` and `pair-16` (written apart after those were run) to check
  it again; `pair-17`, `pair-18` and `pair-19` (written apart after the trees were fitted again
  on every family up to pair-16) to check those. Not in the default --sets.

Usage (repository root):

    .venv/bin/python benchmarks/search/eval_recall.py --out /tmp/recall-eval
    .venv/bin/python benchmarks/search/eval_recall.py --analyzers english --decays gated-prior \\
        --fusions rrf-prior --embedders none,wordllama

Each (analyzer, embedder) builds the home's indexes once (the semantic step is `carto index`'s);
every (rankers, fusion, decay) then runs on the same cases. Results: one JSON row per
configuration on stdout and in <out>/results.json; `--render A.json B.json ...` prints
docs/ranking.md's three tables (summary, year, dialogues per category) from such files
without running anything (the grid and the upstream row are two runs, two files).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def build_sets(out: Path) -> dict:
    from carto_core.evaluation import agecurve
    from carto_core.evaluation.dialogues import BACKGROUND, dialogue_home
    from carto_core.evaluation.generate import generate_home
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine

    sets = {}
    year = out / "year"
    if not (year / "cases.jsonl").exists():
        generate_home(year, 20000, seed=11, now=NOW)
        engine = SearchEngine(Home(year), persist=False, analyzer="upstream")
        cases, _ = agecurve.build_cases(engine, now=NOW, per_bucket=50, recency=30, seed=11)
        agecurve.write_cases(year / "cases.jsonl", cases)
    sets["year"] = [year]
    for variant in BACKGROUND:
        # one person per home: a seed's facts never answer another's
        sets[f"dlg-{variant}"] = [dialogue_home(out / f"dlg-{variant}-{seed}", variant=variant,
                                                seed=seed, now=NOW) for seed in (1, 2, 3)]
    return sets


def build_weakness_sets(out: Path, names: list[str]) -> dict:
    """The weakness packs asked for (`evaluation.weakness`), two seeds each."""
    from carto_core.evaluation.weakness import PACKS, weakness_home

    return {name: [weakness_home(out / f"{name}-{seed}", pack=name, seed=seed, now=NOW)
                   for seed in (1, 2)] for name in names if name in PACKS}


def build_pair_sets(out: Path, names: list[str]) -> dict:
    """The two-person chats asked for (`evaluation.pairs`): `pair-N` with rows that name who
    spoke ("Adaeze: ..."), `pair-N-bare` with the text alone."""
    from carto_core.evaluation.pairs import PAIR_SETS, pair_home, read_chat

    folder = Path(__file__).resolve().parent / "pair_sets"
    sets = {}
    for name in names:
        base, bare = (name[:-5], True) if name.endswith("-bare") else (name, False)
        if base in PAIR_SETS:
            sets[name] = [pair_home(out / name, read_chat(folder, base), now=NOW, bare=bare)]
    return sets


def summarize(set_name: str, report, outcomes=()) -> dict:
    cells = {}
    if report.buckets or report.recency.get("n"):
        cells = {name: b["success@10"] for name, b in report.buckets.items()}
        cells.update({f"{name} s@1": b["success@1"] for name, b in report.buckets.items()})
        cells["recency s@10"] = report.recency.get("kept_in_top10")
        cells["recency s@1"] = report.recency.get("success@1")
        rec = [o for o in outcomes if o.case.kind == "recency"]
        if rec:
            cells["recency s@5"] = round(sum(1 for o in rec if o.rank and o.rank <= 5) / len(rec), 3)
            cells["recency mrr"] = round(sum(1 / o.rank for o in rec if o.rank) / len(rec), 3)
    cells.update({f"{cat} {metric}": values[metric] for cat, values in report.conversational.items()
                  for metric in ("hit@1", "hit@5", "hit@10", "recall@10", "mrr")})
    return cells


_EMBEDDERS = {"none": 0, "lsa": 1, "wordllama": 2}
_DECAYS = {"none": 0, "exp": 1, "gated-exp": 2, "gated-prior": 3}
_DIALOGUES = ("dlg-a", "dlg-b", "dlg-c", "dlg-d", "dlg-e", "dlg-f", "dlg-g",
              "dlg-h", "dlg-i", "dlg-j", "dlg-k", "dlg-l", "dlg-m", "dlg-n", "dlg-o",
              "dlg-p", "dlg-q", "dlg-r", "dlg-s", "dlg-t", "dlg-u",
              "dlg-v", "dlg-w", "dlg-x", "dlg-y", "dlg-z", "dlg-aa", "dlg-ab",
              "dlg-ac", "dlg-ad", "dlg-ae", "dlg-af", "dlg-ag", "dlg-ah",
              "dlg-ai", "dlg-aj", "dlg-ak", "dlg-al", "dlg-am",
              "dlg-an", "dlg-ao")
_BUCKETS = ("<7d", "7-30d", "30-90d", "90d+")


def render(rows: list[dict]) -> str:
    """docs/ranking.md's tables from result rows (the default and wave 1's rows labelled)."""
    def f(x) -> str:
        return "-" if x is None else f"{x:.2f}"

    by = {(r["set"], r["analyzer"], r["embedder"], r["fusion"], r["decay"]): r for r in rows}
    configs = sorted({k[1:] for k in by}, key=lambda c: (c[0] != "upstream", _EMBEDDERS.get(c[1], 9),
                                                        c[2], _DECAYS.get(c[3], 9)))

    def label(c) -> list[str]:
        if c == ("upstream", "none", "rrf", "gated-exp"):
            return [*c[:3], "gated-exp (wave 1's default)"]
        if c == ("english", "wordllama", "rrf-prior", "gated-prior"):
            return ["**english**", "**wordllama**", "**rrf-prior**", "**gated-prior** (default)"]
        return list(c)

    def pair(d, a, b) -> str:
        return f"{f(d.get(a))} / {f(d.get(b))}"

    out = ["| analyzer | embedder | fusion | decay | known-item s@10 <7d / 7-30d / 30-90d / 90d+ "
           "| recency s@10 / s@1 | dlg-a h@1 / h@10 | dlg-b h@1 / h@10 | dlg-c h@1 / h@10 "
           "| dlg-d h@1 / h@10 | dlg-e h@1 / h@10 | dlg-f h@1 / h@10 | dlg-g h@1 / h@10 "
           "| dlg-h h@1 / h@10 | dlg-i h@1 / h@10 | dlg-j h@1 / h@10 | dlg-k h@1 / h@10 "
           "| dlg-l h@1 / h@10 | dlg-m h@1 / h@10 | dlg-n h@1 / h@10 | dlg-o h@1 / h@10 "
           "| dlg-p h@1 / h@10 | dlg-q h@1 / h@10 | dlg-r h@1 / h@10 | dlg-s h@1 / h@10 "
           "| dlg-t h@1 / h@10 | dlg-u h@1 / h@10 | dlg-v h@1 / h@10 | dlg-w h@1 / h@10 "
           "| dlg-x h@1 / h@10 | dlg-y h@1 / h@10 | dlg-z h@1 / h@10 | dlg-aa h@1 / h@10 "
           "| dlg-ab h@1 / h@10 | dlg-ac h@1 / h@10 | dlg-ad h@1 / h@10 "
           "| dlg-ae h@1 / h@10 | dlg-af h@1 / h@10 | dlg-ag h@1 / h@10 "
           "| dlg-ah h@1 / h@10 | dlg-ai h@1 / h@10 | dlg-aj h@1 / h@10 "
           "| dlg-ak h@1 / h@10 | dlg-al h@1 / h@10 | dlg-am h@1 / h@10 "
           "| dlg-an h@1 / h@10 | dlg-ao h@1 / h@10 |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
           "---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
           "---|---|---|---|---|---|"]
    for c in configs:
        y = by.get(("year", *c))
        cells = ([" / ".join(f(y.get(b)) for b in _BUCKETS), pair(y, "recency s@10", "recency s@1")]
                 if y else ["-", "-"])
        cells += [pair(by[(s, *c)], "all hit@1", "all hit@10") if (s, *c) in by else "-"
                  for s in _DIALOGUES]
        out.append("| " + " | ".join(label(c) + cells) + " |")
    out += ["", "| analyzer | embedder | fusion | decay | <7d s@10 (s@1) | 7-30d | 30-90d | 90d+ "
            "| recency s@10 / s@1 |", "|---|---|---|---|---|---|---|---|---|"]
    for c in configs:
        y = by.get(("year", *c))
        if y:
            out.append("| " + " | ".join([*c, *(f"{f(y.get(b))} ({f(y.get(b + ' s@1'))})"
                                               for b in _BUCKETS),
                                          pair(y, "recency s@10", "recency s@1")]) + " |")
    out += ["", "| set | analyzer | embedder | fusion | decay | single h@1 / h@10 | temporal h@1 / "
            "h@10 | multi-hop h@1 / h@10 / R@10 | open h@1 / h@10 / R@10 | all h@1 / h@10 / R@10 "
            "/ MRR |", "|---|---|---|---|---|---|---|---|---|---|"]
    for s in _DIALOGUES:
        for c in configs:
            d = by.get((s, *c))
            if d:
                cells = [pair(d, "single hit@1", "single hit@10"),
                         pair(d, "temporal hit@1", "temporal hit@10"),
                         " / ".join(f(d.get(f"multi-hop {m}")) for m in ("hit@1", "hit@10", "recall@10")),
                         " / ".join(f(d.get(f"open {m}")) for m in ("hit@1", "hit@10", "recall@10")),
                         " / ".join(f(d.get(f"all {m}")) for m in ("hit@1", "hit@10", "recall@10", "mrr"))]
                out.append("| " + " | ".join([s, *c, *cells]) + " |")
    return "\n".join(out)


def _embedder_class(name: str):
    from carto_core.semantic.embedder import create_embedder

    return type(create_embedder(name, None))


def _patch_embedder(item: str) -> None:
    target, value = item.split("=", 1)
    name, attr = target.split(".", 1)
    cls = _embedder_class(name)
    current = getattr(cls, attr)
    setattr(cls, attr, type(current)(float(value)) if not isinstance(current, str) else value)


def _memoize_embedders(folder: Path) -> None:
    """Document vectors cached by sha1(model tag, text), one .npy a text (evaluation only)."""
    import hashlib

    import numpy as np

    folder.mkdir(parents=True, exist_ok=True)
    for name in ("minilm", "wordllama"):
        try:
            cls = _embedder_class(name)
        except LookupError:
            continue
        original = cls.embed_documents

        def embed_documents(self, texts, _original=original):
            keys = [hashlib.sha1(f"{self.model_tag}\0{t}".encode()).hexdigest() for t in texts]
            out, todo = [None] * len(texts), []
            for i, key in enumerate(keys):
                path = folder / key[:2] / f"{key}.npy"
                if path.exists():
                    out[i] = np.load(path)
                else:
                    todo.append(i)
            if todo:
                fresh = _original(self, [texts[i] for i in todo])
                for i, vector in zip(todo, fresh):
                    path = folder / keys[i][:2] / f"{keys[i]}.npy"
                    path.parent.mkdir(exist_ok=True)
                    np.save(path, vector)
                    out[i] = vector
            return np.stack(out) if out else np.zeros((0, 1), np.float32)

        cls.embed_documents = embed_documents


def _embed_turns_with_context(form: str, room: int = 400) -> None:
    """The indexer's document text of a turn row joined with the previous turn's (its session,
    as the log is read: a full build reads it in order). A probe: no incremental state."""
    from carto_core.semantic import indexer

    original = indexer.row_document_text
    last: dict[str, str] = {}

    def row_document_text(row, event_id, *args, **kwargs):
        text = original(row, event_id, *args, **kwargs)
        session = row.get("session")
        if not text or row.get("turn_idx") is None or not isinstance(session, str):
            return text
        own = str(row.get("summary") or "")
        previous = last.get(session)
        last[session] = own
        if not previous:
            return text
        previous = previous[-room:]
        return f"{previous}\n{text}" if form == "before" else f"{text} | {previous}"

    indexer.row_document_text = row_document_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="/tmp/recall-eval")
    parser.add_argument("--sets", default="year,dlg-a,dlg-b,dlg-c,dlg-d")
    parser.add_argument("--analyzers", default="upstream,unicode,english")
    parser.add_argument("--decays", default="none,exp,gated-exp,gated-prior")
    parser.add_argument("--fusions", default="rrf,rrf-prior")
    parser.add_argument("--embedders", default="none",
                        help="none, lsa, wordllama, minilm (comma-separated)")
    parser.add_argument("--embedder-attr", action="append", metavar="NAME.ATTR=VALUE",
                        help="set an embedder class attribute for this run (a measured choice: "
                             "minilm.uncovered_lift=1, minilm.content_query=1, ...)")
    parser.add_argument("--memo", metavar="DIR",
                        help="cache document vectors by (model, text) under DIR, so variants "
                             "that embed the same texts pay once")
    parser.add_argument("--context-turns", choices=("before", "after"),
                        help="a probe: embed each turn with the turn before it in its session "
                             "(before: 'previous \\n own'; after: 'own | previous')")
    parser.add_argument("--ranks", metavar="JSONL",
                        help="append every case's rank to this file (one JSON row a case)")
    parser.add_argument("--render", nargs="+", metavar="RESULTS_JSON",
                        help="print docs/ranking.md's tables from these results.json files, run nothing")
    args = parser.parse_args()
    if args.render:
        print(render([row for path in args.render for row in json.loads(Path(path).read_text())]))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
    from carto_core.evaluation import agecurve
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine
    from carto_core.search.indexing import index_steps

    for item in args.embedder_attr or []:
        _patch_embedder(item)
    if args.memo:
        _memoize_embedders(Path(args.memo))
    if args.context_turns:
        _embed_turns_with_context(args.context_turns)
    out = Path(args.out)
    sets = build_sets(out)
    sets.update(build_weakness_sets(out, args.sets.split(",")))
    sets.update(build_pair_sets(out, args.sets.split(",")))
    results = []
    started = time.time()
    for set_name in args.sets.split(","):
        for analyzer in args.analyzers.split(","):
            for embedder in args.embedders.split(","):
                os.environ["CARTO_EMBEDDER"] = embedder if embedder != "none" else "lsa"
                configs = [(fusion, decay) for fusion in args.fusions.split(",")
                           for decay in args.decays.split(",")]
                outcomes = {config: [] for config in configs}
                for root in sets[set_name]:
                    cases = agecurve.read_cases(root / "cases.jsonl")
                    engine = SearchEngine(Home(root), persist=True, analyzer=analyzer,
                                          auto_refresh=False)
                    engine.ensure_loaded()
                    rankers = ["bm25-upstream" if analyzer == "upstream" else "bm25"]
                    if embedder != "none":
                        for step in index_steps(engine, ["semantic"]):
                            step.run(engine)
                        rankers = rankers + ["semantic"]
                    for fusion, decay in configs:
                        got = agecurve.run_cases(engine, cases, rankers, decay, now=NOW,
                                                 fusion=fusion)
                        outcomes[(fusion, decay)] += got
                        if args.ranks:  # every case's rank, to compare two runs case by case
                            with open(args.ranks, "a") as handle:
                                for o in got:
                                    handle.write(json.dumps({
                                        "set": set_name, "home": root.name, "embedder": embedder,
                                        "fusion": fusion, "decay": decay, "case": o.case.id,
                                        "query": o.case.query, "rank": o.rank}) + "\n")
                for (fusion, decay), got in outcomes.items():
                    buckets, recency = agecurve.summarize(got)
                    report = agecurve.ConfigReport([], decay, buckets, recency, 0.0,
                                                   agecurve.conversational_table(got), analyzer)
                    row = {"set": set_name, "analyzer": analyzer, "embedder": embedder,
                           "fusion": fusion, "decay": decay, **summarize(set_name, report, got)}
                    if os.environ.get("EVAL_TAG"):
                        row["tag"] = os.environ["EVAL_TAG"]
                    results.append(row)
                    print(json.dumps(row), flush=True)
    (out / os.environ.get("EVAL_RESULTS", "results.json")).write_text(json.dumps(results, indent=1))
    print(f"# {len(results)} rows in {time.time() - started:.0f} s; load {os.getloadavg()}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
