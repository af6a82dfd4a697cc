"""Stage 2, text → spans: pure functions over one string (arXiv ids, dates, quantities, metrics,
units, kinds, names, subjects, qualifiers, titles).

Every function takes plain text and returns records with character spans into that text;
none reads files, the store or configuration beyond what it is handed.
"""
