"""The logs on disk: the home, log names, JSONL rows, appends, rewrites and their journal, readers, the spill, cache positions. Stdlib only (the hook path imports it)."""
