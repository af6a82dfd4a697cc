"""``kb lint``: rules over living documents, inline disables, output formats and fixes (issue 5)."""
