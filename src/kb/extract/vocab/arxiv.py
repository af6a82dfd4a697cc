"""Names around arXiv ids: the archives of old-style ids and the other preprint servers whose
numbers look like arXiv's. Data only: :mod:`kb.extract.arxiv_ids` builds its patterns from these.
Source: arXiv help, "Understanding the arXiv identifier"; issue 20 (``viXra:1101.0007``).
"""

from __future__ import annotations

KNOWN_ARCHIVES: frozenset[str] = frozenset(
    {
        # archives that issued old-style ids (arXiv "Understanding the arXiv identifier")
        "acc-phys", "adap-org", "alg-geom", "ao-sci", "astro-ph", "atom-ph", "bayes-an",
        "chao-dyn", "chem-ph", "cmp-lg", "comp-gas", "cond-mat", "cs", "dg-ga", "funct-an",
        "gr-qc", "hep-ex", "hep-lat", "hep-ph", "hep-th", "math", "math-ph", "mtrl-th",
        "nlin", "nucl-ex", "nucl-th", "patt-sol", "physics", "plasm-ph", "q-alg", "q-bio",
        "quant-ph", "solv-int", "supr-con",
        # later archives, accepted so that a subject-class form never reads as unknown
        "q-fin", "stat", "eess", "econ",
    }
)  # fmt: skip
"""Archive names allowed before ``/`` in an old-style id (subject class not included)."""

OTHER_ARCHIVES: tuple[str, ...] = (
    "vixra", "biorxiv", "medrxiv", "chemrxiv", "psyarxiv", "socarxiv", "edarxiv", "eartharxiv",
    "engrxiv", "techrxiv", "ssrn", "hal", "zenodo", "osf", "preprints", "researchsquare",
)
"""Other preprint servers and repositories: a ``YYMM.NNNN`` after one of their names, prefixes
or URLs (``viXra:1101.0007``, ``vixra.org/abs/1101.0007``) is their number, no arXiv id
(issue 20)."""
