"""Names in Thai and Lao letters read as their Latin spellings write them.

`thai_reading` reads a Thai name's letters as Latin spellings have them (THAI_SOUNDS: ว is w or v,
a word's last s a t), its silent letters (THAI_SILENT: ศักดิ์, "sak") and tone-marking leads left
out; consonants.skeletons weighs the reading against a Latin name, `as_thai_writes` giving the
other ways Thai letters write that Latin name.

Unicode lays the Lao block out as the Thai one, 0x80 above it (ກ, ก; ວ, ว; ເ, เ; ່, ่): a Lao name
moved down by 0x80 is its Thai spelling (`lao_as_thai`), but for the letters whose sounds the two
languages part (ຊ is an s, Thai's ซ not ช; ຍ a y, ย not ญ), the vowel Thai writes with no mark (ົ,
a short o) and the ho that Lao writes joined to n or m (ໜ, ໝ); a style or a rank before a Lao name
(ທ່ານ, Mr; ພົນເອກ, General) is no part of it. Latin spellings of Lao names write ຊ as x (Sonexay,
Bounxouei): `latin_as_thai` reads that x as the s it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from exa_orch.workflows.entities.names import fold
from exa_orch.workflows.entities.scripts import hard_c

THAI_LETTER = re.compile(r"[\u0e01-\u0e2e]")
# Thai's letters as its names' Latin spellings have them: ทร is s (ทรัพย์, "sap"), a ph either p or
# the bh of a Sanskrit spelling (ภ: Prabha), a word's last s, ch or j a t and its last r or l an n
# (their final sounds: จิรายุส, Jirayut; สมบูรณ์, Sombun); and the letters Latin spellings write
# either way, one letter (`THAI_SOUNDS`): ว is w or v (Tiravanija, Davika), ก is k or g, ท, ฒ and ด
# are t, th, d or dh (Rodtang, Srivaddhana), จ and ช are ch or j (Jitmuangnon), a p is b
THAI_SOUNDS = str.maketrans("dgjfv", "tkcbw")


# A Thai letter under the thanthakhat (์), with its vowel mark, is not sounded: ศักดิ์ is "sak",
# นนท์ "non" (Kiatisuk, Jitmuangnon); anyascii spells it all the same. Nor is a t, th or d before
# an r under it: จันทร์ is "chan" (Duangjan), ศาสตร์ "sat".
THAI_SILENT = re.compile(r"(?:[ทตด]ร|[\u0e01-\u0e2e][\u0e34-\u0e3a]?)\u0e4c")


def sounded(script: str) -> str:
    """`script` with its silent letters sounded: the thanthakhat (์) dropped, the letter kept."""
    return script.replace("\u0e4c", "")


def folded(script: str) -> str:
    """A name folded (anyascii), its Thai silent letters (`THAI_SILENT`) left out and the quote
    marks anyascii writes for an ayin or a hamza dropped (consonants.consonant_letters)."""
    return re.sub(r"[`'’ʿʾ]", "", fold(THAI_SILENT.sub("", script)))


# ญ closing a syllable (no vowel mark after it) is sounded n, as Latin spellings write it (เจริญ,
# Charoen; anyascii: y); opening one, y (ญาณ, Yan)
_THAI_FINAL_YO = re.compile(r"ญ(?![\u0e30-\u0e3a\u0e47-\u0e4e])")


# A silent leading letter, which only marks the tone of the sonorant after it: ห before ง ญ น ม ย
# ร ล ว (หยุ่น, Yoon), อ before ย (อยู่วิทยา, Yoovidhya)
_SILENT_LEAD = re.compile(
    r"(?:(?<![\u0e01-\u0e2e])ห(?=[งญนมยรลว][\u0e30-\u0e4e])|(?<![\u0e01-\u0e2e])อ(?=ย))"
)


def _thai_ro_han(script: str) -> str:
    """รร (ro han) read as the vowel it writes: an a before a consonant (วรรณ, "wan": Chaiyawan), an
    "an" closing a word (สรร, "san")."""
    return re.sub("รร(?![\u0e01-\u0e2e])", "น", re.sub("รร(?=[\u0e01-\u0e2e])", "", script))


def thai_reading(script: str, *, final: bool = True, vo: bool = False) -> str:
    """A name in Thai letters read as its Latin spellings write it (`THAI_SOUNDS`); `final` off:
    a word's last letter as spelt, not sounded; `vo`: ว as the v of Yoovidhya, not the w of
    Shinawatra (a w between vowels is a glide skeleton drops, a v a consonant it keeps)."""
    script = _SILENT_LEAD.sub("", _THAI_FINAL_YO.sub("น", _thai_ro_han(script)))
    script = script.replace("ว", "v") if vo else script
    read = folded(script).replace("thr", "s").replace("ph", "p")
    return re.sub(r"[rl]\b", "n", re.sub(r"(?:s|ch|j)\b", "t", read)) if final else read


def as_thai_writes(latin: str) -> list[str]:
    """Other ways Thai letters write a Latin name: a hyphenated word as one (Un-Nooh: อุ่นหนู), an
    English r after a vowel unsounded, as Thai writes it silent (Hoorne: โฮร์เน่, McIntyre:
    แมคอินไตย์), and a hard c as k."""
    joined = latin.replace("-", "")
    quiet = re.sub(r"(?<=[aeiouy])r(?=[^aeiouy\s]|e?\b)", "", joined, flags=re.IGNORECASE)
    return [joined, hard_c(quiet)]


LAO_LETTER = re.compile(r"[\u0e81-\u0eae]")
# Styles and ranks written before a Lao name: Madam, Mr (ທ່ານ), a general's (ພົນເອກ, ນາຍພົນ), Dr
_OPENING = re.compile(r"^\s*(?:ທ່ານນາງ|ທ່ານ|ພົນເອກ|ພົນໂທ|ພົນຕີ|ນາຍພົນ|ດຣ\.?)\s+(?=\S)")
_PARTED = str.maketrans({"ຊ": "ซ", "ຍ": "ย", "ົ": "", "ຼ": "ล", "ໜ": "หน", "ໝ": "หม"})


def lao_as_thai(name: str) -> str:
    """A name's Lao letters as Thai letters of their sounds (module docstring), the styles and
    ranks before it left out; others as written."""
    moved = _OPENING.sub("", name).translate(_PARTED)
    return "".join(chr(ord(c) - 0x80) if "\u0e80" <= c <= "\u0eff" else c for c in moved)


def latin_as_thai(latin: str) -> str:
    """A Latin spelling of a Lao name with its x read as s (Sonexay, Bounxouei; ຊ)."""
    return latin.replace("x", "s").replace("X", "S")


def lao_reads(
    script: str, latin: str, weigh: Callable[[str, str], tuple[float, str]]
) -> tuple[float, str] | None:
    """A name in Lao letters against a Latin one as `weigh` (consonants.py's reading of Thai names)
    finds its Thai spelling against the Latin read as Thai spellings write it: the weight and why
    where they agree; None otherwise, or for a name in no Lao letter."""
    if not LAO_LETTER.search(script):
        return None
    thai = lao_as_thai(script)
    weight, why = weigh(thai, latin_as_thai(latin))
    return (weight, f"{script} read as Thai letters, {thai}: {why}") if weight > 0 else None
