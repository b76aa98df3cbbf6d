"""Entity resolution, the names a page's own name writes as two (own_names.py): a name and another
in brackets, and a listing page named by its ticker, whose text gives the company's name (made-up
names)."""

from __future__ import annotations

from exa_orch.workflows import entities
from exa_orch.workflows.entities.own_names import bracketed, listed
from tests.workflows.entity_items import co, weigh


def test_a_companys_name_with_another_of_its_names_in_brackets_is_each_of_them() -> None:
    unit = co("a", "PT Nusantara Seluler Raya (Nusacell)", "https://www.nusatel.co.id/anak-perusahaan/nusacell",
              "Jakarta, Indonesia", "Mobile telecommunications")  # fmt: skip
    own = co(
        "b", "Nusacell", "https://www.nusacell.co.id/", "Jakarta, Indonesia", "Mobile telecommunications"
    )
    assert weigh(unit, own).joins
    assert "nusacell" in entities.record(0, unit).aliases
    # a place, a ticker or a word in lower case in brackets is no other name
    for name, aside in (
        ("Metro (Canada)", "canada"),
        ("Qatar Shipping (QSHP)", "qshp"),
        ("Orion (company)", "company"),
    ):
        assert aside not in entities.record(0, co("c", name, "https://example.com/", "", "")).aliases


def test_capitals_in_brackets_the_names_initials_open_are_its_acronym() -> None:
    """ "Nubian Intl Cement (NICEMCO)" on a quote page is NICEMCO of nicemco.com.sd: the initials of
    its words open the capitals, an acronym; "Nubian Cement (NBCM)" is a ticker."""
    quote = co("a", "Nubian Intl Cement (NICEMCO)", "https://www.reuters.com/markets/companies/NBCM.SD",
               "Khartoum, Sudan", "Cement")  # fmt: skip
    own = co("b", "NICEMCO", "https://www.nicemco.com.sd/", "Khartoum, Sudan", "Cement")
    assert "nicemco" in entities.record(0, quote).aliases
    assert weigh(quote, own).joins
    ticker = co("c", "Nubian Cement (NBCM)", "https://example.com/", "", "")
    assert "nbcm" not in entities.record(0, ticker).aliases


def test_a_listing_page_named_by_its_ticker_is_the_company_its_text_names_before_the_ticker() -> None:
    url = "https://www.idx.co.id/en/listed-companies/company-profiles/NSRK"
    said = "Nusa Raya Karya Tbk, kode saham NSRK, sektor properti: profil dan laporan keuangan."
    quote = co("a", "NSRK", url, "Jakarta, Indonesia", "Property", said)
    own = co("b", "Nusa Raya Karya", "https://www.nusarayakarya.co.id/", "Jakarta, Indonesia", "Property")
    assert weigh(quote, own).joins
    # in brackets, after an exchange's label; a name whose words are in lower case too
    assert listed("NRK", "https://money.tmx.com/en/quote/NRK", ["Nordic Rail (TSX: NRK) stock quote."]) == [
        ("Nordic Rail", "NRK is Nordic Rail's ticker: 'Nordic Rail (TSX: NRK) stock quote.'")
    ]
    turkish = "Demir Otomotiv Servis ve Ticaret A.Ş. (DMOT) şirket kartı: fiyat performansı."
    assert listed("DMOT", "https://www.isyatirim.com.tr/hisse/sirket-karti.aspx?hisse=DMOT", [turkish])[0][
        0
    ] == ("Demir Otomotiv Servis ve Ticaret A.Ş.")


def test_a_ticker_read_from_a_text_must_be_the_pages_own_name_and_the_texts_first_words() -> None:
    url = "https://www.idx.co.id/en/listed-companies/company-profiles/NSRK"
    said = "Nusa Raya Karya Tbk, kode saham NSRK, sektor properti."
    assert listed("Nusa Raya", url, [said]) == []  # a page named by its company, not a ticker
    assert listed("NSRK", "https://www.nusarayakarya.co.id/", [said]) == []  # no listing of it in the URL
    assert (
        listed("NSRK", url, ["Investors sold Nusa Raya Karya Tbk (NSRK) shares."]) == []
    )  # not what it opens with


def test_a_companys_name_with_its_brand_in_quotes_is_the_brand_too() -> None:
    mine = co("a", "Kopalnia Węgla „Rudnica” S.A.", "https://pl.wikipedia.org/wiki/Kopalnia_Węgla_Rudnica",
              "Lublin, Poland", "Coal mining")  # fmt: skip
    assert "rudnica" in entities.record(0, mine).aliases
    # quotes around the whole name give no other name
    assert entities.record(0, co("b", "„Rudnica”", "https://example.com/", "", "")).aliases == {}


def test_a_unit_named_after_its_owner_s_brand_in_quotes_is_the_owner_only_where_a_trade_says_so() -> None:
    """ "Лизинговая компания «Зорван»", a leasing company named after the truck maker's brand, names
    Zorvan as a brand is named: a truck maker of that name is another company unless one country and
    one trade say they are one; its own company's page in words of its trade still is it."""
    leasing = co(
        "a", "Лизинговая компания «Зорван»", "https://www.zorvanleasing.ru/", "Kazan, Russia", "Truck leasing"
    )
    maker = co("b", "Зорван", "https://zorvan.ru/", "Kazan, Russia", "Truck manufacturing")
    assert not weigh(leasing, maker).joins
    plant = co("c", "Завод грузовиков «Зорван»", "https://ru.wikipedia.org/wiki/Зорван_(завод)", "Kazan, Russia",
               "Truck manufacturing")  # fmt: skip
    assert weigh(plant, maker).joins


def test_a_unit_on_a_host_of_its_own_adds_words_to_the_brand_its_owner_writes_in_quotes() -> None:
    """ "Кедровнефть-АЗС Центр" at azs.kedrovneft.ru adds words to "Кедровнефть", the brand its
    owner's name writes in quotes on kedrovneft.ru: a unit of the site's owner, not the owner."""
    owner = co("a", "ПАО «Кедровнефть» им. В.Д. Шашина", "https://www.kedrovneft.ru/", "Almetyevsk, Russia",
               "Oil production")  # fmt: skip
    unit = co("b", "Кедровнефть-АЗС Центр", "https://azs.kedrovneft.ru/", "Kazan, Russia", "Fuel retail")
    assert not weigh(owner, unit).joins


def test_capitals_in_brackets_spelling_the_starts_of_the_names_words_are_its_other_name() -> None:
    """ "Oleícola Tarvana S.A. (OLTA)": OL + TA, the starts of its words, is its short name; capitals
    that spell no such starts are a ticker ("Tarvana Shipping (TSHP)")."""
    assert [n for n, _ in bracketed("Oleícola Tarvana S.A. (OLTA)")] == ["Oleícola Tarvana S.A.", "OLTA"]
    assert bracketed("Tarvana Shipping (TSHP)") == []


def test_a_unit_named_in_brackets_by_its_parent_and_r_and_d_is_not_the_parent() -> None:
    """ "Quantix Optics (Lumetra R&D)": the brackets name Lumetra's R&D unit, not Lumetra; "R&D" is
    no pair of legal forms ("R", "D") a name's cleaning strips."""
    unit = co("a", "Quantix Optics (Lumetra R&D)", "https://www.linkedin.com/company/quantix-optics/",
              "Vilnius, Lithuania", "Ultrafast laser micromachining")  # fmt: skip
    parent = co(
        "b", "Lumetra", "https://www.lumetra.lt/", "Vilnius, Lithuania", "Laser optics and components"
    )
    assert entities.clean_name("Lumetra R&D") == "lumetra r and d"
    assert entities.clean_name("Lumetra R&D Ltd") == "lumetra r and d"
    assert entities.clean_name("Procter & Gamble Co") == "procter and gamble"
    assert not weigh(unit, parent).joins


def test_a_quote_pages_address_spelling_the_company_after_its_ticker_names_it() -> None:
    """A Vietnamese market site's quote page named by its ticker (KTX) spells the company's legal
    name after the ticker in its address, without marks: the page's name, which meets the
    company's own site; a news site's address spells a headline there."""
    assert (
        listed("KTX", "https://finance.vietstock.vn/KTX-ctcp-thep-velkor.htm", [])[0][0] == "ctcp thep velkor"
    )
    spelled = listed("KTX", "https://s.cafef.vn/hose/KTX-cong-ty-co-phan-thep-velkor.chn", [])
    assert spelled[0][0] == "cong ty co phan thep velkor"
    assert listed("KTX", "https://vnexpress.net/KTX-loi-nhuan-tang-manh.html", []) == []
    assert listed("KTX", "https://finance.vietstock.vn/KTX/ho-so-doanh-nghiep.htm", []) == []
    at = "Hanoi, Vietnam"
    site = co("a", "Thép Velkor", "https://www.thepvelkor.vn/", at, "Steel")
    quote = co("b", "KTX", "https://finance.vietstock.vn/KTX-ctcp-thep-velkor.htm", at, "Steel")
    assert entities.resolve([site, quote]).groups == [[0, 1]]
