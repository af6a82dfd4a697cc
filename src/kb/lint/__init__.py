"""Stage 7, ``kb lint``: rules over living documents, inline disables, output formats and fixes
(issue 5). Beside brief, verify and history; imports none of them."""
