"""Words that say what kind a claim is (DESIGN.md §2): explicit tags, kind-column values,
header names, the zh/en cue phrases per kind, and the plan and dispute words of moods.

Data only: :mod:`kb.extract.kinds` builds its patterns from these. Sources: the design card, the
seeds' own wording ("论文已报告" / "上游摘要转述" / "本棒待核", "二手摘要报告", "候选升档", "★★ 建议补",
"HF 票数和内部 Q105 编号不得替代论文证据") and issue 8.
"""

from __future__ import annotations

from kb.core.claims import Kind

TAGS: dict[str, Kind] = {
    "paper-fact": "paper-fact",
    "论文事实": "paper-fact",
    "secondhand": "secondhand",
    "摘要转述": "secondhand",
    "二手": "secondhand",
    "internal-rating": "internal-rating",
    "内部评级": "internal-rating",
}
"""Explicit tags (``[paper-fact]``, ``【二手】``): they win over everything (DESIGN.md §2, decision
order step 1)."""

COLUMN_VALUES: dict[str, Kind] = {
    **TAGS,
    "论文": "paper-fact",
    "paper": "paper-fact",
    "论文报告": "paper-fact",
    "一手": "paper-fact",
    "转述": "secondhand",
    "摘要": "secondhand",
    "二手摘要": "secondhand",
    "blog": "secondhand",
    "博客": "secondhand",
    "news": "secondhand",
    "评级": "internal-rating",
    "内部": "internal-rating",
    "rating": "internal-rating",
}
"""Values of a table's kind column (step 2), the tags included."""

KIND_HEADERS = ("类型", "kind", "claim kind", "性质", "证据类型", "证据", "evidence", "来源类型")
"""Header names of a table's claim-kind column."""

TITLE_HEADERS = ("title", "paper", "paper title", "name", "标题", "论文", "题目", "论文标题", "论文题目", "名称")
"""Table columns that hold a paper's title: their cells are no cue text (issue 8: "Portable",
"Stable Diffusion Serving via …" in a title column made claims paper-facts or secondhand)."""

RATING_MARKS = ("★", "☆")
"""Rating stars: a unit that carries them is the team's rating of what it names, a claim even
with no id, number, date or kb.yaml name (``KVServe：★★★☆☆，值得跟进`` names its paper by a card
alias, which the parser does not know; kb finds the subject when it reads the KB). Source: the
seeds' rating lines (``★★ 建议补``)."""

BUILTIN_CUES: dict[Kind, tuple[str, ...]] = {
    "secondhand": (
        "上游摘要", "二手摘要", "二手材料", "摘要称", "摘要转述", "摘要报告", "转述", "据称", "据报道",
        "据悉", "报道称", "援引", "reportedly", "is said to", "per the blog", "the blog says",
        "the post says", "according to the blog", "according to the post", "according to a blog",
        "according to the news", "according to reports",
    ),
    "paper-fact": (
        "论文报告", "论文已报告", "论文指出", "论文称", "论文显示", "论文表", "论文实验",
        "作者报告", "the paper reports", "the paper shows", "the authors report", "paper reports",
        "in the paper", "as reported in table", "the paper claims", "the authors claim",
        "according to the paper", "according to the authors",
    ),
    "internal-rating": (
        *RATING_MARKS, "候选升档", "升档", "降级", "建议补", "强候选", "内部评级", "共识候选", "试金石",
        "hf 票", "hf votes", "upvotes", "we rate", "our rating",
    ),
}
"""Cue phrases (step 4). A *strong* cue names who states the figure ("the paper reports",
"上游摘要称"); a *weak* one only hints at it ("according to", "据", "Table 3"). Priority when
several are present: strong secondhand > strong paper-fact > weak secondhand > weak paper-fact
> internal-rating (a sentence that relays anything is not first-hand; a first-hand cue outranks
a weak word). Sources: the seeds' own wording ("论文已报告" / "上游摘要转述" / "本棒待核",
"二手摘要报告", "候选升档", "★★ 建议补", "HF 票数和内部 Q105 编号不得替代论文证据"); issue 8
("via" in "a 2.1× speedup via tree attention" is a method, not a relay: no cue).
"""


AUTHOR_MEDIA: tuple[str, ...] = (
    "talk", "keynote", "presentation", "slides?", "deck", "video", "podcast", "interview", "blog", "blog post",
    "post", "tweet", "thread", "newsletter", "webinar", "livestream",
)
"""What the authors said outside their paper: after ``the authors'`` (``according to the authors'
talk``, ``per the authors' blog``) a strong secondhand cue, which outranks the paper-fact cue
``according to the authors`` (a talk or a post relayed by an analyst is no paper's table). Regex
fragments over lower-cased text."""

WEAK_CUES: dict[Kind, tuple[str, ...]] = {
    "secondhand": ("according to", "claims that"),
    "paper-fact": (),
}
"""Weak cues, outranked by any strong cue (see :data:`BUILTIN_CUES`)."""

PLAN_CUES = (
    r"建议", r"计划", r"预计", r"预期", r"打算", r"拟[于在将]", r"将[于在]", r"目标(?!模型|网络|函数|分布)",
    r"争取", r"有望", r"排期", r"下(?:周|个?月|季度|一版)",
    r"(?<![a-z])(?:we|they|i|team|teams)\s+(?:plan|intend|aim|hope|expect)s?\s+to(?![a-z])",
    r"(?<![a-z])(?:plans?|planned|planning|intends?|aims?)\s+to(?![a-z])",
    r"(?<![a-z])expected\s+(?:by|in|to|around|at)(?![a-z])", r"(?<![a-z])(?:is|are)\s+expected(?![a-z])",
    r"(?<![a-z])will\s+(?:be\s+)?(?:release|released|ship|shipped|launch|launched|land|arrive|available|"
    r"support|add|reach|go\s+live|deliver)(?![a-z])",
    r"(?<![a-z])(?:forecasts?|forecasted|projected|eta|upcoming)(?![a-z])",
    r"(?<![a-z])(?:we\s+)?(?:recommend|recommends|recommended|suggest|suggests)(?![a-z])",
    r"(?<![a-z])next\s+(?:week|month|quarter|year|release)(?![a-z])",
    r"^\W*(?:proposed|proposal|plans?|to-?do|next(?:\s+steps?)?|follow-?ups?|下一步|待办|后续)\s*[:：]", r"(?<![a-z])schedule\s+(?:a|an|the)(?![a-z])",
)
"""Words that make the figures of their clause a plan, advice or forecast (issue 8: "建议排 3–6
个月迁移", "预计 12-03 出结果" were listed as figures to verify). ``目标`` not before 模型/网络
(a speculative decoder's target model), ``拟`` only as 拟于/拟在/拟将 (not 模拟/拟合).
A unit led by a to-do label (``next:``, ``todo:``, ``下一步：``) is a plan as a whole: ``next:
re-run on H200 to confirm TPOT under 10 ms`` states no measured TPOT. Regex fragments over
lower-cased text."""

DISPUTE_CUES = (
    r"对不上", r"不一致", r"不符", r"矛盾", r"有出入", r"打架", r"不匹配", r"相悖", r"存疑", r"有误", r"写错",
    r"搞错", r"(?<![a-z])(?:does|do|did)\s*(?:not|n['’]t)\s+match(?![a-z])", r"(?<![a-z])mismatch(?:es|ed)?(?![a-z])",
    r"(?<![a-z])contradict(?:s|ed|ing)?(?![a-z])", r"(?<![a-z])inconsistent\s+with(?![a-z])",
    r"(?<![a-z])disagrees?\s+with(?![a-z])", r"(?<![a-z])conflicts?\s+with(?![a-z])", r"(?<![a-z])at\s+odds\s+with(?![a-z])",
    r"(?<![a-z])differs?\s+from(?![a-z])", r"(?<![a-z])(?:is|are)\s+wrong(?![a-z])",
)
"""Words that dispute the figures of their sentence (issue 8: "专栏写的 2.31× 和活文档的 2.03×
对不上" lent the doc's 2.03× a secondhand source).
Regex fragments over lower-cased text."""

DOUBT_CUES = (
    r"(?<![a-z])(?:looks?|seems?|feels?|reads?)\s+(?:a\s+bit\s+|somewhat\s+|way\s+|rather\s+)?"
    r"(?:off|wrong|suspicious|questionable|too\s+(?:high|low|good))(?![a-z])",
    r"(?<![a-z])(?:does|do|did)\s*(?:not|n['’]t)\s+(?:add\s+up|line\s+up|agree\s+with|hold\s+up)(?![a-z])",
    r"(?<![a-z])(?:not|hardly)\s+(?:consistent|in\s+line)\s+with(?![a-z])", r"(?<![a-z])out\s+of\s+line\s+with(?![a-z])",
    r"(?<![a-z])(?:i|we)\s+doubt(?![a-z])", r"(?<![a-z])(?:doubtful|dubious|questionable)(?![a-z])",
    r"(?<![a-z])(?:can(?:not|['’]t)|could\s*(?:not|n['’]t)|failed\s+to|unable\s+to)\s+reproduce(?![a-z])",
    r"不太对", r"不对劲", r"(?<![相绝])不对(?![称应])", r"(?<!毋庸)怀疑", r"站不住", r"复现不[出了]", r"无法复现", r"对不齐",
    r"不靠谱", r"说不通",
)
"""More dispute words (issue 20: "the 120 ms in our doc … looks off next to the authors' README",
"文档 §2.3 那个 3.2× 跟作者博客对不上"): doubt, a failed reproduction, "does not add up". They
join :data:`DISPUTE_CUES` in the ``disputed`` mood. Regex fragments over lower-cased text."""

METADATA_LABELS = (
    r"抓取(?:时间|于)", r"采集(?:时间|于)", r"爬取(?:时间|于)", r"生成(?:时间|于)", r"导出(?:时间|于)", r"同步(?:时间|于)",
    r"入库(?:时间|于)", r"收录(?:时间|于)", r"整理(?:时间|于)", r"记录时间", r"(?:最后|最近)?更新(?:时间|于)",
    r"发布(?:时间|日期|于)",
    r"最后更新", r"最近更新", r"编辑时间", r"修改时间", r"创建时间", r"抓取", r"时间戳", r"日期", r"时间",
    r"generated(?:[_ ](?:at|on))?", r"created(?:[_ ](?:at|on))?", r"updated(?:[_ ](?:at|on))?",
    r"modified(?:[_ ](?:at|on))?", r"fetched(?:[_ ](?:at|on))?", r"captured(?:[_ ](?:at|on))?",
    r"crawled(?:[_ ](?:at|on))?", r"scraped(?:[_ ](?:at|on))?", r"retrieved(?:[_ ](?:at|on))?",
    r"exported(?:[_ ](?:at|on))?", r"synced(?:[_ ](?:at|on))?", r"last[_ ](?:updated|modified|fetched|synced)",
    r"timestamp", r"date", r"time", r"as of", r"snapshot(?:[_ ](?:at|time))?", r"published(?:[_ ](?:at|on))?",
)
"""Labels of a metadata line: when a file was fetched, generated or updated (issue 20:
``抓取时间：2026-05-02 08:10``, ``generated_at: …``). A line of such labels and times only is no
claim. Regex fragments, case-insensitive."""

SIGNATURE_TIMES = (
    r"晚上?", r"早上?", r"上午", r"下午", r"中午", r"凌晨", r"傍晚", r"深夜", r"夜", r"am", r"pm", r"morning",
    r"evening", r"night", r"整理于", r"记于", r"写于", r"整理", r"记",
)
"""Words that may follow the date of a signature (``（整理：阿杰，12-01 晚）``, ``— 小林 12-01 整理``)."""

# -- line moods (issue 22): the author's own caveats and requests about an item ----------
# Separate from the figure moods above (PLAN_CUES, DISPUTE_CUES): these are read per line by
# kb.extract.caveats.line_mood, never per figure. Regex fragments over lower-cased text.

DEMOTE_CUES = (
    r"(?:地址|仓库|链接|出处|repo)[^，。；;]{0,6}待(?:确认|查|核实?)",
    r"(?<![a-z])(?:just|only)\s+a\s+trend(?![a-z])",
    r"(?<![a-z])(?:repo|url|link)\s+to\s+be\s+confirmed",
    r"(?<![a-z])do\s+not\s+promote(?![a-z])",
    r"(?<![a-z])don['’]?t\s+promote(?![a-z])",
    r"(?<![a-z])keep\s+(?:it\s+)?out\s+of\s+the\s+(?:living\s+)?doc",
    r"(?<![a-z])not\s+(?:yet\s+)?(?:for|into)\s+the\s+(?:living\s+)?doc",
    r"(?<![a-z])relative\s+(?:positions?|order|ranking)\s+only(?![a-z])",
    r"(?<![a-z])only\s+(?:the\s+)?relative\s+(?:positions?|order|ranking)(?![a-z])",
    r"不(?:建议|宜|要)(?:进|入|写入|写进|收入|放进)(?:活)?文档",
    r"不要?(?:把|将)[^，。；;]{0,16}(?:写入|写进|放进|放入|收入|补入)(?:活)?文档",
    r"不进选型",
    r"仅(?:能)?看相对(?:位置|高低|排名|排序)?",
    r"仅(?:能)?看趋势",
    r"仅供参考",
    r"别(?:进|入|写入|写进|放进)(?:活)?文档",
    r"只(?:能)?看相对(?:位置|排序|顺序|高低)",
    r"只能看(?:个)?趋势",
    r"只能看相对(?:位置|高低|排名|排序)?",
    r"暂不(?:进|入|写入|收入)(?:活)?文档",
)
"""An author demoting an item: its figures are no increment tonight. By kind: not for the doc
(``暂不进活文档``, ``不建议入文档``, ``don't promote yet``), only a trend (``这组数只能看个趋势``,
``只能看相对位置``, ``just a trend``), an unsure source (``仓库地址待确认``)."""

NO_SETUP_CUES = (
    r"(?<![a-z])no\s+(?:model|set-?up|configuration|config|concurrency)[^.;]{0,30}(?:given|stated|reported)(?![a-z])",
    r"(?<![a-z])without\s+(?:the\s+|a\s+)?(?:model|set-?up|configuration|concurrency)[^.;]{0,20}(?:given|stated)(?![a-z])",
    r"(?:没|未)(?:有)?(?:给|给出|说明|提供|交代|写)[^，。；;]{0,10}(?:配置|设置|并发|模型|硬件)",
    r"缺(?:少|乏)?(?:统一)?[^，。；;]{0,8}(?:配置|设置)",
)
"""An author saying the figures lack their set-up (``博文没有给模型和并发配置``, ``缺统一硬件、功耗、
并发和模型配置``, ``no model or concurrency given``): they demote the item like :data:`DEMOTE_CUES`."""

INCOMPARABLE_CUES = (
    r"(?<![a-z])not\s+(?:directly\s+)?comparable(?![a-z])",
    r"(?<![a-z])cannot\s+be\s+(?:directly\s+)?compared(?![a-z])",
    r"不可(?:直接)?(?:比|比较|对比)",
    r"不能(?:直接)?(?:比|比较|对比)",
    r"无法(?:直接)?(?:比|比较|对比)",
)
"""An author saying a figure is not comparable (``SLA 与主流云不可比``, ``not directly comparable``):
it demotes the item, unless the line names the living doc (``与活文档 §1.3 的 M3 Max 不同，两者不可直接
比较``): then it says the doc's value was stated under another set-up, a matter of the diff."""

HOLD_CUES = (r"先别(?:升级|升档|升)", r"暂不升(?:级|档)", r"不升档")
"""An author holding an item's rating where it is (``先别升级评级``, ``暂不升档``): about the rating
only, the item stays an increment (issue 22); shown beside the rating."""

LEAD_CUES = (
    r"仅作线索", r"只作线索", r"仅当线索", r"只当线索", r"仅供线索",
    r"(?<![a-z])(?:lead|leads)\s+only(?![a-z])", r"(?<![a-z])(?:only|just)\s+a\s+lead(?![a-z])",
)
"""An author offering an item only as a lead (``仅作线索``, ``lead only``)."""

APART_CUES = (
    r"(?:不可|不能|无法|没法|不宜)直接(?:比较|对比|相比|比)", r"不具(?:备)?可比性", r"不可比",
    r"(?<![a-z])not\s+(?:directly\s+)?comparable(?![a-z])", r"(?<![a-z])cannot\s+be\s+(?:directly\s+)?compared(?![a-z])",
    r"(?<![a-z])not\s+an?\s+apples[- ]to[- ]apples(?![a-z])",
)
"""An author saying the figures of an item are not comparable with another's (``两者不可直接比较``,
``not directly comparable``): its figures never conflict (issue 22)."""

ROW_REF_CUES = (
    r"(?P<row>[^，。；、,;:：|]{1,24}?)\s*(?:那一行|这一行|那行|这行)(?!业|情|为)",
    r"(?<![a-z])the\s+(?P<row>[^,.;:|]{1,40}?)\s+row(?![a-z])",
)
"""A line naming one row of its file's table by the row's words (``并发 32 那一行``, ``the
concurrency-32 row``): group ``row`` holds those words. Beside a demotion (``不建议入文档``), the
author keeps that row's figures out of the doc."""

EVALUATE_CUES = (
    r"值不值得[^。；;]{0,12}判断", r"是否值得[^。；;]{0,12}判断", r"请(?:晚班|夜班|执行人)[^。；;]{0,6}(?:判断|定夺|评估)",
    r"(?<![a-z])please\s+(?:judge|decide|assess|evaluate)\s+whether(?![a-z])",
)
"""An author asking the night to judge (``值不值得升档请晚班判断``, ``please judge whether …``): a
request, not a rating."""

OPINION_CUES = (
    r"(?<![a-z])editorial(?![a-z])",
    r"(?<![a-z])in\s+my\s+(?:view|opinion)(?![a-z])",
    r"(?<![a-z])my\s+(?:take|opinion|view)(?![a-z])",
    r"(?<![a-z])opinion(?![a-z])",
    r"个人(?:观点|看法|判断)",
    r"作者(?:观点|看法|的判断)",
    r"我的(?:判断|看法|观点)",
    r"看法",
    r"观点",
    r"评论",
    r"选型(?:建议|指南)",
)
"""An author's opinion, not a finding: a heading (``## 3. 选型指南（作者观点）``) over the lines it
heads, or a line's lead (``我的判断：…``, ``In my view, …``). Its figures are no values to add."""
