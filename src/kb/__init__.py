"""kb: typed claims, living-document diffs and E1 briefs for a Markdown knowledge base."""

from kb.perf.recache import install

install()  # compiled regexes kept between runs, before any module compiles one (kb.perf.recache)

__version__ = "0.1.0"
