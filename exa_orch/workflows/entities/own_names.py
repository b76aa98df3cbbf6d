"""A page's own name written as two of the record's names, and a listing page's name read from its text.

records.py gives each part another name of the record (an alias, with the words that said it):
- **two scripts** with a space between ("Jolin Tsai 蔡依林", "时代天使 Angelalign"), people's names
  too: `two_scripts`;
- **a company's name and its brand in quotes** ("Lubelski Węgiel „Bogdanka”"): `quoted`;
- **a company's name and another in brackets** ("PT Telekomunikasi Selular (Telkomsel)", "ARI (Aer
  Rianta International)"), not a year, a ticker, a place or a word in lower case ("Metro
  (Canada)", "Orion (company)"): `bracketed`;
- **a listing page named by its ticker** ("LPKR" at idx.co.id/.../company-profiles/LPKR), whose
  text writes the company's name before the ticker ("PT Lippo Karawaci Tbk (IDX: LPKR)", "Lippo
  Karawaci Tbk, kode saham LPKR"): the listed company's name, `listed`.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from exa_orch.workflows.entities.asides import CAPITAL
from exa_orch.workflows.entities.countries import is_place
from exa_orch.workflows.entities.heard_words import says_a_word
from exa_orch.workflows.entities.names import STOP_WORDS, acronym, clean_name, is_latin, words

Part = tuple[str, str]  # (a name, why it is one)


def two_scripts(name: str) -> list[Part]:
    """A name written twice, in Latin letters and in another script, a space between: each part;
    none where the other script's part, not in brackets, says a word a table renders (a place, a
    group, a plant: "Карбамидный завод SOCAR" is SOCAR's plant, "Tele2 Россия" Tele2's Russian
    company)."""
    tokens = name.split()
    if not all(any(ch.isalpha() for ch in t) for t in tokens):
        return []  # "Cyprus Airways (1947–2015)": years, not another script
    latin = [_in_latin_letters(t) for t in tokens]
    cut = next((i for i in range(1, len(tokens)) if latin[i] != latin[i - 1]), 0)
    if not cut or len(set(latin[cut:])) != 1 or len(set(latin[:cut])) != 1:
        return []
    parts = (" ".join(tokens[:cut]), " ".join(tokens[cut:]))
    if "(" not in name and any(says_a_word(p) for p in parts):
        return []  # a name and words about it (Карбамидный завод SOCAR, Tele2 Россия): not one name
    said = f"{name}: one name in two scripts"
    return [(p.strip('«»"“”()'), said) for p in parts]


def _in_latin_letters(token: str) -> bool:
    """Whether every letter of `token` is a Latin one, an Icelandic ð or a Maltese ħ too
    ("Loftleiðir Icelandic" is one name in one script)."""
    return is_latin(token) or all(
        unicodedata.name(ch, "").startswith("LATIN") for ch in token if ch.isalpha()
    )


_BRACKETED = re.compile(r"(.+?)\s*[(（]\s*([^()（）]+?)\s*[)）]")
# A prefecture, a province or a city in characters, as an encyclopedia's title tells namesakes
# apart by it (菊水酒造 (高知県), the brewery of Kōchi, not Niigata's): a place, no other name
_PLACE_IN_CHARACTERS = re.compile(r"[\u4e00-\u9fff]{1,4}[県县府都道省市州]")


def _not_a_name(aside: str) -> bool:
    """A year, or a word opening in lower case in any script that has cases: an encyclopedia's
    qualifier ("(company)", "АЛРОСА (авиакомпания)", "(entreprise)"), no name."""
    return any(c.isdigit() for c in aside) or aside[:1].islower()


_TICKER_LIKE = re.compile(r"^[A-Z.&-]{2,8}$")


def _initials_open(name: str, short: str) -> bool:
    """Whether `short` is an acronym of `name` (names.acronym), not a ticker: the initials of its
    words, two or more ("Health and Happiness (H&H)"), or opening six capitals or more, longer than
    a ticker ("Egyptian Intl Pharmaceuticals (EIPICO)"; "Qatar Shipping (QSHP)" is a ticker)."""
    initials = acronym(" ".join(words(name))).upper()
    letters = re.sub(r"[^A-Z]", "", short)
    if initials and (letters == initials or (len(letters) >= 6 and letters.startswith(initials))):
        return True
    # or the first letters of each word, two or more of one at least ("Industrias Oleaginosas
    # (IOL)", "Dubai Aluminium (DUBAL)"); no ticker spells its words' starts so ("TLKM", "QSHP")
    named = [w for w in words(clean_name(name)) if w not in STOP_WORDS]
    return len(named) >= 2 and len(letters) > len(named) and _starts_spell(named, letters.lower())


def _starts_spell(named: list[str], letters: str) -> bool:
    """Whether `letters` are a start of each of the words `named`, in order, run together."""
    if not named:
        return not letters
    first, rest = named[0], named[1:]
    return any(
        letters[:k] == first[:k] and _starts_spell(rest, letters[k:])
        for k in range(1, min(len(first), len(letters) - len(rest)) + 1)
    )


def bracketed(name: str) -> list[Part]:
    """A company's name with another of its names in brackets after it: each part. Capitals alone
    in brackets are a ticker ("Telkom Indonesia (TLKM)"), unless the name's initials open them."""
    m = _BRACKETED.fullmatch(name)
    if not m or _not_a_name(m.group(2)) or is_place(m.group(2)) or _PLACE_IN_CHARACTERS.fullmatch(m.group(2)):
        return []
    if _TICKER_LIKE.match(m.group(2)) and not _initials_open(m.group(1), m.group(2)):
        return []
    said = f"{name}: a name and another in brackets"
    return [(m.group(1), said), (m.group(2), said)]


_QUOTED = re.compile(r"\S.*?[„«“\"]([^„«“”»\"]{4,60})[”»“\"]")


def quoted(name: str) -> list[Part]:
    """A company's name with its brand in quotes after words of its own ("Lubelski Węgiel
    „Bogdanka” S.A.", 'Zakłady Azotowe "Puławy"'): the brand."""
    m = _QUOTED.match(name)
    return [(m.group(1).strip(), f"{name}: a name and its brand in quotes")] if m else []


_TICKER = re.compile(r"[A-Z0-9][A-Z0-9.\-]{1,9}")


def listed(name: str, url: str, texts: list[str]) -> list[Part]:
    """A listing page's company, where the page is named by the ticker its URL holds: the name its
    text writes right before that ticker, in brackets ("Air Canada (TSX: AC)") or after a comma
    and a few words ("Lippo Karawaci Tbk, kode saham LPKR"); or, on a market site that writes it there,
    the name its address spells after the ticker (`_spelled_after`)."""
    if not _TICKER.fullmatch(name):
        return []
    if spelled := _spelled_after(name, url):
        return [(spelled, f"{name} is {spelled}'s ticker, its quote page's address says")]
    if not re.search(rf"[/=_:]{re.escape(name)}(?:[/&#.?]|$)", url, re.I):
        return []
    # the text opens with the name: capitalised words, a short one in lower case between them
    # ("Doğuş Otomotiv Servis ve Ticaret A.Ş."), no clause's punctuation within
    word = rf"[{CAPITAL}&][^\s:;!?()（）,]*"
    before = re.compile(
        rf"\s*({word}(?:\s+(?:[a-z]{{1,3}}|{word})){{0,9}}?)"
        rf"(?:\s*[(（](?:[A-Za-z ]{{2,20}}:\s*)?|,(?:\s+[a-z]+){{1,3}}\s+){re.escape(name)}\b"
    )
    for text in texts:
        m = before.match(text)
        if m and m.group(1) != name:
            return [(m.group(1), f"{name} is {m.group(1)}'s ticker: {text[: m.end() + 40]!r}")]
    return []


# Market sites whose quote page's address spells the company's legal name after its ticker, without
# its marks (s.cafef.vn/hose/THD-cong-ty-co-phan-thaiholdings.chn, finance.vietstock.vn/TLH-ctcp-tap-
# doan-thep-tien-len.htm); a news site's address spells a headline there ("mlcf-profit-rises")
_SPELLING_HOSTS = ("cafef.vn", "vietstock.vn")


def _spelled_after(ticker: str, url: str) -> str:
    """The name a quote page's address spells after the ticker the page is named by, two words or
    more ("cong ty co phan thaiholdings"), or "" for another address."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if not any(host == h or host.endswith("." + h) for h in _SPELLING_HOSTS):
        return ""
    last = parts.path.rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    head, _, rest = last.partition("-")
    spelled = rest.split("-")
    return " ".join(spelled) if head == ticker.lower() and len(spelled) >= 2 and all(spelled) else ""
