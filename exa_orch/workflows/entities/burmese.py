"""Burmese names read as their Latin spellings write them, syllable by syllable.

A Burmese name has no family name and no space between its syllables (ဇော်ဝင်းထွဋ်, Zaw Win
Htut); the Latin spelling writes each syllable as a word, by the sounds it has, not by the letters
(MLCTS would write "zau" for ဇော်): an initial consonant, its medials (ျ and ြ a y, ွ a w, ှ the h
of hl, hm, hn and the sh of ရှ), a vowel and a final (`_FINALS`: ိန် ein, ိုင် aing, ောင် aung), a
creaky tone (့) after a nasal final written t (မြင့်, Myint; ညွန့်, Nyunt). `syllables` reads a
name so, honorifics (ဦး, U; ဒေါ်, Daw) and ranks (ဗိုလ်ချုပ်, General) that open it left out;
consonants.skeletons weighs the reading against a Latin name word by word.
"""

from __future__ import annotations

import re

from exa_orch.workflows.entities.names import words
from exa_orch.workflows.entities.scripts import sound_key

MYANMAR = re.compile(r"[\u1000-\u109f]")

# Initial consonants as Latin spellings of names write them (အ carries a vowel: none)
_INITIALS = dict(
    zip(
        "ကခဂဃငစဆဇဈညဋဌဍဎဏတထဒဓနပဖဗဘမယရလဝသဟဠအ",
        "k kh g g ng s hs z z ny t ht d d n t ht d d n p ph b b m y y l w th h l -".split(),
        strict=True,
    )
)
_INDEPENDENT = {"ဣ": "i", "ဤ": "i", "ဥ": "u", "ဦ": "u", "ဧ": "e", "ဩ": "aw", "ဪ": "aw"}
# Honorifics and ranks written before a name, longest first: U and Daw, Ko, Doctor, and the
# Tatmadaw's (Vice) Senior General and General
_OPENING = re.compile(r"^(?:ဒုတိယ)?ဗိုလ်ချုပ်(?:မှူးကြီး)?\s*|^(?:ဦး|ဒေါ်|ဒေါက်တာ|ကို)(?=[\u1000-\u1021])")
_ASAT, _VIRAMA, _CREAKY, _VISARGA, _ANUSVARA = "\u103a", "\u1039", "\u1037", "\u1038", "\u1036"
_MEDIALS = "\u103b\u103c\u103d\u103e"
# A final consonant's sound after each vowel a syllable writes before it ("" for none, "i" for ိ,
# "u" for ု, "o" for ို, "aw" for ော or ေါ, "w" for the medial ွ): ိန် ein, ုန် oun, ွန် un, န် an
_FINALS = {
    "န": {"i": "ein", "u": "oun", "w": "un", "": "an"},
    "မ": {"i": "ein", "u": "oun", "w": "un", "": "an"},
    "င": {"o": "aing", "aw": "aung", "": "in"},
    "ဉ": {"": "in"},
    "တ": {"i": "eit", "u": "oat", "w": "ut", "": "at"},
    "ဋ": {"w": "ut", "": "at"},
    "ပ": {"i": "eik", "u": "oat", "": "at"},
    "က": {"o": "aik", "aw": "auk", "": "et"},
    "စ": {"": "it"},
    "ည": {"": "i"},
    "ယ": {"": "e"},
    "လ": {"o": "o", "": "an"},
}
_VOWELS = (("ေါ", "aw"), ("ော", "aw"), ("ို", "o"), ("ိ", "i"), ("ီ", "i"), ("ု", "u"), ("ူ", "u"),
           ("ေ", "e"), ("ဲ", "e"), ("ာ", "a"), ("ါ", "a"))  # fmt: skip


def syllables(name: str) -> list[str]:
    """The Latin spelling of each syllable of a name in Burmese letters, its opening honorific or
    rank left out (ဦးသိန်းစိန် -> ["thein", "sein"]); [] for a name in no Burmese letter."""
    if not MYANMAR.search(name):
        return []
    bare = _OPENING.sub("", name.strip()).replace(" ", "")
    return [said for part in _parts(bare) if (said := _read(part))]


def _parts(written: str) -> list[str]:
    """A run of Burmese letters cut into syllables: each opens with a consonant or an independent
    vowel that no asat (်) kills and no virama (္) stacks under the one before."""
    cuts: list[int] = []
    for i, ch in enumerate(written):
        opens = ch in _INITIALS or ch in _INDEPENDENT
        killed = written[i + 1 : i + 3].lstrip(_CREAKY)[:1] == _ASAT
        stacked = i > 0 and written[i - 1] == _VIRAMA
        if opens and not killed and not stacked:
            cuts.append(i)
    return [written[a:b] for a, b in zip(cuts, [*cuts[1:], len(written)], strict=True)]


def _read(part: str) -> str:
    """One syllable as a Latin spelling writes it (module docstring)."""
    first = part[0]
    if first in _INDEPENDENT:
        return _INDEPENDENT[first] + _final(part[1:], "")
    head = _INITIALS[first].replace("-", "")
    medials = "".join(ch for ch in part if ch in _MEDIALS)
    if "\u103e" in medials:  # ှ: the h of hl, hm, hn; ရှ and ယှ are sh
        head = "sh" if head == "y" else "h" + head
    if "\u103b" in medials or "\u103c" in medials:
        head += "y"
    rest = "".join(ch for ch in part[1:] if ch not in _MEDIALS)
    vowel = next((v for written, v in _VOWELS if written in rest), "")
    final = _final(rest, "w" if "\u103d" in medials and not vowel else vowel)
    if final:
        return head + final
    return head + ("w" if "\u103d" in medials else "") + (vowel or ("an" if _ANUSVARA in rest else "a"))


def _final(rest: str, vowel: str) -> str:
    """A syllable's vowel and final consonant as one sound (`_FINALS`), a creaky tone after a nasal
    written t; "" where it writes no final."""
    m = re.search(rf"([\u1000-\u1021]){_CREAKY}?{_ASAT}", rest)
    if not m:
        return ""
    sounds = _FINALS.get(m.group(1), {})
    said = sounds.get(vowel) or sounds.get("", "")
    return said + ("t" if _CREAKY in rest and said.endswith("n") else "")


# Honorifics and ranks a Latin spelling writes before a Burmese name ("U Thein Sein", "Snr-Gen Than
# Shwe", "Daw Aung San Suu Kyi")
_LATIN_OPENING = frozenset("u daw ko ma dr gen general snr senior vice bogyoke".split())


def reads_as(script: str, latin: str) -> tuple[float, str] | None:
    """A name in Burmese letters whose syllables (`syllables`), two or more, are the Latin name's
    words one for one by their consonants (scripts.sound_key): 5 with three consonants or more in
    all (ဇော်ဝင်းထွဋ် / Zaw Win Htut), 2.5 with fewer, a name many bear (နေဝင်း, Ne Win); None
    otherwise."""
    said = syllables(script)
    ws = words(latin)
    while len(ws) > len(said) and ws[0] in _LATIN_OPENING:
        ws = ws[1:]
    if len(said) < 2 or len(ws) != len(said):
        return None
    keys = [sound_key(s) for s in said]
    if keys != [sound_key(w) for w in ws]:
        return None
    return 5.0 if len("".join(keys)) >= 3 else 2.5, f"{script} reads {' '.join(said)}, as {latin} is spelled"
