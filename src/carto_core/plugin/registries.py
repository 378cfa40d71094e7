"""The named registries every plugin fills, and what `carto plugins` says of each plugin.

Registries are built by calling each plugin's registration hooks one plugin at a time so that
every name is attributed to the plugin that registered it. A name registered twice is rejected:
the first registration stays and the clash is recorded as a problem. carto's own plugins (core's
built-ins and the distributions in `OWN_DISTRIBUTIONS`) register before any other, so a
third-party plugin can never take a name they use (a ``bm25`` of its own would otherwise have
replaced carto's in every search); between two third-party plugins the first in entry-point
name order keeps the name. A registry accepts only subclasses of its base classes, named by
dotted name and checked along each class's MRO (no base module is imported to load plugins),
under a name that matches `NAME_RULE`. Stdlib only.
"""

from __future__ import annotations

#: Registration hooks and the registry each one fills.
REGISTRATION_HOOKS: dict[str, str] = {
    "carto_register_sources": "sources",
    "carto_register_writers": "writers",
    "carto_register_rankers": "rankers",
    "carto_register_fusions": "fusions",
    "carto_register_analyzers": "analyzers",
    "carto_register_decay_policies": "decay_policies",
    "carto_register_fact_verbs": "fact_verbs",
    "carto_register_embedders": "embedders",
}

#: The base classes a registry accepts, by dotted name (checked along each class's MRO, so no
#: base module is imported to load plugins). They are the hookspecs' annotations; a meta-test
#: (tests/core/test_hookspecs_meta.py) fails when the two disagree.
REGISTRY_BASES: dict[str, tuple[str, ...]] = {
    "sources": ("carto_core.model.sources.Source",),
    "writers": ("carto_core.model.sources.Writer",),
    "rankers": ("carto_core.search.api.Ranker",),
    "fusions": ("carto_core.search.api.Fusion",),
    "analyzers": ("carto_core.search.tokens.Analyzer",),
    "decay_policies": ("carto_core.search.api.DecayPolicy",),
    "fact_verbs": ("carto_core.facts.verb.FactVerb",),
    "embedders": ("carto_core.semantic.embedder.Embedder",),
}

#: What a search needs (rankers, fusions, analyzers, decay policies) and what facts need.
RANKING_HOOKS = ("carto_register_rankers", "carto_register_fusions", "carto_register_analyzers",
                 "carto_register_decay_policies")
FACT_HOOKS = ("carto_register_fact_verbs",)
#: The registries that had no hook of their own once (their classes came through
#: `carto_register_rankers`, which still takes them, with a DeprecationWarning).
DEPRECATED_UNDER_RANKERS = {"fusions": "carto_register_fusions",
                            "analyzers": "carto_register_analyzers"}
EMBEDDER_HOOKS = ("carto_register_embedders",)


#: The distributions of carto's own plugins (this repository's workspace packages under
#: plugins/ and rankers/, and carto-core's built-ins), normalised as `normalise_distribution`
#: does. A test keeps it equal to the workspace's pyproject files.
OWN_DISTRIBUTIONS = frozenset({"carto-core", "carto-rankers", "carto-claude", "carto-codex",
                               "carto-git", "carto-hermes"})


#: Every registry's names: lowercase ASCII letters, digits and hyphens, not starting with a
#: hyphen. A name becomes a command argument (`carto ingest NAME`, `--ranker NAME`) and a file
#: name (a source's checkpoint): "../x" would have written outside the home, "-x" reads as an
#: option.
NAME_RULE = "[a-z0-9][a-z0-9-]*"
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


def valid_name(name: object) -> bool:
    """Whether `name` matches `NAME_RULE` (a set test: no `re` on the cold path)."""
    return (isinstance(name, str) and bool(name) and name[0] != "-"
            and _NAME_CHARS.issuperset(name))


def normalise_distribution(name: str | None) -> str:
    """A distribution name as PEP 503 compares them (`carto_claude` is `carto-claude`)."""
    out = (name or "").lower()
    for sep in ("_", "."):
        out = out.replace(sep, "-")
    return out


def own_distribution(name: str | None) -> bool:
    """Whether distribution `name` is one of carto's own (`OWN_DISTRIBUTIONS`)."""
    return normalise_distribution(name) in OWN_DISTRIBUTIONS


def block_hint(plugin: str) -> str:
    """The end of a plugin problem's fix: how to go on without the plugin."""
    return f"or block it with CARTO_DISABLE_PLUGINS={plugin}"


def uninstall_command(distribution: str) -> str:
    """The command, in backquotes, that uninstalls `distribution` from the environment carto
    runs in: this interpreter's pip (a bare `pip` on PATH may be another environment's, and
    reinstalling a distribution whose entry point is refused changes nothing); an environment
    made without pip (uv's) gets uv's form of the same."""
    import importlib.util
    import shlex
    import sys

    python, name = shlex.quote(sys.executable), shlex.quote(distribution)
    if importlib.util.find_spec("pip") is None:
        return f"`uv pip uninstall --python {python} {name}`"
    return f"`{python} -m pip uninstall {name}`"


class DuplicateNameError(ValueError):
    """A second class under a name that a registry already holds."""


class InvalidNameError(ValueError):
    """A class whose name does not match `NAME_RULE`."""


class UnknownNameError(LookupError):
    """A name that no registered class has; the message lists the accepted names."""


class NamedRegistry:
    """Classes of one kind by unique name, with the plugin that registered each; with `bases`
    (dotted names), only subclasses of one of them."""

    def __init__(self, kind: str, bases: tuple[str, ...] = ()):
        self.kind = kind
        self.bases = bases
        self._items: dict[str, tuple[type, str]] = {}

    def accepts(self, cls: type) -> bool:
        """Whether `cls` subclasses one of the registry's bases (any class without bases)."""
        return not self.bases or any(f"{c.__module__}.{c.__qualname__}" in self.bases
                                     for c in getattr(cls, "__mro__", ()))

    def register(self, cls: type, plugin: str = "?") -> type:
        name = getattr(cls, "name", None)
        if not isinstance(name, str) or not name:
            raise ValueError(f"{self.kind}: {cls!r} from {plugin} has no `name`")
        if not valid_name(name):
            raise InvalidNameError(f"{self.kind} {name!r} from plugin {plugin!r} rejected: a name must "
                             f"match {NAME_RULE} (lowercase letters, digits and hyphens, not "
                             "starting with a hyphen)")
        if not self.accepts(cls):
            raise ValueError(f"{self.kind} {name!r} from plugin {plugin!r} rejected: "
                             f"{cls.__module__}.{cls.__qualname__} subclasses none of "
                             f"{', '.join(self.bases)}")
        if name in self._items:
            other = self._items[name][1]
            raise DuplicateNameError(
                f"{self.kind} {name!r} from plugin {plugin!r} rejected: "
                f"already registered by plugin {other!r}"
            )
        self._items[name] = (cls, plugin)
        return cls

    def get(self, name: str) -> type:
        try:
            return self._items[name][0]
        except KeyError:
            accepted = ", ".join(self.names()) or "(none installed)"
            raise UnknownNameError(f"unknown {self.kind} {name!r}; accepted: {accepted}") from None

    def plugin_of(self, name: str) -> str:
        return self._items[name][1]

    def names(self) -> list[str]:
        return sorted(self._items)

    def items(self):
        for name in self.names():
            yield name, self._items[name][0]

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __len__(self) -> int:
        return len(self._items)


class PluginInfo:
    """One plugin as `carto plugins` lists it: where it comes from and what it did."""

    def __init__(self, name: str, distribution: str | None = None, version: str | None = None,
                 module: str | None = None, builtin: bool = False, error: str | None = None,
                 blocked: bool = False, hooks: list[str] | None = None,
                 registered: dict[str, list[str]] | None = None,
                 capture: dict[str, str] | None = None):
        self.name = name
        self.distribution = distribution
        self.version = version
        self.module = module
        self.builtin = builtin
        self.error = error
        self.blocked = blocked
        self.hooks = hooks if hooks is not None else []
        self.registered = registered if registered is not None else {}
        #: provider -> "module:function" of the live capture its distribution ships.
        self.capture = capture if capture is not None else {}
        #: A refused entry point: the distribution whose entry point holds the name.
        self.taken_by: str | None = None
        #: An entry point that failed to load: the files its failure went through, with their
        #: stamps (the plugin table's failure record, `table.record_hooks`).
        self.error_files: dict[str, list[int] | None] | None = None

    @property
    def own(self) -> bool:
        """Whether this is one of carto's own plugins (`OWN_DISTRIBUTIONS`): they register
        first and keep their names in a clash."""
        return self.builtin or own_distribution(self.distribution)

    def __repr__(self) -> str:
        return f"PluginInfo({self.name!r}, {self.distribution!r}, error={self.error!r})"


class Registries:
    """The loaded plugin manager (pluggy's or a `LightManager`) plus every named registry."""

    def __init__(self, pm, plugins: dict[str, PluginInfo]):
        self.pm = pm
        self.plugins = plugins
        self.problems: list[str] = []
        #: problem -> what to do about it (`carto doctor`); a problem without one gets a
        #: general fix there.
        self.fixes: dict[str, str] = {}
        self.sources = NamedRegistry("source", REGISTRY_BASES["sources"])
        self.writers = NamedRegistry("writer", REGISTRY_BASES["writers"])
        self.rankers = NamedRegistry("ranker", REGISTRY_BASES["rankers"])
        self.fusions = NamedRegistry("fusion", REGISTRY_BASES["fusions"])
        self.analyzers = NamedRegistry("analyzer", REGISTRY_BASES["analyzers"])
        self.decay_policies = NamedRegistry("decay policy", REGISTRY_BASES["decay_policies"])
        self.fact_verbs = NamedRegistry("fact verb", REGISTRY_BASES["fact_verbs"])
        self.embedders = NamedRegistry("embedder", REGISTRY_BASES["embedders"])
        for plugin_name, plugin in pm.list_name_plugin():
            info = plugins.get(plugin_name)
            if info is not None:
                info.hooks = sorted(
                    caller.name for caller in pm.get_hookcallers(plugin) or ()
                )
                # A blocked plugin is in pluggy's list (as None) with no hooks: nothing to say.
                if not info.hooks and not info.builtin and not info.blocked:
                    self.problem(
                        f"plugin {plugin_name!r} ({info.module}) implements no carto hook: its "
                        "entry point names the wrong module, or the distribution needs reinstalling",
                        f"point the entry point at the module with the plugin's hooks or reinstall "
                        f"its distribution ({info.distribution}); {block_hint(plugin_name)}")
        for hook_name, attr in REGISTRATION_HOOKS.items():
            registry = getattr(self, attr)
            impls = getattr(pm.hook, hook_name).get_hookimpls()
            # carto's own plugins first (stable: otherwise in loading order), so theirs are the
            # names that stay in a clash.
            impls.sort(key=lambda impl: not self._own(impl.plugin_name))
            for impl in impls:
                self._call_registration(impl, registry)

    def problem(self, text: str, fix: str | None = None) -> None:
        """Record a problem (`carto plugins`, `carto doctor`) and what to do about it."""
        self.problems.append(text)
        if fix:
            self.fixes[text] = fix

    def _own(self, plugin: str) -> bool:
        info = self.plugins.get(plugin)
        return info is not None and info.own

    def _call_registration(self, impl, registry: NamedRegistry) -> None:
        plugin = impl.plugin_name
        block = block_hint(plugin)

        def register(cls):
            into = self._deprecated_route(registry, cls, plugin)
            try:
                into.register(cls, plugin)
            except DuplicateNameError as exc:
                other = into.plugin_of(cls.name)
                if self._own(other) and not self._own(plugin):
                    self.problem(f"{exc} (carto's own plugins keep their names)",
                                 f"rename the {into.kind} in plugin {plugin!r} {block}")
                else:
                    self.problem(str(exc), f"rename the {into.kind} in one of plugins {other!r} "
                                           f"and {plugin!r}, or block one with CARTO_DISABLE_PLUGINS")
                return cls
            except InvalidNameError as exc:
                self.problem(str(exc), f"rename the {into.kind} in plugin {plugin!r} to match "
                                       f"{NAME_RULE} (an update of the plugin) {block}")
                return cls
            except ValueError as exc:
                self.problem(str(exc), f"correct the {into.kind} in plugin {plugin!r} (an "
                                       f"update of the plugin) {block}")
                return cls
            self.plugins[plugin].registered.setdefault(into.kind, []).append(cls.name)
            return cls

        try:
            impl.function(register=register)
        except Exception as exc:  # a broken plugin must not take the CLI down
            self.problem(f"plugin {plugin!r} failed in {registry.kind} registration: {exc!r}",
                         f"update or reinstall plugin {plugin!r} {block}")

    def _deprecated_route(self, registry: NamedRegistry, cls, plugin: str) -> NamedRegistry:
        """The registry a class goes to: `registry`, or for a fusion or an analyzer registered
        through `carto_register_rankers` (the one hook of earlier versions), its own, with a
        DeprecationWarning naming the hook to use."""
        if registry is not self.rankers or registry.accepts(cls):
            return registry
        for attr, hook in DEPRECATED_UNDER_RANKERS.items():
            own = getattr(self, attr)
            if own.accepts(cls):
                import warnings

                warnings.warn(f"plugin {plugin!r} registers {own.kind} {getattr(cls, 'name', cls)!r} "
                              f"through carto_register_rankers: use {hook}", DeprecationWarning,
                              stacklevel=3)
                return own
        return registry

    def register_commands(self, cli) -> None:
        for impl in self.pm.hook.carto_register_commands.get_hookimpls():
            before = _command_paths(cli)
            try:
                impl.function(cli=cli)
            except Exception as exc:
                self.problem(f"plugin {impl.plugin_name!r} failed adding commands: {exc!r}",
                             f"update or reinstall plugin {impl.plugin_name!r} "
                             f"{block_hint(impl.plugin_name)}")
                continue
            # Subcommands added under core groups count too (`ingest hermes`, `install claude`).
            added = sorted(_command_paths(cli) - before)
            if added:
                self.plugins[impl.plugin_name].registered.setdefault("command", []).extend(added)


def _command_paths(group, prefix: str = "") -> set[str]:
    """Names of the commands already built in a click group, subgroups as `group sub`."""
    paths = set()
    for name, command in getattr(group, "commands", {}).items():
        paths.add(prefix + name)
        if hasattr(command, "commands"):
            paths |= _command_paths(command, prefix + name + " ")
    return paths
