"""Given names the `nicknames` package (an English table) lacks: hypocoristics of other languages,
and the usual romanizations of one name written in another script.

Each row ties a short form to the full names it is used for (or spellings of one name to each
other), with where that was read. Read both ways by given_match.py (Pep is Josep, Josep is Pep);
kept small on purpose: a form listed here weighs as much as an equal given name, so only forms in
common use for that full name belong.
"""

from __future__ import annotations

import re
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
    ShortForm(
        "gaby", ("gabriela", "gabriel", "gabrielle"), "Wiktionary, Gaby: diminutive of Gabriela, Gabriel"
    ),
    ShortForm(
        "gabi", ("gabriela", "gabriel", "gabrielle"), "Wiktionary, Gabi: diminutive of Gabriela, Gabriel"
    ),
    ShortForm("lupe", ("guadalupe",), "Wiktionary, Lupe: Spanish diminutive of Guadalupe"),
    ShortForm("leo", ("lionel", "leonardo", "leopold", "leonard"), "Wiktionary, Leo: a short form of these"),
    ShortForm("mo", ("mohamed", "mohammed", "muhammad"), "Wiktionary, Mo: a short form of Mohammed"),
    ShortForm("beppe", ("giuseppe",), "Wiktionary, Beppe: Italian diminutive of Giuseppe"),
    ShortForm("gigi", ("luigi",), "Wiktionary, Gigi: Italian diminutive of Luigi"),
    ShortForm(
        "sasha",
        ("aleksandr", "alexander", "aleksander", "aleksandra", "alexandra"),
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
    # Russian diminutives the English table lacks (Wiktionary, each name's entry: "diminutive of")
    ShortForm("kostya", ("konstantin",), "Wiktionary, Kostya: Russian diminutive of Konstantin"),
    ShortForm("volodya", ("vladimir",), "Wiktionary, Volodya: Russian diminutive of Vladimir"),
    ShortForm("vanya", ("ivan",), "Wiktionary, Vanya: Russian diminutive of Ivan"),
    ShortForm(
        "zhenya", ("yevgeny", "evgeny", "yevgenia", "evgenia"), "Wiktionary, Zhenya: Russian diminutive"
    ),
    ShortForm("pasha", ("pavel",), "Wiktionary, Pasha: Russian diminutive of Pavel"),
    ShortForm(
        "lyosha",
        ("alexei", "aleksei", "alexey", "aleksey"),
        "Wiktionary, Lyosha: Russian diminutive of Aleksey",
    ),
    ShortForm("seryozha", ("sergei", "sergey"), "Wiktionary, Seryozha: Russian diminutive of Sergey"),
    ShortForm("natasha", ("natalia", "natalya"), "Wiktionary, Natasha: Russian diminutive of Natalya"),
    ShortForm("tanya", ("tatiana", "tatyana"), "Wiktionary, Tanya: Russian diminutive of Tatyana"),
    ShortForm("katya", ("ekaterina", "yekaterina"), "Wiktionary, Katya: Russian diminutive of Yekaterina"),
    ShortForm("nastya", ("anastasia", "anastasiya"), "Wiktionary, Nastya: Russian diminutive of Anastasiya"),
    # Spanish, Portuguese, Italian, Dutch, Polish and Czech diminutives (Wiktionary, each form's entry)
    ShortForm("lucho", ("luis",), "Wiktionary, Lucho: Spanish diminutive of Luis"),
    ShortForm(
        "beto",
        ("alberto", "roberto", "humberto"),
        "Wiktionary, Beto: Spanish and Portuguese diminutive of Alberto, Roberto, Humberto",
    ),
    ShortForm("manolo", ("manuel",), "Wiktionary, Manolo: Spanish diminutive of Manuel"),
    ShortForm("rafa", ("rafael",), "Wiktionary, Rafa: Spanish diminutive of Rafael"),
    ShortForm("lola", ("dolores",), "Wiktionary, Lola: Spanish diminutive of Dolores"),
    ShortForm("charo", ("rosario",), "Wiktionary, Charo: Spanish diminutive of Rosario"),
    ShortForm("memo", ("guillermo",), "Wiktionary, Memo: Spanish diminutive of Guillermo"),
    ShortForm("chucho", ("jesus",), "Wiktionary, Chucho: Spanish diminutive of Jesús"),
    ShortForm("lalo", ("eduardo",), "Wiktionary, Lalo: Spanish diminutive of Eduardo"),
    ShortForm("santi", ("santiago",), "Wiktionary, Santi: Spanish diminutive of Santiago"),
    ShortForm("curro", ("francisco",), "Wiktionary, Curro: Spanish diminutive of Francisco"),
    ShortForm("tono", ("antonio",), "Wiktionary, Tono: Spanish diminutive of Antonio (Toño)"),
    ShortForm("javi", ("javier",), "Wiktionary, Javi: Spanish diminutive of Javier"),
    ShortForm("ze", ("jose",), "Wiktionary, Ze: Portuguese diminutive of José (Zé)"),
    ShortForm("chico", ("francisco",), "Wiktionary, Chico: Portuguese diminutive of Francisco"),
    ShortForm("guga", ("gustavo",), "Wiktionary, Guga: Portuguese diminutive of Gustavo"),
    ShortForm("dudu", ("eduardo",), "Wiktionary, Dudu: Portuguese diminutive of Eduardo"),
    ShortForm("tiao", ("sebastiao",), "Wiktionary, Tiao: Portuguese diminutive of Sebastião (Tião)"),
    ShortForm("peppe", ("giuseppe",), "Wiktionary, Peppe: Italian diminutive of Giuseppe"),
    ShortForm("peppino", ("giuseppe",), "Wiktionary, Peppino: Italian diminutive of Giuseppe"),
    ShortForm("pippo", ("filippo",), "Wiktionary, Pippo: Italian diminutive of Filippo"),
    ShortForm("toto", ("salvatore",), "Wiktionary, Toto: Italian diminutive of Salvatore (Totò)"),
    ShortForm("gianni", ("giovanni",), "Wiktionary, Gianni: Italian diminutive of Giovanni"),
    ShortForm("mimmo", ("domenico",), "Wiktionary, Mimmo: Italian diminutive of Domenico"),
    ShortForm(
        "pino", ("giuseppe",), "terracinaliv.blogspot.com 2013/08: Giuseppino shortened to Peppino or Pino"
    ),
    # catanialive24.it, "nomi maschili e femminili più diffusi in Sicilia" (their usual short forms)
    ShortForm("ciccio", ("francesco",), "catanialive24.it: Francesco, Ciccio"),
    ShortForm("tano", ("gaetano",), "catanialive24.it: Gaetano, Tano or Tanuzzo"),
    ShortForm("turiddu", ("salvatore",), "catanialive24.it: Salvatore, Toto, Turiddu or Salvo"),
    ShortForm("salvo", ("salvatore",), "catanialive24.it: Salvatore, Toto, Turiddu or Salvo"),
    ShortForm("gino", ("luigi",), "catanialive24.it: Luigi, Gigi or Gino"),
    ShortForm("kees", ("cornelis",), "Wiktionary, Kees: Dutch diminutive of Cornelis"),
    ShortForm("henk", ("hendrik",), "Wiktionary, Henk: Dutch diminutive of Hendrik"),
    ShortForm("joop", ("johannes",), "Wiktionary, Joop: Dutch diminutive of Johannes"),
    ShortForm("wim", ("willem",), "Wiktionary, Wim: Dutch diminutive of Willem"),
    ShortForm("kuba", ("jakub",), "Wiktionary, Kuba: Polish diminutive of Jakub"),
    ShortForm("kasia", ("katarzyna",), "Wiktionary, Kasia: Polish diminutive of Katarzyna"),
    ShortForm("gosia", ("malgorzata",), "Wiktionary, Gosia: Polish diminutive of Małgorzata"),
    ShortForm("basia", ("barbara",), "Wiktionary, Basia: Polish diminutive of Barbara"),
    ShortForm("wojtek", ("wojciech",), "Wiktionary, Wojtek: Polish diminutive of Wojciech"),
    ShortForm("tomek", ("tomasz",), "Wiktionary, Tomek: Polish diminutive of Tomasz"),
    ShortForm("bartek", ("bartlomiej",), "Wiktionary, Bartek: Polish diminutive of Bartłomiej"),
    ShortForm("honza", ("jan",), "Wiktionary, Honza: Czech diminutive of Jan"),
    ShortForm("jirka", ("jiri",), "Wiktionary, Jirka: Czech diminutive of Jiří"),
    # English: the `nicknames` table ties Katie to Kathryn and Katy only
    ShortForm(
        "katie",
        ("katherine", "catherine", "kathleen"),
        "Wiktionary, Katie: diminutive of Katherine, Kathleen",
    ),
)

# One name, several romanizations: any two of a row are one given name.
SPELLINGS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("muhammad", "mohammed", "mohamed", "mohammad", "mohamad", "muhammed"),
     "Wikipedia, Muhammad (name): its romanizations"),
    (("ahmed", "ahmad"), "Wikipedia, Ahmed: its romanizations"),
    (("hussein", "hussain", "husain", "hossein"), "Wikipedia, Hussein: its romanizations"),
    (("yusuf", "youssef", "yousef", "yousuf"), "Wikipedia, Yusuf: its romanizations"),
    (("mustafa", "mustapha", "moustafa"), "Wikipedia, Mustafa: its romanizations"),
    (("aleksandr", "alexander", "aleksander", "alexandr", "oleksandr", "aliaksandr", "alyaksandr", "alexandros"),
     "Wikipedia, Romanization of Russian (BGN/PCGN and common spellings), of Ukrainian and of Belarusian; Alexandros"),
    (("yevgeny", "evgeny", "evgeniy", "yevgeniy", "yevhen"), "Wikipedia, Romanization of Russian: Евгений"),
    (("dmitry", "dmitri", "dmitriy", "dmytro"), "Wikipedia, Romanization of Russian: Дмитрий"),
    (("yuri", "yury", "yuriy", "iurii", "yurii"), "Wikipedia, Romanization of Russian: Юрий"),
    (("andrei", "andrey", "andriy", "andrii"), "Wikipedia, Romanization of Russian: Андрей"),
    (("nikolai", "nikolay", "mykola"), "Wikipedia, Romanization of Russian: Николай"),
    (("pyotr", "petr", "petro"), "Wikipedia, Romanization of Russian: Пётр"),
    (("fyodor", "fedor"), "Wikipedia, Romanization of Russian: Фёдор"),
    # A Ukrainian's name is written in its Ukrainian form and in the Russian one (Володимир /
    # Владимир): the last spellings of the rows above and these, read in "Ukrainian name" and the
    # national romanization of Ukrainian (Wikipedia, Romanization of Ukrainian)
    (("mykhailo", "mykhaylo", "mikhail"), "Wikipedia, Romanization of Ukrainian: Михайло / Михаил"),
    (("serhiy", "serhii", "sergei", "sergey", "sergiy"), "Wikipedia, Romanization of Ukrainian: Сергій / Сергей"),
    (("volodymyr", "vladimir"), "Wikipedia, Romanization of Ukrainian: Володимир / Владимир"),
    (("olena", "elena", "yelena"), "Wikipedia, Romanization of Ukrainian: Олена / Елена"),
    (("kyrylo", "kirill"), "Wikipedia, Romanization of Ukrainian: Кирило / Кирилл"),
    (("heorhiy", "heorhii", "georgy", "georgiy", "georgii"), "Wikipedia, Romanization of Ukrainian: Георгій / Георгий"),
    (("hryhoriy", "hryhorii", "grigory", "grigoriy"), "Wikipedia, Romanization of Ukrainian: Григорій / Григорий"),
    (("oleksiy", "oleksii", "alexei", "aleksei", "alexey", "aleksey"), "Wikipedia, Romanization of Ukrainian: Олексій / Алексей"),
    (("pavlo", "pavel"), "Wikipedia, Romanization of Ukrainian: Павло / Павел"),
    (("vasyl", "vasily", "vasiliy"), "Wikipedia, Romanization of Ukrainian: Василь / Василий"),
    (("bohdan", "bogdan"), "Wikipedia, Romanization of Ukrainian: Богдан (г read h)"),
    (("halyna", "galina"), "Wikipedia, Romanization of Ukrainian: Галина (г read h)"),
    (("ihor", "igor"), "Wikipedia, Romanization of Ukrainian: Ігор / Игорь"),
    (("oleh", "oleg"), "Wikipedia, Romanization of Ukrainian: Олег (г read h)"),
    (("kateryna", "ekaterina", "yekaterina"), "Wikipedia, Romanization of Ukrainian: Катерина / Екатерина"),
    (("kostiantyn", "kostyantyn", "kostyantin", "konstantin"), "Wikipedia, Romanization of Ukrainian: Костянтин / Константин"),
    # Greek names, their usual short forms and the English forms their bearers use abroad (Wikipedia,
    # each name's article: "Georgios ... English: George")
    (("georgios", "giorgos", "yiorgos", "george"), "Wikipedia, Georgios"),
    (("ioannis", "giannis", "yiannis", "yannis", "john"), "Wikipedia, Ioannis"),
    (("konstantinos", "constantinos", "constantine"), "Wikipedia, Konstantinos"),
    (("dimitrios", "dimitris", "demetrios", "demetris"), "Wikipedia, Dimitrios"),
    (("nikolaos", "nikos", "nicholas"), "Wikipedia, Nikolaos"),
    (("vasileios", "vasilis", "vassilis", "basil"), "Wikipedia, Vasileios"),
    (("panagiotis", "panayiotis", "panos"), "Wikipedia, Panagiotis"),
    (("evangelos", "vangelis"), "Wikipedia, Evangelos"),
    (("athanasios", "thanasis"), "Wikipedia, Athanasios"),
    (("spyridon", "spyros"), "Wikipedia, Spyridon"),
    (("theodoros", "theodore"), "Wikipedia, Theodoros"),
    (("miltiadis", "miltos"), "Wikipedia, Miltiadis"),
    (("emmanouil", "manolis"), "Wikipedia, Emmanouil"),
    (("charalambos", "charalampos", "haris", "babis"), "Wikipedia, Charalambos"),
    (("eleftherios", "lefteris"), "Wikipedia, Eleftherios"),
    # Georgian and Armenian forms of names and the forms their bearers go by in English and Russian
    # (Wikipedia, each name's article: "Davit is the Georgian and Armenian form of David")
    (("davit", "david"), "Wikipedia, Davit"),
    (("giorgi", "george"), "Wikipedia, Giorgi"),
    (("mikheil", "mikhail", "michael"), "Wikipedia, Mikheil"),
    (("aleksandre", "alexander", "aleksandr"), "Wikipedia, Aleksandre"),
    (("grigor", "gregory"), "Wikipedia, Grigor"),
)  # fmt: skip


def one_ending(word: str) -> str:
    """A Russian or Ukrainian "-ий" ending as one spelling: -iy, -yi or -yy written -y
    (Sadovnichiy, Syrskyi, Zelenskyy: Sadovnichy, Syrsky, Zelensky; not -ii: Fujii)."""
    return re.sub(r"(?<=\w\w\w)(?:iy|yi|yy)$", "y", word)


def _table() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for row in SHORT_FORMS:
        out.setdefault(row.short, set()).update(row.full)
        for full in row.full:
            out.setdefault(full, set()).add(row.short)
    for spellings, _ in SPELLINGS:
        # each as a name's words are read too (people._tokens: Serhiy, "serhy")
        said = {*spellings, *map(one_ending, spellings)}
        for name in said:
            out.setdefault(name, set()).update(said)
    return {k: frozenset(v) for k, v in out.items()}


FORMS: dict[str, frozenset[str]] = _table()  # a name -> the names this table ties it to
