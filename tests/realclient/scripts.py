"""The scripted sessions the tier runs (each a list of model turns for the mocks, `{REPO}` being
the session's repository). Needles in the final answers are words no other text holds."""

#: Claude Code: a commit by shell redirection + git, a Write, a shell command, the final answer.
CLAUDE_MAIN = [
    [{"type": "text", "text": "I'll create the file and commit it."},
     {"type": "tool_use", "name": "Bash",
      "input": {"command": 'echo hello > a.txt && git add a.txt && git commit -m "feat: add a"',
                "description": "Create a.txt and commit it"}}],
    [{"type": "tool_use", "name": "Write",
      "input": {"file_path": "{REPO}/test_b.py", "content": "def test_b():\n    assert 1 + 1 == 2\n"}}],
    [{"type": "tool_use", "name": "Bash",
      "input": {"command": "ls -la", "description": "List the files"}}],
    [{"type": "text", "text": "Done: a.txt is committed and test_b.py is written. zanzibarneedle"}],
]
CLAUDE_MAIN_NEEDLE = "zanzibarneedle"

#: Claude Code: Read, Edit, then a commit whose command fails afterwards (PostToolUseFailure).
CLAUDE_EXTRA = [
    [{"type": "tool_use", "name": "Read", "input": {"file_path": "{REPO}/README.md"}}],
    [{"type": "tool_use", "name": "Edit",
      "input": {"file_path": "{REPO}/README.md", "old_string": "# scratch", "new_string": "# scratch repo"}}],
    [{"type": "tool_use", "name": "Bash",
      "input": {"command": 'git commit -am "fix: readme title" && exit 3', "description": "Commit then fail"}}],
    [{"type": "text", "text": "Edited and committed; the command then failed on purpose. quokkaextra"}],
]
CLAUDE_EXTRA_NEEDLE = "quokkaextra"

CODEX_PATCH = "*** Begin Patch\n*** Update File: b.txt\n@@\n-hi\n+hi kalahari\n*** End Patch\n"
#: Codex: a commit through the shell tool, an apply_patch edit, the final answer.
CODEX_MAIN = [
    {"shell": 'echo hi > b.txt && git add b.txt && git commit -m "feat: add b"'},
    {"patch": CODEX_PATCH},
    {"text": "Done: added b.txt, committed it, and patched it. kalaharineedle"},
]
CODEX_MAIN_NEEDLE = "kalaharineedle"

#: Claude Code: every event carto installs for, in one session plus a `/compact` resume
#: (`harness.resume_claude_session`): a commit (PostToolUse), a Write (PreToolUse), a sub-agent
#: (SubagentStop), a command that commits and then fails (PostToolUseFailure), the answer (Stop,
#: SessionEnd); the resume compacts (PreCompact, PostCompact).
CLAUDE_EVERY_EVENT = [
    [{"type": "tool_use", "name": "Bash",
      "input": {"command": 'echo hello > a.txt && git add a.txt && git commit -m "feat: add a"',
                "description": "Create a.txt and commit it"}}],
    [{"type": "tool_use", "name": "Write",
      "input": {"file_path": "{REPO}/notes.md", "content": "# notes\n"}}],
    [{"type": "tool_use", "name": "Task",
      "input": {"description": "check the notes", "subagent_type": "general-purpose",
                "prompt": "SUBAGENT-TASK: read notes.md and say done"}}],
    [{"type": "tool_use", "name": "Bash",
      "input": {"command": 'git add notes.md && git commit -m "docs: notes" && exit 3',
                "description": "Commit the notes, then fail"}}],
    [{"type": "text", "text": "Committed a.txt and the notes; the last command failed on purpose. okapineedle"}],
]
CLAUDE_EVERY_EVENT_NEEDLE = "okapineedle"
