"""Lenses: read-only folds over a home's events for people and agents (standup, digests,
wrapup, trustmap, profile, the SessionStart note). Each lens is a function returning a JSON
document; its click command only renders it. None writes telemetry."""
