"""Backfill: reading what agents left behind (transcripts, histories, databases) through the
sources, checkpointed, redacted, deduplicated, into the writers."""
