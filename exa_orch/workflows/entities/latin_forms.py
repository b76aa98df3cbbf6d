"""Legal forms of company names in Latin letters that cleanco's list lacks, the words after a name
that look like one and are not, and one form's spellings: data only; names.clean_name strips
them, names.legal_forms compares them.
"""

from __future__ import annotations

import re

# Legal forms cleanco's list lacks (checked against cleanco 2.3), stripped from the end after it.
# Thailand's "Public Company Limited" once cleanco took "Company Limited"; Spain's and Latin
# America's "Corporación" after a name (Atresmedia Corporación); Mexico's "S.A.B. de C.V.".
MORE_FORMS = (
    frozenset(
        "abp pbc slu s l u sa nv nv sa s a n v spa s p a sarl sas sl ooo zao ojsc pjsc pcl tbk bhd sdn bhd "
        "ab publ ltda eirl sro s r o as asa aps ehf kft zrt doo d o o kk k k gk plc llp lp se berhad".split(
            " "
        )
    )
    | {"ab publ", "s l u", "sa nv", "nv sa", "s p a", "sdn bhd", "s r o", "d o o", "k k"}
    | {"public", "corporacion", "sab de cv", "s a b de", "s a b de c v", "sa de cv", "s a de c v"}
    # a joint-stock company of Vietnam and the former Soviet states ("Vinhomes JSC", "Vinhomes
    # Joint Stock Company" once cleanco took "Company", "JSC Kazatomprom")
    | {"jsc", "cjsc", "joint stock"}
    # Colombia's public-service companies ("Interconexión Eléctrica S.A. E.S.P."), a Kazakh joint-stock
    # company written after its name in Latin letters ("Kaspi.kz AO")
    | {"esp", "e s p", "sa esp", "s a e s p", "ao"}
    # Paraguay's sociedad anónima that issues shares to the public ("Sudameris Bank S.A.E.C.A."), and
    # Slovenia's and Croatia's d.d. written with a space ("KRKA, D. D., NOVO MESTO"); Turkey's limited
    # company, written short or in full ("Ltd. Şti.", "Limited Şirketi")
    | {"saeca", "s a e c a", "d d", "ltd sti", "limited sirketi"}
    # the Gulf's and Egypt's public and closed shareholding companies, written with dots or without
    # ("Burgan Bank K.P.S.C.", "Ahli Bank Q.P.S.C.", "Emaar Properties PJSC", "Omantel SAOG",
    # "Saudi Aramco Base Oil Company SJSC", "Commercial International Bank (Egypt) S.A.E.")
    | {"kpsc", "k p s c", "kscp", "k s c p", "ksc", "k s c", "qpsc", "q p s c", "qsc", "q s c", "p j s c"}
    | frozenset("psc|p s c|saog|s a o g|saoc|s a o c|bsc|b s c|sjsc|s j s c|sae|s a e".split("|"))
    # ... closed ones with a (c) or a C more ("Ithmaar Bank B.S.C. (c)", "Americana K.S.C.C."); a
    # proprietary or private company's bracketed word before Ltd ("Witvlei Meat (Pty) Ltd",
    # "Dialog Axiata (Pvt) Ltd", "Hayleys (Private) Limited"), once cleanco took the Ltd
    | frozenset("bsc c|b s c c|kscc|k s c c|qscc|q s c c|pty|pvt|private".split("|"))
    # a football club's form, as a legal form is written after the name ("Rangers F.C.", "Rangers
    # Football Club", "Valencia CF", "Real Madrid Club de Fútbol"): one club either way
    | {"fc", "f c", "afc", "a f c", "cf", "c f", "football club", "club de futbol"}
)
# ... or before it ("FC Porto", "Futbol Club Barcelona", "PJSC Lukoil", Indonesia's "PT Adaro")
OPENING_FORMS = (
    ("futbol", "club"),
    ("football", "club"),
    ("f", "c"),
    ("fc",),
    ("pjsc",),
    ("ojsc",),
    ("jsc",),
    ("pt",),
)
# Argentina's forms, a sociedad anónima that says its trades by their initials (comercial,
# industrial, financiera, inmobiliaria, agropecuaria: "CRESUD S.A.C.I.F. y A.", "Aluar S.A.I.C.")
MORE_FORMS |= frozenset(
    "saci|s a c i|sacif|s a c i f|s a c i f y|sacifya|saic|s a i c|s a i c y f|saai|s a a i".split("|")
)
# Peru's closed and open sociedad anónima ("CFG Investment S.A.C.", "Casa Grande S.A.A.")
MORE_FORMS |= frozenset("sac|s a c|saa|s a a".split("|"))
# an Indonesian state-owned company's form after its name ("PT Pelabuhan Indonesia IV (Persero)")
MORE_FORMS |= {"persero"}
# A word of a name written short, read in full: "Cía." and "Cia" are compañía (Volcan Cia Minera /
# Volcan Compañía Minera)
WRITTEN_SHORT = {"cia": "compania"}
# ... and Turkish corporate names' "San. ve Tic." (or "San. Tic."), sanayi ve ticaret in full (Kolin
# İnşaat Turizm San. ve Tic. A.Ş. / Kolin İnşaat Turizm Sanayi ve Ticaret A.Ş.)
WRITTEN_SHORT_RUN = (re.compile(r"\bsan (?:ve )?tic\b"), "sanayi ve ticaret", frozenset({"san", "tic"}))
# Words cleanco reads as legal forms that close names as words of their own: a country ("Santander
# UK"), Turkish "et", meat (Pınar Et; cleanco: a Bulgarian sole trader's ЕТ, which opens a name),
# Vietnamese Đạt (Phát Đạt, Tiến Đạt; cleanco: Ukraine's ДАТ, which a Latin name writes in Cyrillic)
NOT_LEGAL = frozenset("uk us usa eu et dat".split())
# What a company's own page adds to its name in a page's title: the page, not another company
# ("Verizon Investor Relations"). Not "investors": a firm may be named so.
PAGE_NAMES = frozenset({"investor relations", "newsroom", "careers", "press room"})

# One legal form written short or long ("Jollibee Foods Corp" / "Jollibee Foods Corporation"):
# names.legal_forms compares them in the long spelling, so only forms that differ ("Co., Inc." /
# "KGaA") tell two apart.
FORM_SPELLINGS = {"corp": "corporation", "co": "company", "ltd": "limited", "inc": "incorporated",
                  "cos": "companies", "bhd": "berhad", "tbk": "terbuka", "pcl": "plc"}  # fmt: skip
# A public limited company written out, in either order (Thailand's "Public Company Limited"), is
# one form, "plc": TANJONG PUBLIC LIMITED COMPANY is Tanjong plc
PLC_WORDS = frozenset({"public", "limited", "company"})
# A football club's form is no legal form: "Rangers F.C." and "Rangers Football Club" are one
CLUB_FORM_WORDS = frozenset("fc afc cf football futbol club de".split())
# The forms of English company names: a page in English writes a company's name with one of them
# ("Cargotec Corporation is ...") where its register has a local form (Cargotec Oyj)
ENGLISH_FORMS = frozenset("corporation incorporated company limited plc llc op".split())
