"""Anchor extractors: pure functions over one string (arXiv ids, quantities, dates, references).

Every function takes plain text and returns records with character spans into that text;
none reads files or configuration.
"""
