"""kb: typed claims, living-document diffs and E1 briefs for a Markdown knowledge base."""

__version__ = "0.1.0"
