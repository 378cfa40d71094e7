"""The rule classifier of prompt intents: weighted phrases per key, the best score wins.

Upstream's classifier is rule-based too (its code is not public: these rules are carto's own,
tuned on the training half of benchmarks/intents/labelled.tsv only; the held-back half
measures them, docs/intents.md). A prompt says what it wants in its first words, so a rule that
matches at the start (after "please", "can you", "ok so", ...) counts 1.5 times; a rule's
further matches add half its weight (two at most). Ties go to the key listed first in RULES; no
match at all is `other`.

Why phrases and not one regular expression per key: capture classifies the prompts it writes
(the Stop hook's turns, Codex's UserPromptSubmit), and Python compiles regular expressions in
pure Python: the twenty alternations this started as cost a fresh process twice what the
phrase tables do (docs/intents.md has the figures). Phrases are token tuples looked up in a
dict built on first use; the few rules that need a pattern keep a small one.

Stdlib only.
"""

from __future__ import annotations

import re

from carto_core.util.lazyre import Lazy

#: Politeness and fillers stripped before the lead test.
_FILLER = Lazy(
    r"^(?:(?:please|pls|plz|ok(?:ay)?|so|now|then|next|also|and|hey|hi|alright|right|cool|great|"
    r"can you|could you|would you|will you|can we|could we|lets|i want you to|id like you to|"
    r"i need you to|i want to|id like to|i need to|we need to|help me|go and|just|quickly)[\s,.:!]+)+")
_TOKEN = re.compile(r"[a-z0-9_]+")  # "_" joins a word, as \w does: test_x is not "test"

# (key, weight, where, phrases, stems, pattern). `where`: "any" (anywhere) or "lead" (only as
# the prompt's first words). Phrases are "|"-separated, each one or more words as the tokenizer
# splits them (lowercase, apostrophes dropped: "don't" is "dont"); stems match any token that
# starts with them, suffixes any token that ends with them; `pattern` (or "") is a small regex
# on the text. Order breaks ties: the more specific keys first. Generic leads ("write ...",
# "run ...", a question word) weigh less than one topic word, so "write a blog post" is content
# and "run the tests" testing.
RULES: tuple[tuple[str, float, str, str, tuple, tuple, str], ...] = (
    ("plan-approvals", 4.0, "any", "", (), (),
     r"^(?:y|yes|yep|yeah|yup|sure|ok|okay|k|approved?|lgtm|proceed|agreed|go ahead|go for it|do it|"
     r"sounds (?:good|great|right)|looks (?:good|great|right|fine)|carry on|continue|keep going|"
     r"that works|ship it)(?:[\s,.!]+(?:please|then|thanks|with (?:it|that|the plan|your (?:suggestion|plan)|"
     r"step \d+|option \d+)|continue|proceed|go ahead|do it|implement it|carry on|start))*[\s.!]*$"),
    ("plan-approvals", 3.0, "any",
     "approve the plan|approve this plan|approve your plan|approved the plan|approves the plan|"
     "plan looks good|plan looks great|plan looks right|plan looks fine|plan is good|plan is great|"
     "plan is right|plan is fine|plan works|plan seems good|plan seems fine|plan seems right|"
     "user has approved your plan|go with the plan|go with your plan|go with your suggestion|"
     "go with this plan|go ahead with the|go ahead with your|go ahead with this|yes do all|yes do both|"
     "ok do all|sure do all|yes go with|ok go with|sure go with|lets do it", (), (),
     r"^(?:yep|yes|ok),? option \d\b"),
    ("other", 4.0, "lead",
     "hi|hello|hey|yo|good morning|good afternoon|good evening|how are you|whats up|who made you|"
     "who are you|what model|what can you do|are you there|test|testing|ping|lol|asdf|thanks for today|"
     "bye|never mind|nevermind|nvm", (), (), ""),
    ("other", 4.0, "any", "weather|tell me a joke", (), (), ""),
    ("feedback-context", 3.0, "lead",
     "no|nope|actually|fyi|btw|for context|context|remember|note|nice|good|great|perfect|thanks|"
     "thank you|that worked|thats wrong|thats not|thats better|thats it|wrong|youre|you are|i think you|"
     "i already|stop|dont|heres the|it still|the previous|not quite|almost|keep the|i meant",
     ("hmm",), (), ""),
    ("feedback-context", 3.0, "any",
     "not what i meant|you misunderstood|that worked|much better|much cleaner|instead|we use|"
     "in this repo|for context", ("overcomplicat",), (),
     r"\bnot (?:[\w.-]+/|npm|yarn|port \d+|\d{4})"),
    ("git-commands", 3.0, "any",
     "git|commit|commits|committed|push the|push this|push it|push to|push my|pushed the|pushed to|"
     "and push|rebase|squash|cherry pick|cherrypick|stash|amend|pull request|open a pr|open the pr|"
     "merge main|merge master|merge the branch|merge into|merge it|merge conflict|merge conflicts|"
     "branch|branches|stage|staged|unstage|revert the commit|git log", (), (), ""),
    ("git-commands", 3.0, "lead", "merge", (), (), r"^push$"),
    ("content-creation", 3.0, "any",
     "blog|tweet|linkedin|email|emails|slide|slides|copy|newsletter|press release|tagline|marketing|"
     "announcement|announcing|story|abstract|cover letter|poster|video|social card|infographic|"
     "product description|post about|discord", (), (), ""),
    ("documentation", 3.0, "any",
     "readme|doc|docs|documentation|document|docstring|docstrings|comment|comments|changelog|jsdoc|"
     "contributing|faq|adr|help text|guide|md|typo|typos|usage examples|release notes|api docs",
     (), (), ""),
    ("deploy-release", 3.0, "any",
     "deploy|deploys|deployed|deployment|redeploy|ship it to|ship this to|ship to|publish|release|"
     "releases|released|roll back|rollback|roll out|rollout|kubectl|helm|terraform apply|app store|"
     "testflight|canary|promote|pypi|npm publish|production|prod|netlify|vercel|fly io|heroku|"
     "cut a release|bump the version|bump version|bump to|push the image|push the docker image|registry",
     (), (), ""),
    ("testing-verification", 3.0, "any",
     "test|tests|testing|pytest|e2e|coverage|verify|verifies|verified|make sure|confirm|check that|"
     "check if|check whether|check the ci|lint|typecheck|benchmark|benchmarks|ci results|ci run|"
     "ci runs|ci status|mock|regression|playwright|jest|hypothesis|flaky|still pass|still passes",
     (), (), ""),
    ("bug-fixes", 3.0, "any",
     "fix|fixes|fixing|off by|bug|bugs|error|errors|exception|traceback|broken|break|breaks|"
     "doesnt work|does not work|isnt working|is not working|isnt firing|not working|wrong|hang|hangs|"
     "leak|race condition|segfault|never stops|never gives up|never finishes|mangled|undefined|"
     "null pointer|should be|stopped working|regressed|why is|one day early|one day late|"
     "doesnt close|doesnt open|doesnt load|doesnt show|doesnt save",
     ("crash", "fail"), ("error",), r"\b[45]\d\d\b"),
    ("code-review-qa", 3.0, "any",
     "review|look over|read through|audit|critique|anything wrong|anything missing|anything off|"
     "whats off|edge cases|thread safe|threadsafe|sanity check|double check|qa|concern|concerns|"
     "what do you think of this code|what do you think of my code|what do you think of the code|"
     "would you write it differently|would you do it differently|what you would remove|"
     "what you would change|injection|security issues|performance problems|check my", (), (), ""),
    ("data-analysis", 3.0, "any",
     "chart|charts|plot|histogram|sql|query the|csv|pandas|parquet|distribution|percentile|percentiles|"
     "median|medians|p90|p95|p99|aggregate|cohort|correlation|correlations|dashboard|metrics|how many|"
     "what percentage|outliers|crunch|count them|by week|by day|by month|by segment|by type|by rank|"
     "by service|per day|per session|per week|per hour|per endpoint|retention|conversion rate|"
     "conversion rates|significant|hit rate|summarize the survey|summarize the results|"
     "summarize the data|summarize the error|summarise the survey|summarise the results|"
     "summarise the data|summarise the error", ("analy", "statistic"), (), r"\btop \d+\b"),
    ("refactor-cleanup", 3.0, "any",
     "rename|clean up|cleanup|dead code|unused|simplify|extract|reorganize|reorganise|restructure|"
     "split the|split this|split it|convert the|convert this|tidy|get rid of|remove the old|"
     "remove the deprecated|remove the dead|remove the feature flag|remove the unused|remove the legacy|"
     "remove old|remove deprecated|remove dead|remove unused|remove legacy|inline|consistent|"
     "replace the hand rolled|delete the old|too nested|too noisy|too long|duplication|"
     "composition over inheritance", ("refactor", "dedup"), (), r"\bmove (?:the|this|all)\b.*\binto\b"),
    ("planning-strategy", 3.0, "any",
     "plan|roadmap|prioritize|prioritise|next step|next steps|work on next|strategy|phases|milestones|"
     "break this down|break it down|break this into|break it into|tickets|checklist|todo list|sequence|"
     "critical path|approach|realistic|sprint|epic|quarterly|build or buy|weigh the options|the order to|"
     "step by step|risks|what should we do|what should i do|what should we work|what should i work|"
     "whats left", (), (), r"\bbreak the [\w-]+ \w* ?(?:down|into)\b"),
    ("feature-design", 3.0, "any",
     "design|spec|spec out|ux|data model|architecture|mock up|mockup|brainstorm|schema|tradeoffs|"
     "interface|propose a|propose an|propose the|sketch|structure the permissions|structure permissions|"
     "think about|think through|outline the feature|system|flow|layout|be organized|be organised|"
     "be structured", (), (),
     r"\bhow (?:should|would|do we want) (?:the )?[\w ]+ (?:work|behave|look)\b|"
     r"\bwhat would (?:a|the|that) .*(?:look like|be)\b|\bwhat should the\b.*\bcontain\b"),
    ("research", 3.0, "any",
     "look up|find out|search the web|compare|investigate|explain|the docs for|difference between|"
     "look into|find examples|find where|what libraries|where in the code|which files|how does|"
     "read the docs|stand for|stands for", (), (), r"\bwhat does\b.*\bmean\b"),
    ("research", 1.9, "lead", "what|whats|how|hows|why|where|wheres|which|who|whos|is there|are there|does|do|is|can",
     (), (), ""),
    ("run-build-app", 3.0, "any",
     "npm run|npm start|npm install|npm i|yarn dev|yarn start|yarn build|pnpm dev|pnpm start|pnpm build|"
     "make build|make test|make run|cargo build|cargo run|docker compose|dev server|pip install|"
     "build the project|build the app|build the docker image|build the image|build the wheel|"
     "build the binary|storybook|simulator|locally|dependencies|on port|compile it|run it|run the app|"
     "run the cli|run the script|run the server|the server|container", (), (), ""),
    ("run-build-app", 1.9, "lead",
     "run|start|launch|spin up|bring up|restart|compile|rebuild|install|boot|build", (), (), ""),
    ("implementation", 3.0, "any",
     "support for|endpoint|component|function that|migration that|subcommand|feature flag|option to|"
     "hook up|wire", ("implement",), (), r"--\w+ flag"),
    ("implementation", 1.9, "lead",
     "add|create|write|build|make|support|generate|port|integrate|introduce|allow|enable|handle|use",
     (), (), ""),
)

_TABLE: dict | None = None


def _table():
    """first token -> [(rule number, phrase tokens, lead only)], plus stems, suffixes and the
    few patterns (compiled on first use), built once per process."""
    global _TABLE
    if _TABLE is None:
        first: dict[str, list] = {}
        stems, suffixes, patterns = [], [], []
        for number, (_, _, where, phrases, rule_stems, rule_suffixes, pattern) in enumerate(RULES):
            lead = where == "lead"
            for phrase in filter(None, phrases.split("|")):
                tokens = tuple(phrase.split())
                first.setdefault(tokens[0], []).append((number, tokens, lead))
            stems.extend((number, stem, lead) for stem in rule_stems)
            suffixes.extend((number, suffix, lead) for suffix in rule_suffixes)
            if pattern:
                patterns.append((number, Lazy(pattern)))
        _TABLE = {"first": first, "stems": stems, "suffixes": suffixes, "patterns": patterns}
    return _TABLE


def _positions(text: str) -> tuple[str, list[str]]:
    lowered = " ".join(text.lower().replace("'", "").replace("\u2019", "").split())
    lead = _FILLER.sub("", lowered)
    return lead, _TOKEN.findall(lead)


def scores(text: str) -> dict[str, float]:
    """Each key's score for `text` (keys that no rule matched are absent)."""
    lead, tokens = _positions(text)
    table = _table()
    hits: dict[int, list[int]] = {}  # rule number -> token positions of its matches
    first = table["first"]
    for i, token in enumerate(tokens):
        for number, phrase, lead_only in first.get(token, ()):
            if lead_only and i:
                continue
            if tuple(tokens[i:i + len(phrase)]) == phrase:
                hits.setdefault(number, []).append(i)
        for number, stem, lead_only in table["stems"]:
            if token.startswith(stem) and (i == 0 or not lead_only):
                hits.setdefault(number, []).append(i)
        for number, suffix, lead_only in table["suffixes"]:
            if token.endswith(suffix) and token != suffix and (i == 0 or not lead_only):
                hits.setdefault(number, []).append(i)
    for number, pattern in table["patterns"]:
        for match in pattern.finditer(lead):
            hits.setdefault(number, []).append(0 if match.start() == 0 else 1 + match.start())
            if len(hits[number]) >= 3:
                break
    out: dict[str, float] = {}
    for number, places in hits.items():
        key, weight = RULES[number][0], RULES[number][1]
        places = sorted(set(places))
        score = weight * (1.5 if places[0] == 0 else 1.0) + weight / 2 * min(2, len(places) - 1)
        out[key] = out.get(key, 0.0) + score
    return out


_ORDER: dict[str, int] = {}
for _n, _rule in enumerate(RULES):
    _ORDER.setdefault(_rule[0], _n)


def classify(text: str) -> str:
    found = scores(text)
    if not found:
        return "other"
    return max(found, key=lambda k: (found[k], -_ORDER[k]))
