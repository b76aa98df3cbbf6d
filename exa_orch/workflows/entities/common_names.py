"""Family names many people share: a whole name agreeing says little when its family name is one.

`COMMON_FAMILY_NAMES` holds the most frequent family names of the world's largest name pools, as
they are written in Latin letters. Sources: Forebears, "Most Common Last Names In The World" (its
top 100), and Wikipedia, "Lists of most common surnames" (the first ten to twenty of each of
Africa, the Americas, Asia and Europe's largest countries, and the first ten of the Nordic
countries, the Low Countries and Central Europe). Korean family names come from
scripts.KOREAN_SURNAMES (the usual spellings of the common ones), and a name whose every word is a
Mandarin syllable (`chinese_like`: Li Na, Wang Yi, Yao Ming) is shared by many people whatever its
family name, since the pool of Chinese given names is small against its population; so is a name
of Burmese syllables alone (`burmese_like`: Soe Win), no family name among them.
"""

from __future__ import annotations

from exa_orch.workflows.entities.given_match import forms
from exa_orch.workflows.entities.scripts import KOREAN_SURNAMES, mandarin_halves, mandarin_syllables

COMMON_FAMILY_NAMES = frozenset(
    # English-speaking countries
    "smith johnson williams brown jones miller davis wilson taylor anderson thomas jackson white "
    "harris martin thompson moore young allen king wright scott green baker adams nelson hill "
    "campbell mitchell roberts carter phillips evans turner parker collins edwards stewart morris "
    "murphy cook rogers morgan cooper peterson reed bailey bell kelly howard ward cox richardson "
    "wood watson brooks bennett gray james hughes price sanders walker robinson lewis clark hall "
    "wilson lee obrien ryan byrne "
    # Spanish and Portuguese
    "garcia rodriguez martinez hernandez lopez gonzalez perez sanchez ramirez torres flores rivera "
    "gomez diaz cruz morales ortiz gutierrez chavez ramos ruiz alvarez fernandez jimenez moreno "
    "romero silva santos oliveira souza pereira costa ferreira almeida lima carvalho gomes "
    "ribeiro martins rocha rodrigues alves "
    # German, French, Italian, Dutch, Nordic
    "muller mueller schmidt schneider fischer weber meyer wagner becker schulz hoffmann bernard "
    "dubois durand leroy moreau simon laurent lefebvre michel rossi russo ferrari esposito bianchi "
    "romano colombo ricci dejong jansen devries bakker visser hansen johansson nilsson larsson "
    "olsen andersen nielsen jensen pedersen karlsson eriksson "
    "andersson olsson persson svensson gustafsson pettersson jonsson johansen larsen nilsen "
    "kristiansen karlsen christensen sorensen rasmussen jorgensen korhonen virtanen makinen "
    "nieminen makela hamalainen laine heikkinen koskinen jarvinen "
    "koch richter klein wolf schroder neumann schwarz zimmermann braun kruger hofmann hartmann "
    "roux fournier girard bonnet dupont lambert fontaine rousseau vincent "
    "bruno gallo conti deluca giordano mancini rizzo lombardi moretti "
    "vandenberg vandijk smit meijer mulder degroot bos peeters janssens maes jacobs mertens willems "
    "navarro dominguez vazquez gil serrano blanco molina "
    # Slavic, Hungarian, Greek, Turkish
    "ivanov smirnov kuznetsov popov petrov nowak kowalski wisniewski novak horvat kovacs nagy "
    "vasiliev vasilyev sokolov mikhailov novikov fedorov morozov volkov melnyk shevchenko boyko "
    "kovalenko bondarenko tkachenko wojcik kowalczyk kaminski lewandowski zielinski szymanski "
    "svoboda novotny dvorak cerny prochazka toth szabo horvath varga kiss molnar popa popescu pop "
    "papadopoulos yilmaz kaya demir sahin celik yildiz yildirim ozturk aydin ozdemir arslan dogan "
    # Arabic, Persian, South Asian
    "mohamed mohammed muhammad mohammad ahmed ahmad ali hassan hasan hussein husain hussain "
    "ibrahim abdullah mahmoud khalil khan shah singh kumar sharma patel gupta das devi yadav reddy "
    "rao hosseini mohammadi rahman islam hossain akter "
    # Chinese as Hong Kong, Taiwan and Southeast Asia spell it, Japanese, Vietnamese, Filipino
    "wong chan cheung leung ho ng tan lim goh chua chong chen chang kuo huang lin "
    "sato suzuki takahashi tanaka watanabe ito yamamoto nakamura kobayashi kato yoshida yamada "
    "sasaki yamaguchi matsumoto inoue kimura hayashi shimizu "
    "nguyen tran le pham hoang phan vu dang bui do ngo duong reyes santos bautista "
    # Africa
    "mensah okafor adeyemi abubakar musa mwangi otieno kamau nkosi dlamini".split()
) | {spelling for spellings in KOREAN_SURNAMES.values() for spelling in spellings}


# The syllables Burmese names are made of (Wikipedia, "Burmese names": no family name, one to four
# syllables from a small pool, so Soe Win, Than Shwe and Khin Nyunt are each many people's names)
BURMESE_SYLLABLES = frozenset(
    "aung san suu kyi soe win than shwe min hlaing khin nyunt thein sein tin tun htun htin kyaw zaw "
    "myint maung hla thant nu ye myo lwin oo thu thura naing zin moe htet phyo wai yan lin nyein thet "
    "su mya aye khaing cho kyu thiha tint swe pyae thida wint hnin nwe thaw ohn hein thuzar zeya "
    "kyauk nyan hmu htay tha".split()
)


def burmese_like(words: list[str]) -> bool:
    """Whether a name in Latin letters is two syllables or more of Burmese names, every one."""
    return len(words) >= 2 and all(w in BURMESE_SYLLABLES for w in words)


def chinese_like(words: list[str]) -> bool:
    """Whether every word of a name in Latin letters is one Mandarin syllable or two run together
    ("yao ming", "zhang yiming")."""
    syllables = mandarin_syllables()
    return bool(words) and all(w in syllables or mandarin_halves(w) for w in words)


def common(family: str) -> bool:
    """Whether a family name (folded, one word) is one many people share."""
    return family.replace(" ", "") in COMMON_FAMILY_NAMES


def few_bear(single: str) -> bool:
    """Whether a single name (a stage name, folded, one word: "bizarrap", "gyakie") is borne by
    few: five letters or more, no given name the nickname tables tie to another, no common family
    name, no run of Mandarin syllables."""
    return (
        len(single) >= 5
        and single.isalpha()
        and len(forms(single)) == 1
        and not (common(single) or chinese_like([single]))
    )
