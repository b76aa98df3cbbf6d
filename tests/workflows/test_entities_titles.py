"""Titles opening a name (titles.py): a monarch's, a cleric's, an officer's; a regnal number; a realm."""

from __future__ import annotations

import pytest

from exa_orch.workflows.entities import titles
from exa_orch.workflows.entities.people import name_evidence


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("King Harald V", "Harald V of Norway"),
        ("Queen Elizabeth II", "Elizabeth II of the United Kingdom"),
        ("King Charles III", "Charles III"),
    ],
)
def test_one_regnal_name_is_a_whole_name(a: str, b: str) -> None:
    weight, reason = name_evidence(a, b)
    assert weight == 7.0 and reason.startswith("the same regnal name"), reason


def test_two_realms_or_two_numbers_are_two_monarchs() -> None:
    assert name_evidence("Henry VIII of England", "Henry VIII of Aragon")[0] < 0
    assert name_evidence("King Charles III", "Charles II")[0] < 4.0


def test_a_title_opening_a_name_is_read_beside_the_name_as_written() -> None:
    """ "Sultan Hassanal Bolkiah" is Hassanal Bolkiah; "Sultan Al Jaber" keeps Sultan, a given name."""
    assert name_evidence("Sultan Hassanal Bolkiah", "Hassanal Bolkiah")[0] == 7.0
    assert name_evidence("Emperor Naruhito", "Naruhito")[0] == 5.5
    assert name_evidence("Sultan Al Jaber", "Sultan Ahmed Al Jaber")[0] >= 6.0
    # a title alone is a name, and "King" after a given name is a family name
    assert titles.without_titles("Prince") == "Prince"
    assert titles.without_titles("Carole King") == "Carole King"
    assert titles.regnal("Xavier Smith") is None and titles.regnal("Harald V of Norway") == (
        "harald",
        "v",
        "norway",
    )


@pytest.mark.parametrize(
    ("written", "bare"),
    [
        ("Cardinal Pietro Parolin", "Pietro Parolin"),
        ("Lt. Gen. Jane Doe", "Jane Doe"),
        ("Professor Irene Tracey", "Irene Tracey"),
        ("Pope Leo XIV of Rome", "Leo XIV"),
        ("Archbishop of Canterbury", "Archbishop of Canterbury"),  # an office, no name
        ("Julie Bishop", "Julie Bishop"),  # a family name, closing the name
        # an office's style, a master musician's, Malaysia's and the Commonwealth's
        ("Vice President Sara Z. Duterte", "Sara Z. Duterte"),
        ("Statsminister Mette Frederiksen", "Mette Frederiksen"),
        ("Ustad Amjad Ali Khan", "Amjad Ali Khan"),
        ("Pt. Ravi Shankar", "Ravi Shankar"),
        ("YAB Dato' Seri Anwar Ibrahim", "Anwar Ibrahim"),
        ("Tan Sri Lim Kok Thay", "Lim Kok Thay"),
        ("The Rt Hon Nadhim Zahawi", "Nadhim Zahawi"),
        ("H.E. Annalena Baerbock", "Annalena Baerbock"),
        ("Tan Hooi Ling", "Tan Hooi Ling"),  # a family name: only "Tan Sri" is a style
        # a Nigerian chief's style, a Hausa scholar's, a Burmese man's and monk's, a coach's
        ("High Chief Emeka Obiora", "Emeka Obiora"),
        ("Mallam Bashir Danladi", "Bashir Danladi"),
        ("U Kyaw Zeya", "Kyaw Zeya"),
        ("Ashin Kumara Bhivamsa", "Kumara Bhivamsa"),
        ("Coach Liza Dimagiba", "Liza Dimagiba"),
        ("Chris High", "Chris High"),  # a family name: "High" is a style only before "Chief"
        # Vietnamese styles with their marks: Mr, Chairman; Ong without them is a family name
        ("ông Trần Văn Khải", "Trần Văn Khải"),
        ("Chủ tịch Trần Văn Khải", "Trần Văn Khải"),
        ("Ong Kah Hock", "Ong Kah Hock"),
        ("The Weeknd", "The Weeknd"),
    ],
)
def test_a_cleric_s_an_officer_s_or_a_professor_s_title_opens_a_name(written: str, bare: str) -> None:
    assert titles.without_titles(written) == bare
    if bare != written:
        assert name_evidence(written, bare)[0] == 7.0


def test_an_office_shortened_with_a_dot_opens_no_name() -> None:
    """ "Sen." is a senator's office, never a given name two senators share: the two brothers of one
    family name are told apart by their own given names; "Sen" without a dot is a name (Hun Sen)."""
    assert titles.without_titles("Sen. Teodulo Macaraig") == "Teodulo Macaraig"
    assert titles.without_titles("Rep. Teodulo Macaraig") == "Teodulo Macaraig"
    assert titles.without_titles("Sen Hoang") == "Sen Hoang"
    assert name_evidence("Sen. Teodulo Macaraig", "Teodulo Macaraig")[0] == 7.0
    assert name_evidence("Sen. Anselmo Dimasalang Macaraig", "Sen. RB Macaraig")[0] < 4.0


def test_the_thai_honorific_khun_opens_no_name() -> None:
    assert name_evidence("Khun Vichai Srivaddhanaprabha", "Vichai Srivaddhanaprabha")[0] == 7.0


@pytest.mark.parametrize(
    ("written", "bare"),
    [
        ("J. Alan Morrow, Ph.D.", "J. Alan Morrow"),
        ("Jane Okafor, M.D., OBE", "Jane Okafor"),
        ("Comendador Tomas Varela", "Tomas Varela"),
        ("Letjen (Purn.) Agus Wirahadi", "Agus Wirahadi"),  # an Indonesian rank, retired
        ("الشيخ الدكتور سالم بن راشد", "سالم بن راشد"),  # Arabic titles, each with its article
        ("سالم بن راشد", "سالم بن راشد"),  # Salim is a name: سالم, no title without ال
        ("Henry T. Lim, Jr.", "Henry T. Lim, Jr."),  # a generation is the name's own
        ("Morrow, Alan", "Morrow, Alan"),  # a family name written first stays
        ("박서준 회장", "박서준"),  # a Korean title after the name, as Korean news writes it: chairman
        ("박서준 부사장", "박서준"),  # vice president
        ("회장 박서준", "회장 박서준"),  # none after it: the words are the name's
    ],
)
def test_degrees_after_a_comma_close_a_name(written: str, bare: str) -> None:
    assert titles.without_titles(written) == bare


@pytest.mark.parametrize(
    ("a", "b"),
    [("Tunde Bakare", "Olatunde Bakare"), ("Sriharan Pillai", "Haran Pillai")],  # the end of a longer name
)
def test_a_given_name_ending_a_longer_one_is_a_short_form(a: str, b: str) -> None:
    weight, reason = name_evidence(a, b)
    assert weight == 5.5 and "ends the other" in reason
    # too short to tell a name from its last letters (Ana / Juliana), or two letters apart (Anna / Hanna)
    assert "ends the other" not in name_evidence("Ana Costa", "Juliana Costa")[1]
    assert "ends the other" not in name_evidence("Anna Berg", "Hanna Berg")[1]


@pytest.mark.parametrize(
    ("roster", "arabic", "agrees"),
    [
        ("SAFADI Ayman", "أيمن الصفدي", True),  # a roster's order: the family name first, in capitals
        ("ALLAWI Iyad", "إياد علاوي", True),
        ("SAFADI Omar", "أيمن الصفدي", False),  # another given name
    ],
)
def test_a_name_a_roster_writes_family_name_first_in_capitals_reads_given_name_first(
    roster: str, arabic: str, agrees: bool
) -> None:
    assert titles.given_first(roster) == " ".join([*roster.split()[1:], roster.split()[0]])
    assert (name_evidence(arabic, roster)[0] >= 5.0) is agrees
