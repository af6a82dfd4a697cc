"""Numbers as people write them (issue 21) and exponent notation (issue 24 item 5): every form of
the issues, zh and en, read with exact values; words holding numeral characters read as none.

Each row: text -> [(raw, value or (low, high), unit, bound, metric, transition)].
"""

from __future__ import annotations

import pytest

from kb.extract.numbers import parse_number
from kb.extract.quantities import find_quantities
from kb.extract.zh_numerals import zh_value


def _read(text: str) -> list[tuple]:
    out = []
    for q in find_quantities(text):
        assert q.raw == text[q.start:q.end]
        v = q.value if q.value is not None else (q.low, q.high)
        out.append((q.raw, v, q.unit, q.bound, q.metric, q.transition))
    return out


@pytest.mark.parametrize(("raw", "value"), [
    ("三千二百", 3200.0), ("三十七点二", 37.2), ("负十五", -15.0), ("两", 2.0), ("十五", 15.0),
    ("3万2千5百", 32500.0), ("2千零50", 2050.0), ("20万万", 2e9), ("1.6萬億", 1.6e12), ("五十万亿", 5e13),
    ("一千零五十", 1050.0), ("零点五", 0.5), ("1e6", 1e6), ("1E-3", 0.001), ("1.5e10", 1.5e10), ("-2.5e-2", -0.025),
])
def test_parse_number_reads_numerals_and_exponents(raw: str, value: float) -> None:
    assert parse_number(raw) == value


@pytest.mark.parametrize("raw", ["一些", "万一", "统一", "", "1e", "3万 2千"])
def test_zh_value_refuses_words_that_are_no_number(raw: str) -> None:
    with pytest.raises(ValueError, match="number"):
        parse_number(raw)


def test_zh_value_is_the_one_reader() -> None:
    assert zh_value("六百") == 600.0
    with pytest.raises(ValueError, match="一些"):
        zh_value("一些")


ZH = [
    # Chinese numerals
    ("吞吐提升百分之三十七点二", [("百分之三十七点二", 37.2, "%", None, "throughput", None)]),
    ("TTFT 六百多万", [("六百多万", 6e6, None, ">", "ttft", None)]),
    ("准确率负十五", [("负十五", -15.0, None, None, "accuracy", None)]),
    ("吞吐翻两番", [("翻两番", 4.0, "×", None, "throughput", None)]),
    ("吞吐翻一番", [("翻一番", 2.0, "×", None, "throughput", None)]),
    ("吞吐翻倍", [("翻倍", 2.0, "×", None, "throughput", None)]),
    ("吞吐提升两倍", [("两倍", 2.0, "×", None, "throughput", None)]),
    ("吞吐快了一倍", [("一倍", 2.0, "×", None, "throughput", None)]),
    ("吞吐提升一倍", [("一倍", 2.0, "×", None, "throughput", None)]),
    ("吞吐三千二百 tok/s", [("三千二百 tok/s", 3200.0, "tok/s", None, "throughput", None)]),
    # digits with Chinese magnitudes and forms
    ("内存 3万2千5百 MB", [("3万2千5百 MB", 3.25e10, "B", None, "memory", None)]),
    ("2千零50 tok/s", [("2千零50 tok/s", 2050.0, "tok/s", None, "throughput", None)]),
    ("成本 20万万元", [("20万万元", 2e9, "¥", None, "cost", None)]),
    ("1.6萬億 美元", [("1.6萬億 美元", 1.6e12, "$", None, None, None)]),
    ("300余万 tokens", [("300余万 tokens", 3e6, "tokens", ">", None, None)]),
    ("涵盖了 10 余个主流模型", [("10 余个", 10.0, "个", ">", None, None)]),
    ("包含6.3万亿个标记", [("6.3万亿个", 6.3e12, "个", None, None, None)]),
    ("准确率下降百分之7.5", [("百分之7.5", -7.5, "%", None, "accuracy", None)]),
    ("接受率 ８成", [("８成", 80.0, "%", None, "acceptance_rate", None)]),
    ("接受率 1.5成", [("1.5成", 15.0, "%", None, "acceptance_rate", None)]),
    ("接受率七成", [("七成", 70.0, "%", None, "acceptance_rate", None)]),
    ("准确率下降３．１個百分點", [("３．１個百分點", -3.1, "pp", None, "accuracy", None)]),
    ("延迟负2.4%", [("负2.4%", -2.4, "%", None, "latency", None)]),
    # zh units (pint, one alias table) and currencies
    ("身高172公分", [("172公分", 1.72, "m", None, None, None)]),
    ("距离25千米", [("25千米", 25000.0, "m", None, None, None)]),
    ("距离 3 公里", [("3 公里", 3000.0, "m", None, None, None)]),
    ("重 4.5千克", [("4.5千克", 4.5, "kg", None, None, None)]),
    ("喝 2升", [("2升", 2.0, "L", None, None, None)]),
    ("服用 500毫升", [("500毫升", 0.5, "L", None, None, None)]),
    ("剂量 20毫克", [("20毫克", 2e-05, "kg", None, None, None)]),
    ("气温零下12摄氏度", [("零下12摄氏度", -12.0, "°C", None, None, None)]),
    ("气温零下十二度", [("零下十二度", -12.0, "°C", None, None, None)]),
    ("花费 3英镑", [("3英镑", 3.0, "£", None, None, None)]),
    ("票价 8.8港元", [("8.8港元", 8.8, "HK$", None, None, None)]),
    ("人民币2.5元", [("2.5元", 2.5, "¥", None, None, None)]),
    ("年龄35岁", [("35岁", 1104516000.0, "s", None, None, None)]),
    ("训练 6小时", [("6小时", 21600.0, "s", None, None, None)]),
    # bounds and signs
    ("至少 4 倍", [("4 倍", 4.0, "×", "≥", None, None)]),
    ("吞吐超80%", [("80%", 80.0, "%", ">", "throughput", None)]),
    ("吞吐逾 80%", [("80%", 80.0, "%", ">", "throughput", None)]),
    ("2000+ tokens/秒", [("2000+ tokens/秒", 2000.0, "tok/s", "≥", "throughput", None)]),
    ("P99 分别降低 12% 和 8%", [("12%", -12.0, "%", None, "latency", None), ("8%", -8.0, "%", None, "latency", None)]),
    ("延迟降低 5% 和 +3%", [("5%", -5.0, "%", None, "latency", None), ("+3%", 3.0, "%", None, "latency", None)]),
    # a change with no metric word is still read
    ("论文报告专家负载方差从 0.42 降到 0.18",
     [("0.42", 0.42, None, None, None, "from"), ("0.18", 0.18, None, None, None, "to")]),
]

EN = [
    ("1e6 tokens/s", [("1e6 tokens/s", 1e6, "tok/s", None, "throughput", None)]),
    ("1E-3 s", [("1E-3 s", 0.001, "s", None, None, None)]),
    ("1.5e10 FLOPs", [("1.5e10 FLOPs", 1.5e10, "FLOPs", None, None, None)]),
    ("5 to 7 GB", [("5 to 7 GB", (5e9, 7e9), "B", None, None, None)]),
    ("10- to 20-ms", [("10- to 20-ms", (0.01, 0.02), "s", None, None, None)]),
    ("1 1/2 hours", [("1 1/2 hours", 5400.0, "s", None, None, None)]),
    ("£3,500", [("£3,500", 3500.0, "£", None, None, None)]),
    ("€2.5M", [("€2.5M", 2.5e6, "€", None, None, None)]),
    ("3 square miles", [("3 square miles", 7769964.33101, "m^2", None, None, None)]),
    ("45 degrees Fahrenheit", [("45 degrees Fahrenheit", 7.22222222222, "°C", None, None, None)]),
    ("-5C", [("-5C", -5.0, "°C", None, None, None)]),
    ("2 mSv", [("2 mSv", 0.002, "Sv", None, None, None)]),
    ("$1.2 per GPU-hour to $2.1 per GPU-hour",
     [("$1.2 per GPU-hour to $2.1 per GPU-hour", (1.2, 2.1), "$", None, "cost", None)]),
    ("up to 3× and 1.6×", [("3×", 3.0, "×", "≤", None, None), ("1.6×", 1.6, "×", "≤", None, None)]),
]


@pytest.mark.parametrize(("text", "expected"), ZH + EN, ids=[t for t, _ in ZH + EN])
def test_forms(text: str, expected: list) -> None:
    assert _read(text) == expected


METRICS = [
    # the number's own metric word, never a condition word nor a word inside another word
    ("在 Azure 真实流量上 91%", [("91%", 91.0, "%", None, None, None)]),
    ("under bursty traffic it reaches 91%", [("91%", 91.0, "%", None, None, None)]),
    ("在国产加速器上训练 200B", [("200B", 2e11, None, None, None, None)]),
    ("30-40% memory savings while keeping accuracy", [("30-40%", (-40.0, -30.0), "%", None, "memory", None)]),
    ("流量下降 73.6%–77.1%", [("73.6%–77.1%", (-77.1, -73.6), "%", None, "traffic", None)]),
]

SETUPS = [
    # set-up counts are set-ups (SETUP_METRICS): never facts
    ("在 4 张 A100 上吞吐 2,400 tok/s",
     [("4 张", 4.0, "devices", None, "gpu_count", None), ("2,400 tok/s", 2400.0, "tok/s", None, "throughput", None)]),
    ("训练用 4×A100", [("4×", 4.0, "devices", None, "gpu_count", None)]),
    ("8 块 H800 上", [("8 块", 8.0, "devices", None, "gpu_count", None)]),
    ("32 卡", [("32 卡", 32.0, "devices", None, "gpu_count", None)]),
    ("模拟 12 周", [("12 周", 7257600.0, "s", None, "sim_length", None)]),
    ("12 周的模拟", [("12 周", 7257600.0, "s", None, "sim_length", None)]),
    ("Qwen2.5 72B 上", [("72B", 7.2e10, None, None, "params", None)]),
]


@pytest.mark.parametrize(("text", "expected"), METRICS + SETUPS, ids=[t for t, _ in METRICS + SETUPS])
def test_metric_words_and_setups(text: str, expected: list) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize("text", [
    "一些", "统一", "一般", "两岸", "四川", "万一", "一直", "一天", "一周", "一次", "三个模型", "两种方法", "第三",
    "数十倍", "几十倍", "八成是", "零成本", "一成不变", "十万火急", "三分之二的请求", "三千二百", "系统升级到 2 版",
    "克隆 3 份", "米哈游", "每两周发一次版", "三天后", "10 多", "三元组", "支柱二rl算法", "第二 GB", "6→5", "从 6 到 5", "十分重要", "百分之", "v1e5", "0x1e3",
])
def test_no_number_that_is_not_in_the_text(text: str) -> None:
    assert _read(text) == []
