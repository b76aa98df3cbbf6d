"""Given names the `nicknames` package (an English table) lacks: hypocoristics of other languages,
and the usual romanizations of one name written in another script.

Each row ties a short form to the full names it is used for (or spellings of one name to each
other), with where that was read. Read both ways by given_match.py (Pep is Josep, Josep is Pep);
kept small on purpose: a form listed here weighs as much as an equal given name, so only forms in
common use for that full name belong.
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
    ShortForm("kike", ("enrique",), "Wiktionary, Kike: Spanish diminutive of Enrique"),
    ShortForm("quique", ("enrique",), "Wiktionary, Quique: Spanish diminutive of Enrique"),
    ShortForm("nando", ("fernando",), "Wiktionary, Nando: diminutive of Fernando"),
    ShortForm("pancho", ("francisco",), "Wiktionary, Pancho: Spanish diminutive of Francisco"),
    ShortForm("toni", ("antonio", "anton"), "Wiktionary, Toni: diminutive of Antonio, Anton"),
    ShortForm("sandro", ("alessandro",), "Wiktionary, Sandro: short form of Alessandro"),
    ShortForm("sepp", ("josef", "joseph"), "Wiktionary, Sepp: Bavarian and Austrian diminutive of Josef"),
    ShortForm("jupp", ("josef", "joseph"), "Wiktionary, Jupp: Rhineland diminutive of Josef"),
    ShortForm("kostas", ("konstantinos",), "Wiktionary, Kostas: Greek diminutive of Konstantinos"),
)

# One name, several romanizations: any two of a row are one given name.
SPELLINGS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("muhammad", "mohammed", "mohamed", "mohammad", "mohamad", "muhammed"),
     "Wikipedia, Muhammad (name): its romanizations"),
    (("ahmed", "ahmad"), "Wikipedia, Ahmed: its romanizations"),
    (("hussein", "hussain", "husain", "hossein"), "Wikipedia, Hussein: its romanizations"),
    (("yusuf", "youssef", "yousef", "yousuf"), "Wikipedia, Yusuf: its romanizations"),
    (("mustafa", "mustapha", "moustafa"), "Wikipedia, Mustafa: its romanizations"),
    (("aleksandr", "alexander", "aleksander", "alexandr", "oleksandr"),
     "Wikipedia, Romanization of Russian (BGN/PCGN and common spellings) and of Ukrainian"),
    (("yevgeny", "evgeny", "evgeniy", "yevgeniy"), "Wikipedia, Romanization of Russian: Евгений"),
    (("dmitry", "dmitri", "dmitriy"), "Wikipedia, Romanization of Russian: Дмитрий"),
    (("yuri", "yury", "yuriy", "iurii"), "Wikipedia, Romanization of Russian: Юрий"),
    (("andrei", "andrey"), "Wikipedia, Romanization of Russian: Андрей"),
    (("nikolai", "nikolay"), "Wikipedia, Romanization of Russian: Николай"),
    (("pyotr", "petr"), "Wikipedia, Romanization of Russian: Пётр"),
    (("fyodor", "fedor"), "Wikipedia, Romanization of Russian: Фёдор"),
)  # fmt: skip


def _table() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for row in SHORT_FORMS:
        out.setdefault(row.short, set()).update(row.full)
        for full in row.full:
            out.setdefault(full, set()).add(row.short)
    for spellings, _ in SPELLINGS:
        for name in spellings:
            out.setdefault(name, set()).update(spellings)
    return {k: frozenset(v) for k, v in out.items()}


FORMS: dict[str, frozenset[str]] = _table()  # a name -> the names this table ties it to
