"""Stage 7, time: what the KB held at a date, timelines of a value (``kb history``, plots), the
diff of two versions of a living document and ``kb bump``. Beside brief, verify and lint."""
