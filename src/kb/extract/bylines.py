"""Lines that carry a date but are no claim (issue 8, issue 20): bylines and signatures, metadata
lines, a brief's own title, as patterns; :func:`kb.extract.kinds.non_claim` decides with them. The
words are data in :mod:`kb.extract.vocab.kinds` (``METADATA_LABELS``, ``SIGNATURE_TIMES``).
"""

from __future__ import annotations

import re

from kb.extract.vocab.kinds import METADATA_LABELS, SIGNATURE_TIMES

_SEP = r"[\s·•,，|/()（）\-—–~]"
#: A byline or signature once its dates are blanked: a label, a name, a separator, a time of day.
BYLINE_RE = re.compile(
    rf"^{_SEP}*(?P<lead>[—–]|--)?{_SEP}*"
    r"(?:(?P<label>执行人|执行|作者|记录人|记录|整理|撰写|编辑|签名|author|authors|by|written by|posted by|signed|"
    r"signed-off-by|from|发件人)\s*[:：]?\s*)?"
    r"(?P<name>[^\s·•,，|/:：()（）]{1,24}(?: [^\s·•,，|/:：()（）]{1,24})?)?"
    rf"(?P<sep>{_SEP}*)"
    rf"(?:(?P<label2>date|日期|时间|写于|更新于|updated|posted|on|at|于)\s*[:：]?)?{_SEP}*"
    rf"(?:(?P<when>{'|'.join(SIGNATURE_TIMES)}){_SEP}*)?$",
    re.IGNORECASE,
)
#: A metadata line, dates blanked: labels with ``:``/``=``, time zones (``generated_at: …+08:00``).
METADATA_RE = re.compile(
    r"^[\s>*_`\-·•|]*(?:(?:" + "|".join(METADATA_LABELS) + r")[\s*_`]*(?:[:：=][\s*_`]*)?"
    r"(?:[+\-−]\d{2}:?\d{2}|z|utc(?:[+\-]\d{1,2})?|gmt|cst|\(?(?:utc|gmt)?[+\-]\d{1,2}(?::?\d{2})?\)?|[\s,，;；|·•()（）_*`]"
    r"|(?<![a-z])(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?![a-z]))*)+$",
    re.IGNORECASE)
#: Words of a brief's or briefing's own title ("llm-infra · E1 预消化简报（2026-07-30）").
TITLE_WORD_RE = re.compile(
    r"简报|预消化|日报|周报|月报|速递|汇总|要点|雷达|(?<![a-z])(?:brief|briefing|digest|newsletter|weekly|daily|"
    r"report|radar|roundup|e1prep|e1)(?![a-z])", re.IGNORECASE)
