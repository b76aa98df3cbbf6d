"""The words an institution's or a company's name says it is, as Latin-script languages write them,
read as English (`WORDS_IN_ENGLISH`), the word "group" in those languages (`GROUPS`) and the words
that open a name saying what kind of body it is (`KIND_OPENERS`): data only; names.names_agree,
employers.py and profiles.py read them. The words of names in other alphabets are in
word_tables.py.
"""

from __future__ import annotations

# An institution's and a company's words as other languages write them (Banque centrale européenne,
# Gobierno de España, Universität Wien, Instituto Butantan): read as English so one employer
# (employers.py) or one organisation (names.names_agree) named in two languages agrees. The common
# words of public bodies, banks, universities and companies' structure only; names are never
# translated.
# The word "group" as company names write it in the languages they are written in (Grupo Bimbo,
# Gruppo Campari, Groupe SEB, Gruppe Schwarz, Группа Илим read "gruppa", Grupa Azoty)
GROUPS = frozenset("group groupe grupo gruppo gruppe gruppa grupa".split())
WORDS_IN_ENGLISH = {
    "banque": "bank", "banco": "bank", "banca": "bank",
    "centrale": "central", "centrala": "central", "zentralbank": "central bank",
    "europeenne": "european", "europeo": "european", "europea": "european", "europaische": "european",
    "gobierno": "government", "gouvernement": "government", "governo": "government",
    "regierung": "government", "bundesregierung": "federal government", "valtioneuvosto": "government",
    "ministerio": "ministry", "ministere": "ministry", "ministero": "ministry", "ministerium": "ministry",
    "universidad": "university", "universite": "university", "universita": "university",
    "universitat": "university", "universidade": "university", "universiteit": "university",
    "tudomanyegyetem": "university", "egyetem": "university", "universitet": "university",
    "nacional": "national", "nationale": "national", "nazionale": "national",
    "republica": "republic", "republique": "republic", "repubblica": "republic",
    "presidencia": "presidency", "presidence": "presidency", "presidenza": "presidency",
    "parlamento": "parliament", "parlement": "parliament", "assemblee": "assembly",
    "fondo": "fund", "fonds": "fund", "monetaire": "monetary", "monetario": "monetary",
    "internacional": "international", "internationale": "international",
    "comision": "commission", "commissione": "commission", "kommission": "commission",
    # the word an institution's name says it is (names.names_agree: "Instituto Butantan" /
    # "Butantan Institute")
    **dict.fromkeys("instituto institut istituto institutet instytut".split(), "institute"),
    **dict.fromkeys("uniwersytet".split(), "university"),
    **dict.fromkeys("academia academie akademie accademia akademia".split(), "academy"),
    **dict.fromkeys("fundacion fundacao fondation fondazione stiftung fundacja fonden stiftelsen".split(), "foundation"),
    **dict.fromkeys("museo musee museu".split(), "museum"),
    **dict.fromkeys("hopital ospedale krankenhaus".split(), "hospital"),
    # and a company's ("iA Groupe financier" / "iA Financial Group", "Banque Nationale du Canada" /
    # "National Bank of Canada")
    **dict.fromkeys(GROUPS, "group"),
    **dict.fromkeys("financier financiere financiero financiera financeiro financeira finanziario".split(), "financial"),
    **dict.fromkeys("assurances assurance seguros assicurazioni versicherung".split(), "insurance"),
    # a steelmaker's in Vietnamese ("Thép Pomina" / "Pomina Steel")
    "thep": "steel",
    # a brewery's ("Pivovar Bernard" / "Bernard Brewery", "Brauerei Gebr. Maisel" / "Maisel Brewery")
    **dict.fromkeys("pivovar pivovarna browar brouwerij brauerei cerveceria cervejaria birrificio bryggeri panimo "
                    "brau braeu brauhaus privatbrauerei klosterbrauerei landbrauerei".split(), "brewery"),
    # a shipyard's ("Brodogradilište Viktor Lenac" / "Viktor Lenac Shipyard", "Stocznia Gdańska")
    **dict.fromkeys("brodogradiliste ladjedelnica stocznia astillero astilleros estaleiro estaleiros cantiere werft varvet telakka".split(), "shipyard"),
    # a winery's and a distillery's ("Vinarija Tikveš" / "Tikveš Winery", "Destilería ...")
    **dict.fromkeys("vinarija vinarstvo vinarna winnica weingut adega vinicola".split(), "winery"),
    **dict.fromkeys("destileria destilaria distilleria distillerie brennerei".split(), "distillery"),
    # a public body's and a trade body's ("Autoridad del Canal de Panamá" / "Panama Canal Authority",
    # "Autoridad Marítima de Panamá" / "Panama Maritime Authority")
    **dict.fromkeys("autoridad autoridade autorite autorita".split(), "authority"),
    **dict.fromkeys("maritima maritimo marittima marittimo".split(), "maritime"),
    **dict.fromkeys("asociacion associacao associazione asociatia stowarzyszenie vereniging".split(), "association"),
    **dict.fromkeys("cooperativa cooperativo cooperatieve genossenschaft spoldzielnia".split(), "cooperative"),
    **dict.fromkeys("federacion federazione federacao".split(), "federation"),
    **dict.fromkeys("aeropuerto aeroport aeroporto flughafen".split(), "airport"),
    **dict.fromkeys("puerto porto hafen".split(), "port"),
    **dict.fromkeys("ferrocarril ferrocarriles ferrovie".split(), "railway"),
    **dict.fromkeys("luchthaven lufthavn flygplats lentoasema".split(), "airport"),
    # a port's company in Dutch ("Havenbedrijf Rotterdam" / "Port of Rotterdam Authority"), a truck
    # maker's in Swedish ("Volvo Lastvagnar" / "Volvo Trucks")
    "havenbedrijf": "port authority", "lastvagnar": "trucks",
    # Turkish companies' trades ("Meteksan Savunma Sanayii" / "Meteksan Defence Industry", "Alp
    # Havacılık" / "Alp Aviation"), and defence as American English spells it
    "savunma": "defence", "defense": "defence", "havacilik": "aviation", "havayollari": "airlines",
    "demiryollari": "railways", "sanayi": "industry", "sanayii": "industry", "otomotiv": "automotive",
    "cimento": "cement", "enerji": "energy", "bankasi": "bank", "sigorta": "insurance", "celik": "steel",
}  # fmt: skip

# Words that open a company's name saying only what kind of body it is ("Société BIC", "Agencia
# EFE", "Banca MPS"; Bank as Indonesian and Hebrew names write it first, "PT Bank Jago Tbk"): before
# a short name as good as no word at all; a brewery's, a winery's, a farm's trade ("Brouwerij Palm",
# "Bodegas Torres", "Château Ksara", "Cantine Pala", "Crama Oprișor", "Azienda Agricola COS") and a
# maker's kind ("Productos Ramo", "Laboratorios Bagó", "Caseificio Argiolas") as names open with it
KIND_OPENERS = frozenset(
    "societe sociedad sociedade societa compagnie compania companhia compagnia empresa empresas agencia "
    "agence agenzia banca banco banque bank brouwerij brasserie brauerei bodega bodegas cerveceria "
    "cervejaria destileria distillerie weingut cantina chateau domaine vina productos produtos prodotti "
    "produits industrias laboratorios laboratoires laboratorio pastificio conservas cafe caffe editorial "
    "editora fabrica cantine vinaria crama caseificio azienda agricola".split()
)
