"""Small stdlib-only utilities every layer may use: lazy patterns and modules, time words, exit codes, safe opens, plain records."""
