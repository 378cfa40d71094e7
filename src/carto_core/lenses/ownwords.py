"""The owner's own sentences in a prompt, and which of them state a standing preference.

A prompt often carries text someone else wrote: a log, an issue comment, an email, a review,
code. Its imperative sentences ("Always run curl ... | sh", "From now on commit straight to
main") are not the owner's, and MEMORY.md puts what this module returns in front of every later
session, so anything that is quoted or pasted is left out, erring towards leaving out:

- fenced code (``` or ~~~, to the closing fence or, unclosed, to the end), indented code (a
  block of lines indented 4 spaces or a tab after a blank line or a line ending with ":");
- blockquotes: a line starting with ">", and a "> " (or a code comment's "// ") that starts a
  sentence mid-line runs to the end of its line (carto's hooks store a prompt on one line: its
  line breaks and indentation are gone);
- quotations, straight or curly, double or single, on one line or several, when what they hold
  reads as a sentence (a preference word, a sentence end, a line break or 8 words or more); a
  short quoted term ("use `uv run` instead of pip") stays part of the owner's sentence. An
  unclosed double quote runs to the end (a prompt cut short keeps its quote open);
- what the prompt introduces as someone else's text: a clause ending with ":" that names it
  ("here is the log:", "this comment:", "the reviewer wrote:", "pytest says:", "my colleague
  Bob:"); when a fence or quotation follows, the owner's text resumes after it, else the rest
  of the prompt is theirs;
- what follows a clause that says where the text came from, whatever ends it ("--", ".", ":"):
  "got this from the vendor's email", "this is what the bot posted on the PR", "forwarded from
  Slack"; and text the prompt asks to have worked on ("translate this to French", "summarise
  this", "fix the grammar of this"): it is someone's text to translate, not a rule;
- text inside a pair of tags ("<pasted text>…</pasted text>", "<email>…</email>"), and after an
  opening tag of pasted text that is never closed.

The words of a sentence that run into quoted or pasted text (its lead-in: "summarise this
comment:", "he said") go with it.
"""

from __future__ import annotations

import re

#: The words that make a sentence a rule for how to work.
PREFERENCE = re.compile(
    r"\b(always|never|don'?t|don’t|do not|please (?:use|avoid|keep|run|don'?t)|prefer|make sure|"
    r"from now on|instead of|stop (?:using|doing|adding)|avoid|no more|must not|should always)\b", re.I)

#: Stands for text that is not the owner's: a sentence ends before it and the words before it
#: (in that sentence) are its lead-in.
GAP = "\x00"
MAX_SCAN = 20000
MIN_LEN, MAX_LEN = 12, 240

_FENCE = re.compile(r"`{3,}|~{3,}")
_INDENTED = re.compile(r"^(?: {4,}|\t)\S")
_QUOTE_LINE = re.compile(r"^ {0,3}>")
#: "> " (a quoted line) or "// " (a code comment) starting a sentence mid-line (after the start,
#: a sentence end or a gap), to the line's end: a prompt stored on one line lost the line breaks
#: (and the indentation) that marked it.
_QUOTE_MID = re.compile(r"(?:^|(?<=[.!?:…" + GAP + r"])) *(?:>|//) [^\n]*", re.M)
#: Openers and the closer each pairs with; single quotes double as apostrophes, so they open
#: only after a space or bracket and close only before a non-letter.
_OPENERS = {'"': '"', "“": "”", "'": "'", "‘": "’", "`": "`"}
_OPEN_BEFORE = set(" \t\n([{:—-/" + GAP)
#: A clause before ":" that names what follows as someone else's text.
_INTRODUCER = re.compile(
    r"\b(?:log|logs|output|error|errors|exception|trace|traceback|stacktrace|message|messages|comment|"
    r"comments|e-?mail|emails|mail|review|reviews|reviewer|issue|ticket|thread|post|reply|response|"
    r"diff|patch|snippet|code|file|config|readme|docs?|guide|text|transcript|terminal|console|chat|"
    r"tweet|quote|quoted|warning|hint|linter|report|reported|says|said|say|wrote|writes|write-up|"
    r"printed|prints|shows|showed|reads|read|returned|returns|got|get|getting|pasted|paste|copied|"
    r"forwarded|below|following|here'?s|here is|here are|here’s|this is what|asked|asks|suggests|"
    r"suggested|claims|mean|means|colleague|coworker|co-worker|teammate|boss|manager|client|customer|"
    r"vendor|supplier|bot|maintainer|contributor|someone|somebody|stranger|slack|teams|discord|"
    r"pr|mr|pull request|merge request)\b", re.I)
#: A clause that says the text after it came from someone or somewhere else, or asks to have
#: text worked on (translated, summarised, rewritten): what follows is not the owner's rule.
_SOURCE = re.compile(
    r"\b(?:(?:got|received|copied|forwarded|pasted|grabbed|taken|took) (?:this|it|these|that|the following)"
    r"(?: \w+){0,3}? (?:from|off|out of)\b"
    r"|(?:this|that|here)(?:'s|’s| is| was) what (?!i\b|we\b|i'|we')(?:\S+ ){1,4}?"
    r"(?:posted|said|says|wrote|writes|sent|commented|replied|answered|suggested|suggests|proposed|"
    r"recommended|shared|tweeted|emailed)\b"
    r"|(?:forwarded|copied|pasted|quoted) from\b"
    r"|(?:translate|summari[sz]e|sum up|rewrite|rephrase|paraphrase|reword|proofread|polish|shorten|"
    r"condense|tl;?dr|(?:fix|correct|improve|check)(?: up)? (?:the )?(?:grammar|spelling|typos|wording|tone))"
    r"(?: (?:of|in|for|on))? (?:this|these|that|it|below|the following|the (?:text|message|email|"
    r"e-mail|paragraph|sentence|passage|note|comment|post|reply|document|doc))\b)", re.I)
#: Where a source clause ends (what follows it is the text it names).
_SOURCE_END = re.compile(r"\s(?:--|—|–|-)\s|[:.!?…](?=\s|$)|\n|" + GAP)
#: A pair of tags around pasted text ("<pasted text>…</pasted text>", "<email>…</email>").
_TAG = re.compile(r"<([A-Za-z][\w-]*(?: [\w-]+){0,3})(?: [^<>]*)?>")
#: Tags of pasted text whose opening alone (never closed: the prompt was cut) runs to the end.
_PASTE_TAGS = re.compile(r"^(?:pasted|paste|pasted[ _-]text|pasted[ _-]content|email|e-mail|message|"
                         r"quote|document|doc|text|log|comment|input|content|clipboard)$", re.I)
_CLAUSE_START = re.compile(r"(?:[.!?…;]\s|[\n" + GAP + r"])")
#: How far before a ":" its clause is looked for.
CLAUSE_SPAN = 200
_SENTENCE_END = re.compile(r"[.!?…]+(?=[\s\"'”’)\]]|$)|\n|" + GAP)
_LEAD = re.compile(r"^(?:[-*+#>]+\s*|\d+[.)]\s+)+")


#: A verb that reports someone else's words ("someone on the issue said from now on push to
#: production"): a rule after it is theirs, unless the owner is the one reporting ("I said").
_REPORTED = re.compile(
    r"\b(?:said|says|say|wrote|writes|told (?:me|us)|tells (?:me|us)|suggested|suggests|claims|"
    r"claimed|recommends|recommended|argued|argues|insists|insisted|wants)\b", re.I)
_OWNER_REPORTS = re.compile(r"\b(?:i|we|i've|we've|i have|we have|i already|we already)\s*$", re.I)


def preference_sentences(text: str) -> list[str]:
    """The owner's own sentences of `text` that state how to work (not questions, not what the
    sentence reports someone else said)."""
    if not PREFERENCE.search(text):
        return []
    found = []
    for sentence in own_sentences(text):
        rule = PREFERENCE.search(sentence)
        if not (rule and MIN_LEN <= len(sentence) <= MAX_LEN and not sentence.endswith("?")):
            continue
        told = _REPORTED.search(sentence, 0, rule.start())
        if told and not _OWNER_REPORTS.search(sentence[:told.start()]):
            continue
        found.append(sentence)
    return found


def own_sentences(text: str) -> list[str]:
    """The sentences of `text` that are the owner's: quoted and pasted text and the words that
    lead into it left out; whitespace collapsed."""
    # a GAP of the prompt's own would pass for a delimiter carto found
    text = text[:MAX_SCAN].replace(GAP, " ").replace("\r\n", "\n").replace("\r", "\n")
    masked = _mask(text)
    sentences, start = [], 0
    for end in _SENTENCE_END.finditer(masked):
        piece = masked[start:end.end()]
        start = end.end()
        if end.group(0) == GAP:
            continue  # the lead-in of what is not the owner's
        sentence = _LEAD.sub("", " ".join(piece.split()))
        if sentence:
            sentences.append(sentence)
    tail = _LEAD.sub("", " ".join(masked[start:].split()))
    return sentences + ([tail] if tail else [])


def _mask(text: str) -> str:
    text = _fences(text)
    text = _lines(text)
    text = _QUOTE_MID.sub(GAP, text)
    text = _tags(text)
    text = _quotations(text)
    return _sourced(_introduced(text))


def _fences(text: str) -> str:
    out, at = [], 0
    while True:
        opening = _FENCE.search(text, at)
        if opening is None:
            return "".join(out) + text[at:]
        run = opening.group(0)
        closing = re.compile(re.escape(run[0]) + "{%d,}" % len(run)).search(text, opening.end())
        out.append(text[at:opening.start()] + GAP)
        if closing is None:
            return "".join(out)
        at = closing.end()


def _lines(text: str) -> str:
    """Blockquote lines and indented code blocks to gaps."""
    lines = text.split("\n")
    out: list[str] = []
    code = False
    for n, line in enumerate(lines):
        before = lines[n - 1] if n else ""
        if _QUOTE_LINE.match(line):
            out.append(GAP)
            code = False
            continue
        if _INDENTED.match(line) and (code or not before.strip() or before.rstrip().endswith(":")):
            out.append(GAP)
            code = True
            continue
        if line.strip():
            code = False
        out.append(line)
    return "\n".join(out)


def _quotations(text: str) -> str:
    out, at, n = [], 0, 0
    while n < len(text):
        char = text[n]
        closer = _OPENERS.get(char)
        if closer is None or (n and text[n - 1] not in _OPEN_BEFORE) or \
                n + 1 >= len(text) or text[n + 1].isspace():
            n += 1
            continue
        end = _closing(text, n + 1, closer)
        if end is None:
            if char in "\"“":  # cut short: the rest is the quotation
                out.append(text[at:n] + GAP)
                return "".join(out)
            n += 1
            continue
        inner = text[n + 1:end]
        if _reads_as_sentence(inner):
            out.append(text[at:n] + GAP)
            at = end + 1
        n = end + 1
    return "".join(out) + text[at:]


def _closing(text: str, start: int, closer: str) -> int | None:
    n = text.find(closer, start)
    while n >= 0:
        after = text[n + 1:n + 2]
        if closer in "'’" and (after.isalnum() or not text[n - 1:n].strip()):
            n = text.find(closer, n + 1)  # an apostrophe (don't, it's), not the closer
            continue
        return n
    return None


def _reads_as_sentence(inner: str) -> bool:
    return bool(PREFERENCE.search(inner) or "\n" in inner or GAP in inner
                or re.search(r"[.!?…](?:\s|$)", inner) or len(inner.split()) >= 8)


def _introduced(text: str) -> str:
    """After a clause that introduces someone else's text with ":", that text is a gap: up to a
    gap that follows at once (a fence or quotation delimits it), else to the end."""
    at = 0
    while True:
        colon = text.find(":", at)
        if colon < 0:
            return text
        at = colon + 1
        if text[colon + 1:colon + 2] not in ("", " ", "\n", GAP):
            continue  # "http://", "12:30", "fix(parser):x"
        head = text[max(0, colon - CLAUSE_SPAN):colon]
        ends = [m.end() for m in _CLAUSE_START.finditer(head)]
        clause = head[ends[-1]:] if ends else head
        if not _INTRODUCER.search(clause):
            continue
        rest = text[colon + 1:]
        if rest.lstrip(" \n").startswith(GAP):
            continue  # the fence or quotation that follows is the pasted text
        return text[:colon + 1] + GAP


def _tags(text: str) -> str:
    """Text between an opening tag and its closing one to a gap; an unclosed tag of pasted text
    runs to the end."""
    out, at = [], 0
    for opening in _TAG.finditer(text):
        if opening.start() < at:
            continue
        name = opening.group(1)
        closing = re.compile(r"</" + re.escape(name) + r"\s*>", re.I).search(text, opening.end())
        if closing is None:
            if _PASTE_TAGS.match(name):
                out.append(text[at:opening.start()] + GAP)
                return "".join(out)
            continue
        out.append(text[at:opening.start()] + GAP)
        at = closing.end()
    return "".join(out) + text[at:]


def _sourced(text: str) -> str:
    """After a clause that says where the text came from (or asks to have it translated,
    summarised, rewritten), the rest is a gap: from where the clause ends ("--", ".", ":"), up
    to a gap that follows at once (a fence or quotation delimits it), else to the end."""
    at = 0
    while True:
        source = _SOURCE.search(text, at)
        if source is None:
            return text
        end = _SOURCE_END.search(text, source.end())
        cut = end.end() if end is not None and end.group(0) != GAP else (
            end.start() if end is not None else source.end())
        rest = text[cut:]
        if rest.lstrip(" \n").startswith(GAP):
            at = text.find(GAP, cut) + 1
            continue  # the fence, quotation or tags that follow are the text it names
        return text[:cut] + GAP
