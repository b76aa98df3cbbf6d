"""Names in scripts that write few vowels, or vowels another script spells otherwise (Arabic,
Hebrew, the Brahmic scripts, Thai), read by their consonants against a name in Latin letters.

`skeletons(a, b)` weighs such a pair (scripts.skeleton: ناصف ساويرس / Nassef Sawiris, 5 at most:
a reading of consonants alone is never a whole name's agreement); `consonant_letters` is the
folded reading it compares, `meets` how one word's consonants meet another's. people.py asks it
first of every pair of written names; glossary.py and person_evidence.py read names so too. An
Arabic name is also read as far as the lineage a Latin name writes (`_shorter_lineages`) and with
its letters as Latin spellings say them (`_SPOKEN`); a Thai company's name is read so against a
Latin one in thai_companies.py. A Thai name is read as thai_letters.thai_reading reads it, a Lao
one as the Thai letters of its sounds (thai_letters.lao_reads), a Burmese one syllable by syllable
(burmese.reads_as).
"""

from __future__ import annotations

import itertools
import re

from exa_orch.workflows.entities.brahmic import bengali_spelling
from exa_orch.workflows.entities.burmese import reads_as
from exa_orch.workflows.entities.names import fold, words
from exa_orch.workflows.entities.scripts import consonantal, hard_c, skeleton, sound_key
from exa_orch.workflows.entities.spelled import letters_named
from exa_orch.workflows.entities.thai_letters import (
    THAI_LETTER,
    THAI_SOUNDS,
    as_thai_writes,
    folded,
    lao_reads,
    sounded,
    thai_reading,
)
from exa_orch.workflows.entities.titles import HONORIFICS, PARTICLES
from exa_orch.workflows.entities.word_tables import ARABIC_LETTERS


def meets(s: str, others: list[str]) -> bool:
    """A word's consonants among `others`', or one letter off from one of three letters or more (a
    flap written d in one script and r in the other: चोपड़ा / Chopra)."""
    return s in others or (len(s) >= 3 and any(len(o) >= 3 and one_off(s, o) for o in others))


def one_off(x: str, y: str) -> bool:
    """`x` and `y` differ in one letter (one changed, added or dropped)."""
    from rapidfuzz.distance import Levenshtein  # on first use, as evidence.py does

    return bool(Levenshtein.distance(x, y, score_cutoff=1) == 1)


# Hebrew letters as a name's consonants are heard (anyascii reads ב and ו as v): ב is mostly the
# b of Bennett; ו, י, א, ע and a final ה mostly write vowels (Shimon, Netanyahu, Amos), so they
# are dropped but for a word's first ו or י (Yair). פ stays f, which `meets` reads one letter off
# a p (Peres).
_HEBREW = str.maketrans({"ב": "b", "א": "", "ע": ""})
_HEBREW_VOWELS = re.compile(r"(?<=[\u05d0-\u05ea])[וי]|ה(?![\u05d0-\u05ea])")
_HEBREW_LETTER = re.compile(r"[\u05d0-\u05ea]")


_READ_PARTICLES = frozenset({"bn", "bnt"})
_FAMILY_ARTICLE = re.compile(r"(?<!\S)آل(?!\S)")
# "Ben" between a Maghrebi name's words is بن, "son of" (Kaouther Ben Hania: كوثر بن هنية), never
# the first word (Ben is a given name too)
_LATIN_BEN = frozenset({"ben", "ould"})


# Hebrew ח as the ch of Menachem and Chaim (anyascii: h), and צ as the z of Herzog or the tz of
# Katz (anyascii: ts): as the Latin spellings of names from Hebrew and German write them
_HEBREW_SPELLED = {z: str.maketrans({"ח": "ch", "צ": z, "ץ": z}) for z in ("z", "tz")}


# A ه after a consonant in Arabic letters is an h of its own (سپهری, Sepehri; شهرام, Shahram), which
# folded beside the consonant would read as a digraph ("ph", "sh"): a vowel between keeps them apart.
_H_AFTER = re.compile(r"(?<=[بتثجحخدذرزسشصضطظعغفقكلمنپچژگک])ه")
# Persian letters (پ چ ژ گ, and its own kaf and yeh): a Persian name sounds ظ ذ ض as z and ث ص as s
# (ناظری, Nazeri), where Arabic reads dh and th
_PERSIAN = re.compile(r"[\u067e\u0686\u0698\u06af\u06a9\u06cc]")
_PERSIAN_SOUNDS = str.maketrans({"ظ": "ز", "ذ": "ز", "ض": "ز", "ث": "س", "ص": "س"})


# A word's opening ئ, which Kurdish and Uyghur write as its vowel's seat (ئاشتی, Ashti), no y
_OPENING_SEAT = re.compile(r"(?<![\u0600-\u06ff])ئ(?=[\u0600-\u06ff])")
# A ي or و after the alif or ayin that opens a word writes its first vowel, a long i or u, no
# consonant (عيسى, Isa; إيمان, Iman; عوض, Awad): the Latin spelling's skeleton has none either.
_OPENING_VOWEL = re.compile(r"(?<![\u0600-\u06ff])([اأإآع])[يیو]")


def consonant_letters(name: str, *, vowels: bool = True, spelled: str = "") -> str:
    """A name in a consonantal script folded, an ayin or hamza dropped: anyascii reads them as a
    quote mark ("العبار" -> "l`br"), a letter of the word, not a break between two. Hebrew with
    `vowels` off is read by its consonants alone (`_HEBREW`: "שמעון פרס" -> "smn prs"; with them,
    ו is a v: לוי, Levi), and `spelled` ("z" or "tz"), ח and צ as Latin spellings write them
    (`_HEBREW_SPELLED`)."""
    if not vowels and _HEBREW_LETTER.search(name):
        # a geresh after ג, ז or צ writes a sound Hebrew lacks (ג'ונתן, Jonathan): the letter's, not a
        # break before a vowel letter
        name = _HEBREW_VOWELS.sub("", re.sub(r"(?<=[גזצ])['׳]", "", name)).translate(_HEBREW)
        name = name.translate(_HEBREW_SPELLED[spelled]) if spelled else name
    if ARABIC_LETTERS.search(name):
        # the vowel written ە (folded "e"): ا folds to nothing
        name = _H_AFTER.sub("\u06d5ه", name.translate(_PERSIAN_SOUNDS) if _PERSIAN.search(name) else name)
        name = _OPENING_VOWEL.sub(r"\1", _OPENING_SEAT.sub("", name))
    return folded(name)


def skeletons(a: str, b: str) -> tuple[float, str] | None:
    """A name in a consonantal script (scripts.consonantal) and one in Latin letters: every word of
    the first meets a word of the second by its consonants (scripts.skeleton, `meets`), the Latin
    family name (its last word) among them, or the whole names' consonants agree where the scripts
    break words apart differently (शाहरुख़ ख़ान / Shah Rukh Khan). 5 at most, 4 with a Latin word left
    over (a middle name): a reading of consonants alone is never a whole name's agreement; None
    when not such a pair."""
    if consonantal(a) == consonantal(b):
        return None
    script, latin = (a, b) if consonantal(a) else (b, a)
    if THAI_LETTER.search(script):  # as Latin spellings write Thai's letters, or as anyascii does
        return max(
            *(
                _read_skeletons(script, latin, thai_reading(script, final=f, vo=v), thai=True)
                for f in (True, False)
                for v in (False, True)
            ),
            *(
                _read_skeletons(script, spelled, thai_reading(script), thai=True, written=latin)
                for spelled in as_thai_writes(latin)
            ),
            # a silent letter (์) a Latin spelling writes all the same (อนันต์, Anant; ฮาราลด์, Harald):
            # every consonant in its place, no word one letter off (ศรีสวัสดิ์ sounded, "srst", is no Sirisuk)
            *(
                _read_skeletons(script, latin, thai_reading(sounded(script), final=f), thai=True, exact=True)
                for f in (True, False)
            ),
            _read_skeletons(script, latin, consonant_letters(script)),
        )
    if _LAO_KHMER_MYANMAR.search(script):
        # Burmese syllable by syllable, as its spellings go; Lao as the Thai letters of its sounds
        if read := reads_as(script, latin) or lao_reads(script, latin, _lao_skeletons):
            return read
        # else read by anyascii alone, roughly: the whole name's sounds alike, three consonants or more
        # in two words (ហ៊ុន សែន / Hun Sen; នរោត្តម សីហនុ, "nrtmsn", is no Norodom Sihamoni, "nrtmsmn")
        heard = sound_key(consonant_letters(script), read=True)
        if len(heard) >= 3 and " " in script.strip() and heard == sound_key(fold(latin)):
            return (5.0, f"the consonants of {script} are those of {latin}")
        return (-5.0, f"{script} and {latin} differ in their consonants")
    return _abjad_skeletons(script, latin)


def _abjad_skeletons(script: str, latin: str) -> tuple[float, str]:
    """`skeletons` of a name in an abjad or a Brahmic script: as written, as the Latin name's
    letters may be spelled there (`_respelled`), an "Abd al-" written as one word as two, and as
    far as the lineage the Latin name writes (`_shorter_lineages`)."""
    first = _arabic_skeletons(script, latin)
    for spelled in _respelled(script, latin) if first[0] <= 0 else ():
        again = _arabic_skeletons(script, spelled)
        first = max(first, (again[0], again[1].replace(spelled, latin)))
    if first[0] <= 0 and _ABD_JOINED.search(script):  # عبدالعزيز as one word, "Abdel Aziz" as two
        first = max(first, _arabic_skeletons(_ABD_JOINED.sub(r"\1 ال", script), latin))
    if first[0] <= 0 and _NASAB.search(script):
        shorter = max(_arabic_skeletons(s, latin) for s in _shorter_lineages(script, latin))
        if shorter[0] > 0:
            return min(shorter[0], 4.0), f"{shorter[1]}, the generations the Latin name leaves out aside"
    return first


def _lao_skeletons(thai: str, latin: str) -> tuple[float, str]:
    """`skeletons` of a Lao name in Thai letters (thai_letters.lao_as_thai): every consonant in its place."""
    return max(
        _read_skeletons(thai, latin, thai_reading(thai, final=f), thai=True, exact=True)
        for f in (True, False)
    )


def _respelled(script: str, latin: str) -> list[str]:
    """The Latin name as `script` may write its sounds otherwise: a Bengali family name's anglicized
    form as Bengali spells it (Ganguly, গঙ্গোপাধ্যায় gangopadhyay: brahmic.bengali_spelling), a v as
    the b Bengali writes for it (বিনায়ক, Vinayak) or as Assamese's ৱ, and Hebrew's letters
    (`_as_hebrew_writes`)."""
    out = [said] if (said := bengali_spelling(latin)) != latin else []
    if re.search("[\u0980-\u09ff]", script) and "v" in latin.lower():
        out.append(re.sub("[vV]", "w" if "\u09f1" in script else "b", latin))  # Assamese's ৱ: ৰাজীৱ, Rajiv
    return out + (_as_hebrew_writes(latin) if _HEBREW_LETTER.search(script) else [])


def _as_hebrew_writes(latin: str) -> list[str]:
    """A Latin name as Hebrew letters may write its sounds: a hard c as k (כהן, Cohen; כספי,
    Casspi), and then a v as ב, a j before a vowel as י (בנימין, Benjamin; אבדיה, Avdija) or an s as
    ז (ויגדרזון, Wigderson), each alone and all together."""
    hard = hard_c(latin.lower())
    said = [hard.replace("v", "b"), re.sub(r"j(?=[aeiou])", "y", hard), re.sub(r"s(?!h)", "z", hard)]
    every = re.sub(r"s(?!h)", "z", re.sub(r"j(?=[aeiou])", "y", hard.replace("v", "b")))
    return [x for x in dict.fromkeys([hard, *said, every]) if x != latin.lower()]


# A generation of an Arabic name's lineage, "son (daughter) of X" (بن نايف; بن عبد العزيز, whose
# name is two words), and the royal house that closes it (آل سعود, the House of Saud).
_NASAB = re.compile(r"\s+(?:بن|بنت|ابن)\s+(?:(?:عبد|أبو|ابو)\s+)?\S+")
_HOUSE = re.compile(r"\s+آل\s+\S+$")
_LATIN_LINEAGE = frozenset({"bin", "bint", "ibn"})


def _shorter_lineages(script: str, latin: str) -> list[str]:
    """An Arabic name with only as many generations as the Latin name writes ("محمد بن نايف بن
    عبد العزيز آل سعود" / Muhammad bin Nayef; none: "عبد الله بن عبد العزيز الربيعة" / Abdullah Al
    Rabeeah), with its royal house and without it (a Latin name may leave the house out). A family
    name the house is not (الربيعة) stays: it tells namesakes of one lineage apart."""
    kept = sum(w in _LATIN_LINEAGE for w in words(latin))
    generations = list(_NASAB.finditer(script))
    if len(generations) <= kept or len(words(latin)) - kept < 2:  # one word alone is no lineage
        return [script]
    cut = generations[kept]
    shorter = script[: cut.start()] + script[generations[-1].end() :]
    return [shorter, _HOUSE.sub("", shorter)]


def _arabic_skeletons(script: str, latin: str) -> tuple[float, str]:
    """`skeletons` of a script's name but Thai, its royal house's article (آل) aside; where that
    reading fails, a ta marbuta read as t, Hebrew by its consonants alone, Arabic's letters as Latin
    spellings say them (`_SPOKEN`; Devanagari's too) and without the article a Latin name may
    leave out."""
    # آل opening a family ("آل سعود", Al Saud) is the article a Latin name may leave out: dropped
    # as a word, never a word read "l" (علاء, Alaa)
    script = " ".join(_FAMILY_ARTICLE.sub("", script).split())
    first = _read_skeletons(script, latin, consonant_letters(script))
    if first[0] <= 0 and "ة" in script:  # ta marbuta: a t where a name says it (حياة, Hayat)
        first = max(first, _read_skeletons(script, latin, consonant_letters(script.replace("ة", "ت"))))
    if first[0] <= 0 and (joined := _ALLAH_APART.sub("", script)) != script:
        # a name ending in الله written apart, which a Latin spelling runs together (فضل الله,
        # Fadlallah): each word's consonants as the Latin's, none one letter off (نصرالله is no Nasser)
        theirs, mine = _word_skeletons(joined, latin, consonant_letters(joined), False)
        if theirs and theirs == mine:  # in order: صالح عبد الله is no Abdullah Saleh
            first = max(first, _read_skeletons(script, latin, consonant_letters(joined)))
    if first[0] > 0:
        return first
    if _HEBREW_LETTER.search(script):
        return max(_read_skeletons(script, latin, read) for read in _hebrew_readings(script))
    if not ARABIC_LETTERS.search(script):
        return max([first, *(_read_skeletons(script, latin, consonant_letters(x)) for x in spoken(script))])
    # منجي الباوندي / Moungi Bawendi: a Latin name may leave al- out
    for said in dict.fromkeys([script, *spoken(script)]):
        for read in dict.fromkeys([said, _ARTICLE.sub("", said)]):
            if read != script and (again := _read_skeletons(script, latin, consonant_letters(read)))[0] > 0:
                return again
    return first


def _hebrew_readings(script: str) -> list[str]:
    """A Hebrew name read by its consonants alone (ח and צ as each Latin spelling writes them), each
    word with its ו and י read as letters or as vowels apart from the others': "דוד ששון" is David
    (ו a v) Sassoon (ו a vowel)."""
    out: list[str] = []
    for z in ("", *_HEBREW_SPELLED):
        each = [
            dict.fromkeys(consonant_letters(w, vowels=v, spelled=z) for v in (False, True))
            for w in script.split()
        ]
        out.extend(" ".join(read) for read in itertools.islice(itertools.product(*each), 16))
    return list(dict.fromkeys(out))


# The space before الله closing a compound name (فضل الله, نصر الله, عبد الله)
_ALLAH_APART = re.compile(r"(?<=\S)\s+(?=الله(?!\S))")


# Arabic letters as Latin spellings of names write them where anyascii reads them otherwise: ظ ذ ض
# as z (ظاهر, Zahir; كاظم, Kazem), ق and ك as g, as the Gulf and the Maghreb say them (قرقاش,
# Gargash; الركراكي, Regragui), ج as g, as Egypt says it (جمعة, Gomaa): each tried alone;
# Persian's ث, an s (ثالث, Sales; ثابت, Sabet)
_SPOKEN = (
    str.maketrans("ظذض", "ززز"),
    str.maketrans("قك", "گگ"),
    str.maketrans("ج", "گ"),
    str.maketrans("ث", "س"),
    str.maketrans("व", "ब"),  # and Devanagari's व, a b as Nepali says it (देउवा, Deuba)
    str.maketrans("ச", "ஸ"),  # and Tamil's ச, an s as the start of a word says it (சண்முகம், Shanmugam)
    str.maketrans({"জ": "ज़"}),  # Bengali's জ, a z in names from Arabic and Persian (আজাদ, Azad)
    str.maketrans({"ङ": "ng", "ঙ": "ng"}),  # a velar nasal, ng (मिङ्मा, Mingma)
    str.maketrans({"ව": "w"}),  # Sinhala's ව, a w as its names' Latin spellings write it (නුවන්, Nuwan)
)


def spoken(script: str) -> list[str]:
    """A name in Arabic (or Devanagari) letters read as each of `_SPOKEN` says it, where that
    differs from it."""
    return [said for t in _SPOKEN if (said := script.translate(t)) != script]


# The Arabic article opening a word (الباوندي, al-Bawendi), and a Latin word that runs "abd" or
# "abu" together with it ("Abdel", "Abdul", "Aboul": عبد ال, أبو ال)
_ARTICLE = re.compile(r"(?<![\u0600-\u06ff])ال(?=[\u0600-\u06ff]{2})")
_FUSED_ARTICLE = re.compile(r"^(abd|abu|abou|abo)(?:e|u|a|ou|o)?l$")
# and the Arabic written as one word with the article inside it (عبدالعزيز, عبدالوهاب)
_ABD_JOINED = re.compile(r"(?<![\u0600-\u06ff])(عبد|أبو|ابو)ال(?=[\u0600-\u06ff]{2})")


def soft_g(word: str) -> str:
    """A g before e or i as Arabic letters write it, a ج (Germain: جيرمان, Agility: أجيليتي)."""
    return re.sub(r"g(?=[ei])", "j", word)


def _as_arabic_writes(word: str, *, french: bool = True, hard_g: bool = False) -> str:
    """A Latin word of a name as Arabic letters write it: "abd" or "abu" without the article run
    into it, a g before e or i soft, as ج (Moungi: منجي, Germain: جيرمان); French spellings' ch as
    ش (Chahine: شاهين; `french` off where the name writes چ, the ch of Chavoshi), an ou before a
    vowel as و (Aouita: عويطة) and dj as ج (Hadji: حجي), a c as ك or, before e or i, س (Nicolas: نيكولا);
    a v as و, the letter Persian and Urdu write it with (Beiranvand: بیرانوند); a g hard where
    the name writes گ, Persian's g (Geraei: گرایی)."""
    word = _FUSED_ARTICLE.sub(r"\1", word)
    word = (word if hard_g else soft_g(word)).replace("dj", "j")
    word = re.sub(r"ou(?=[aei])", "w", word.replace("ch", "sh")) if french else word
    return re.sub(r"c(?!h)", "k", re.sub(r"c(?=[eiy])", "s", word)).replace("v", "w")


_LAO_KHMER_MYANMAR = re.compile(r"[\u0e80-\u0eff\u1000-\u109f\u1780-\u17ff]")


def thai_key(consonants: str) -> str:
    """A skeleton's letters as Thai names' spellings tell them apart (thai_letters.THAI_SOUNDS), one letter
    for two alike ("kugimiya" and คูกิมิยะ's "khkimiya" -> "km")."""
    return _once(consonants.translate(THAI_SOUNDS))


def _read_skeletons(
    script: str, latin: str, read: str, *, thai: bool = False, written: str = "", exact: bool = False
) -> tuple[float, str]:
    """`skeletons` for one reading `read` of `script`; `thai`: both names' consonants as Thai
    names are spelt (thai_letters.THAI_SOUNDS); `written`: the Latin name as written, where `latin` spells
    it otherwise (thai_letters.as_thai_writes), named in the reason; `exact`: every letter in its place."""
    theirs, mine = _word_skeletons(script, latin, read, thai)
    latin = written or latin
    differ = (-5.0, f"{script} and {latin} differ in their consonants")
    # every letter in its place, the words run together alike, or a word of one
    if theirs and _once(_nasal("".join(theirs))) == _once(_nasal("".join(mine))):
        return (5.0, f"the consonants of {script} are those of {latin}, its words run together")
    # one word beside one agrees letter for letter (সুজিৎ: Sujit, no Sumit); Thai's spellings vary more
    alone = not thai and len(words(read)) == len(words(latin)) == 1
    if exact or alone or not theirs or not mine or not meets(mine[-1], theirs):
        return differ
    if _one_consonant_astray(theirs, mine):
        return differ
    if all(meets(s, mine) for s in theirs) and not _lineage_reordered(script, theirs, mine):
        return (5.0 if len(mine) <= len(theirs) else 4.0, f"the consonants of {script} are those of {latin}")
    if _middle_left_out(theirs, mine):
        return (4.0, f"the consonants of {latin} are those of {script}, a middle name on one side")
    # one Latin word, three consonants or more, one of the script's words letter for letter: the name
    # a person goes by alone (పుల్లెల గోపీచంద్ / Gopichand), as a given name missing weighs in Latin letters
    # (a lineage, "bin Khalifa", names the father, not him)
    lone = len(mine) == 1 and not _LATIN_LINEAGE.intersection(words(latin))
    if lone and len(mine[0]) >= 3 and mine[0] in theirs:
        return (4.0, f"{latin} is one of the names {script} writes")
    return differ


def _nasal(consonants: str) -> str:
    """Consonants run together with an m before another as the n a word's skeleton writes there
    (امامعلی, "nl", is Emam-Ali's "m" and "l"); never before a nasal, where it would be lost
    (ఎం. నాగేంద్రరావు's initial M is no K.)."""
    return re.sub(r"m(?=[^mn])", "n", consonants)


def _once(consonants: str) -> str:
    """Consonants with a letter written twice in a row once ("Nagendra Rao" run together, "ngndrr",
    is నాగేంద్రరావు's "ngndr")."""
    return re.sub(r"(.)\1+", r"\1", consonants)


def _word_skeletons(script: str, latin: str, read: str, thai: bool) -> tuple[list[str], list[str]]:
    """The consonants of each word of the script's reading `read` and of the Latin name, the words
    neither name's counterpart writes left out."""
    # بن and بنت read "bn" and "bnt": the particles bin and bint, left out of the Latin name's words
    # too (in Arabic letters only: בנט is Bennett)
    arabic = bool(ARABIC_LETTERS.search(script))
    dropped = PARTICLES | (_READ_PARTICLES if arabic else frozenset())
    # a title read out of the script (श्री, "shri"), never a word of three letters or fewer: a
    # reading's consonants are often a short title's letters (עמוס "ms", פרס "frs")
    said = [w for w in words(read) if w not in dropped and (w not in HONORIFICS or len(w) <= 3)]
    dotted = frozenset(re.findall(r"(\w+)\.", fold(read)))  # "బి. రామలింగరాజు", "bi. ramalingaraju"
    theirs = [skeleton(w) for w in _unwritten(said, words(latin), dotted)]
    mine = _latin_skeletons(script, latin, arabic, thai)
    theirs, mine = _as_the_script_tells(script, theirs, thai), _as_the_script_tells(script, mine, thai)
    # a particle the Latin name writes, and the script too (நிமல் சிறிபால டி சில்வா, Nimal Siripala de
    # Silva): left out of both
    for particle in _as_the_script_tells(script, [skeleton(w) for w in words(latin) if w in PARTICLES], thai):
        if particle in theirs[1:]:
            theirs.remove(particle)
    return theirs, mine


def _latin_skeletons(script: str, latin: str, arabic: bool, thai: bool) -> list[str]:
    """The consonants of each word of the Latin name as the script would write it (`_as_arabic_writes`;
    Thai's w for a v; a hard c as the Brahmic scripts' k: කූරේ, Cooray), titles, particles and
    initials left out (and an Arabic name's "ben" after its first word)."""
    persian_ch = "چ" in script  # چ writes the ch of Chavoshi, not a French ch (ش)
    brahmic = _BRAHMIC_LETTER.search(script)

    def written(w: str) -> str:
        if arabic:
            return _as_arabic_writes(w, french=not persian_ch, hard_g="گ" in script)
        return w.replace("v", "w") if thai else hard_c(w) if brahmic else w

    return [
        skeleton(written(w))
        for at, w in enumerate(words(latin))
        if w not in HONORIFICS
        and w not in PARTICLES
        and len(w) > 1
        and not (arabic and at and w in _LATIN_BEN)
    ]


def _as_the_script_tells(script: str, skeletons_: list[str], thai: bool) -> list[str]:
    """Skeletons with the letters the script writes alike made one: Thai's (`thai_key`), Tamil's."""
    if thai:
        return [thai_key(k) for k in skeletons_]
    return [k.translate(_TAMIL_SOUNDS) for k in skeletons_] if _TAMIL_LETTER.search(script) else skeletons_


# Tamil writes one letter for a voiced stop and its plain one, which its Latin spellings tell apart
# as the name is said: க is k or g (கஜேந்திரன், Gajendran), த and ட are t, th, d or dh (உதயநிதி,
# Udhayanidhi; எடப்பாடி, Edappadi), ப is p or b (skeleton reads both b), ச is c, ch, j or s: both
# names' consonants compared as Tamil letters write them
_BRAHMIC_LETTER = re.compile("[\u0900-\u0dff]")
_TAMIL_LETTER = re.compile("[\u0b80-\u0bff]")
_TAMIL_SOUNDS = str.maketrans("dgj", "tkc")


def _unwritten(said: list[str], latin: list[str], dotted: frozenset[str] = frozenset()) -> list[str]:
    """A reading's words but those the Latin name writes as words it leaves out of the comparison:
    a title the Latin name writes too (শেখ হাসিনা, "shekh" / Sheikh Hasina), its initials spelled by
    their letters' names (டி. எம். கிருஷ்ணா, "ti em" / T. M. Krishna: spelled.letters_named) or
    written whole, as South Indian names write a family or village name the Latin one shortens to
    its initial (దగ్గుబాటి రామానాయుడు / D. Ramanaidu); and an initial the script writes with its
    point (`dotted`) where the Latin name writes none (బి. రామలింగరాజు / Ramalinga Raju)."""
    titles = [skeleton(w) for w in latin if w in HONORIFICS]
    initials = [w for w in latin if len(w) == 1]
    kept = []
    for w in said:
        if skeleton(w) in titles:
            titles.remove(skeleton(w))
        elif initial := next((i for i in initials if i in letters_named(w) or skeleton(w)[:1] == i), None):
            initials.remove(initial)
        elif not initials and w in dotted and letters_named(w):
            continue
        else:
            kept.append(w)
    return kept


def _one_consonant_astray(theirs: list[str], mine: list[str]) -> bool:
    """A word of one consonant (राय / Rai) reads only in its place among as many words: one letter
    alone is too many names' to meet anywhere."""
    if all(len(s) >= 2 for s in theirs):
        return False
    return len(theirs) != len(mine) or any(len(s) < 2 and s != m for s, m in zip(theirs, mine, strict=True))


def _lineage_reordered(script: str, theirs: list[str], mine: list[str]) -> bool:
    """An Arabic name of three words or more whose first (the person's own name) is not the Latin
    name's first: its words in another order name another generation (صالح عبد الله كامل, Saleh son
    of Abdullah, is not Abdullah Saleh Kamel, his son)."""
    return bool(ARABIC_LETTERS.search(script)) and len(theirs) >= 3 and not meets(theirs[0], mine[:1])


def _middle_left_out(theirs: list[str], mine: list[str]) -> bool:
    """The script writes one word more, a middle name the Latin name leaves out (عمران خان نیازی /
    Imran Niazi): first and last words meet, and every Latin word meets one of the script's."""
    return (
        len(theirs) == len(mine) + 1
        and all(meets(m, theirs) for m in mine)
        and meets(theirs[0], mine[:1])
        and meets(theirs[-1], mine[-1:])
    )
