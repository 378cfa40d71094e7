"""The plugin folder's manifest uses only fields of Claude Code's documented plugin manifest, and
carries what `claude plugin validate --strict` wants (an author) and the plugin directory wants
(a README). The realclient tier runs the validator itself (tests/realclient/test_claude_plugin.py).
"""

from __future__ import annotations

import json
import re

from carto_claude.install import PLUGIN_DIR

#: The manifest fields Anthropic documents: the plugin-dev manifest reference in
#: anthropics/claude-code (plugins/plugin-dev/skills/plugin-structure/references/manifest-reference.md:
#: core name/version/description, metadata author/homepage/repository/license/keywords, component
#: paths commands/agents/hooks/mcpServers) and code.claude.com/docs/en/plugins/manifest-reference
#: (userConfig, channels, and the skills, outputStyles and lspServers component fields).
DOCUMENTED_KEYS = frozenset({
    "name", "version", "description", "author", "homepage", "repository", "license", "keywords",
    "commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers",
    "userConfig", "channels",
})


def manifest() -> dict:
    return json.loads((PLUGIN_DIR / ".claude-plugin" / "plugin.json").read_text())


def test_manifest_uses_only_documented_fields():
    assert set(manifest()) <= DOCUMENTED_KEYS, sorted(set(manifest()) - DOCUMENTED_KEYS)


def test_manifest_has_what_strict_validation_and_the_directory_want():
    data = manifest()
    assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", data["name"])
    assert re.fullmatch(r"\d+\.\d+\.\d+", data["version"])
    assert isinstance(data["author"], dict) and data["author"]["name"]
    assert data["license"] == "MIT"
    readme = (PLUGIN_DIR / "README.md").read_text()
    assert "carto install claude --plugin-dir" in readme and "PATH" in readme
