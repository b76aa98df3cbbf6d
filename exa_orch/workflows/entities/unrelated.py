"""What a page says its subject is not: "not to be confused with X", "it is unrelated to X", "X
とは無関係", "X와는 무관하다". A page that tells its subject apart from another name is evidence
against joining it with a record of that name, whatever else the two share (a namesake, a
homophone, one brand in two countries): records.py reads the clauses, evidence.py the names.

The clause is kept whole ("the American hamburger chain Wendy's", "福岡の明太子メーカー「ふくや」"):
a record is named there when its name is, as whole words ending the name the clause writes (Latin
letters: "Muthoot Finance" does not name "Muthoot", nor "Banco Popular Dominicano" "Banco
Popular"), or as written (other scripts), and not within the page's own name or one of its other
names: "Wendy's Supa Sundaes ... unrelated to the American hamburger chain Wendy's" cannot say
which of two pages named "Wendy's" is the chain's.
"""

from __future__ import annotations

import re

from exa_orch.workflows.entities.names import clean_name, fold, is_latin, words
from exa_orch.workflows.entities.script_forms import without_cjk_forms

_LATIN = re.compile(
    r"\b(?:[Nn]ot\s+to\s+be\s+confused\s+with|[Uu]nrelated\s+to|[Nn]ot\s+related\s+to|[Nn]o\s+relation\s+to|"
    r"[Nn]ot\s+affiliated\s+with|[Nn]o\s+connection\s+(?:to|with)|[Nn]icht\s+zu\s+verwechseln\s+mit|"
    r"[Nn]o\s+(?:debe\s+)?confundir(?:se)?\s+con|[Nn]e\s+pas\s+confondre\s+avec|[Nn]on\s+confondere\s+con)"
    r"\s+([^.;:()\n]{2,120})"
)
# the name before the cue, in the same sentence: "映画会社の東宝や東邦ガスとは無関係", "현대자동차와는 무관하다",
# "与招商银行无关"
_CJK = (
    re.compile(
        r"([^。．！？\n]{1,60}?)とは(?:無関係|別(?:の)?(?:会社|法人|企業)|関係(?:が)?(?:ない|ありません))"
    ),
    re.compile(r"([^.。\n]{1,60}?)(?:와는|과는|와|과)\s*(?:무관|관계가\s*없)"),
    re.compile(r"[与與]([^。，,\n]{1,40}?)(?:无关|無關|没有关系|沒有關係)"),
)


# Words one of `_CJK`'s cues holds: a text without any is not searched (the name before a cue is
# matched lazily from every place in the text, which costs on every page)
_CJK_WORDS = ("とは", "무관", "관계가", "无关", "無關", "没有关系", "沒有關係")


def clauses(text: str) -> list[tuple[str, int]]:
    """The clauses of `text` naming what its subject is not, each with where its cue is."""
    found = [(m.group(1), m.start()) for m in _LATIN.finditer(text)]
    if any(w in text for w in _CJK_WORDS):
        found += [(m.group(1), m.start()) for cue in _CJK for m in cue.finditer(text)]
    return found


def named(clause: str, name: str, own: str) -> bool:
    """Whether `clause` (of `clauses`) names `name` (a record's name as written), which the page's
    own name `own` does not hold."""
    if not name:
        return False
    if is_latin(name):
        mine = f" {' '.join(words(fold(own or '')))} "
        forms = {tuple(words(fold(name))), tuple(clean_name(name).split())}  # with its legal form, without
        return any(
            said and f" {' '.join(said)} " not in mine and _ends_a_name(clause, list(said)) for said in forms
        )
    bare = without_cjk_forms(name).strip()
    return len(bare) >= 2 and bare in clause and bare not in (own or "")


def _ends_a_name(clause: str, said: list[str]) -> bool:
    """The words `said` in `clause`, the word after them (if any) not capitalised: the whole name."""
    tokens = [(w, raw[:1].isupper()) for raw in clause.split() for w in words(fold(raw))]
    flat = [w for w, _ in tokens]
    n = len(said)
    return any(
        flat[i : i + n] == said and (i + n == len(tokens) or not tokens[i + n][1])
        for i in range(len(flat) - n + 1)
    )
