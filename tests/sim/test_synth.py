"""The simulator's sentences: a page's first sentence, as an Agent row's description or a company
entity's, goes on past an abbreviation's full stop, as a page's text does."""

from __future__ import annotations

import pytest

from exa_orch.sim.synth import sentences


@pytest.mark.parametrize(
    ("text", "first"),
    [
        (
            "Paraná&Co, Inc. (Nasdaq: PRNA) is the holding company of Banco Paraná. It has 9 million clients.",
            "Paraná&Co, Inc. (Nasdaq: PRNA) is the holding company of Banco Paraná.",
        ),
        ("Mara K. Olsen leads the lab. She joined in 2019.", "Mara K. Olsen leads the lab."),
        (
            "Nordhav Bank, Ltd. is a bank in Oslo. It was founded in 1911.",
            "Nordhav Bank, Ltd. is a bank in Oslo.",
        ),
        ("It grew fast. Then it stopped!", "It grew fast."),
    ],
)
def test_a_first_sentence_goes_on_past_an_abbreviation(text: str, first: str) -> None:
    assert sentences(text)[0] == first
    assert " ".join(sentences(text)) == text  # nothing lost or added
