"""Monarchs' names (royals.py): a title opening the name, a regnal number, a realm after "of"."""

from __future__ import annotations

import pytest

from exa_orch.workflows.entities import royals
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
    assert royals.without_titles("Prince") == "Prince"
    assert royals.without_titles("Carole King") == "Carole King"
    assert royals.regnal("Xavier Smith") is None and royals.regnal("Harald V of Norway") == (
        "harald",
        "v",
        "norway",
    )
