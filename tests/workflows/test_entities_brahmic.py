"""Names in the Brahmic scripts of South Asia read with the vowels their consonants carry (brahmic.py)."""

from __future__ import annotations

import pytest

from exa_orch.workflows.entities.brahmic import reading, spelling_key
from exa_orch.workflows.entities.names import fold
from exa_orch.workflows.entities.people import name_evidence


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("पवन हंस", "pavan hans"),  # Devanagari: an inherent vowel, a nasal mark
        ("शिवकुमार शर्मा", "shivkumar sharma"),  # a schwa between a vowel and a consonant: silent
        ("सचिन तेंदुलकर", "sachin tendulkar"),
        ("नरेन्द्र मोदी", "narendra modi"),  # after a cluster at a word's end, sounded
        ("नवाज़ुद्दीन सिद्दीक़ी", "navazuddin siddiqi"),  # a nukta: z, q
        ("অজয় চক্রবর্তী", "ajay chakrabarti"),  # Bengali: a cluster keeps the vowel before it
        ("বিরাট কোহলি", "birat kohli"),  # ো is one sign
        ("పవన్ కళ్యాణ్", "pavan kalyan"),  # Telugu: a virama at the end
        ("மணிரத்னம்", "maniratnam"),  # Tamil: no schwa deletion
        ("ਭਗਤ ਸਿੰਘ", "bhagat singh"),  # Gurmukhi's tippi, a nasal before h
        ("ગૌતમ અદાણી", "gautam adani"),
        ("সুজিৎ বসু", "sujit basu"),  # Bengali's khanda ta: a t without a vowel
        ("ജയൻ നായർ", "jayan nayar"),  # Malayalam's chillu letters: n and r without a vowel
        ("సుందరం", "sundaram"),  # a nasal mark closing a southern word: m
        ("నాగేంద్రరావు", "nagendrarao"),  # Telugu's రావు is the Rao of a name
        ("Tata पवन", "Tata pavan"),  # Latin letters stay as written
        ("ৰাজীৱ গগৈ", "rajiw gagai"),  # Assamese's own letters: ৰ r, ৱ w
        ("ওয়ালিউল্লাহ", "waliullah"),  # Bengali's ও before য়: a w
        ("বাওয়ানী", "bawani"),
        ("ঝংকার বংটেল", "jhangkar bangtel"),  # Bengali's anusvara ং: always ng
        ("झंकार", "jhankar"),  # Devanagari's: a nasal as the consonant after it says
        ("கஃபே ஃபார்ம்", "kafe farm"),  # Tamil's aytham before ப: an f
        ("சிவகாசி", "sivakachi"),  # Tamil's ச: an s opening a word
        ("ஆட்சி", "akshi"),  # ட்ச: the Sanskrit ksh
        ("பற்று", "patru"),  # ற்ற: tr
        ("പറ്റം", "pattam"),  # Malayalam's റ in a cluster: a t
        ("എന്റെ മറ", "ente mara"),  # and r alone
    ],
)
def test_a_brahmic_name_is_read_with_its_vowels(written: str, read: str) -> None:
    assert reading(written) == read
    assert fold(written) == read.lower()


def test_latin_spellings_of_one_indian_name_share_one_key() -> None:
    assert spelling_key("vineeta singh") == spelling_key("vinita singh") == "vinita singh"
    assert spelling_key("pawan kalyan") == spelling_key("pavan kalyan")


@pytest.mark.parametrize(
    ("written", "latin", "joins"),
    [
        ("विनीता सिंह", "Vineeta Singh", True),
        ("పవన్ కళ్యాణ్", "Pawan Kalyan", True),
        ("नीरज चोपड़ा", "Neeraj Chopra", True),
        ("सचिन तेंदुलकर", "Sachin Tendulkar", True),
        ("राहुल गांधी", "Sonia Gandhi", False),  # one family, two people
        ("विराट कोहली", "Virat Kapoor", False),
        ("ওয়ালিউল্লাহ খান", "Waliullah Khan", True),  # Bengali's ও before য়: a w
        ("ওয়ালিউল্লাহ খান", "Aliullah Khan", False),
    ],
)
def test_a_brahmic_reading_is_a_whole_name_s_agreement(written: str, latin: str, joins: bool) -> None:
    weight, reason = name_evidence(written, latin)
    assert (weight >= 7.0) == joins, reason


@pytest.mark.parametrize(
    ("latin", "agrees"),
    [
        ("Sudhakar", True),  # the name he goes by alone, one of the two written
        ("Kondaveeti", True),
        ("Sudhir", False),  # another name: its consonants are no word's
        ("Ramesh", False),
    ],
)
def test_one_latin_name_a_person_goes_by_is_one_of_the_names_the_script_writes(
    latin: str, agrees: bool
) -> None:
    """కొండవీటి సుధాకర్ and "Sudhakar": a single Latin name, one of the script's words letter for
    letter, weighs as a given name missing does between two Latin names (never a join alone)."""
    weight, reason = name_evidence("కొండవీటి సుధాకర్", latin)
    assert (weight == 4.0) is agrees, reason
    assert weight < 7.0


@pytest.mark.parametrize(
    ("script", "latin", "agree"),
    [
        ("শেখ হাসিনা", "Sheikh Hasina", True),  # a title both write, left out of both
        ("டி. எம். கிருஷ்ணா", "T. M. Krishna", True),  # initials spelled by their letters' names
        ("শেখ হাসিনা", "Hasina Wajed", False),  # the title is no family name
        ("டி. எம். கிருஷ்ணா", "T. K. Krishna", False),  # another initial
    ],
)
def test_a_title_and_initials_the_latin_name_writes_are_read_in_the_script(
    script: str, latin: str, agree: bool
) -> None:
    assert (name_evidence(script, latin)[0] > 0) is agree


@pytest.mark.parametrize(
    ("script", "latin", "agree"),
    [
        ("ఎం. నాగేంద్రరావు", "Nagendra Rao", True),  # an initial the Latin name leaves out, words run together
        ("ఎం. నాగేంద్రరావు", "M. Nagendra Rao", True),
        ("ఎం. నాగేంద్రరావు", "K. Nagendra Rao", False),  # another initial
        ("ఎం. నాగేంద్రరావు", "Nagendra Reddy", False),
        ("সুজিৎ", "Sujit (cricketer)", True),  # the words that tell namesakes apart are no name
        ("সুজিৎ", "Sumit (cricketer)", False),  # one word alone agrees letter for letter
    ],
)
def test_a_south_asian_name_agrees_past_a_dropped_initial_and_a_namesake_s_description(
    script: str, latin: str, agree: bool
) -> None:
    assert (name_evidence(script, latin)[0] > 0) is agree


@pytest.mark.parametrize(
    ("script", "latin", "agree"),
    [
        ("கங்கை அமரன்", "Gangai Amaran", True),  # Tamil's one letter: க written for a g
        ("துரை முருகன்", "Durai Murugan", True),  # த for a d
        ("கங்கை அமரன்", "Ganga Raman", False),
        ("தினேஷ் கார்த்திக்", "Dinesh Kumar", False),
        ("කමල් කූරේ", "Kamal Cooray", True),  # Sinhala's k, a hard c in the Latin spelling
        ("කමල් කූරේ", "Kamal Soray", False),
        ("சுனில் சந்திர டி சில்வா", "Sunil Chandra de Silva", True),  # a particle both write
        ("சுனில் சந்திர டி சில்வா", "Sunil Chandra Silva Perera", False),
        ("דוד אורן", "David Oren", True),  # Hebrew: one word's ו a v, the other's a vowel
        ("דוד שושן", "David Shoshan", True),
    ],
)
def test_letters_a_script_writes_alike_particles_and_words_read_apart_agree(
    script: str, latin: str, agree: bool
) -> None:
    assert (name_evidence(script, latin)[0] > 0) is agree
