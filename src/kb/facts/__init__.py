"""Stage 5, claims as the diff sees them: the Attributor (who a number belongs to, built in one
place), whether two values, facts or set-ups are the same, relays, revisions, queries."""
