"""Blocking keys of people's names: which pairs of person records the resolver weighs at all.

`block_keys(r)` gives a record the keys clustering.py blocks on: its family name (each spelling)
and each given name's initial, over every reading of its name and its stated aliases, and keys for
the pairs only another script's reading finds (characters beside an English given name, kanji read
kanji by kanji, consonants of a name in Arabic letters, a name run together). A family name alone
would make blocks of thousands; person_evidence.weigh says what each pair's evidence is.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from exa_orch.workflows.entities.alphabets import turkic_spelled
from exa_orch.workflows.entities.brahmic import bengali_spelling
from exa_orch.workflows.entities.consonants import consonant_letters, spoken, thai_key
from exa_orch.workflows.entities.given_match import given_forms
from exa_orch.workflows.entities.initialisms import initialisms
from exa_orch.workflows.entities.japanese import (
    family_keys,
    heard,
    heard_spellings,
    katakana_words,
    latin_key,
)
from exa_orch.workflows.entities.names import is_latin, words
from exa_orch.workflows.entities.people import PersonName, parse
from exa_orch.workflows.entities.scripts import chinese_spelled, consonantal, skeleton
from exa_orch.workflows.entities.thai_letters import THAI_LETTER, thai_reading
from exa_orch.workflows.entities.word_tables import CYRILLIC_LETTERS, HEBREW_LETTERS

if TYPE_CHECKING:
    from exa_orch.workflows.entities.records import Record


# (ㅍ written f too: Kang Full, 강풀 "pul"; ㄱ c: Lee Cook-jong, 이국종 "gukjong")
_KOREAN_INITIALS = {"g": ("k", "c"), "k": ("g", "c"), "d": ("t",), "t": ("d",), "b": ("p",),
                    "p": ("b", "f"), "j": ("c",), "c": ("j",)}  # fmt: skip
# a given name's first vowel as other romanizations write it: 은 eun or un (Ko Un / 고은), 어 eo, o or
# u, 우 u or woo
_KOREAN_VOWELS = {"eu": ("u",), "eo": ("o", "u"), "u": ("w",)}


def _korean_initials(given: str) -> tuple[str, ...]:
    """The initials a Korean given name read from Hangul may be written with in Latin letters."""
    vowel = next((v for v in _KOREAN_VOWELS if given.startswith(v)), "")
    return (*_KOREAN_INITIALS.get(given[:1], ()), *_KOREAN_VOWELS.get(vowel, ()))


def block_keys(r: Record) -> set[str]:
    """Family name (each spelling) and the initial of each given name or of a nickname form (Bob ->
    b, r), over every reading of the name and of its stated aliases: a family name alone would
    make blocks of thousands."""
    if r.kind != "person" or not r.name:
        return set()
    own: set[str] = set()
    for reading in _readings(r.name, list(r.aliases)):
        # a Japanese name's Latin spellings folded too (Ohtani / otani: japanese.latin_key)
        for family in {reading.family, *reading.spellings, latin_key(reading.family)}:
            own.update(f"f:{family}:{form[:1]}" for g in reading.given or ("",) for form in given_forms(g))
            if reading.script == "hangul":  # 구광모 / Koo Kwang-mo: g or k, d or t, b or p, j or ch
                own.update(f"f:{family}:{i}" for g in reading.given[:1] for i in _korean_initials(g))
    if CYRILLIC_LETTERS.search(r.name):
        own |= _cyrillic_keys(r.name)
    own |= _english_keys(r.name) | _kanji_keys(r.name) | _run_together_keys(r.name)
    own.update(f"i:{i}" for i in initialisms(r.name))  # MvG / Michael van Gerwen
    # a family name and the city a person is placed in, read alike in any script (吴泳铭 in 杭州 /
    # Eddie Wu in Hangzhou): the pairs an English given name beside characters needs
    city = "".join(words(r.location_written.split(",")[0]))[:20] if r.location_written else ""
    if city:
        own.update(f"c:{reading.family}:{city}" for reading in parse(r.name)[:2] if reading.family)
    return own | _consonant_keys(r.name)


# Letters Cyrillic writes for a Latin name's own, read back in Latin letters: х (kh) an h, ж (zh) a
# j or a soft g (Хумар / Humar, Жиров / Jirov, Жилберту Жил / Gilberto Gil), ц (ts) a c (Превц / Prevc)
_CYRILLIC_HEARD = (("kh", "h"), ("zh", "j"), ("zh", "g"), ("ts", "c"))


def _cyrillic_keys(name: str) -> set[str]:
    """A name in Cyrillic letters keyed as a Latin spelling of it writes its family name and given
    initial, each of `_CYRILLIC_HEARD`'s letters as the Latin one: the pairs its reading's own keys
    miss (Томаж Хумар, "tomazh khumar" / Tomaž Humar)."""
    return {
        f"f:{x.family.replace(cy, latin)}:{x.given[0].replace(cy, latin)[:1]}"
        for x in parse(name)
        if x.given
        for cy, latin in _CYRILLIC_HEARD
        if cy in x.family or cy in x.given[0][:2]
    }


def _readings(name: str, aliases: list[str]) -> list[PersonName]:
    """Every reading of a person's name and of its stated aliases, a name in Azerbaijani letters
    also as English spells it (Cahangir Hacıyev, Jahangir Hajiyev: alphabets.turkic_spelled)."""
    spelled = [az for n in [name, *aliases] if (az := turkic_spelled(n))]
    return [x for n in [name, *aliases, *spelled] for x in parse(n)]


def _run_together_keys(name: str) -> set[str]:
    """A name of one word, six letters or more, and a name of two words run together either way:
    the pairs people._run_together weighs (まつもとゆきひろ / Yukihiro Matsumoto, "Jungkook")."""
    keys: set[str] = set()
    for x in parse(name):
        if not x.given and len(x.family) >= 6:
            keys.add(f"j:{x.family}")
        elif len(x.given) == 1:
            keys.update({f"j:{x.given[0]}{x.family}", f"j:{x.family}{x.given[0]}"})
    return keys


def _kanji_keys(name: str) -> set[str]:
    """A Japanese name in kanji as its kanji may be read (東原敏昭, which no dictionary reads whole;
    貴乃花光司, a ring name read otherwise: japanese.family_keys), keyed as a Latin name's family
    name and given initial are: the pairs people._by_kanji weighs."""
    if is_latin(name):
        return set()
    return {f"f:{family}:{head}" for family, head in family_keys(name)}


def _english_keys(name: str) -> set[str]:
    """A family name in characters, each spelling of it, and a Latin name's family name beside a
    given name no Chinese syllables spell: the pairs an English given name beside characters needs
    (Bruce Lee / 李小龍: people.name_evidence weighs them)."""
    keys: set[str] = set()
    for reading in parse(name):
        if reading.script == "han":
            keys.update(f"e:{family}" for family in {reading.family, *reading.spellings})
        elif not reading.script and 1 <= len(reading.given) <= 2 and _english_given(reading.given):
            keys.add(f"e:{reading.family}")
    return keys


def _english_given(given: tuple[str, ...]) -> bool:
    """Given names no Chinese syllables spell, or a first of five letters or more the nickname
    tables know, which Chinese syllables may spell too (Eileen, "ei lin": Eileen Chang, 張愛玲)."""
    return not chinese_spelled("".join(given)) or (len(given[0]) >= 5 and len(given_forms(given[0])) > 1)


def _consonant_keys(name: str) -> set[str]:
    """A name in a consonantal script by the consonants of each word (ناصف ساويرس / Nassef
    Sawiris), a Latin one by its family name's, and as a katakana reading hears them (デーブ・ロバーツ /
    Dave Roberts: japanese.heard, the Latin name in every spelling japanese.heard_spellings hears:
    Martohartono, マルトハルトノ, its r sounded)."""
    kana = katakana_words(name)
    if kana:
        return {f"h:{heard(kana[-1])}"}
    if not consonantal(name):
        # a first w heard as v too, as Hebrew and Arabic letters write it (ורטהיימר / Wertheimer),
        # and the family name as Thai letters spell it (Tiravanija / ตีระวนิช: consonants.thai_key)
        return {
            key
            for x in parse(name)[:1]
            for key in (
                *(f"s:{skeleton(spelled)}" for spelled in _script_spellings(x.family)),
                f"s:{skeleton(re.sub('^w', 'v', x.family))}",
                *(f"h:{h}" for h in heard_spellings(x.family)),
                f"t:{thai_key(skeleton(x.family.replace('v', 'w')))}",
            )
        }
    if THAI_LETTER.search(name):
        # the last letter as spelt, too: a Latin spelling may write it (Nadech, Tiravanija) or
        # its sound (Jirayut)
        read = words(thai_reading(name)) + words(thai_reading(name, final=False))
        return {f"t:{thai_key(skeleton(w))}" for w in read}
    # and without the article a word may begin with (الخليفي, "lkhlyfy": Al-Khelaifi's Khelaifi)
    read = _script_words(name)
    keys = {skeleton(w) for w in [*read, *(w[1:] for w in read if w[:1] == "l" and len(w) >= 3)]}
    # व is v or w, and a w is a glide skeleton drops (अग्रवाल, "grfl" / Aggarwal, "grl")
    # and z as s: a Hebrew ז writes an English s sounded so (זקס, Sacks); a leading و or ی is a
    # vowel a Latin spelling writes, no consonant (اورنگزیب, "wrngzb" / Aurangzeb, "rngzb")
    return {
        f"s:{k}"
        for key in keys
        for k in {
            key,
            key[:1] + re.sub("[vf]", "", key[1:]),
            key.replace("z", "s"),
            key.replace("c", "s"),  # Tamil's ச, read c, is an s as often (சுப்பிரமணியம் / Subramaniam)
            key[1:] if key[:1] in "wy" else key,
        }
        if k
    }


def _script_words(name: str) -> list[str]:
    """A name in a consonantal script read word by word: Hebrew three ways (with its vowel letters,
    without, and ח and צ as Latin spellings write them: עמיחי, "mch", Amichai), another script one
    way only, and its letters as Latin spellings say them (consonants.spoken: ظاهر, Zahir); and a
    name of "servant of" or "father of" with the word after it, as a Latin name runs them together
    (عبد النور, Abdelnour; عبد الله, Abdullah)."""
    read = [w for said in (name, *spoken(name)) for w in words(consonant_letters(said))]
    if HEBREW_LETTERS.search(name):
        read += words(consonant_letters(name, vowels=False)) + words(
            consonant_letters(name, vowels=False, spelled="z")
        )
    return read + [w + after for w, after in zip(read, read[1:], strict=False) if w in ("bd", "bw")]


# Latin spellings of letters another script writes otherwise: a French "ch" is ش (Akhannouch /
# أخنوش), a Persian "gh" ق (Ghobadi / قبادی), a "v" و, a glide (Parveen / پروین), a "z" জ or ज (Mortaza /
# মুর্তজা)
# ch also as kh: German and Yiddish spellings of a sound Hebrew writes כ or ח (Shechtman, שכטמן)
_HEARD = (("ch", "sh"), ("ch", "kh"), ("gh", "q"), ("v", "w"), ("z", "j"))


def _script_spellings(family: str) -> set[str]:
    """A Latin family name as written, with each of `_HEARD`'s letters as another script writes it,
    and a Bengali one as Bengali spells it (brahmic.bengali_spelling: Ganguly, gangopadhyay)."""
    return {family, bengali_spelling(family), *(family.replace(x, y) for x, y in _HEARD if x in family)}
