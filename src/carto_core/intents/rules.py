"""The rule classifier of prompt intents: weighted patterns per key, the best score wins.

Upstream's classifier is rule-based too (its code is not public: these rules are carto's own,
tuned on the training half of benchmarks/intents/labelled.tsv only; the held-back half
measures them, docs/intents.md). A prompt says what it wants in its first words, so a pattern
that matches at the start (after "please", "can you", "ok so", ...) counts double. Ties go to
the key listed first in RULES; no match at all is `other`.

Stdlib only (the hook path classifies the prompts it writes); patterns compile on first use.
"""

from __future__ import annotations

import re

from carto_core.lazyre import Lazy

#: Politeness and fillers stripped before the lead test.
_FILLER = Lazy(
    r"^(?:(?:please|pls|plz|ok(?:ay)?|so|now|then|next|also|and|hey|hi|alright|right|cool|great|"
    r"can you|could you|would you|will you|can we|could we|let'?s|lets|i want you to|i'd like you to|"
    r"i need you to|i want to|i'd like to|i need to|we need to|help me|go and|just|quickly)[\s,.:!]+)+")

# (key, weight, pattern). The first match of a pattern adds its weight (x1.5 when it is at the
# start of the prompt), each further match half of it (two at most). Order breaks ties: the
# more specific keys come first. Generic leads ("write ...", "run ...", a question word) weigh
# less than one topic word, so "write a blog post" is content and "run the tests" testing.
RULES: tuple[tuple[str, float, str], ...] = (
    ("plan-approvals", 4.0, r"^(?:y|yes|yep|yeah|yup|sure|ok|okay|k|approved?|lgtm|proceed|agreed|"
     r"go ahead|go for it|do it|sounds (?:good|great|right)|looks (?:good|great|right|fine)|"
     r"carry on|continue|keep going|that works|ship it)(?:[\s,.!]+(?:please|then|thanks|with (?:it|that|the plan|"
     r"your (?:suggestion|plan)|step \d+|option \d+)|continue|proceed|go ahead|do it|implement it|"
     r"carry on|start))*[\s.!]*$"),
    ("plan-approvals", 3.0, r"\b(?:approve[sd]? (?:the|this|your) plan|(?:the|this|your) plan (?:looks|is|works|"
     r"seems) (?:good|great|right|fine|for me)|plan works for me|user has approved your plan|"
     r"go (?:ahead )?with (?:the|your|this) (?:\w+ )?(?:plan|suggestion|option)|"
     r"(?:yes|yep|ok|sure),? (?:do|go with) (?:all|both|option|that|it)|^(?:yep|yes|ok),? option \d\b|"
     r"let'?s do it)"),
    ("other", 4.0, r"^(?:hi|hello|hey|yo|good (?:morning|afternoon|evening)|how are you|what'?s up|"
     r"who (?:made|are) you|what (?:model|can you do)|are you there|test|testing|ping|lol|asdf|\?+|"
     r"thanks for today|bye|never ?mind|nvm)\b|\bweather\b|\btell me a joke\b"),
    ("feedback-context", 3.0, r"^(?:no|nope|actually|fyi|btw|for context|context:|remember|note:|hmm+|nice|good|"
     r"great|perfect|thanks|thank you|that worked|that'?s (?:wrong|not|better|it)|wrong|you'?re|you are|"
     r"i think you|i already|stop|don'?t|here'?s the|it still|the previous|not quite|almost|keep the|i meant)\b|"
     r"\bnot what i meant\b|\byou misunderstood\b|\bovercomplicat\w+\b|\bthat worked\b|\bmuch (?:better|cleaner)\b|"
     r"\bnot (?:[\w.-]+/|npm|yarn|port \d+|\d{4})|\bwe use\b|\bin this repo\b|\bfor context\b"),
    ("git-commands", 3.0, r"\bgit\b|\bcommit(?:s|ted)?\b|\bpush(?:ed)? (?:the|this|it|to|my)\b(?! (?:docker )?image)|"
     r"^push$|\band push\b|\brebase\b|\bsquash\b|\bcherry-?pick\b|\bstash\b|\bamend\b|\bpull request\b|"
     r"\bopen (?:a|the) pr\b|\bmerge (?:main|master|the branch|into|it)\b|^merge\b|\bmerge conflicts?\b|"
     r"\bbranch(?:es)?\b|\bstaged?\b|\bunstage\b|\brevert the commit\b|\bgit log\b"),
    ("content-creation", 3.0, r"\bblog\b|\btweet\b|\blinkedin\b|\bemails?\b|\bslides?\b|\bcopy\b|\bnewsletter\b|"
     r"\bpress release\b|\btagline\b|\bmarketing\b|\bannouncement\b|\bannouncing\b|\bstory\b|\babstract\b|"
     r"\bcover letter\b|\bposter\b|\bvideo\b|\bsocial card\b|\binfographic\b|\bproduct description\b|"
     r"\bpost about\b|\bdiscord\b"),
    ("documentation", 3.0, r"\breadme\b|\bdocs?\b|\bdocumentation\b|\bdocument\b|\bdocstrings?\b|\bcomments?\b|"
     r"\bchangelog\b|\bjsdoc\b|\bcontributing\b|\bfaq\b|\badr\b|--help text|\bguide\b|[\w-]\.md\b|"
     r"\btypos?\b|\busage examples\b|\brelease notes\b"),
    ("deploy-release", 3.0, r"\bdeploy(?:s|ed|ment)?\b|\bredeploy\b|\bship (?:it|this)? ?to\b|\bpublish\b|"
     r"\brelease(?:s|d)?\b|\broll ?(?:back|out)\b|\brollout\b|\bkubectl\b|\bhelm\b|\bterraform apply\b|"
     r"\bapp store\b|\btestflight\b|\bcanary\b|\bpromote\b|\bpypi\b|\bnpm publish\b|\bproduction\b|"
     r"\bprod\b|\bnetlify\b|\bvercel\b|\bfly\.io\b|\bheroku\b|\bcut a release\b|\bbump (?:the )?version\b|"
     r"\bbump to\b|\bpush the (?:docker )?image\b|\bregistry\b"),
    ("testing-verification", 3.0, r"\btests?\b|\btesting\b|\bpytest\b|\be2e\b|\bcoverage\b|"
     r"\bverif(?:y|ies|ied)\b|\bmake sure\b|\bconfirm\b|\bcheck (?:that|if|whether|the ci)\b|\blint\b|"
     r"\btypecheck\b|\bbenchmarks?\b|\bci (?:results|runs?|status)\b|\bmock\b|\bregression\b|"
     r"\bplaywright\b|\bjest\b|\bhypothesis\b|\bflaky\b|\bstill pass"),
    ("bug-fixes", 3.0, r"\bfix(?:es|ing)?\b|\boff by\b|\bbugs?\b|\berrors?\b|\bexception\b|\btraceback\b|\bcrash(?:es|ed|ing)?\b|"
     r"\bbroken\b|\bbreaks?\b|\bfail(?:s|ed|ing|ure)?\b|\bdoes ?n[o']t work|\bis ?n[o']t (?:working|firing)|"
     r"\bnot working\b|\bwrong\b|\bhangs?\b|\bleak\b|\brace condition\b|\bsegfault\b|\b[45]\d\d\b|"
     r"\b\w+error\b|\bnever (?:stops|gives up|finishes)|\bmangled\b|\bundefined\b|\bnull pointer\b|"
     r"\bshould be\b|\bstopped working\b|\bregressed\b|\bwhy is\b|\bone day (?:early|late)\b|"
     r"\bdoes ?n[o']t (?:close|open|load|show|save)"),
    ("code-review-qa", 3.0, r"\breview\b|\blook over\b|\bread through\b|\baudit\b|\bcritique\b|"
     r"\banything (?:wrong|missing|off)\b|\bwhat'?s off\b|\bedge cases\b|\bthread[- ]safe\b|\bsanity check\b|"
     r"\bdouble[- ]check\b|\bqa\b|\bconcerns?\b|\bwhat do you think of (?:this|my|the) code\b|"
     r"\bwould you (?:write|do) it differently\b|\bwhat you would (?:remove|change)\b|\binjection\b|"
     r"\bsecurity issues\b|\bperformance problems\b|\bcheck my\b"),
    ("data-analysis", 3.0, r"\banaly[sz](?:e|is|ing)\b|\bcharts?\b|\bplot\b|\bhistogram\b|\bsql\b|\bquery the\b|"
     r"\bcsv\b|\bpandas\b|\bparquet\b|\bdistribution\b|\bpercentiles?\b|\bmedians?\b|\bp9\d\b|\baggregate\b|"
     r"\bstatistic\w*\b|\bcohort\b|\bcorrelations?\b|\bdashboard\b|\bmetrics\b|\bhow many\b|"
     r"\bwhat percentage\b|\boutliers\b|\bcrunch\b|\bcount them\b|\bby (?:week|day|month|segment|type|rank|service)\b|"
     r"\bper (?:day|session|week|hour|endpoint)\b|\bretention\b|\bconversion rates?\b|\bsignificant\b|\bhit rate\b|"
     r"\bsummari[sz]e the (?:survey|results|data|error)\b|\btop \d+\b"),
    ("refactor-cleanup", 3.0, r"\brefactor\w*\b|\brename\b|\bclean ?up\b|\bdead code\b|\bunused\b|\bsimplify\b|"
     r"\bextract\b|\bdedup\w*\b|\breorgani[sz]e\b|\brestructure\b|\bmove (?:the|this|all)\b.*\binto\b|"
     r"\bsplit (?:the|this|it)\b|\bconvert (?:the|this)\b|\btidy\b|\bget rid of\b|"
     r"\bremove (?:the )?(?:old|deprecated|dead|feature flag|unused|legacy)\b|\binline\b|\bconsistent\b|"
     r"\breplace the hand-rolled\b|\bdelete the old\b|\btoo (?:nested|noisy|long)\b|\bduplication\b|"
     r"\bcomposition over inheritance\b"),
    ("planning-strategy", 3.0, r"\bplan\b|\broadmap\b|\bprioriti[sz]e\b|\bnext steps?\b|\bwork on next\b|"
     r"\bstrategy\b|\bphases\b|\bmilestones\b|\bbreak (?:this|it|the [\w-]+ \w*) ?(?:down|into)\b|\btickets\b|"
     r"\bchecklist\b|\btodo list\b|\bsequence\b|\bcritical path\b|\bapproach\b|\brealistic\b|\bsprint\b|"
     r"\bepic\b|\bquarterly\b|\bbuild or buy\b|\bweigh the options\b|\bthe order to\b|\bstep[- ]by[- ]step\b|"
     r"\brisks\b|\bwhat should (?:we|i) (?:do|work)\b|\bwhat'?s left\b"),
    ("feature-design", 3.0, r"\bdesign\b|\bspec(?: out)?\b|\bux\b|\bdata model\b|\barchitecture\b|"
     r"\bmock ?up\b|\bbrainstorm\b|\bhow (?:should|would|do we want) (?:the )?[\w ]+ (?:work|behave|look)\b|"
     r"\bwhat would (?:a|the|that) .*(?:look like|be)\b|\bschema\b|\btradeoffs\b|\binterface\b|"
     r"\bpropose (?:a|an|the)\b|\bsketch\b|\bstructure (?:the )?permissions\b|\bthink (?:about|through)\b|"
     r"\bwhat should the\b.*\bcontain\b|\boutline the feature\b|\bsystem\b|\bflow\b|\blayout\b|"
     r"\bbe (?:organi[sz]ed|structured)\b"),
    ("research", 3.0, r"\blook up\b|\bfind out\b|\bsearch the web\b|\bcompare\b|\binvestigate\b|\bexplain\b|"
     r"\bthe docs for\b|\bdifference between\b|\bwhat does\b.*\bmean\b|\blook into\b|\bfind (?:examples|where)\b|"
     r"\bwhat libraries\b|\bwhere in the code\b|\bwhich files\b|\bhow does\b|\bread the docs\b|\bstands? for\b"),
    ("research", 1.9, r"^(?:what|how|why|where|which|who|is there|are there|does|do|is|can)\b"),
    ("run-build-app", 3.0, r"\bnpm (?:run|start|install|i)\b|\byarn (?:dev|start|build)\b|\bpnpm (?:dev|start|build)\b|"
     r"\bmake (?:build|test|run)\b|\bcargo (?:build|run)\b|\bdocker compose\b|\bdocker-compose\b|\bdev server\b|"
     r"\bpip install\b|\bbuild the (?:project|app|docker image|image|wheel|binary)\b|\bstorybook\b|"
     r"\bsimulator\b|\blocally\b|\bdependencies\b|\bon port \d+|\bcompile it\b|"
     r"\brun (?:it|the (?:app|cli|script|server))\b|\bthe server\b|\bcontainer\b"),
    ("run-build-app", 1.9, r"^(?:run|start|launch|spin up|bring up|restart|compile|rebuild|install|boot|build)\b"),
    ("implementation", 3.0, r"\bimplement\w*\b|\bsupport for\b|\bendpoint\b|\bcomponent\b|\bfunction that\b|"
     r"\bmigration that\b|\bsubcommand\b|\bfeature flag\b|\boption to\b|\b--\w+ flag\b|\bhook up\b|\bwire\b"),
    ("implementation", 1.9, r"^(?:add|create|write|build|make|support|generate|port|integrate|introduce|allow|"
     r"enable|handle|use)\b"),
)

_COMPILED: list[tuple[str, float, "Lazy"]] | None = None


def _compiled():
    global _COMPILED
    if _COMPILED is None:
        _COMPILED = [(key, weight, Lazy(pattern)) for key, weight, pattern in RULES]
    return _COMPILED


def scores(text: str) -> dict[str, float]:
    """Each key's score for `text` (keys that no pattern matched are absent)."""
    lead = _FILLER.sub("", " ".join(text.lower().split()))
    out: dict[str, float] = {}
    for key, weight, pattern in _compiled():
        score = 0.0
        for n, match in enumerate(pattern.finditer(lead)):
            if n == 0:
                score = weight * (1.5 if match.start() == 0 else 1.0)
            else:
                score += weight / 2
            if n == 2:
                break
        if score:
            out[key] = out.get(key, 0.0) + score
    return out


_ORDER: dict[str, int] = {}
for _n, (_key, _, _) in enumerate(RULES):
    _ORDER.setdefault(_key, _n)


def classify(text: str) -> str:
    found = scores(text)
    if not found:
        return "other"
    return max(found, key=lambda k: (found[k], -_ORDER[k]))
