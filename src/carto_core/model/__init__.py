"""The records: the normalized Event, the Source and Writer bases, configuration, project and session names, the corpus and the backfill runner."""
