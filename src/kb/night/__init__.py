"""Stage 6, one night as a straight sequence: pick the window, read its claims, run the diff rules
(outcomes and their models), and the source ledger."""
