"""The brief's limits hold for any value and any template: ``brief_seconds`` however small
stops rendering with its own message (never a traceback), kb.yaml refuses limits and links it
cannot use, and a template cannot make a huge value the output limit would come too late for."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

import kb.brief.render as render

NIGHT = ["digest", "--date", "2026-07-31", "--out", "-"]
TIMED_OUT = ("error: e1prep.zh.md.j2: rendering took more than {} s (kb.yaml brief_seconds); stopped, nothing written: "
             "check the template's loops")


def _setting(kb: Path, line: str) -> None:
    (kb / "kb.yaml").write_text((kb / "kb.yaml").read_text(encoding="utf-8") + line + "\n", encoding="utf-8")


def test_a_tiny_brief_seconds_stops_with_the_time_message(demo_kb: Path, run_kb) -> None:  # noqa: ANN001
    _setting(demo_kb, "brief_seconds: 0.000001")
    res = run_kb(NIGHT, cwd=demo_kb)
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr.strip().splitlines() == [TIMED_OUT.format("1e-06")]


@pytest.mark.parametrize("when", ["armed", "disarmed"])
def test_the_timer_firing_as_it_is_set_or_cancelled_is_the_time_message(
        demo_kb: Path, run_kb, monkeypatch: pytest.MonkeyPatch, when: str) -> None:  # noqa: ANN001
    """The alarm may come before the template starts or as its timer is being cancelled: both
    are inside the guarded span (it used to escape as a traceback of kb.brief.render._TooLong)."""
    real = signal.setitimer

    def fire(which: int, seconds: float, interval: float = 0.0) -> tuple[float, float]:
        got = real(which, 0)
        if (seconds > 0) == (when == "armed"):
            signal.getsignal(signal.SIGALRM)(signal.SIGALRM, None)  # type: ignore[operator]
        return got

    monkeypatch.setattr(render.signal, "setitimer", fire)
    _setting(demo_kb, "brief_seconds: 5")
    before = signal.getsignal(signal.SIGALRM)
    res = run_kb(NIGHT, cwd=demo_kb)
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr.strip().splitlines() == [TIMED_OUT.format("5")]
    assert signal.getsignal(signal.SIGALRM) is before  # kb's handler is gone again


@pytest.mark.parametrize("seconds", ["0.00001", "0.0001", "0.001", "0.01"])
def test_any_small_brief_seconds_is_a_brief_or_the_time_message(demo_kb: Path, run_kb, seconds: str) -> None:  # noqa: ANN001
    _setting(demo_kb, f"brief_seconds: {seconds}")
    res = run_kb(NIGHT, cwd=demo_kb)
    assert "Traceback" not in res.stderr
    if res.exit_code == 2:
        assert res.stderr.strip().splitlines() == [TIMED_OUT.format(f"{float(seconds):g}")]
    else:
        assert res.exit_code == 0 and res.stdout.startswith("<!-- kb:brief ")


def _refused(demo_kb: Path, run_kb, line: str) -> str:  # noqa: ANN001
    _setting(demo_kb, line)
    n = len((demo_kb / "kb.yaml").read_text(encoding="utf-8").splitlines())
    res = run_kb(NIGHT, cwd=demo_kb)
    assert (res.exit_code, res.stdout) == (2, "")
    [message] = res.stderr.strip().splitlines()
    prefix = f"error: {demo_kb / 'kb.yaml'}: line {n}: "
    assert message.startswith(prefix), message
    return message[len(prefix):]


@pytest.mark.parametrize("value", ["1e12", "99999999999", "86401"])
def test_brief_seconds_past_a_day_is_kb_yaml_s_error(demo_kb: Path, run_kb, value: str) -> None:  # noqa: ANN001
    """(It reached the timer and was blamed on the template: 'OverflowError: timestamp out of range'.)"""
    assert _refused(demo_kb, run_kb, f"brief_seconds: {value}") == "'brief_seconds': Input should be less than or equal to 86400"


@pytest.mark.parametrize("key", ["brief_max_mb", "max_file_mb"])
def test_a_size_limit_past_a_terabyte_is_kb_yaml_s_error(demo_kb: Path, run_kb, key: str) -> None:  # noqa: ANN001
    """(1e308 MB overflowed when made bytes: a traceback of OverflowError, exit 1.)"""
    assert _refused(demo_kb, run_kb, f"{key}: 1e308") == f"'{key}': Input should be less than or equal to 1000000"


@pytest.mark.parametrize("value", ['"javascript:alert(1)"', '"file:///etc/passwd"', '"not a url"',
                                   '"https://x.org/a b/"', '"https://x.org/(a)"', "{base: 'ftp://x.org/', style: plain}"])
def test_links_that_are_no_http_base_url_are_kb_yaml_s_error(demo_kb: Path, run_kb, value: str) -> None:  # noqa: ANN001
    from ruamel.yaml import YAML

    given = YAML(typ="safe").load(f"v: {value}")["v"]
    base = given["base"] if isinstance(given, dict) else given
    assert _refused(demo_kb, run_kb, f"links: {value}") == (
        "'links': expected relative, none or an http(s) base URL such as https://github.com/o/r/blob/main/, "
        f"got {base!r}")


@pytest.mark.parametrize("value", ["relative", "none", "https://github.com/o/r/blob/main/", "http://127.0.0.1:8080/kb",
                                   "{base: 'https://gitlab.example.org/o/r/-/blob/main/', style: gitlab}"])
def test_links_kb_accepts(demo_kb: Path, run_kb, value: str) -> None:  # noqa: ANN001
    _setting(demo_kb, f"links: {value}")
    res = run_kb(NIGHT, cwd=demo_kb)
    assert res.exit_code == 0, res.stderr
