"""The owner's control over a home: forgetting (`forget`), export and import (`archive`),
backups and restores (`backup`). What is never recorded at all is `carto_core.privacy.exclude`;
what was forgotten stays out through `carto_core.logio.tombstone`. docs/control.md is the guide.
"""
