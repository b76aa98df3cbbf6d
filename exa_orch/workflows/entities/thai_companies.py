"""A Thai company's name against a Latin one: read by its consonants (consonants.skeletons), the
trade it opens with said after the name or left out, or by the Latin letters it spells out by their
names (เอสซีจี, SCG). glossary.agrees asks `thai_agrees`.
"""

from __future__ import annotations

from exa_orch.workflows.entities.consonants import skeletons
from exa_orch.workflows.entities.names import clean_name
from exa_orch.workflows.entities.script_forms import without_cjk_forms
from exa_orch.workflows.entities.scripts import skeleton
from exa_orch.workflows.entities.thai_letters import THAI_LETTER

# Words a Thai company's name opens with, which its English name says after the name or leaves out
# (ธนาคารกรุงไทย, Krung Thai Bank; โรงพยาบาลจุฬารัตน์, Chularat Hospital; เครือเจริญโภคภัณฑ์, Charoen
# Pokphand Group), longest first; "(ประเทศไทย)", "(Thailand)", after a subsidiary's name
_THAI_OPENINGS = (
    ("กลุ่มธุรกิจ", "group"),
    ("โรงพยาบาล", "hospital"),
    ("ธนาคาร", "bank"),
    ("โรงแรม", "hotel"),
    ("เครือ", "group"),
    ("กลุ่ม", "group"),
)
_THAI_COUNTRY = "(ประเทศไทย)"
# a reading of consonants alone names a company only when it holds this many (บ้านปู / Banpu: 3 is
# too few a name's)
_COMPANY_CONSONANTS = 4


# Latin letters as Thai spells them out in a company's name (เอสซีจี, SCG; พีทีที, PTT; ซีเค, CK),
# by the Royal Institute's loanword spellings and their common variants
_THAI_LETTERS = {
    "เอ": "a", "บี": "b", "ซี": "c", "ดี": "d", "อี": "e", "เอฟ": "f", "จี": "g", "เอช": "h", "ไอ": "i",
    "เจ": "j", "เค": "k", "แอล": "l", "เอ็ม": "m", "เอ็น": "n", "โอ": "o", "พี": "p", "คิว": "q",
    "อาร์": "r", "เอส": "s", "ที": "t", "ยู": "u", "วี": "v", "ดับเบิลยู": "w", "เอกซ์": "x", "เอ็กซ์": "x",
    "วาย": "y", "แซด": "z",
}  # fmt: skip
_THAI_LETTER_NAMES = sorted(_THAI_LETTERS, key=len, reverse=True)  # the longest name first


def _thai_letters(word: str) -> str:
    """A Thai word made of Latin letters' names only, as those letters ("เอสซีจี" -> "scg"); "" for
    any other word."""
    found, at = "", 0
    while at < len(word):
        name = next((n for n in _THAI_LETTER_NAMES if word.startswith(n, at)), "")
        if not name:
            return ""
        found, at = found + _THAI_LETTERS[name], at + len(name)
    return found


def thai_agrees(a_written: str, b_written: str) -> str | None:
    """`thai_company` of two company names as written, either way round."""
    return thai_company(without_cjk_forms(a_written), b_written) or thai_company(
        without_cjk_forms(b_written), a_written
    )


def _trade_aside(thai: str, mine: list[str]) -> tuple[str, list[str]] | None:
    """A Thai name and a Latin one's words without "(Thailand)", which both must write or neither
    (None otherwise), and without the trade the Thai name opens with (`_THAI_OPENINGS`)."""
    if (_THAI_COUNTRY in thai) != ("thailand" in mine):
        return None
    thai, mine = thai.replace(_THAI_COUNTRY, " ").strip(), [w for w in mine if w != "thailand"]
    for opening, english in _THAI_OPENINGS:
        if thai.startswith(opening) and len(thai) > len(opening):
            return thai[len(opening) :].strip(), [w for w in mine if w != english]
    return thai, mine


def thai_company(written: str, latin: str) -> str | None:
    """A company's name in Thai letters, its legal form gone (script_forms.without_cjk_forms), whose
    consonants are those of a Latin one (`skeletons`): the trade Thai writes before the name said
    after it in the Latin name or left out (`_THAI_OPENINGS`), "(Thailand)" on both sides or
    neither, `_COMPANY_CONSONANTS` at least; or whose words spell the Latin name's letters out by
    their names, three at least (เอสซีบี เอกซ์ / SCBX: `_THAI_LETTERS`); None otherwise."""
    if not THAI_LETTER.search(written) or THAI_LETTER.search(latin):
        return None
    parts = _trade_aside(written.strip(), clean_name(latin).split())  # "Chularat Hospital PCL": no form
    if parts is None:
        return None
    thai, mine = parts
    spelled = " ".join(_thai_letters(w) or w for w in thai.split())
    if spelled != thai and not THAI_LETTER.search(spelled):  # letters alone: as the Latin name writes them
        letters = spelled.replace(" ", "")
        return f"{written} spells {latin} out" if len(letters) >= 3 and letters == "".join(mine) else None
    readings = [r for r in (skeletons(t, " ".join(mine)) for t in dict.fromkeys([thai, spelled])) if r]
    said = max(readings, default=None)
    if not said or said[0] <= 0 or sum(len(skeleton(w)) for w in mine) < _COMPANY_CONSONANTS:
        return None
    return said[1]
