"""markdown-it's ``lheading`` rule, which makes the paragraph when it finds no underline.

At every paragraph, markdown-it's block loop asks ``lheading`` (a setext heading: text lines
over ``===`` or ``---``) and then ``paragraph``. Both walk the paragraph's lines the same way
and ask the rules that may end a paragraph at each (~7 calls a line); ``lheading`` fails unless
an underline comes first, and ``paragraph`` then walks the very lines again to the very line.
:func:`lheading` is markdown-it-py's rule (the same steps) except that, where it would return
False after its walk, it makes the paragraph of the lines it walked, as ``paragraph``
would: the same tokens, ``state.line`` and ``parentType``. It does so only when it is asked
outright (not ``silent``) up to ``state.lineMax``, ``paragraph`` uses (a nested block, as a
quote's, runs to its own end: the rule then fails as before), and :func:`kb.perf.mdrules.guard_rules`
puts it in only where ``paragraph`` is the next rule. Exact because the rules that may end a
paragraph change nothing when asked ``silent``, so the second walk met what the first did
(tests/test_mdrules.py compares every token with markdown-it's own). Speed machinery only.
"""

from __future__ import annotations

from typing import Any

from markdown_it.common.utils import mdTrim


def lheading(state: Any, startLine: int, endLine: int, silent: bool) -> bool:
    """markdown-it-py's ``lheading`` rule; where it found no underline, ``paragraph``'s tokens
    instead of False (when asked outright up to ``state.lineMax``; see the module)."""
    level = None
    nextLine = startLine + 1
    terminatorRules = state.md.block.ruler.getRules("paragraph")

    if state.is_code_block(startLine):
        return False

    oldParentType = state.parentType
    state.parentType = "paragraph"  # use paragraph to match terminatorRules

    # jump line-by-line until empty one or EOF
    while nextLine < endLine and not state.isEmpty(nextLine):
        # this would be a code block normally, but after paragraph
        # it's considered a lazy continuation regardless of what's there
        if state.sCount[nextLine] - state.blkIndent > 3:
            nextLine += 1
            continue

        # Check for underline in setext header
        if state.sCount[nextLine] >= state.blkIndent:
            pos = state.bMarks[nextLine] + state.tShift[nextLine]
            maximum = state.eMarks[nextLine]

            if pos < maximum:
                marker = state.src[pos]

                if marker in ("-", "="):
                    pos = state.skipCharsStr(pos, marker)
                    pos = state.skipSpaces(pos)

                    # /* = */
                    if pos >= maximum:
                        level = 1 if marker == "=" else 2
                        break

        # quirk for blockquotes, this line should already be checked by that rule
        if state.sCount[nextLine] < 0:
            nextLine += 1
            continue

        # Some tags can terminate paragraph without empty line.
        terminate = False
        for terminatorRule in terminatorRules:
            if terminatorRule(state, nextLine, endLine, True):
                terminate = True
                break
        if terminate:
            break

        nextLine += 1

    if not level:
        # Didn't find valid underline (markdown-it leaves parentType "paragraph" then)
        if silent or endLine != state.lineMax:
            return False
        return _paragraph(state, startLine, nextLine)

    content = mdTrim(state.getLines(startLine, nextLine, state.blkIndent, False))

    state.line = nextLine + 1

    token = state.push("heading_open", "h" + str(level), 1)
    token.markup = marker
    token.map = [startLine, state.line]

    token = state.push("inline", "", 0)
    token.content = content
    token.map = [startLine, state.line - 1]
    token.children = []

    token = state.push("heading_close", "h" + str(level), -1)
    token.markup = marker

    state.parentType = oldParentType

    return True


def _paragraph(state: Any, startLine: int, nextLine: int) -> bool:
    """The end of markdown-it-py's ``paragraph`` rule, its walk of the lines already done (it
    stopped at ``nextLine``); ``parentType`` is "paragraph" before and after, as there."""
    content = mdTrim(state.getLines(startLine, nextLine, state.blkIndent, False))

    state.line = nextLine

    token = state.push("paragraph_open", "p", 1)
    token.map = [startLine, state.line]

    token = state.push("inline", "", 0)
    token.content = content
    token.map = [startLine, state.line]
    token.children = []

    token = state.push("paragraph_close", "p", -1)

    state.parentType = "paragraph"

    return True
