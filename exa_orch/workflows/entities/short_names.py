"""Two names in Chinese characters or kanji for one company: the one its legal name's, its province
or city left out (provinces.province_added), or the short name made of the first character of each
of its two-character words, its group's word kept (简称: 陕煤集团 of 陕西煤业化工集团, 南汽集团 of
南京汽车集团; 略称: 北鉄 of 北陸鉄道, 岡電 of 岡山電気軌道). profiles.py weighs either as one name;
clustering.py blocks a short name with the names it may stand for (`short_keys`)."""

from __future__ import annotations

import re

from exa_orch.workflows.entities.provinces import HANZI, province_added
from exa_orch.workflows.entities.script_forms import without_cjk_forms

_GROUP = re.compile(r"(集团|集團)$")
_BRACKETED = re.compile(r"[(（][^)）]*[)）]")  # 阳泉煤业(集团): a word bracketed, as a legal name writes it


def one_name(a: str, b: str) -> str | None:
    """How two names in Chinese characters or kanji are one company's (module docstring), or None."""
    return province_added(a, b) or _short_name(a, b)


def _core(name: str) -> tuple[str, str]:
    """A name without its legal form and what it brackets, and its group's word apart ("集团"), which
    a legal name may bracket (阳泉煤业(集团)股份有限公司)."""
    written = without_cjk_forms(name).replace(" ", "")
    bare = _BRACKETED.sub("", written)
    group = _GROUP.search(bare)
    grouped = bool(group) or any(_GROUP.search(x.strip("(（)）")) for x in _BRACKETED.findall(written))
    return bare[: group.start()] if group else bare, "集团" if grouped else ""


def _firsts(core: str) -> str:
    """The first character of each two-character word of a name of two to four such words, or ""."""
    return core[::2] if HANZI.fullmatch(core) and len(core) in (4, 6, 8) else ""


def _short_name(a: str, b: str) -> str | None:
    """One name, two or three characters, the first characters of the other's first words, and
    both with a group's word or neither: 陕煤集团 / 陕西煤业化工集团."""
    if not (HANZI.search(a) and HANZI.search(b)):
        return None  # asked of every two profiles' names: most are Latin
    (core_a, group_a), (core_b, group_b) = _core(a), _core(b)
    short, long_ = sorted((core_a, core_b), key=len)
    if group_a != group_b or not HANZI.fullmatch(short) or len(short) > 3:
        return None
    if _firsts(long_).startswith(short):
        return f"{short} is the first character of each of {long_}'s first words"
    return None


def short_keys(name: str) -> set[str]:
    """Blocking keys that meet between a short name and a name it may be made of (`_short_name`)."""
    if not HANZI.search(name):
        return set()  # asked of every record's name
    core, group = _core(name)
    if HANZI.fullmatch(core) and 2 <= len(core) <= 3:
        return {f"z:{core}{group}"}
    firsts = _firsts(core)
    return {f"z:{firsts[:k]}{group}" for k in range(2, min(3, len(firsts)) + 1)}
