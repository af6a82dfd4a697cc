"""Stage 7, ``kb verify``: arXiv ids against arXiv (the real ``arxiv`` client) and the KB, the
arXiv cache, and ``kb card new``. Beside brief, lint and history; imports none of them."""
