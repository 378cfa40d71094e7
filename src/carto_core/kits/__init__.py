"""Contract kits for the search and semantic extension points, fact verbs and writers: pytest
classes a plugin subclasses with a fixture giving the object under test, each test one rule the
base class (or `carto_core.plugin.hookspecs`) states. The source and capture kits are
`carto_core.testing`'s. Opt in from a test module with ``pytest_plugins = ["carto_core.testing"]``
(the shared fixtures) and subclass the kit; `docs/plugins.md` ("Testing a plugin") has the list.

Every built-in passes its kit (tests/kit/test_builtin_kits.py) and every rule is shown failing
on a deliberately broken fake (tests/kit/test_kits_catch.py).
"""
