"""Stage 7, the E1 brief: the context of a night (rows, snapshot, steps) and its rendering with
Jinja. Beside verify, lint and history; imports none of them."""
