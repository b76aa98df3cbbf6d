"""Legal forms written in CJK scripts, Thai and South Asian scripts, and in Cyrillic, Georgian, Greek
or Vietnamese around a name (`without_script_forms`): which a name drops, and which tell two
companies apart.

A stock company's form in Chinese, Japanese, Korean or Thai (株式会社, 股份有限公司, 주식회사, บริษัท ...
จำกัด (มหาชน)) is written in English as any of "Inc.", "Corporation" or "Co., Ltd.": names.py drops
it before a name is transliterated or compared (`without_cjk_forms`). Two Chinese forms still tell
a listed arm from its parent (`cjk_forms`).
"""

from __future__ import annotations

import re
import unicodedata

# Legal forms written in CJK scripts and Thai, dropped before transliteration (anyascii would read
# 株式会社 as "zhushihuishe", one word with the name before it): kabushiki kaisha, yugen kaisha, godo
# kaisha, (gufen) youxian gongsi, jusik hoesa, borisat ... chamkat (mahachon), a ำ as NFKC writes it.
_THAI_FORMS = r"บริษัท|จ(?:ำ|ํา)กัด|[(（]มหาชน[)）]"
# The English forms South Asian names write in their own scripts: "limited", "private limited",
# "PLC", "company" in Devanagari, Bengali, Gurmukhi, Gujarati, Tamil, Telugu, Kannada, Malayalam
# and Sinhala (नेपाल बैंक लिमिटेड, Nepal Bank Limited), and in Urdu's Arabic letters (پاک سوزوکی موٹر
# کمپنی, Pak Suzuki Motor Company)
_BRAHMIC_FORMS = (
    r"प्राइवेट|प्रा\.\s*लि\.|लि\.|लिमिटेड|कम्पनी|कंपनी|লিমিটেড|লিঃ|পিএলসি|ਲਿਮਟਿਡ|લિમિટેડ|லிமிடெட்|பிரைவேட்|"
    r"లిమిటెడ్|ಲಿಮಿಟೆಡ್|ലിമിറ്റഡ്|ලිමිටඩ්|පීඑල්සී|پرائیویٹ|لمیٹڈ|کمپنی"
)
CJK_FORMS = re.compile(
    r"株式会社|有限会社|合同会社|[(（]株[)）]|㈱|股份有限公司|有限(?:责任|責任)?公司|주식회사|[(（]주[)）]|㈜|"
    + _THAI_FORMS
    + "|"
    + _BRAHMIC_FORMS
)


# CJK legal forms that tell two companies of one group apart: 东风汽车集团股份有限公司 (joint-stock,
# the listed arm) and 东风汽车集团有限公司 (limited, its parent)
_CJK_FORM_KINDS = (
    (re.compile(r"股份有限公司"), "cjk:joint stock"),
    (re.compile(r"(?<!股份)有限(?:责任|責任)?公司"), "cjk:limited"),
)


def cjk_forms(written: str) -> frozenset[str]:
    """The legal forms of `_CJK_FORM_KINDS` a name in CJK script writes, as "cjk:" words that only
    another name's CJK forms are compared with (evidence._weigh_stated)."""
    name = unicodedata.normalize("NFKC", written)
    return frozenset(kind for form, kind in _CJK_FORM_KINDS if form.search(name))


# What a marketplace's store page adds to its brand's name: an official or a flagship store (天猫's
# 陈升号官方旗舰店, the store of 陈升号)
_STORE = re.compile(r"(?<=\S)(?:官方)?(?:旗舰店|旗艦店)$|(?<=\S)官方店$")


def without_cjk_forms(name: str) -> str:
    """`name` without a legal form written in CJK script or Thai (CJK_FORMS; "㈜" as "(주)"): a stock
    company's form, which English writes as any of "Inc.", "Corporation" or "Co., Ltd.", so it tells
    no two companies apart ("CJ주식회사" / "CJ Corporation"), or a store's words (`_STORE`); `name`
    when nothing else is left."""
    return CJK_FORMS.sub(" ", _STORE.sub("", unicodedata.normalize("NFKC", name).strip())).strip() or name


# Legal forms written before a name in Cyrillic or Georgian ("АО «Казахтелеком»", "ПАО Сбербанк",
# "ТОВ", "სს „საქართველოს რკინიგზა“"), stripped as written, since in Latin letters "AO" or "Pat"
# may open a name ("A. O. Smith"), and in Vietnamese ("Công ty Cổ phần FPT", "CTCP Vĩnh Hoàn"):
# as a form in CJK script, a stock company's form, written in English as any of "Corporation",
# "JSC" or "Co., Ltd.", so no form that tells two companies apart.
_SCRIPT_OPENING_FORMS = re.compile(
    r"^\s*(?:ПАО|ОАО|ЗАО|НАО|АО|ООО|ПАТ|ПрАТ|ПРАТ|АТ|ТОВ|ТОО|АҚ|ЖШС|ЕАД|АД|ДОО|ОДО|სს|შპს|"
    r"(?i:c[ôo]ng\s+ty\s+(?:c[ổo]\s+ph[ầa]n|tnhh)|ctcp))\s+(?=\S)"
)


# ... and after it, in Bulgarian, Macedonian and Serbian Cyrillic (АД, ЕАД, ООД, ЕООД, ДОО), in
# Mongolian (ХК, ХХК) and Kazakh (АҚ, ЖШС), and in Greek (Α.Ε., Α.Ε.Β.Ε., Ε.Π.Ε., Ι.Κ.Ε.): a form a
# reading in Latin letters would keep as words of the name ("Багануур ХК", "baganuur khk"); a Balkan
# form in either script with the seat after it too (Струмица Табак АД Струмица, Alkaloid AD Skopje)
_SCRIPT_CLOSING_FORMS = re.compile(
    r"(?<=\S)\s+(?:(?:АД|ЕАД|ДОО|AD|A\.D\.|a\.d\.|DOO|d\.o\.o\.)(?:\s*[-–,]?\s+[^\W\d_]+){0,2}|ООД|ЕООД|ХК|ХХК|АҚ|ЖШС|"
    r"Α\.?\s?Ε\.?(?:\s?Β\.?\s?Ε\.?)?|Ε\.?\s?Π\.?\s?Ε\.?|Ι\.?\s?Κ\.?\s?Ε\.?)\s*$"
)


def without_script_forms(name: str) -> str:
    """`name` without a legal form in CJK script or Thai (`without_cjk_forms`), one in Cyrillic,
    Georgian or Vietnamese before it, or one in Balkan, Mongolian, Kazakh or Greek letters after it."""
    return _SCRIPT_OPENING_FORMS.sub("", _SCRIPT_CLOSING_FORMS.sub("", without_cjk_forms(name)))


_KANA_ONLY = re.compile(r"[\u3041-\u3096\u30a1-\u30fa\u30fc・\s]+")


def kana_only(name: str) -> bool:
    """A name written in kana alone but for its legal form ("株式会社ふくや"): as a kanji name's
    reading in kana writes it, which homophones share."""
    return bool(_KANA_ONLY.fullmatch(CJK_FORMS.sub("", name).strip() or "x"))


# A Vietnamese name opens with its trade, where English closes with it: "Ngân hàng TMCP Nam Á" is
# Nam A Bank ("TMCP", a joint-stock commercial bank, its legal form), "Tập đoàn Vạn Thịnh Phát" Van
# Thinh Phat Group, "Tổng công ty" a corporation, "Chứng khoán" securities, "Bảo hiểm" insurance.
_VIETNAMESE_TRADES = tuple(
    # the name a trade opens runs to the name's end, or to a dash or a bracket ("GVR - Tập đoàn Công
    # nghiệp Cao su Việt Nam - CTCP", a listing's title)
    (re.compile(rf"(?<!\w)(?i:{opening})\s+([^\-–(]*[^\-–(\s])"), trade)
    for opening, trade in (
        (r"ng[âa]n\s+h[àa]ng(?:\s+(?:tmcp|th[ưu][ơo]ng\s+m[ạa]i\s+c[ổo]\s+ph[ầa]n))?", "Bank"),
        (r"t[ậa]p\s+[đd]o[àa]n", "Group"),
        (r"t[ổo]ng\s+c[ôo]ng\s+ty", "Corporation"),
        (r"ch[ứu]ng\s+kho[áa]n", "Securities"),
        (r"b[ảa]o\s+hi[ểe]m", "Insurance"),
    )
)
# A Korean insurer's legal name closes with 보험 (insurance) after the line its short name says:
# 흥국생명보험 is 흥국생명 (life), ABL생명보험 ABL생명, 신한라이프생명보험 신한라이프 (life, in English
# and in Korean), 메리츠화재해상보험 메리츠화재 (fire and marine), 현대해상화재보험 현대해상
_KOREAN_INSURERS = re.compile(r"(?<=\w)(라이프|생명|화재|해상)(?:생명|해상|화재)?보험$")


# A Japanese listing's short name: "HD" for ホールディングス, "GHD" for グループホールディングス
# (kabutan, nikkei: "トライアルHD" is トライアルホールディングス)
_JAPANESE_SHORT = re.compile(r"(?<=[\u3040-\u30ff\u4e00-\u9fff])\s*(G?)HD$")


def in_english_order(name: str) -> str:
    """`name` with a Vietnamese trade that opens it (or the part of it a dash sets off) written
    after it, as English writes it (`_VIETNAMESE_TRADES`: "Ngân hàng TMCP Bắc Á" -> "Bắc Á Bank"),
    a Korean insurer's name as short as it goes by (`_KOREAN_INSURERS`) and a Japanese listing's
    "HD" written out (`_JAPANESE_SHORT`); `name` as it is otherwise."""
    name = _KOREAN_INSURERS.sub(r"\1", name)
    name = _JAPANESE_SHORT.sub(lambda m: ("グループ" if m.group(1) else "") + "ホールディングス", name)
    for opening, trade in _VIETNAMESE_TRADES:
        if opening.search(name):
            return opening.sub(rf"\1 {trade}", name, count=1)
    return name
