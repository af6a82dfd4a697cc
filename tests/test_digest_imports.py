"""kb.perf.digest._IMPORT_RE, searched in "\n" + source, finds the imports a ``^`` pattern under
MULTILINE finds (the same groups, in order): on every module of kb and on random texts."""

from __future__ import annotations

import random
import re

from kb.perf import digest

_LINE_START = re.compile(r"^[ \t]*(?:from[ \t]+(kb(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)|import[ \t]+(kb(?:\.\w+)*))",
                         re.MULTILINE)


def _both(text: str) -> tuple[list, list]:
    return ([m.groups() for m in _LINE_START.finditer(text)],
            [m.groups() for m in digest._IMPORT_RE.finditer("\n" + text)])


def test_the_imports_of_every_module_are_found_as_before() -> None:
    found = 0
    for path in digest._modules().values():
        old, new = _both(digest._source(path).decode("utf-8"))
        assert new == old, path
        found += len(old)
    assert found > 300


def test_random_texts_give_the_same_imports() -> None:
    rnd = random.Random(1)
    pieces = ["\n", "from kb.x import a", "import kb.y", " ", "\t", "(", ")", "#", "b, c", "from", "kb", "import"]
    for _ in range(50000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 10)))
        old, new = _both(text)
        assert new == old, repr(text)
