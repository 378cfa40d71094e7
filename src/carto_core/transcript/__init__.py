"""Agent transcripts: where one is now, what its lines are, what a turn did, and when it is finished."""
