"""Given names the `nicknames` package (an English table) lacks: hypocoristics of other languages.

Each row ties a short form to the full names it is used for, with where that was read. Read
both ways by people.py (Pep is Josep, Josep is Pep); kept small on purpose: a form listed here
weighs as much as an equal given name, so only forms in common use for that full name belong.
"""

from __future__ import annotations

from typing import NamedTuple


class ShortForm(NamedTuple):
    """`short` is a usual short form of each of `full`; `source` says where that was read."""

    short: str
    full: tuple[str, ...]
    source: str


SHORT_FORMS: tuple[ShortForm, ...] = (
    ShortForm("pep", ("josep",), "Wiktionary, Pep: Catalan diminutive of Josep"),
    ShortForm("pepe", ("jose",), "Wiktionary, Pepe: Spanish diminutive of José"),
    ShortForm("paco", ("francisco",), "Wiktionary, Paco: Spanish diminutive of Francisco"),
    ShortForm("nacho", ("ignacio",), "Wiktionary, Nacho: Spanish diminutive of Ignacio"),
    ShortForm("xavi", ("xavier",), "Wiktionary, Xavi: Catalan diminutive of Xavier"),
    ShortForm("leo", ("lionel", "leonardo", "leopold", "leonard"), "Wiktionary, Leo: a short form of these"),
    ShortForm("mo", ("mohamed", "mohammed", "muhammad"), "Wiktionary, Mo: a short form of Mohammed"),
    ShortForm("beppe", ("giuseppe",), "Wiktionary, Beppe: Italian diminutive of Giuseppe"),
    ShortForm("gigi", ("luigi",), "Wiktionary, Gigi: Italian diminutive of Luigi"),
    ShortForm(
        "sasha",
        ("aleksandr", "alexander", "aleksandra", "alexandra"),
        "Wiktionary, Sasha: Russian diminutive",
    ),
    ShortForm("misha", ("mikhail",), "Wiktionary, Misha: Russian diminutive of Mikhail"),
    ShortForm("dima", ("dmitry", "dmitri"), "Wiktionary, Dima: Russian diminutive of Dmitry"),
    ShortForm("kolya", ("nikolay", "nikolai"), "Wiktionary, Kolya: Russian diminutive of Nikolay"),
)


def _table() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for row in SHORT_FORMS:
        out.setdefault(row.short, set()).update(row.full)
        for full in row.full:
            out.setdefault(full, set()).add(row.short)
    return {k: frozenset(v) for k, v in out.items()}


FORMS: dict[str, frozenset[str]] = _table()  # a name -> the names this table ties it to
