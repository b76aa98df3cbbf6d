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
        ("Tata पवन", "Tata pavan"),  # Latin letters stay as written
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
    ],
)
def test_a_brahmic_reading_is_a_whole_name_s_agreement(written: str, latin: str, joins: bool) -> None:
    weight, reason = name_evidence(written, latin)
    assert (weight >= 7.0) == joins, reason


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
