"""carto's public API: every name a plugin may import from carto, and the only module it imports.

A source, a live capture, a ranker, a fusion, an analyzer, a decay policy, an embedder, a fact
verb, a writer or a command imports what it needs from here::

    from carto_core.api import Emit, ReadBatch, Source, Stream, hookimpl, order_row

Names are resolved on first use (`EXPORTS`: name -> "module:attribute", a module alone naming
the module): importing this module costs a dictionary, and a live-capture module that takes
`Context` from here loads what `Context` needs and nothing else, so the hook path stays as light
as before. Core itself never imports this module (its modules import each other directly).
`tests/core/test_public_api.py` checks that every name resolves and that the bundled plugins,
the example, what `carto new-plugin` generates and the code examples of docs/plugins.md and
docs/writing-a-source.md import carto through this module alone.
"""

from __future__ import annotations

#: Every public name -> "module:attribute" (a module alone: the module).
EXPORTS: dict[str, str] = {
    # live capture (stdlib only: a capture module runs on every tool call)
    "start_catch_up": "carto_core.capture.catchup:start_catch_up",
    "Context": "carto_core.capture.context:Context",
    "new_event_id": "carto_core.capture.context:new_event_id",
    "Outcome": "carto_core.capture.context:Outcome",
    "SALIENCE": "carto_core.capture.context:SALIENCE",
    "start_keep_up": "carto_core.capture.keepup:start_keep_up",
    "capture_transcript": "carto_core.capture.live:capture_transcript",
    "source_options": "carto_core.capture.live:source_options",
    "transcript_changed": "carto_core.capture.live:transcript_changed",
    "capture_agent_event": "carto_core.capture.milestones:capture_agent_event",
    "capture_milestone": "carto_core.capture.milestones:capture_milestone",
    "capture_session_start": "carto_core.capture.milestones:capture_session_start",
    "context_output": "carto_core.capture.output:context_output",
    "edit_collision_output": "carto_core.capture.output:edit_collision_output",
    "apply_patch_paths": "carto_core.capture.shell:apply_patch_paths",
    "flatten": "carto_core.capture.shell:flatten",
    "shell": "carto_core.capture.shell",
    "capture_file_edit": "carto_core.capture.tooluse:capture_file_edit",
    "capture_patch": "carto_core.capture.tooluse:capture_patch",
    "capture_shell": "carto_core.capture.tooluse:capture_shell",
    "recorded_tool_calls": "carto_core.capture.tooluse:recorded_tool_calls",
    "reported_commits": "carto_core.capture.tooluse:reported_commits",
    "AGENT_TOOLS": "carto_core.capture.turnactivity:AGENT_TOOLS",
    "commit_from_output": "carto_core.capture.turnactivity:commit_from_output",
    "set_edits": "carto_core.capture.turnactivity:set_edits",
    "SHELL_TOOLS": "carto_core.capture.turnactivity:SHELL_TOOLS",
    "SPAWN_TOOLS": "carto_core.capture.turnactivity:SPAWN_TOOLS",
    "ToolLog": "carto_core.capture.turnactivity:ToolLog",
    "capture_web_tool": "carto_core.capture.webtools:capture_web_tool",
    # command lines a plugin adds
    "report_summary": "carto_core.cli.ingest_cmd:report_summary",
    "run_with_progress": "carto_core.cli.ingest_cmd:run_with_progress",
    "window_options": "carto_core.cli.ingest_cmd:window_options",
    "window_values": "carto_core.cli.ingest_cmd:window_values",
    "add_commands": "carto_core.cli.plugin_commands:add_commands",
    # owners of a git history (`carto digest day`, `carto ingest git`)
    "profile_authors": "carto_core.lenses.digest:profile_authors",
    # fact verbs
    "FactVerb": "carto_core.facts.verb:FactVerb",
    # backfill
    "CheckpointStore": "carto_core.ingest.runner:CheckpointStore",
    # installing hooks into an agent
    "install_options": "carto_core.install.agent:install_options",
    "install_result": "carto_core.install.agent:install_result",
    "load_hooks": "carto_core.install.agent:load_hooks",
    "run_install": "carto_core.install.agent:run_install",
    "uninstall_result": "carto_core.install.agent:uninstall_result",
    "backup": "carto_core.install.configedit:backup",
    "write_atomic": "carto_core.install.configedit:write_atomic",
    "carto_handlers": "carto_core.install.hooksfile:carto_handlers",
    "InstallError": "carto_core.install.hooksfile:InstallError",
    "load_settings": "carto_core.install.hooksfile:load_settings",
    "merge_hooks": "carto_core.install.hooksfile:merge_hooks",
    "render": "carto_core.install.hooksfile:render",
    "launcher": "carto_core.install.launcher:launcher",
    "ConfigEditError": "carto_core.install.recall_config:ConfigEditError",
    "enable_prompt_recall": "carto_core.install.recall_config:enable_prompt_recall",
    # prompt intents
    "classify": "carto_core.intents:classify",
    # lenses
    "start_note": "carto_core.lenses.start_note:start_note",
    # the home and its logs
    "OPEN_KEY": "carto_core.logio.fold:OPEN_KEY",
    "current_home": "carto_core.logio.home:current_home",
    "Home": "carto_core.logio.home:Home",
    "order_row": "carto_core.logio.logs:order_row",
    "iter_lines": "carto_core.logio.reader:iter_lines",
    # sources, writers and records
    "ConfigError": "carto_core.model.config:ConfigError",
    "load_config": "carto_core.model.config:load_config",
    "cwds_in_home": "carto_core.model.memoryfiles:cwds_in_home",
    "Entry": "carto_core.model.memoryfiles:Entry",
    "read_entries": "carto_core.model.memoryfiles:read_entries",
    "read_text": "carto_core.model.memoryfiles:read_text",
    "sections": "carto_core.model.memoryfiles:sections",
    "find_git": "carto_core.model.project:find_git",
    "GitInfo": "carto_core.model.project:GitInfo",
    "project_for": "carto_core.model.project:project_for",
    "batch_of": "carto_core.model.sources:batch_of",
    "Emit": "carto_core.model.sources:Emit",
    "ReadBatch": "carto_core.model.sources:ReadBatch",
    "settle_option": "carto_core.model.sources:settle_option",
    "since_cutoff": "carto_core.model.sources:since_cutoff",
    "Source": "carto_core.model.sources:Source",
    "Stream": "carto_core.model.sources:Stream",
    "Writer": "carto_core.model.sources:Writer",
    # the hook marker and the registries
    "hookimpl": "carto_core.plugin.markers:hookimpl",
    "get_registries": "carto_core.plugin.registry:get_registries",
    # redaction
    "clip": "carto_core.privacy.redact:clip",
    "holds": "carto_core.privacy.redact:holds",
    "redact_text": "carto_core.privacy.redact:redact_text",
    # prompt-time recall
    "prompt_recall": "carto_core.recall.prompt:prompt_recall",
    # rankers, fusions, analyzers and decay policies
    "DecayContext": "carto_core.search.api:DecayContext",
    "DecayPolicy": "carto_core.search.api:DecayPolicy",
    "DEPTH": "carto_core.search.api:DEPTH",
    "EngineAttributeWarning": "carto_core.search.api:EngineAttributeWarning",
    "fill_row_fields": "carto_core.search.api:fill_row_fields",
    "row_salience": "carto_core.search.api:row_salience",
    "Fused": "carto_core.search.api:Fused",
    "Fusion": "carto_core.search.api:Fusion",
    "IndexStep": "carto_core.search.api:IndexStep",
    "Ladder": "carto_core.search.api:Ladder",
    "LadderUnavailable": "carto_core.search.api:LadderUnavailable",
    "LiteScope": "carto_core.search.api:LiteScope",
    "Query": "carto_core.search.api:Query",
    "RankContext": "carto_core.search.api:RankContext",
    "Ranker": "carto_core.search.api:Ranker",
    "RRF_K": "carto_core.search.api:RRF_K",
    "SALIENCE_DEFAULT": "carto_core.search.api:SALIENCE_DEFAULT",
    "SALIENCE_MAX": "carto_core.search.api:SALIENCE_MAX",
    "SALIENCE_MIN": "carto_core.search.api:SALIENCE_MIN",
    "Scope": "carto_core.search.api:Scope",
    "SEMANTIC": "carto_core.search.api:SEMANTIC",
    "SemanticState": "carto_core.search.api:SemanticState",
    "reuse_boost": "carto_core.search.decay_knobs:reuse_boost",
    "LOG_LABELS": "carto_core.search.index_view:LOG_LABELS",
    "TF_SCALE": "carto_core.search.index_view:TF_SCALE",
    "Analyzer": "carto_core.search.tokens:Analyzer",
    "term_hash": "carto_core.search.tokens:term_hash",
    "UpstreamAnalyzer": "carto_core.search.tokens:UpstreamAnalyzer",
    # embedders and the semantic ladder
    "Embedder": "carto_core.semantic.embedder:Embedder",
    "EmbedderError": "carto_core.semantic.embedder:EmbedderError",
    "EmbedderRefused": "carto_core.semantic.embedder:EmbedderRefused",
    "EmbedderUnavailable": "carto_core.semantic.embedder:EmbedderUnavailable",
    "run_index": "carto_core.semantic.indexer:run_index",
    "not_embedded": "carto_core.semantic.pending:not_embedded",
    "SemanticFailure": "carto_core.semantic.searcher:SemanticFailure",
    "SemanticSearcher": "carto_core.semantic.searcher:SemanticSearcher",
    "fold_summary": "carto_core.model.events:fold_summary",
    "TEXT_MAX": "carto_core.semantic.text:TEXT_MAX",
    # contract kits
    "CaptureContract": "carto_core.testing:CaptureContract",
    "DecayPolicyContract": "carto_core.kits.search:DecayPolicyContract",
    "EmbedderContract": "carto_core.kits.semantic:EmbedderContract",
    "FactVerbContract": "carto_core.kits.facts:FactVerbContract",
    "FusionContract": "carto_core.kits.search:FusionContract",
    "RankerContract": "carto_core.kits.search:RankerContract",
    "WriterContract": "carto_core.kits.writers:WriterContract",
    "SourceContract": "carto_core.testing:SourceContract",
    # transcripts
    "is_human_prompt": "carto_core.transcript.lines:is_human_prompt",
    "is_scaffolding": "carto_core.transcript.lines:is_scaffolding",
    "SCAFFOLDING_PREFIXES": "carto_core.transcript.lines:SCAFFOLDING_PREFIXES",
    "TurnRead": "carto_core.transcript.read:TurnRead",
    "codex_rollouts": "carto_core.transcript.resolver:codex_rollouts",
    "find_session": "carto_core.transcript.resolver:find_session",
    "session_id_from_path": "carto_core.transcript.resolver:session_id_from_path",
    "TranscriptRoots": "carto_core.transcript.resolver:TranscriptRoots",
    "DEFAULT_SETTLE_SECONDS": "carto_core.transcript.settle:DEFAULT_SETTLE_SECONDS",
    "final_at": "carto_core.transcript.settle:final_at",
    "is_finished": "carto_core.transcript.settle:is_finished",
    "stamp_epoch": "carto_core.transcript.settle:stamp_epoch",
    "claude_usage": "carto_core.transcript.usage:claude_usage",
    "codex_usage": "carto_core.transcript.usage:codex_usage",
    "UsageSum": "carto_core.transcript.usage:UsageSum",
    # utilities
    "ExitCode": "carto_core.util.exitcodes:ExitCode",
    "FirstUse": "carto_core.util.lazyre:FirstUse",
    "Lazy": "carto_core.util.lazyre:Lazy",
    "map_npy": "carto_core.util.npymap:map_npy",
    "release_heap": "carto_core.util.heap:release",
    "save_npy": "carto_core.util.npymap:save_npy",
    "emit_json": "carto_core.util.output:emit_json",
    "JsonErrorCommand": "carto_core.util.output:JsonErrorCommand",
    "fail": "carto_core.util.output:fail",
    "usage_error": "carto_core.util.output:usage_error",
    "warn": "carto_core.util.output:warn",
    "blas_threads": "carto_core.util.parallel:blas_threads",
    "jobs": "carto_core.util.parallel:jobs",
    "make_dir": "carto_core.util.privatefiles:make_dir",
    "make_dirs": "carto_core.util.privatefiles:make_dirs",
    "write_text": "carto_core.util.privatefiles:write_text",
    "is_regular": "carto_core.util.safeio:is_regular",
    "open_regular": "carto_core.util.safeio:open_regular",
    "open_own": "carto_core.util.safeio:open_own",
    "counted": "carto_core.util.terminal:counted",
    "format_timestamp": "carto_core.util.timeparse:format_timestamp",
    "parse_timestamp": "carto_core.util.timeparse:parse_timestamp",
    "utcnow": "carto_core.util.timeparse:utcnow",
    "append_block": "carto_core.util.tomltext:append_block",
    "header_parts": "carto_core.util.tomltext:header_parts",
    "toml_string": "carto_core.util.tomltext:toml_string",
}

__all__ = sorted(EXPORTS)


def __getattr__(name: str):
    target = EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'carto_core.api' has no attribute {name!r}")
    from carto_core.plugin.resolve import resolve

    value = globals()[name] = resolve(target)
    return value


def __dir__() -> list[str]:
    return __all__
