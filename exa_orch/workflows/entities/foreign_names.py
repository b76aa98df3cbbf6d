"""Foreign names written word by word in a syllabary or an alphabet, read against their Latin
spelling.

Japanese writes a foreign name in katakana and Korean in Hangul, each word as it sounds and in
the name's own order (デーブ・ロバーツ, Dave Roberts; 앤디 김, Andy Kim); Korean writes its own names
without a space. Russian, Ukrainian and Greek write one in their letters as it sounds, not as it
is spelled (Уэйн Гретцки, Wayne Gretzky; Лилиан Бетанкур, Liliane Bettencourt), and Chinese in
characters chosen for their sound, its words parted by a middle dot (史蒂芬·亨得利, Stephen Hendry).
people.name_evidence weighs what these readers say as it weighs consonants agreeing
(consonants.skeletons): 5, never a whole name's agreement. `korean_key` folds the ways a
Korean given name is romanized into one, for Latin spellings of one Korean name.
"""

from __future__ import annotations

import re
from functools import cache

from exa_orch.workflows.entities.alphabets import ALPHABETS, cyrillic
from exa_orch.workflows.entities.consonants import one_off
from exa_orch.workflows.entities.japanese import heard, heard_katakana, heard_spellings, katakana_words
from exa_orch.workflows.entities.names import fold, is_latin, words
from exa_orch.workflows.entities.scripts import KOREAN_SURNAMES, latin_sound_keys, sound_key, sounds_alike
from exa_orch.workflows.entities.spelled import spellings
from exa_orch.workflows.entities.titles import HONORIFICS, PARTICLES, without_titles


def katakana(a: str, b: str) -> tuple[float, str] | None:
    """A foreign name in katakana and one in Latin letters (デーブ・ロバーツ / Dave Roberts): every
    word sounds as the Latin word in its place (japanese.heard; a Latin middle name may be left
    out), the family name by two consonants or more. 5, as consonants agreeing weigh
    (consonants.skeletons): never a whole name's agreement; None when not such a pair, or when they do not
    sound alike so (the name's other readings weigh it)."""
    kana, latin = katakana_words(a), b
    if not kana:
        kana, latin = katakana_words(b), a
    if not kana or not is_latin(latin):
        return None
    theirs = [heard(w) for w in kana]
    # never a middle name left out after an initial: "F. A. Porsche" is not フェルディナント・ポルシェ
    said = _latin_words(latin, len(theirs), after_initial=False)
    # a family name of one consonant (クック, Cook) sounds as too many people's; one with its
    # particle (デル・リオ, Del Rio) is heard as two words
    family = slice(-2 if len(said) >= 3 and said[-2] in PARTICLES else -1, None)
    if (
        len(said) != len(theirs)
        or not all(theirs)
        or min(len("".join(x[family])) for x in (theirs, said)) < 2
    ):
        return None
    if all(_heard_as(w, k, t) for w, k, t in zip(said, kana, theirs, strict=True)):
        return 5.0, f"{a} and {b} sound alike (katakana)"
    return None  # the other readings weigh it (テレサ・テン, read letter by letter, is Teresa Teng)


def _latin_words(latin: str, count: int = 0, *, after_initial: bool = True) -> list[str]:
    """A Latin name's words, titles and honorifics aside, as a name written word by word in another
    script of `count` words may stand for them: its middle name left out where it has one word more
    (John F. Kennedy, ジョン・ケネディ), unless `after_initial` is False and it opens with an initial."""
    said = [w for w in words(without_titles(latin)) if w not in HONORIFICS]
    if count and len(said) == count + 1 and (after_initial or len(said[0]) > 1):
        said = [*said[:1], *said[2:]]
    return said


def _heard_as(word: str, kana: str, heard_kana: str) -> bool:
    """`katakana`: a Latin word sounds as a katakana word (romaji `kana`, heard `heard_kana`): a
    spelling as English, Italian or German sound it (japanese.heard_spellings), one consonant off
    in three or more; an initial, as the word's first sound ("F." as フェルディナント, "A." as
    アレクサンダー)."""
    if len(word) == 1:
        first = heard(word)
        return heard_kana[:1] == first if first else bool(kana) and kana[0] in "aeiou" + word
    return any(
        m == heard_kana or (min(len(m), len(heard_kana)) >= 3 and one_off(m, heard_kana))
        for m in heard_spellings(word)
    )


def alphabet_words(a: str, b: str) -> tuple[float, str] | None:
    """A foreign name written in Cyrillic or Greek letters word by word as it sounds (Уэйн Гретцки /
    Wayne Gretzky, Сесил Родс / Cecil Rhodes, Лилиан Бетанкур / Liliane Bettencourt: a silent
    letter written, one consonant more) and one in Latin letters: every word heard as the Latin
    word in its place (scripts.latin_sound_keys, a tz as ts), its last consonant unsounded, or a
    near one in six; the family name by two consonants or more. 5, as `katakana` weighs it; None
    when not such a pair or they do not sound alike."""
    written, latin = (a, b) if ALPHABETS.search(a) else (b, a)
    if not ALPHABETS.search(written) or ALPHABETS.search(latin) or not is_latin(latin):
        return None
    # a title's "Family, Given" (Цабель, Эрик) in the name's own order
    family, comma, given = written.partition(",")
    theirs = words(fold(cyrillic(f"{given} {family}" if comma else written) or written))
    mine = _latin_words(latin, len(theirs))
    if len(theirs) < 2 or len(mine) != len(theirs):
        return None
    heard = [sound_key(w, read=True) for w in theirs]
    if len(heard[-1]) < 2 or not all(heard):
        return None
    for word, h, said in zip(theirs, heard, mine, strict=True):
        keys = frozenset().union(*map(latin_sound_keys, _cyrillic_spellings(said)))
        # the Latin word's last consonant unsounded (Bettencourt, Бетанкур), or a near one in six
        # (scripts.sounds_alike: Glasenberg, Глазенберг); never another consonant in four (Petrov
        # is no Sidorov)
        silent = len(h) >= 4 and any(k[:-1] == h for k in keys)
        if h not in keys and not silent and not sounds_alike(word, said):
            return None
    return 5.0, f"{written} and {latin} sound alike (word by word)"


def _cyrillic_spellings(said: str) -> set[str]:
    """A Latin word as Cyrillic or Greek letters may write its sounds: as spelled, a tz as ts, an s
    between vowels as the z it sounds (Giuseppe, Джузеппе; Moses, Мозес), a German z as ts (Zabel,
    Цабель), a Spanish j as the kh it sounds (Juan, Хуан)."""
    return {
        said,
        said.replace("tz", "ts"),
        re.sub(r"(?<=[aeiou])s(?=[aeiou])", "z", said),
        said.replace("z", "ts"),
        said.replace("j", "kh"),
    }


_HANGUL_WORD = re.compile(r"^[\uac00-\ud7a3]+$")


def spaced_hangul(a: str, b: str) -> tuple[float, str] | None:
    """A foreign name written in Hangul word by word, in its own order (앤디 김 / Andy Kim, 리디아 고
    / Lydia Ko: Korean writes its own names without a space), and one in Latin letters: every word
    sounds as the Latin word in its place (scripts.sound_key), a last word of one syllable by a
    Korean family name's spellings (김: Kim). 5, as `katakana` weighs it; None when not such a pair
    or they do not sound alike."""
    hangul, latin = (a, b) if _HANGUL_WORD.match(a.split()[0] if a.split() else "") else (b, a)
    theirs, mine = hangul.split(), _latin_words(latin)
    if len(theirs) < 2 or not all(_HANGUL_WORD.match(w) for w in theirs) or not is_latin(latin):
        return None
    if len(mine) != len(theirs) or len(theirs[0]) < 2:
        return None
    for word, said in zip(theirs, mine, strict=True):
        if len(word) == 1:
            if said not in KOREAN_SURNAMES.get(word, frozenset()) | {fold(word)}:
                return None
        elif len(heard := sound_key(fold(word), read=True)) < 2 or heard not in _hangul_heard(said):
            return None
    return 5.0, f"{hangul} and {latin} sound alike (Hangul, word by word)"


def _hangul_heard(said: str) -> frozenset[str]:
    """The sound keys a Latin word may be heard by in Hangul: as scripts.latin_sound_keys hears it
    (an r after a vowel unsounded: Leonard, 레너드), its v as the ㅂ Hangul writes for it (Valverde,
    발베르데; Vänskä, 벤스케), and a Spanish j as the h it sounds (Pujols, 푸홀스)."""
    return (
        latin_sound_keys(said)
        | latin_sound_keys(said.replace("v", "b"))
        | latin_sound_keys(said.replace("j", "h"))
    )


_LATIN_SINGLE = re.compile(r"^[A-Za-z][A-Za-z0-9-]*$")
_SINGLE_KANA = re.compile(r"^[\u30a1-\u30fa\u30fc]+$")


def hangul_single(a: str, b: str) -> tuple[float, str] | None:
    """A single name in Hangul and one in Latin letters, a stage name mostly (정국 / Jungkook, 카리나 /
    Karina, 아이유 / IU): the one sounds as the other (scripts.latin_sound_keys) or spells its letters
    out (spelled.spellings). 5 from three consonants, 4 from two (지수 / Jisoo): a single name is
    never a whole name's agreement; None when not such a pair or they do not agree so."""
    hangul, latin = (a.strip(), b.strip()) if _HANGUL_WORD.match(a.strip()) else (b.strip(), a.strip())
    if not _HANGUL_WORD.match(hangul) or not _LATIN_SINGLE.match(latin) or len(hangul) < 2:
        return None
    said = fold(latin).replace("-", "")
    letters = {r for head, tail, rs in spellings(hangul, alone=False) if not (head or tail) for r in rs}
    if said in letters and len(said) >= 2:
        return 5.0, f"{hangul} spells {latin} out by its letters' names"
    heard = sound_key(fold(hangul), read=True)
    if len(heard) >= 2 and heard in latin_sound_keys(said):
        return (5.0 if len(heard) >= 3 else 4.0), f"{hangul} sounds as {latin} does (Hangul)"
    return None


def katakana_single(a: str, b: str) -> tuple[float, str] | None:
    """A single name in katakana and one in Latin letters, a stage or ring name mostly (ビヨンセ /
    Beyoncé, ミスティコ / Místico): the one heard as the other (japanese.heard_spellings), three
    consonants at least. 5, as `hangul_single` weighs it; None when not such a pair or they differ."""
    kana, latin = (a.strip(), b.strip()) if _SINGLE_KANA.match(a.strip()) else (b.strip(), a.strip())
    said = fold(latin).replace("-", "")
    if not _SINGLE_KANA.match(kana) or not _LATIN_SINGLE.match(said):
        return None
    heard_kana = heard_katakana(kana) or ""
    if len(heard_kana) >= 3 and heard_kana in heard_spellings(said):
        return 5.0, f"{kana} sounds as {latin} does (katakana)"
    return None


def one_korean_family(x: str, y: str) -> bool:
    """Two Latin spellings, or one, of a Korean family name (Cho / Jo, Park / Bak, Gong / Kong)."""
    return any(x in spelled and y in spelled for spelled in KOREAN_SURNAMES.values())


def korean_given(x: str, y: str) -> tuple[float, str] | None:
    """How two romanizations of Korean given names (run together) agree: one `korean_key` (3), or
    its consonants alike, two at least (2: the vowels romanizations write most freely aside, 애 tack
    or taek, 세 se or sae, 혜 hye or hae); None otherwise. people.py asks it of a name read from Hangul
    or of two under one Korean family name."""
    kx, ky = korean_key(x), korean_key(y)
    if kx == ky:
        return 3.0, "same given names (two romanizations of one Korean name)"
    if len(said := re.sub(r"[aeiouwy]", "", kx)) >= 2 and said == re.sub(r"[aeiouwy]", "", ky):
        return 2.0, "given names with the consonants of one Korean name"
    return None


def cantonese_given(read: str, latin: str) -> tuple[float, str] | None:
    """How given names in characters read in Cantonese (run together) and a Latin spelling agree
    where Hong Kong's spellings write the vowels otherwise than the reading does (兆 siu or shau,
    焯 cheuk or cheok, 敏 man or mun): their consonants alike, three at least (2); None otherwise.
    people.py asks it of a name in characters beside a Latin one."""
    said = re.sub(r"[aeiouwy]", "", read)
    alike = len(said) >= 3 and said == re.sub(r"[aeiouwy]", "", latin)
    return (2.0, "given names with the consonants of their reading in characters") if alike else None


def one_cantonese(read: str, said: str) -> bool:
    """Two Hong Kong spellings of one reading of given names: alike, or by their consonants
    (`cantonese_given`: 焯華 read cheuk wa, spelled Cheok Wa)."""
    return read == said or cantonese_given(read, said) is not None


def korean_key(given: str) -> str:
    """A Korean given name's romanization folded to one spelling: the Revised Romanization and the
    spellings people use differ in vowels (eo / u, oo / u, eu / u) and in voiced or plain consonants
    (g / k, d / t, b / p, j / ch, k / c / ck) and in s written sh before i (신 sin, Shin), 희 hui
    or hee: "sihyeok" and "sihyuk", "gwangmo" and "kwangmo", "sinsu" and "shinsoo", "seokhui" and
    "sukhee" agree."""
    # 우 written u or woo (Cha Eun-woo, 차은우 "eunu"); 이 written ee before another syllable's vowel
    # (Kim Jee-woon, 김지운 "jiun": not "e" and "eu"); 안 written ahn (Hwang Kyo-ahn, 황교안 "gyoan");
    # ㅍ written f and ㄹ doubled (Kang Full, 강풀 "pul"); a last 아 written ah (Cho Hyun-ah, 조현아
    # "hyeona"), 외 and 회 written oi, woi or oe (Koo In-hwoi, 구인회 "inhoe"); 애 written ay before
    # another syllable (Lee Jay-hyun, 이재현 "jaehyeon"; "Jay" alone is an English name: Jay Park)
    given = given.replace("ee", "i").replace("ahn", "an").replace("f", "p").replace("ll", "l")
    given = re.sub(r"ay(?=.)", "ae", given)
    given = re.sub(r"ah$", "a", given).replace("woi", "oe").replace("oi", "oe")
    key = (
        given.replace("woo", "u")
        .replace("yeo", "yu")
        .replace("eo", "u")
        .replace("oo", "u")
        .replace("eu", "u")
    )
    # 희 written hui or hee (Sohn Suk-hee), 택 taek or tack (Kitack Lim): c and ck as k
    key = key.replace("ui", "i").replace("ee", "i").replace("ch", "j").replace("ck", "k").replace("c", "k")
    # and 어 written o as McCune-Reischauer's ŏ (Hwang Sok-yong, 황석영 "seokyeong"): o, eo and u as one
    key = re.sub("u+", "u", key.replace("o", "u"))
    # ㄹ, one sound, written l or r as it opens a syllable (임세령 "selyeong", Im Se-ryung), 래 rae or
    # rai (조석래, Cho Suck-rai)
    key = key.replace("ai", "ae").replace("l", "r")
    return key.replace("sh", "s").translate(str.maketrans("gdb", "ktp"))


# A foreign name in Chinese characters: two words or more parted by a middle dot (Chinese writes
# its own names without one).
_HAN_NAME = re.compile(r"^[\u4e00-\u9fff]+(?:\s*[·・‧•]\s*[\u4e00-\u9fff]+)+$")
# A Mandarin syllable's initial as the sound it stands for in a foreign name: j, q and x stand for
# an s, a soft g, an h or a k before i (希金斯 Higgins, 嘉道理 Kadoorie), so they are their own class
# ("J"); y and w are glides (亚历克斯 Alex, 维克多 Victor).
_MANDARIN_INITIALS = (
    ("zh", "s"), ("ch", "s"), ("sh", "s"), ("z", "s"), ("c", "s"), ("s", "s"), ("j", "J"), ("q", "J"),
    ("x", "J"), ("b", "p"), ("p", "p"), ("d", "t"), ("t", "t"), ("g", "k"), ("k", "k"), ("h", "h"),
    ("f", "f"), ("l", "l"), ("r", "l"), ("m", "m"), ("n", "n"), ("y", ""), ("w", ""),
)  # fmt: skip
# The spellings of one sound in a Latin name, as a Chinese transcription hears them.
_LATIN_SOUNDS = (
    ("sch", "s"), ("tch", "s"), ("ph", "f"), ("th", "T"), ("sh", "s"), ("ch", "s"), ("ck", "k"),
    ("ts", "s"), ("tz", "s"), ("x", "ks"), ("qu", "k"), ("q", "k"), ("j", "J"),
)  # fmt: skip
_LATIN_CLASSES = str.maketrans({"b": "p", "d": "t", "g": "k", "c": "k", "z": "s", "r": "l"})
# (heard in Chinese, said in Latin): a th is heard a t or an s (索伯恩 Thorburn), a Spanish j an h
# (何塞 José, 胡安 Juan), an m closing a syllable an n, as Mandarin closes none with an m (坎普拉德
# Kamprad)
_SAME_SOUND = {("J", "s"), ("J", "k"), ("J", "h"), ("s", "J"), ("t", "T"), ("s", "T"), ("h", "J"), ("n", "m")}


def _mandarin_heard(word: str) -> list[tuple[str, bool]]:
    """A word in characters as the consonants its Mandarin syllables sound, each with whether it
    may stand for nothing: a syllable's closing n (威廉 wei-lian, William) and an h."""
    from anyascii import anyascii  # on first use: a cold start needs none of it

    out: list[tuple[str, bool]] = []
    for syllable in re.findall(r"[A-Z][a-z]*", anyascii(word)):
        syllable = syllable.lower()
        if syllable == "er":  # 尔: an r or an l closing a syllable (马奎尔 Maguire)
            out.append(("l", False))
            continue
        head = next((c for spelled, c in _MANDARIN_INITIALS if syllable.startswith(spelled)), "")
        if head:
            out.append((head, head == "h"))
        if syllable.endswith(("n", "ng")):
            out.append(("n", True))
    return out


def _latin_heard(word: str) -> list[tuple[str, bool]]:
    """A Latin word as the consonants a Chinese transcription writes, each with whether it may be
    left unwritten: an h, a v or a w (a glide: 维克多 Victor, 威廉 William; an f in Polish:
    利索夫斯基 Lisowski), an r after a vowel and before a consonant or the word's end (English does
    not sound it: Mark, 马克). A letter doubled is one."""
    w = re.sub(r"(.)\1+", r"\1", re.sub(r"[^a-z]", "", word))
    for spelled, one in _LATIN_SOUNDS:
        w = w.replace(spelled, one)
    w = re.sub(r"c(?=[eiy])", "s", re.sub(r"g(?=[eiy])", "J", w))
    w = re.sub(r"(?<=[aeiouy])r(?![aeiouy])", "R", w)
    out: list[tuple[str, bool]] = []
    for ch in w:
        if ch in "aeiouy":
            continue
        out.append(({"R": "l", "v": "f", "w": "f"}.get(ch) or ch.translate(_LATIN_CLASSES), ch in "hvwR"))
    return out


def _one_sound(heard: list[tuple[str, bool]], said: list[tuple[str, bool]]) -> bool:
    """Whether the consonants heard in Chinese are those said in Latin, in order: each may be left
    out where it may stand for nothing, one sound repeated is one, and a j, q or x is an s, a soft
    g, an h or a k."""

    @cache
    def walk(i: int, j: int) -> bool:
        if i == len(heard):
            return all(opt or (k and said[k][0] == said[k - 1][0]) for k, (_, opt) in enumerate(said[j:], j))
        c, c_opt = heard[i]
        if c_opt and walk(i + 1, j):
            return True
        if i and c == heard[i - 1][0] and walk(i + 1, j):  # 丹尼斯 dan-ni-si: one n of Dennis
            return True
        if j == len(said):
            return False
        s, s_opt = said[j]
        if (s_opt or (j and s == said[j - 1][0])) and walk(i, j + 1):
            return True
        return (c == s or (c, s) in _SAME_SOUND) and walk(i + 1, j + 1)

    return walk(0, 0)


def chinese_words(a: str, b: str) -> tuple[float, str] | None:
    """A foreign name written in Chinese characters for their sound, its words parted by a middle
    dot (史蒂芬·亨得利 / Stephen Hendry, 罗莎莉亚·梅拉 / Rosalía Mera), and one in Latin letters:
    every word sounds as the Latin word in its place (`_one_sound`), the family name in two
    syllables or more. 5, as `katakana` weighs it; None when not such a pair or they do not."""
    written, latin = (a, b) if _HAN_NAME.match(a.strip()) else (b, a)
    if not _HAN_NAME.match(written.strip()) or not is_latin(latin):
        return None
    theirs = [w for w in re.split(r"\s*[·・‧•]\s*", written.strip()) if w]
    mine = _latin_words(latin, len(theirs))
    if len(mine) != len(theirs) or len(theirs[-1]) < 2:
        return None
    if all(
        _one_sound(_mandarin_heard(t), _latin_heard(m)) and _glide_heard(t, m)
        for t, m in zip(theirs, mine, strict=True)
    ):
        return 5.0, f"{written} and {latin} sound alike (Chinese characters, word by word)"
    return None


def _glide_heard(chars: str, word: str) -> bool:
    """Whether a Latin word opening with a w or a v, which a transcription writes with a syllable of
    no consonant or an f or h (威廉 wei-lian, William; 华 hua), opens so in characters too: 舒滕,
    shu-teng, is not Wüst, whose w `_one_sound` may leave unwritten. True for other words."""
    if not re.match(r"[wv]", word.lower()):
        return True  # the characters read again only for the words it may be wrong about
    from anyascii import anyascii  # on first use, as `_mandarin_heard` does

    syllables = re.findall(r"[A-Z][a-z]*", anyascii(chars))
    if not syllables:
        return True
    first = syllables[0].lower()
    return next((c for spelled, c in _MANDARIN_INITIALS if first.startswith(spelled)), "") in ("", "f", "h")


def foreign_words(a: str, b: str) -> tuple[float, str] | None:
    """A foreign name written word by word as it sounds, in katakana (`katakana`, `katakana_single`),
    Hangul (`spaced_hangul`, `hangul_single`) or Chinese characters (`chinese_words`), and its Latin
    spelling."""
    return (
        katakana(a, b)
        or katakana_single(a, b)
        or spaced_hangul(a, b)
        or hangul_single(a, b)
        or chinese_words(a, b)
    )
