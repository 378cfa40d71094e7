"""A Claude Code turn's tool calls, edits and commits, read from its transcript lines into the
`tools` field of the turn row (`carto_core.capture.turnactivity`), and the hook context injected into it.

What the transcript says, in the order the client wrote it:

- an assistant `tool_use` block is a call (name, key argument, the line's timestamp); a file
  tool (Edit, Write, MultiEdit, NotebookEdit) edits its path; a shell call edits what the
  shell-write heuristic finds (`cat >`, `tee`, `sed -i`, Python `open(..., "w")`) until its
  result says otherwise;
- the `tool_result` that answers it: `is_error` marks the call failed (a refused Write edited
  nothing); Claude Code 2.1.3xx puts `toolUseResult.bashEditDiff.changedFiles` (the files a
  shell call really changed: `echo hello > a.txt` included) and `toolUseResult.gitOperation.
  commit` (`{sha, kind, branch}`, the commit the call made) beside it; older clients give only
  the output, whose `[branch sha] subject` line names a commit when the command made one;
- an `attachment` of type `hook_additional_context` is context a hook injected (carto's own
  note, among others): it is never the user's words, so it stays out of the turn's text and is
  recorded as `injected: [{"hook": <event>, "chars": <n>}]`;
- a Task/Agent call that started a subagent gets `spawned`, the id of the subagent's first
  turn: the result's `toolUseResult.agentId` names its own file (2.1.x,
  `turn-<sid>-agent-<id>-1`); an inline sidechain (1.0.x) is the one whose first prompt is the
  call's `prompt`, word for word (`turn-<sid>-side-<n>`). A call whose subagent never ran (an
  interrupted Task) gets none.
"""

from __future__ import annotations

import re

from carto_core.api import AGENT_TOOLS, SHELL_TOOLS, ToolLog, commit_from_output, set_edits, shell

#: An agent id as the client names its file (`agent-<id>.jsonl`): nothing that could leave it.
_AGENT_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")

FILE_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
_INPUT_KEYS = ("command", "file_path", "notebook_path", "url", "query", "pattern", "path",
               "description", "prompt")


def _key_input(args: dict) -> str:
    for key in _INPUT_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return ""


class TurnTools:
    """Per turn: the ToolLog, plus what only this reader needs (full commands)."""

    __slots__ = ("log", "injected", "_commands", "_prompts", "_spawns")

    def __init__(self):
        self.log = ToolLog()
        self.injected: list[dict] = []
        self._commands: dict[str, str] = {}
        #: Task/Agent calls not yet tied to a subagent: entry -> its prompt (whitespace folded).
        self._prompts: dict[int, tuple[dict, str]] = {}
        #: (entry, suffix of the subagent's first turn id after `turn-<sid>-`).
        self._spawns: list[tuple[dict, str]] = []

    def fields(self, session: str = "") -> dict:
        out = self.log.fields()
        if self.injected:
            out["injected"] = self.injected
        if session:  # the session is known only once the file named it
            for entry, suffix in self._spawns:
                entry["spawned"] = f"turn-{session}-{suffix}"
        return out

    def _spawn(self, entry: dict, suffix: str) -> None:
        self._prompts.pop(id(entry), None)
        self._spawns.append((entry, suffix))

    def sidechain_started(self, prompt: str, suffix: str) -> bool:
        """An inline sidechain began with `prompt`: tie it to the first open Task/Agent call of
        this turn that asked exactly that (True when one did)."""
        wanted = " ".join(prompt.split())
        for entry, asked in list(self._prompts.values()):
            if asked and asked == wanted:
                self._spawn(entry, suffix)
                return True
        return False

    def assistant_line(self, line: dict, cwd: str) -> None:
        content = line["message"].get("content")
        if not isinstance(content, list):
            return
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            name = block.get("name") if isinstance(block.get("name"), str) else "tool"
            args = block.get("input") if isinstance(block.get("input"), dict) else {}
            entry = self.log.call(block.get("id"), name, _key_input(args), line.get("timestamp"))
            if entry is None:
                continue
            if name in FILE_TOOLS:
                set_edits(entry, [args.get("notebook_path") or args.get("file_path") or args.get("path")], cwd)
            elif name in SHELL_TOOLS and isinstance(args.get("command"), str):
                command = args["command"]
                if isinstance(block.get("id"), str):
                    self._commands[block["id"]] = command
                set_edits(entry, shell.shell_writes(command), cwd)
            elif name in AGENT_TOOLS:
                if isinstance(args.get("subagent_type"), str):
                    entry["agent_type"] = args["subagent_type"]
                if isinstance(args.get("prompt"), str):
                    self._prompts[id(entry)] = (entry, " ".join(args["prompt"].split()))

    def user_line(self, line: dict, cwd: str) -> None:
        content = line["message"].get("content")
        if not isinstance(content, list):
            return
        results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
        # The structured result describes the line's tool result (the client writes one per line).
        structured = line.get("toolUseResult") if len(results) == 1 else None
        for block in results:
            call_id = block.get("tool_use_id")
            entry = self.log.get(call_id)
            if entry is None:
                continue
            failed = block.get("is_error") is True
            if failed:
                entry["failed"] = True
                entry.pop("edits", None)
            facts = structured if isinstance(structured, dict) else {}
            if entry["name"] in AGENT_TOOLS:
                agent = facts.get("agentId")
                if isinstance(agent, str) and _AGENT_ID.match(agent) \
                        and all(entry is not e for e, _ in self._spawns):
                    self._spawn(entry, f"agent-{agent}-1")
                continue
            if entry["name"] not in SHELL_TOOLS:
                continue
            diff = facts.get("bashEditDiff")
            if not failed and isinstance(diff, dict) and isinstance(diff.get("changedFiles"), list):
                set_edits(entry, diff["changedFiles"], cwd)
            output = facts.get("stdout") if isinstance(facts.get("stdout"), str) else (
                structured if isinstance(structured, str) else _result_text(block))
            commit = _commit(facts.get("gitOperation"), output, self._commands.get(call_id, ""), cwd)
            if commit:
                entry["commit"] = commit

    def attachment_line(self, line: dict) -> None:
        attachment = line.get("attachment")
        if not isinstance(attachment, dict) or attachment.get("type") != "hook_additional_context":
            return
        content = attachment.get("content")
        texts = content if isinstance(content, list) else [content]
        chars = sum(len(t) for t in texts if isinstance(t, str))
        hook = attachment.get("hookEvent") or attachment.get("hookName") or "unknown"
        self.injected.append({"hook": hook if isinstance(hook, str) else "unknown", "chars": chars})


def _result_text(block: dict) -> str:
    content = block.get("content")
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return content if isinstance(content, str) else ""


def _commit(operation: object, output: str, command: str, cwd: str) -> dict | None:
    """The commit a shell call made: the client's `gitOperation.commit` when it names one
    (subject from the output's `[branch sha] subject` line), else that line itself when the
    command ran a commit verb (old clients, failed calls)."""
    announced = commit_from_output(output)
    found = operation.get("commit") if isinstance(operation, dict) else None
    if isinstance(found, dict) and isinstance(found.get("sha"), str) and found["sha"]:
        commit = {"sha": found["sha"]}
        if announced and (announced["sha"].startswith(found["sha"]) or found["sha"].startswith(announced["sha"])):
            commit["subject"] = announced["subject"]
        for key in ("branch", "kind"):
            if isinstance(found.get(key), str) and found[key]:
                commit[key] = found[key]
        return commit
    if announced and command and shell.mentions_commit(shell.git_calls(command, cwd)):
        return announced
    return None
