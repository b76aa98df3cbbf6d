"""Entity resolution across scripts, on names no world holds: a loanword read by its sounds
(katakana, Hangul, Cyrillic), an employer and a city read out of another script, a group and one
of its companies on country domains, Russian name endings, public bodies, shared hosts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from exa_orch.workflows import entities
from exa_orch.workflows.entities import clustering, hosts, japanese, names, read_names
from exa_orch.workflows.entities.employers import concurrent as _concurrent
from exa_orch.workflows.entities.people import name_evidence
from exa_orch.workflows.entities.scripts import latin_sound_keys, sound_key, sounds_alike
from tests.workflows.entity_items import co, person, weigh


@pytest.mark.parametrize(
    ("written", "latin"),
    [
        ("ブリヂストン", "bridgestone"),
        ("쿠팡", "coupang"),
        ("Роснефть", "rosneft"),
        ("プロダクションズ", "productions"),
        ("ファミリーマート", "familymart"),  # an r after a vowel is a long vowel in kana
        ("스타벅스", "starbucks"),  # and in Hangul
        ("Евроцемент", "eurocement"),  # Cyrillic writes "euro" as "evro"
        ("Евротехника", "eurotechnika"),  # a Latin ch heard as a k, Cyrillic's х (kh)
        ("Вестфалия", "westfalia"),  # a German w heard as a v
    ],
)
def test_a_loanword_in_another_script_sounds_as_its_latin_spelling(written: str, latin: str) -> None:
    assert sounds_alike(names.clean_name(written), latin)


def test_names_that_share_few_consonants_or_differ_do_not_sound_alike() -> None:
    assert not sounds_alike(names.clean_name("ブリヂストン"), "brightstar")
    assert not sounds_alike(names.clean_name("ファミリーマート"), "familymarkets")
    assert not sounds_alike("sipl", "cipla")  # three consonants: too few to tell names apart
    assert sound_key("cilij", read=True).startswith("j")  # anyascii's bare c is च, "ch"
    assert sounds_alike("red cilij emtrtenmemt", "red chillies entertainment")


def test_a_name_s_first_sound_is_near_only_as_one_name_is_written_in_two_scripts() -> None:
    """s, t and k opening a name are other names (Sorivana / Torivana); a ch read as s or k, a v
    read as b, are one name's first sound in two scripts."""
    assert not sounds_alike("sorivana metals", "torivana metals")
    assert not sounds_alike("korivana metals", "torivana metals")
    assert sounds_alike("sandrika tiles", "chandrika tiles")
    assert sounds_alike("bharavi paints", "pharavi paints")


def test_two_names_one_consonant_apart_sound_alike_only_where_it_is_added_or_near() -> None:
    """One consonant more (a plural), or a near one (व read v, bank's b heard p), is one name
    heard twice; one consonant for another unlike it (s / r) is another name."""
    assert sounds_alike("korvelvanka", "korvelbank")  # krbrbnk / krbrpnk: b and p
    assert sounds_alike("tarvisbanks", "tarvisbank")  # a consonant more
    assert not sounds_alike("tarvisbank", "tarvirbank")  # trbspnk / trbrpnk: s and r


def _reading_agrees(written: str, latin: str) -> str | None:
    """read_names.reading_agrees of a company name in another script and a Latin one, each cleaned."""
    return read_names.reading_agrees(written, names.clean_name(written), latin, names.clean_name(latin))


@pytest.mark.parametrize(
    ("latin", "agrees"),
    [
        ("Frantel", True),  # f, r, n, t, l as the letters write them
        ("Frantel Telecom", True),  # the reading opens the name
        ("Blamtel", False),  # b for ف, l for ر, m for ن: one key to sound_key, three letters apart
        ("Blamtel Telecom", False),
    ],
)
def test_a_name_in_arabic_letters_tells_apart_the_consonants_a_sound_key_hears_as_one(
    latin: str, agrees: bool
) -> None:
    assert bool(_reading_agrees("فرنتل", latin)) is agrees


@pytest.mark.parametrize(
    ("written", "latin", "agrees"),
    [
        ("کوٹلی ماربل", "Kotli Marble", True),
        # a trade's word both say carried the whole name's sounds: "ktl" is not "strl"
        ("کوٹلی ماربل", "Chitral Marble", False),
        ("ڈیوان سیمنٹ", "Dandot Cement", False),  # "dn" is not "dndt"
        # an article written on its word, and a Persian ezafe unwritten, are no word apart
        ("بنك المغرب", "Bank Al-Maghrib", True),
        ("بانک ملی افغان", "Bank-e-Millie Afghan", True),
    ],
)
def test_a_name_in_arabic_letters_sounding_alike_whole_is_weighed_word_by_word(
    written: str, latin: str, agrees: bool
) -> None:
    assert bool(_reading_agrees(written, latin)) is agrees


def test_a_run_of_chinese_characters_is_no_latin_word_of_far_fewer_syllables() -> None:
    """何作金庫 (hezuojinku, four syllables) shares its consonants (j n k) with "Chung Hwa", two: a
    reading sounds as the Latin word only with about as many syllables (澜思, lansi / Lanse)."""
    from exa_orch.workflows.entities.glossary import agrees

    for written, latin, alike in (
        ("何作金庫銀行", "Chung Hwa Bank", False),
        ("澜思科技", "Lanse Technology", True),
    ):
        said = agrees(written, names.clean_name(written), latin, names.clean_name(latin))
        assert bool(said) is alike, latin


def test_industries_an_english_name_adds_after_a_trade_the_characters_write_is_read() -> None:
    """日本製紙 is Nippon Paper Industries ("Industries" after the trade 製紙, paper); a brand alone
    in characters is no "X Industries" (豊田, Toyoda, is not Toyota Industries)."""
    from exa_orch.workflows.entities.glossary import agrees

    for written, latin, alike in (
        ("北辰製紙", "Hokushin Paper Industries", True),
        ("北辰製紙", "Hokushin Paper Works", False),
        ("日本", "Nippon Industries", False),
    ):
        said = agrees(written, names.clean_name(written), latin, names.clean_name(latin))
        assert bool(said) is alike, latin


def test_a_scottish_ch_is_heard_as_katakana_writes_it() -> None:
    """キルホーマン writes Kilchoman's ch as Scots say it, an h: a distillery's Japanese article."""
    from exa_orch.workflows.entities.glossary import agrees

    for written, latin, alike in (
        ("アードロハン蒸留所", "Ardlochan Distillery", True),
        ("アードロハン蒸留所", "Ardmoran Distillery", False),
    ):
        said = agrees(written, names.clean_name(written), latin, names.clean_name(latin))
        assert bool(said) is alike, latin


def test_a_company_page_in_katakana_joins_the_companys_own_site() -> None:
    own = co("a", "Bridgestone", "https://www.bridgestone.com/", "Tokyo, Japan", "Tires")
    ja = co("b", "ブリヂストン", "https://ja.wikipedia.org/wiki/ブリヂストン", "Tokyo, Japan", "Tires")
    assert entities.resolve([own, ja]).groups == [[0, 1]]
    assert "sounds as bridgestone does" in weigh(own, ja).reason


def test_a_name_in_cyrillic_read_in_part_leaves_no_city_of_the_other_unheard() -> None:
    """A Cyrillic name whose reading begins as the Latin one does, where the Latin one goes on with a
    city the Cyrillic one does not sound, is another's (Атлетик Бильбао / Atlético de Madrid); a
    country's name added is a brand's abroad."""

    def said(written: str, latin: str) -> str | None:
        return read_names.reading_agrees(written, names.clean_name(written), latin, names.clean_name(latin))

    assert said("Метеорит Бильбао", "Meteorit Valencia") is None
    assert said("Метеорит Банк", "Meteorit Bank Valencia") is None
    assert said("Метеорит Банк", "Meteorit Bank Ukraine")  # its unit abroad
    assert said("Метеорит Валенсия", "Meteorit Valencia")  # the city sounded


@pytest.mark.parametrize(
    ("written", "latin", "agrees"),
    [
        ("四川蓉酿酒业", "Sichuan Rongniang Liquor", True),  # the province and the brand read
        ("宁夏航空", "Ningxia Airlines", True),  # the province and the trade its characters write
        ("宁夏航空", "Ningxia", False),  # a province alone names no company
        ("温岭大虎打火机厂", "Wenling Dongfeng Lighter", False),  # "wenling dahu", not dongfeng
        ("温岭东风打火机厂", "Wenling Dongfeng Lighter", True),
    ],
)
def test_a_reading_that_begins_with_a_place_or_a_start_only_is_no_agreement(
    written: str, latin: str, agrees: bool
) -> None:
    """A name in characters whose reading begins with the Latin name's first word agrees by it only
    where the Latin name is more than a province and its next word, a Mandarin reading, is the one
    the characters read next."""
    assert bool(_reading_agrees(written, latin)) is agrees


def test_a_readings_start_is_heard_each_way_the_latin_word_may_be_written() -> None:
    """Katakana writes a German w as the v it sounds (ヴォルケンシュタット, Wolkenstadt): the Latin
    name's first word is heard that way too where the reading begins with it, never as another."""
    assert _reading_agrees("ヴォルケンシュタット醸造所", "Wolkenstadt Brewery")
    assert _reading_agrees("ヴォルケンシュタット醸造所", "Falkenstadt Brewery") is None


def test_an_r_before_a_last_silent_e_is_heard_unsaid_as_hangul_and_kana_write_it() -> None:
    """그린스토어 writes Greenstore's "store" 스토어, its r unsaid, as ストア does; a word that sounds
    its r before another consonant is still another (Greenstorm)."""
    assert _reading_agrees("그린스토어", "Greenstore")
    assert _reading_agrees("그린스토어", "Greenstorm") is None


@pytest.mark.parametrize(
    ("written", "latin", "agrees"),
    [
        ("Велица Табак", "Velica Tabak", True),  # a Slavic Latin c, the ts of ц
        ("Велиса Табак", "Velica Tabak", False),  # an s is no ts
        ("Хардиван", "Hardivan", True),  # an h, the kh of х
        ("Хардиван", "Harlivan", False),
    ],
)
def test_a_latin_c_and_h_are_heard_as_cyrillic_writes_them(written: str, latin: str, agrees: bool) -> None:
    """The Slavic languages' Latin c is Cyrillic's ц (Strumica, Струмица), and an h Cyrillic's х
    (Eurohold, Еврохолд)."""
    assert bool(_reading_agrees(written, latin)) is agrees


def test_a_last_silent_e_is_heard_unwritten_as_hangul_writes_none() -> None:
    """카이트게임즈 writes "Games" 게임즈, no e after its m: the Latin name is heard without it too."""
    assert _reading_agrees("카이트게임즈", "Kite Games")
    assert _reading_agrees("카이트게임즈", "Kite Gamma") is None


def test_a_reading_is_never_compared_between_two_latin_names() -> None:
    assert read_names.reading_agrees("Bridgestone", "bridgestone", "Brigestone", "brigestone") is None


def test_a_group_and_one_of_its_companies_on_country_domains_stay_two() -> None:
    group = co("a", "Suntory Holdings", "https://www.suntory.com/", "Tokyo, Japan", "Beverages")
    unit = co(
        "b", "Suntory Beverage & Food", "https://www.suntory.co.jp/softdrink/", "Tokyo, Japan", "Beverages"
    )
    brand = co("c", "Suntory", "https://www.suntory.co.jp/", "Tokyo, Japan", "Beverages")
    assert not weigh(group, unit).joins
    assert weigh(group, brand).joins  # the group's own name on its country site


@pytest.mark.parametrize(
    ("latin", "native", "said"),
    [
        # an employer in Hangul read as the Latin one
        (("Kim Beom-seok", "https://www.linkedin.com/in/bomkim", "Coupang", "Seoul, South Korea"),
         ("김범석", "https://ko.wikipedia.org/wiki/김범석_(기업인)", "쿠팡", "서울"), "same employer (coupang)"),
        # a whole name read from characters and one city read alike
        (("Ren Zhengfei", "https://www.huawei.com/en/executives/ren-zhengfei", "", "Shenzhen, China"),
         ("任正非", "https://zh.wikipedia.org/wiki/任正非", "", "深圳"), "both in shenzhen"),
    ],
)  # fmt: skip
def test_a_person_in_two_scripts_joins_by_what_reads_alike(
    latin: tuple[str, str, str, str], native: tuple[str, str, str, str], said: str
) -> None:
    ev = weigh(person("a", *latin), person("b", *native))
    assert ev.joins and said in ev.reason


def test_a_two_character_name_in_one_city_is_many_peoples() -> None:
    latin = person("a", "Wang Wei", "https://www.example.edu/people/wang-wei", "", "Beijing, China")
    han = person("b", "王伟", "https://zh.wikipedia.org/wiki/王伟", "", "北京")
    assert not weigh(latin, han).joins


def test_a_western_name_written_in_cyrillic_as_it_sounds_is_heard_word_by_word() -> None:
    """Клайв Редферн is Clive Redfern and Сесил Пеннингтон Cecil Pennington (each word heard as the
    Latin one, a c before e or i an s, a final silent consonant left out); with one employer and
    one title they join. Another family name of as many consonants is no such reading."""
    said = name_evidence("Клайв Редферн", "Clive Redfern")
    assert said == (5.0, "Клайв Редферн and Clive Redfern sound alike (word by word)")
    assert name_evidence("Сесил Пеннингтон", "Cecil Pennington")[0] >= 5.0
    assert name_evidence("Марсель Бельфор", "Marcel Belfort")[0] == 5.0  # a final t unsounded
    assert name_evidence("Иван Петров", "Ivan Sidorov")[0] < 5.0
    # an s between vowels as the z it sounds, a German z as ц, a title's "Family, Given"
    assert name_evidence("Розарио Луккезе", "Rosario Lucchese")[0] == 5.0
    assert name_evidence("Цейдлер, Эрнст", "Ernst Zeidler")[0] == 5.0
    assert name_evidence("Розарио Лукконе", "Rosario Lucchese")[0] < 5.0
    assert name_evidence("Хуан Арриета", "Juan Arrieta")[0] == 5.0  # a Spanish j as х
    latin = person("a", "Clive Redfern", "https://en.wikipedia.org/wiki/Clive_Redfern", "Kestrel Mining",
                   "London, United Kingdom", "Chief Executive")  # fmt: skip
    cyrillic = person("b", "Клайв Редферн", "https://ru.wikipedia.org/wiki/Редферн,_Клайв", "Kestrel Mining",
                      "London, United Kingdom", "Chief Executive")  # fmt: skip
    assert weigh(latin, cyrillic).joins


def test_a_russian_names_endings_are_one_spelling() -> None:
    assert (
        name_evidence("Dmitriy Peskov", "Dmitry Peskov")[0]
        == name_evidence("Dmitry Peskov", "Dmitry Peskov")[0]
    )


def test_secretariats_embassies_and_agencies_are_bodies_of_government() -> None:
    assert _concurrent("secretaria de hacienda", "secretaria de salud") == "two bodies of government"
    assert _concurrent("embassy of canada in japan", "government of canada") == "two bodies of government"
    assert _concurrent("air canada", "government of canada") is None


def test_a_host_under_a_shared_host_is_that_hosts() -> None:
    row = hosts.host_row("au.finance.yahoo.com", "yahoo.com")
    assert row is not None and row.name == "finance.yahoo.com"
    namu = hosts.host_row("namu.wiki", "namu.wiki")
    assert namu is not None and namu.key == "fixed"


def test_an_article_kept_under_a_former_name_joins_the_company_it_says_it_now_is() -> None:
    own = co("a", "Equinor", "https://www.equinor.com/", "Stavanger, Norway", "Oil and gas")
    said = "Equinor ASA, formerly Statoil ASA, is a Norwegian state-owned energy company."
    old = co(
        "b", "Statoil", "https://en.wikipedia.org/wiki/Statoil", "Stavanger, Norway", "Oil and gas", said
    )
    ev = weigh(own, old)
    assert ev.joins and "formerly Statoil" in ev.reason


@pytest.mark.parametrize(
    ("titled", "latin", "agrees"),
    [
        ("한지민 (배우)", "Han Ji-min", True),  # a Korean article's title: the name, then "(actress)"
        ("한지민 (배우)", "Han Ji-won", False),
        ("亀梨和也 (歌手)", "Kazuya Kamenashi", True),  # "(singer)" after a name read kanji by kanji
    ],
)
def test_a_name_in_characters_or_hangul_reads_without_the_description_its_title_adds(
    titled: str, latin: str, agrees: bool
) -> None:
    bare = titled.split(" (")[0]
    assert name_evidence(titled, latin)[0] == name_evidence(bare, latin)[0]  # as the name alone reads
    assert (name_evidence(titled, latin)[0] >= 5.0) is agrees


def test_two_romanizations_of_one_korean_given_name_weigh_as_one_read_name() -> None:
    assert name_evidence("반기문", "Ban Ki-moon")[0] == name_evidence("任正非", "Ren Zhengfei")[0] == 6.0


@pytest.mark.parametrize(
    ("kanji", "latin"),
    [("松下幸之助", "Konosuke Matsushita"), ("黒澤 明", "Akira Kurosawa"), ("本田圭佑", "HONDA Keisuke")],
)
def test_a_japanese_name_in_kanji_reads_as_its_latin_spelling(kanji: str, latin: str) -> None:
    weight, said = name_evidence(kanji, latin)
    assert weight == 6.0 and f"read from {kanji}" in said


def test_a_japanese_reading_tells_two_family_names_apart_and_folds_long_vowels() -> None:
    assert name_evidence("松下幸之助", "Konosuke Matsumoto")[0] < 0
    assert japanese.latin_key("Ohtani") == japanese.latin_key("ootani") == japanese.latin_key("Otani")
    assert japanese.readings("稲盛和夫") == ()  # a family name the dictionary does not hold: no guess


def test_two_pages_of_one_site_in_two_scripts_join_a_name_read_whole() -> None:
    en = person("a", "Keisuke Honda", "https://www.example-tennis.jp/en/players/honda", "", "")
    ja = person("b", "本田圭佑", "https://www.example-tennis.jp/ja/senshu/honda-keisuke", "", "")
    ev = weigh(en, ja)
    assert ev.joins and "two pages of one site" in ev.reason
    other = person("c", "本田圭佑", "https://www.another-site.jp/honda", "", "")
    assert not weigh(en, other).joins


def test_an_employer_in_arabic_letters_reads_as_the_latin_one_and_the_article_blocks() -> None:
    latin = person(
        "a", "Nasser Al-Khelaifi", "https://www.example.fr/club/nasser", "Paris Saint-Germain", "Paris"
    )
    arabic = person(
        "b", "ناصر الخليفي", "https://ar.wikipedia.org/wiki/ناصر_الخليفي", "باريس سان جيرمان", "الدوحة"
    )
    assert entities.resolve([latin, arabic]).groups == [[0, 1]]
    assert "same employer (paris saint germain)" in weigh(latin, arabic).reason


@pytest.mark.parametrize(
    ("group", "unit", "said"),
    [
        # a subsidiary named as its group is another company
        (("Hanwha Holdings", "https://www.hanwha-inc.com/", "Seoul, South Korea", "Conglomerate"),
         ("Hanwha", "https://news.hanwha.com/en/", "Seoul, South Korea", "Conglomerate",
          "Hanwha, the chemicals subsidiary founded in 2020 under Hanwha Holdings, runs plants."),
         "names Hanwha Holdings as its owner"),
        # an owner named in full is the company its initials name
        (("NTTG", "https://www.nttg.example.jp/", "Tokyo, Japan", "Telecommunications"),
         ("NTTG Mobile", "https://mobile.nttg.example.jp/", "Tokyo, Japan", "Telecommunications",
          "NTTG Mobile is a core member of Nippon Telecom Trading Group."),
         "as its owner"),
    ],
)  # fmt: skip
def test_a_group_a_page_names_as_its_owner_is_another_company(
    group: tuple[str, ...], unit: tuple[str, ...], said: str
) -> None:
    ev = weigh(co("a", *group), co("b", *unit))
    assert not ev.joins and said in ev.why_apart


def test_a_unit_on_a_host_of_its_own_is_not_the_site_owner() -> None:
    group = co("a", "MCG", "https://www.mcg-example.co.jp/", "Tokyo, Japan", "Chemicals")
    unit = co("b", "MCG Agro", "https://agro.mcg-example.co.jp/", "Tokyo, Japan", "Chemicals")
    ir = co("c", "MCG Holdings", "https://ir.mcg-example.co.jp/", "Tokyo, Japan", "Chemicals")
    assert "a host of its own" in weigh(group, unit).why_apart
    assert weigh(group, ir).joins  # investor relations: the owner's own host


def test_initials_with_groups_and_syllables_with_a_plural_name_one_company() -> None:
    site = co("a", "PTG", "https://www.ptg.co.id/", "Jakarta, Indonesia", "Cement")
    wiki = co(
        "b", "Pupuk Tani Group", "https://en.wikipedia.org/wiki/Pupuk_Tani", "Jakarta, Indonesia", "Cement"
    )
    assert entities.resolve([site, wiki]).groups == [[0, 1]]  # PTG: Pupuk Tani Group
    # two words' initials and a "Group" nobody wrote: as likely another company's (ACC is not
    # Ambuja Cement's), so apart (blind30's false merge)
    bare = co("b", "Pupuk Tani", "https://en.wikipedia.org/wiki/Pupuk_Tani", "Jakarta, Indonesia", "Cement")
    assert entities.resolve([site, bare]).groups == [[0], [1]]
    assert names.names_agree("nortels", "northern telecom") == "a name shortened by syllables"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("A Natura &Co, anteriormente Natura Cosméticos, é uma empresa brasileira.", "natura cosmeticos"),
        ("La Compañía aprobó el cambio de su razón social a Grupo Sanborns.", "grupo sanborns"),
        ("Ageas, anciennement Fortis, est un assureur belge.", "fortis"),
        ("A Cosan, antiga Rumo Logística, aprovou a mudança de sua razão social para Raízen.", "raizen"),
        ("En 1998, la Compagnie générale des eaux devient Vivendi.", "vivendi"),
        ("Naturgy, antes Gas Natural Fenosa, distribuye gas en España.", "gas natural fenosa"),
        ("Fiat Chrysler Automobiles diventa Stellantis dopo la fusione con PSA.", "stellantis"),
        ("Facebook is now Meta: the company changed its name in October 2021.", "meta"),
    ],
)
def test_a_rename_written_in_another_language_is_another_name(text: str, named: str) -> None:
    item = co("a", "Company", "https://www.company.example.com/", "Madrid, Spain", "Retail")
    item["properties"]["description"] = text
    assert named in entities.record(0, item).aliases


def test_independent_is_no_employer_two_namesakes_share() -> None:
    a = person("a", "Maria Souza", "https://www.example-art.com/maria-souza", "Independent", "")
    b = person("b", "Maria Souza", "https://www.example-music.com/maria", "Self-employed", "")
    ev = weigh(a, b)
    assert not ev.joins and "same employer" not in ev.reason
    assert entities.record(0, a).employer == ""


@pytest.mark.parametrize(
    ("chinese", "latin"),
    [
        ("周潤發", "Chow Yun-fat"),  # pinyin would be Zhou Runfa
        ("霍英東", "Fok Ying-tung"),  # a family name read in Cantonese too (Huo in pinyin)
        ("梅艷芳", "Anita Mui Yim-fong"),  # Hong Kong's order: an English given name, then the whole name
        ("張學友", "Jacky Cheung Hok-yau"),
    ],
)
def test_a_hong_kong_name_in_traditional_characters_reads_as_its_cantonese_spelling(
    chinese: str, latin: str
) -> None:
    assert name_evidence(chinese, latin)[0] == name_evidence("任正非", "Ren Zhengfei")[0]


@pytest.mark.parametrize(
    ("chinese", "latin", "agree"),
    [
        ("陳永基", "Stephen Paul CHAN Wing-kei", True),  # two English given names, then the whole name
        ("黃德明", "Gordon Tak-ming WONG", True),  # the Chinese given name before the family name
        ("黃德明", "Gordon Tak-wah WONG", False),
        ("陳永基", "Stephen Paul WONG Wing-kei", False),
    ],
)
def test_a_hong_kong_name_reads_with_its_english_given_names_in_either_place(
    chinese: str, latin: str, agree: bool
) -> None:
    assert (name_evidence(chinese, latin)[0] >= name_evidence("任正非", "Ren Zhengfei")[0]) is agree


@pytest.mark.parametrize(
    ("chinese", "latin", "agree"),
    [
        ("林文慶", "Lim Boon Keng", True),  # 文 bûn as Boon, 慶 khìng as Keng: pinyin reads Lin Wenqing
        ("陳篤生", "Tan Tock Seng", True),  # 陳 tân as Tan, 篤 tok as Tock, 生 sing as Seng
        ("李俊承", "Lee Choon Seng", True),  # 俊 tsùn as Choon
        ("陳嘉庚", "Tan Kah Kee", True),  # a closing h unsaid (Kah), a nasal vowel's mark dropped (Kee)
        ("林文慶", "Lim Boon Seng", False),  # one syllable another character's
        ("陳篤生", "Tan Tock Beng", False),
        ("林文慶", "Tan Boon Keng", False),  # another family name
        ("陳篤生", "Tan Tock Seng, Jr.", False),  # a son of one name
    ],
)
def test_a_southeast_asian_name_reads_as_hokkien_spells_its_characters(
    chinese: str, latin: str, agree: bool
) -> None:
    # as a name read kanji by kanji weighs: less than a dictionary's reading, still a name agreeing
    assert (name_evidence(chinese, latin)[0] >= 5.0) is agree
    assert (name_evidence(latin, chinese)[0] >= 5.0) is agree


def test_a_hokkien_reading_joins_two_news_pages_only_with_an_employer_and_a_title() -> None:
    latin = ("Lim Boon Keng", "https://www.straitstimes.com/singapore/lim-boon-keng")
    han = ("林文慶", "https://www.zaobao.com.sg/news/singapore/lim-boon-keng")
    alone = weigh(person("a", *latin, "", "Singapore"), person("b", *han, "", "新加坡"))
    assert not alone.joins and "read in Hokkien" in alone.reason
    job = ("Xiamen University", "Singapore", "Founding president")
    assert weigh(person("a", *latin, *job), person("b", *han, *job)).joins


@pytest.mark.parametrize(
    ("latin", "agrees"),
    [
        ("Eng Kah Enterprise", True),  # 永 íng as Eng, 佳 ka as Kah: pinyin reads Yongjia
        ("Engkah Enterprise", True),  # the two syllables run together
        ("Eng Hup Enterprise", False),  # one syllable another character's
    ],
)
def test_a_southeast_asian_company_in_characters_opens_its_hokkien_english_name(
    latin: str, agrees: bool
) -> None:
    said = _reading_agrees("永佳企業", latin)
    assert bool(said) is agrees
    assert not said or read_names.read_in_part(said)  # what follows may name another company


def test_a_cantonese_reading_still_tells_two_hong_kong_names_apart() -> None:
    assert name_evidence("梅艷芳", "Anita Mui Yim-wah")[0] < 4.0  # another given name
    assert name_evidence("梅艷芳", "Anita Lam Yim-fong")[0] < 0  # another family name
    assert name_evidence("周潤發", "Jacky Cheung Hok-yau")[0] < 0


@pytest.mark.parametrize(
    ("written", "latin", "agrees"),
    [
        ("海天味业", "Haitian Flavouring and Food", True),  # the trade translated, the name read
        ("海天國際", "Haitian International Holdings", True),  # 國際 is International
        ("海天味业", "Haitian International Holdings", False),  # another company of one group
        ("紫金矿业", "Zijin Mining Group", True),  # a group the short name leaves out
    ],
)
def test_a_reading_that_begins_with_the_latin_name_leaves_no_place_or_international_unwritten(
    written: str, latin: str, agrees: bool
) -> None:
    said = read_names.reading_agrees(written, names.clean_name(written), latin, names.clean_name(latin))
    assert (said is not None) == agrees, said


def test_a_profile_joins_the_site_whose_name_writes_its_international_not_a_namesake() -> None:
    # Haitian International (Ningbo) and Haitian Flavouring (Foshan) are unrelated; given one city
    # and one trade here, only the names can tell them apart.
    where, trade = "Ningbo, China", "Machinery"
    profile = co(
        "a", "Haitian International Holdings Ltd", "https://www.bloomberg.com/quote/1882:HK", where, trade
    )
    own = co("b", "海天國際", "https://www.haitianinter.com/", where, trade)
    namesake = co("c", "海天味业", "https://www.haitian-food.com/", where, trade)
    assert weigh(profile, own).joins
    assert not weigh(profile, namesake).joins


@pytest.mark.parametrize(("chinese", "latin"), [("曾国藩", "Zeng Guofan"), ("翟天临", "Zhai Tianlin")])
def test_a_family_name_read_otherwise_as_a_surname_reads_as_the_surname(chinese: str, latin: str) -> None:
    # anyascii reads 曾 "ceng" and 翟 "di", the common words' readings
    assert name_evidence(chinese, latin)[0] == name_evidence("任正非", "Ren Zhengfei")[0]


@pytest.mark.parametrize(
    ("chinese", "latin"),
    [
        ("李小冬", "Forrest Li"),  # an English given name no nickname table holds
        ("陳奕迅", "Eason Chan"),
        ("谢富年", "Jeffrey Cheah"),  # Hokkien spellings of the family name
        ("施至成", "Henry Sy"),
        ("郭孔丰", "Kuok Khoon Hong"),  # a Hokkien given name, which nothing here reads
    ],
)
def test_a_given_name_no_chinese_syllables_spell_weighs_the_family_name_alone(
    chinese: str, latin: str
) -> None:
    assert name_evidence(chinese, latin)[0] == name_evidence("柳青", "Jean Liu")[0] == 4.0


def test_a_given_name_chinese_syllables_spell_or_a_generation_is_no_english_name() -> None:
    assert name_evidence("李小冬", "Li Kashing")[0] < 4.0  # another Chinese given name, in Cantonese
    assert name_evidence("李小冬", "Lee Chingte")[0] < 4.0  # in Wade-Giles
    assert name_evidence("施至成", "Henry T. Sy, Jr.")[0] < 4.0  # a son: the characters may be his father's
    assert name_evidence("양혜규", "Hyunsuk Yang")[0] < 4.0  # a Korean given name romanized
    assert name_evidence("黃志明", "Ryutaro Huang")[0] < 4.0  # a Japanese given name romanized
    assert name_evidence("黃志明", "Jason Huang")[0] == 4.0  # an English one


def test_an_english_given_name_beside_characters_is_a_candidate_pair() -> None:
    en = person("a", "Bruce Lee", "https://en.wikipedia.org/wiki/Bruce_Lee", "Jeet Kune Do",
                "Hong Kong", "Martial artist")  # fmt: skip
    zh = person(
        "b", "李小龍", "https://zh.wikipedia.org/zh-hk/李小龍", "Jeet Kune Do", "香港", "Martial artist"
    )
    assert weigh(en, zh).joins
    assert entities.resolve([en, zh]).groups == [[0, 1]]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Jungkook", "Jung Kook"),  # a single name written in two words
        ("Shin-Soo Choo", "추신수"),  # 신 is sin, written Shin
        ("Helen Clark", "Rt Hon Helen Clark"),  # the style of an office opens the name
        ("Linda Thomas-Greenfield", "Ambassador Linda Thomas-Greenfield"),
        ("Pope John Paul II", "Saint John Paul II"),
    ],
)
def test_a_name_agrees_past_its_style_spaces_and_romanization(one: str, other: str) -> None:
    assert name_evidence(one, other)[0] >= 5.5


def test_an_arabic_abd_al_name_written_as_one_word_is_the_latin_one_of_two() -> None:
    """عبدالرازق, one word with the article inside it, is "Abdel Razek" as two Latin words write it,
    as عبد الرازق, two Arabic words, was; another name after "Abdel" is not."""
    assert name_evidence("كمال عبدالرازق", "Kamal Abdel Razek")[0] == 5.0
    assert name_evidence("كمال عبدالرازق", "Kamal Abdel Hamid")[0] < 0


def test_an_arabic_given_name_with_its_article_written_on_is_one_name() -> None:
    assert name_evidence("Al-Waleed bin Talal", "Alwaleed Bin Talal")[0] >= 5.0
    assert name_evidence("Jungkook", "Jung Min")[0] < 0  # two words that do not run together


@pytest.mark.parametrize(
    ("kana", "latin", "alike"),
    [
        ("デーブ・ロバーツ", "Dave Roberts", True),  # v heard b, an r before a consonant unsounded
        ("アレックス・ラミレス", "Alex Ramírez", True),  # l heard r, x ks, z s
        ("ボビー・バレンタイン", "Bobby Valentine", True),
        ("デーブ・ロバーツ", "Dave Robinson", False),
        ("アレックス・ラミレス", "Alex Ramírez Jr. Smith", False),  # a word more than a middle name
        ("ヤン・ヨハンソン", "Jan Johansson", True),  # a j sounded y, as Nordic names write it
        ("ヤン・ヨハンソン", "Jan Berglund", False),
        ("フリッツ・ヴァルター", "Fritz Walter", True),  # German: tz, w a v, the r sounded
        ("マルチェロ・ボナッツィ", "Marcello Bonazzi", True),  # Italian: ce a che, zz a ts
        ("マルチェロ・ボナッツィ", "Marcello Lippi", False),
        ("ヴィットーリオ・カルロ・アドルニ", "V. C. Adorni", True),  # initials, each a word's first sound
        ("ヴィットーリオ・アドルニ", "V. C. Adorni", False),  # no middle name left out after an initial
        ("ピーター・ヴォーン", "Peter Vaughn", True),  # an English gh unsounded
        ("ベルナルディーノ", "Bernardino", True),  # a single name, three consonants or more
        ("ベルナルディーノ", "Barnaby", False),
        ("エディット・マルテン", "Edith Marthen", True),  # th a t, as French and German say it
        ("エディット・マルテン", "Edith Marlow", False),
        ("ナディア・デ・ロア", "Nadia De Loa", True),  # a family name with its particle: two words heard
        ("ナディア・デ・ロア", "Nadia De Ruiz", False),
    ],
)
def test_a_foreign_name_in_katakana_sounds_as_its_latin_spelling(kana: str, latin: str, alike: bool) -> None:
    assert (name_evidence(kana, latin)[0] == 5.0) == alike
    assert (
        name_evidence("ティム・クック", "Tim Cook")[0] < 5.0
    )  # a family name of one consonant is too many's


@pytest.mark.parametrize(
    ("written", "latin", "alike"),
    [
        ("凯伦·威尔逊", "Kyren Wilson", True),  # w a glide, 尔 an l closing a syllable
        ("克利夫·索伯恩", "Cliff Thorburn", True),  # th heard s, an r before a consonant unsounded
        ("杰克·利索夫斯基", "Jack Lisowski", True),  # a Polish w an f, ki a ji
        ("阿里·卡特", "Ali Carter", True),
        ("阿里·卡特", "Ali Carson", False),
        ("凯伦·威尔逊", "Kyren Walton", False),
        ("杰克·利索夫斯基", "Jack Lewandowski", False),
        ("胡安·帕洛莫", "Juan Palomo", True),  # a Spanish j heard an h
        ("胡安·帕洛莫", "Juan Pereira", False),
        ("英格玛·坎普滕", "Ingmar Kampten", True),  # an m closing a syllable written with an n
        ("英格玛·坎普滕", "Ingmar Kaster", False),
    ],
)
def test_a_foreign_name_in_chinese_characters_sounds_as_its_latin_spelling(
    written: str, latin: str, alike: bool
) -> None:
    assert (name_evidence(written, latin)[0] == 5.0) == alike
    # a snooker player's two Wikipedia editions, one employer and one role: one person
    en = person("a", latin, "https://en.wikipedia.org/wiki/A", "World Snooker Tour", "Leeds, United Kingdom",
                "Snooker player")  # fmt: skip
    zh = person(
        "b", written, "https://zh.wikipedia.org/wiki/B", "World Snooker Tour", "利兹", "Snooker player"
    )
    assert not alike or entities.resolve([en, zh]).groups == [[0, 1]]


def test_a_name_in_katakana_and_its_latin_spelling_are_a_candidate_pair() -> None:
    en = person("a", "Dave Roberts", "https://en.wikipedia.org/wiki/Dave_Roberts", "Los Angeles Dodgers",
                "Los Angeles, United States", "Manager")  # fmt: skip
    ja = person("b", "デーブ・ロバーツ", "https://ja.wikipedia.org/wiki/デーブ・ロバーツ", "Los Angeles Dodgers",
                "ロサンゼルス", "Manager")  # fmt: skip
    assert weigh(en, ja).joins
    assert entities.resolve([en, ja]).groups == [[0, 1]]


def test_a_japanese_name_keeping_a_variant_kanji_reads_as_its_common_form() -> None:
    assert ("takahashi", "ran") in japanese.readings("髙橋藍")  # 髙 for 高
    assert name_evidence("髙橋藍", "Ran Takahashi")[0] == name_evidence("高橋藍", "Ran Takahashi")[0] > 4.0


def test_a_hebrew_geresh_letter_reads_before_its_vowel_letter_and_z_keys_as_s() -> None:
    assert name_evidence("Jonathan Sacks", "ג'ונתן זקס")[0] == 5.0
    assert name_evidence("Jonathan Marks", "ג'ונתן זקס")[0] < 0
    en = person("a", "Jonathan Sacks", "https://en.wikipedia.org/wiki/Jonathan_Sacks", "United Hebrew Congregations",
                "London, United Kingdom", "Chief Rabbi")  # fmt: skip
    he = person("b", "ג'ונתן זקס", "https://he.wikipedia.org/wiki/ג'ונתן_זקס", "United Hebrew Congregations",
                "לונדון", "Chief Rabbi")  # fmt: skip
    assert entities.resolve([en, he]).groups == [[0, 1]]


@pytest.mark.parametrize(
    ("kanji", "latin", "reads"),
    [
        ("東原敏昭", "Toshiaki Higashihara", True),  # 東原 no family name the dataset holds: 東 + 原
        ("新浪剛史", "NIINAMI Takeshi", True),  # family name first, in capitals
        ("佐々木朗希", "Roki Sasaki", True),  # 々 repeats 佐; 朗希 read ro + ki
        ("鉄川与助", "Yosuke Tetsukawa", True),
        ("六角精児", "Seiji Rokkaku", True),  # 六 "roku" closing on っ before 角 "kaku"
        ("亀梨和也", "Kazuya Kamenashi", True),  # a family name in kun readings no given name takes: 亀 kame
        ("鯨岡健太", "Kenta Kujiraoka", True),  # 鯨 kujira + 岡 oka
        ("亀梨和也", "Kamenashi Kazuki", False),  # a kun reading reads the family name only
        ("若の里忍", "Wakanosato Shinobu", True),  # a ring name: 若 waka, の no, 里 sato
        ("豊ノ島大樹", "Toyonoshima Daiki", True),  # ノ, the katakana no
        ("豊ノ島大樹", "Toyoshima Daiki", False),  # the no unsaid
        ("東原敏昭", "Masahiro Okafuji", False),
        ("東原敏昭", "Toshiaki Tanaka", False),  # the given name alone agrees
        ("新浪剛史", "Takeshi Niinamo", False),
    ],
)
def test_a_japanese_name_no_dictionary_reads_whole_is_read_kanji_by_kanji(
    kanji: str, latin: str, reads: bool
) -> None:
    assert not japanese.readings(kanji)  # what the kanji-by-kanji reading is for
    assert (name_evidence(kanji, latin) == (5.0, f"{kanji} read kanji by kanji as {latin}")) == reads


def test_a_japanese_name_read_kanji_by_kanji_joins_with_its_employer_and_title() -> None:
    en = person("a", "Toshiaki Higashihara", "https://www.hitachi.com/about/executives/higashihara.html", "Hitachi",
                "Tokyo, Japan", "Chairman")  # fmt: skip
    ja = person("b", "東原敏昭", "https://ja.wikipedia.org/wiki/東原敏昭", "Hitachi", "東京", "Chairman")
    other = person("c", "Keiji Kojima", "https://www.hitachi.com/about/executives/kojima.html", "Hitachi",
                   "Tokyo, Japan", "Chairman")  # fmt: skip
    assert weigh(en, ja).joins and not weigh(ja, other).joins
    assert entities.resolve([en, ja, other]).groups == [[0, 1], [2]]


def test_the_kanji_readings_file_is_what_the_names_dataset_derives() -> None:
    script = Path(__file__).resolve().parents[2] / "scripts/kanji-readings.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_company_name_in_katakana_is_heard_as_its_latin_name_on_its_site() -> None:
    en = co("a", "Evident", "https://evidentscientific.com/en/products/", "Tokyo, Japan", "Microscopes")
    ja = co("b", "エビデント", "https://evidentscientific.com/ja/news/", "Tokyo, Japan", "Microscopes")
    assert "sounds as evident does" in weigh(en, ja).reason  # its v heard as the b kana writes
    assert entities.resolve([en, ja]).groups == [[0, 1]]
    # two consonants are too few to say one name (カシオ "ks"), and a name heard otherwise is another
    assert not weigh(co("c", "Casio", "https://www.casio.com/", "Tokyo, Japan", "Watches"),
                     co("d", "カシオ", "https://www.casio.com/jp/news/", "Tokyo, Japan", "Watches")).reason.endswith("(katakana)")  # fmt: skip
    assert not weigh(
        en, co("e", "エビアン", "https://evidentscientific.com/ja/news/", "Tokyo, Japan", "Microscopes")
    ).joins


def test_a_company_name_in_katakana_is_heard_as_english_says_its_latin_name() -> None:
    en = co("a", "Brightwell", "https://www.brightwell.co.jp/", "Osaka, Japan", "Lamps")
    ja = co("b", "ブライトウェル", "https://ja.wikipedia.org/wiki/ブライトウェル", "Osaka, Japan", "Lamps")
    assert "sounds as brightwell does (katakana)" in weigh(en, ja).reason  # its gh unsounded
    assert entities.resolve([en, ja]).groups == [[0, 1]]
    other = co("c", "ブラウンウェル", "https://ja.wikipedia.org/wiki/ブラウンウェル", "Osaka, Japan", "Lamps")
    assert not weigh(en, other).reason.endswith("(katakana)")


@pytest.mark.parametrize(
    ("short", "whole", "weight"),
    [
        ("MvG", "Michael van Gerwen", 4.0),  # a particle's initial kept
        ("AMLO", "Andrés Manuel López Obrador", 4.5),
        ("RDJ", "Robert Downey Jr.", 4.0),
        ("VSS", "Vijay Shekhar Sharma", 4.0),
    ],
)
def test_a_name_written_as_the_initials_of_the_whole_name_agrees_short_of_a_join(
    short: str, whole: str, weight: float
) -> None:
    assert name_evidence(short, whole) == (weight, f"{short} is the initials of {whole}")
    assert name_evidence("mvg", "Michael van Gerwen")[0] < 0  # a handle in lower case is no initialism
    assert name_evidence("MVG", "Michael Gerwen")[0] < 0


def test_initials_join_with_an_employer_and_a_title_and_are_a_candidate_pair() -> None:
    full = person("a", "Michael van Gerwen", "https://www.pdc.tv/players/michael-van-gerwen", "Professional Darts",
                  "Vlijmen, Netherlands", "Darts player")  # fmt: skip
    short = person(
        "b", "MvG", "https://x.com/MvG180", "Professional Darts", "Vlijmen, Netherlands", "Darts player"
    )
    other = person("c", "MvG", "https://x.com/mvg_fan", "", "Amsterdam, Netherlands")
    assert entities.resolve([full, short, other]).groups == [[0, 1], [2]]


def test_a_name_read_from_another_script_sounds_alike_with_its_designators_written_too() -> None:
    # "बैंक" writes "bank": the reading keeps the word the Latin name's cleaning sets aside
    said = read_names.reading_agrees(
        "कोटक महिंद्रा बैंक", "kotk mhimdra baimk", "Kotak Mahindra Bank", "kotak mahindra bank"
    )
    assert said and "sounds as kotak mahindra bank does" in said
    assert not read_names.reading_agrees("कोटक महिंद्रा बैंक", "kotk mhimdra baimk", "Canara Bank", "canara bank")


def test_a_leading_vowel_letter_of_an_arabic_script_name_is_no_consonant_of_its_key() -> None:
    latin = person("a", "Muhammad Aurangzeb", "https://www.finance.gov.pk/minister.html", "Ministry of Finance",
                   "Islamabad, Pakistan", "Finance Minister")  # fmt: skip
    urdu = person("b", "محمد اورنگزیب", "https://ur.wikipedia.org/wiki/محمد_اورنگزیب", "Ministry of Finance",
                  "اسلام آباد", "Finance Minister")  # fmt: skip
    assert entities.resolve([latin, urdu]).groups == [[0, 1]]


def test_a_korean_given_name_romanized_with_hee_or_ck_is_one_name() -> None:
    assert name_evidence("손석희", "Sohn Suk-hee")[0] > name_evidence("손석희", "Sohn Suk-hyun")[0]
    assert "two romanizations of one Korean name" in name_evidence("손석희", "Sohn Suk-hee")[1]


def test_a_former_name_stated_with_its_group_joins_the_news_that_drops_the_group() -> None:
    own = co("a", "Naturgy", "https://www.naturgy.com/en/about-us", "Madrid, Spain", "Gas and electricity")
    said = "Naturgy Energy Group, S.A. (formerly Gas Natural Fenosa Group) is a Spanish gas utility."
    wiki = co(
        "b", "Naturgy", "https://en.wikipedia.org/wiki/Naturgy", "Madrid, Spain", "Gas and electricity", said
    )
    news = co(
        "c",
        "Gas Natural Fenosa",
        "https://www.reuters.com/article/gas-natural-fenosa-results-idUSL8N1TV2X0",
        "Madrid, Spain",
        "Gas and electricity",
        "Gas Natural Fenosa reported higher gas sales in Spain and Latin America.",
    )
    assert entities.resolve([own, wiki, news]).groups == [[0, 1, 2]]


@pytest.mark.parametrize(
    ("greek", "latin"),
    [("Ευάγγελος Βενιζέλος", "evangelos venizelos"), ("Ντόρα Μπακογιάννη", "dora bakogianni"),
     ("Γιώργος Παπανδρέου", "giorgos papandreou")],
)  # fmt: skip
def test_greek_letter_pairs_read_as_one_sound(greek: str, latin: str) -> None:
    assert names.fold(greek) == latin
    assert name_evidence(greek, latin.title())[0] == name_evidence(latin, latin)[0]


def test_a_korean_given_name_written_woo_is_the_revised_u() -> None:
    assert name_evidence("정우성", "Jung Woo-sung")[0] == name_evidence("반기문", "Ban Ki-moon")[0] == 6.0


def test_a_legal_form_in_cjk_script_fused_to_the_name_is_any_english_form() -> None:
    korean = co("a", "NHN주식회사", "https://ko.wikipedia.org/wiki/NHN", "Seongnam, South Korea", "Internet")
    english = co("b", "NHN Corporation", "https://www.nhn.com/en/", "Seongnam, South Korea", "Internet")
    japanese = co("c", "カゴメ㈱", "https://ja.wikipedia.org/wiki/カゴメ", "Nagoya, Japan", "Food")
    assert not any(r.startswith("different legal forms") for r in weigh(korean, english).against)
    assert entities.record(0, japanese).raw_name == entities.record(0, japanese).clean  # no form left


@pytest.mark.parametrize(
    ("latin", "other", "lang"),
    [("Genpact", "جينباكت", "ar"),  # a g before e heard soft
     ("Morningstar", "모닝스타", "ko")],  # an r before a consonant a long vowel
)  # fmt: skip
def test_a_name_heard_as_another_script_writes_it_is_a_candidate_pair(
    latin: str, other: str, lang: str
) -> None:
    place = ("Chicago, United States", "Financial data")
    a = co("a", latin, f"https://www.{latin.lower()}.com/", *place)
    b = co("b", other, f"https://{lang}.wikipedia.org/wiki/{other}", *place)
    assert entities.resolve([a, b]).groups == [[0, 1]]
    assert sound_key("mydya", read=True) == sound_key("media")  # a glide after m is no consonant


@pytest.mark.parametrize(
    ("hangul", "latin", "agree"),
    [("최세은", "Sae Eun Choi", True),  # 세 written sae
     ("한혜규", "Haegue Han", True),  # 혜 written hae, 규 gue
     ("정기택", "Kitack Jung", True),  # 택 written tack
     ("최세은", "Sang Eun Choi", False)],  # a consonant more
)  # fmt: skip
def test_a_korean_given_name_s_vowels_romanized_freely_keep_its_consonants(
    hangul: str, latin: str, agree: bool
) -> None:
    weight, reason = name_evidence(hangul, latin)
    assert (weight > 0) is agree, reason
    assert weight < 6.0, reason  # less than the name spelled alike (korean_key)


def test_korean_vowels_written_by_another_romanization_are_one_name_and_one_block() -> None:
    from exa_orch.workflows.entities.foreign_names import korean_key
    from exa_orch.workflows.entities.person_keys import block_keys

    assert korean_key("sokyong") == korean_key("seokyeong")  # 석영, McCune-Reischauer's ŏ as o
    assert korean_key("youngha") == korean_key("yeongha")
    assert korean_key("jeewoon") == korean_key("jiun")  # 지운: ee is 이, not e and eu
    assert korean_key("kyoahn") == korean_key("gyoan")  # 안 written ahn
    assert korean_key("full") == korean_key("pul")  # ㅍ written f, ㄹ doubled
    assert korean_key("seoah") == korean_key("seoa")  # a last 아 written ah
    assert korean_key("minhwoi") == korean_key("minhoe")  # 회 written hwoi
    assert korean_key("seoah") != korean_key("seohan")
    assert korean_key("jiun") != korean_key("jeun")
    latin = entities.record(0, person("a", "Cho Un", "https://en.wikipedia.org/wiki/Cho_Un", "", ""))
    hangul = entities.record(1, person("b", "조은", "https://ko.wikipedia.org/wiki/조은", "", ""))
    assert block_keys(latin) & block_keys(hangul)  # 은 written un


def test_a_family_name_opening_with_w_is_keyed_as_hebrew_letters_write_it() -> None:
    from exa_orch.workflows.entities.person_keys import block_keys

    latin = entities.record(
        0, person("a", "Leslie Wexner", "https://en.wikipedia.org/wiki/Les_Wexner", "", "")
    )
    hebrew = entities.record(1, person("b", "לסלי וקסנר", "https://he.wikipedia.org/wiki/לסלי_וקסנר", "", ""))
    assert block_keys(latin) & block_keys(hebrew)


def test_a_kanji_name_the_dictionary_reads_otherwise_reads_kanji_by_kanji() -> None:
    weight, said = name_evidence("山崎豊子", "Toyoko Yamasaki")  # the dictionary's 山崎 is Yamazaki
    assert weight == 5.0 and "kanji by kanji" in said


def test_a_thai_name_is_read_by_its_consonants_its_silent_letters_left_out() -> None:
    assert name_evidence("ทักษิณ ชินวัตร", "Thaksin Shinawatra")[0] == 5.0
    # his sister: one family name, another given name (ลักษณ์'s ณ์ unsounded)
    assert name_evidence("ยิ่งลักษณ์ ชินวัตร", "Yingluck Shinawatra")[0] == 5.0
    assert name_evidence("ยิ่งลักษณ์ ชินวัตร", "Thaksin Shinawatra")[0] < 0


@pytest.mark.parametrize(
    ("written", "latin", "alike"),
    [("ບຸນມີ ພົມມະຈັນ", "Bounmy Phommachanh", True),  # Lao
     ("ບຸນມີ ພົມມະຈັນ", "Bounmy Phommavong", False),
     # Lao as the Thai letters of its sounds: ຊ an s Latin writes x, a general's rank before it
     ("ພົນເອກ ຄຳແພງ ໄຊສົມແພງ", "Khamphaeng Xaysomphaeng", True),
     ("ສຸກສະຫວັນ ໄຊຍະວົງ", "Souksavanh Phommavong", False),
     ("សុខ ចាន់ណា", "Sok Channa", True),  # Khmer
     ("សុខ ចាន់ណា", "Sok Chenda", False)],
)  # fmt: skip
def test_a_lao_or_khmer_name_sounds_as_its_latin_spelling_whole(
    written: str, latin: str, alike: bool
) -> None:
    assert (name_evidence(written, latin)[0] > 0) is alike


@pytest.mark.parametrize(
    ("written", "latin", "weight"),
    [("ကျော်ဇော်မြင့်", "Kyaw Zaw Myint", 5.0),  # no space between syllables; a creaky tone's t
     ("ဦးလှမျိုးသန့်", "U Hla Myo Thant", 5.0),  # U, an honorific, on both sides; ှ the h of hl
     ("ဗိုလ်ချုပ် ကျော်ဇော်မြင့်", "Kyaw Zaw Myint", 5.0),  # a general's rank before the name
     ("ကျော်ဇော်မြင့်", "Kyaw Zaw Naing", -5.0),  # another last syllable
     ("နေလှ", "Ne Hla", 2.5)],  # two consonants in all: a name many bear weighs less
)  # fmt: skip
def test_a_burmese_name_reads_syllable_by_syllable_as_its_latin_spelling_writes_it(
    written: str, latin: str, weight: float
) -> None:
    """A Burmese name, no family name and no space between its syllables, is the Latin spelling
    whose words are its syllables as spellings sound them (burmese.syllables: ကျော် "kyaw", not "kyea")."""
    assert name_evidence(written, latin)[0] == weight


def test_a_thai_name_s_silent_letter_a_latin_spelling_writes_is_read_too() -> None:
    """ต์ in อนันต์ is silent, but "Anant" writes its t, as "Harold" writes ด์'s d and "Brandt" ต์'s t."""
    assert name_evidence("อนันต์ ศรีสวัสดิ์", "Anant Srisawat")[0] == 5.0
    assert name_evidence("ฮาโรลด์ แบรนต์", "Harold Brandt")[0] == 5.0
    assert name_evidence("อนันต์ ศรีสวัสดิ์", "Anant Sirisuk")[0] < 0


def test_two_latin_romanizations_of_a_korean_name_are_one_name_under_a_korean_family_name() -> None:
    assert (
        name_evidence("Choi Dong-hoon", "Choi Dong-hun")[0]
        == name_evidence("Choi Dong-hun", "Choi Dong-hun")[0]
    )
    assert name_evidence("Kim Brennan", "Kim Crow")[0] < 2  # a Western given name Kim: no Korean name


def test_a_kanji_name_the_dictionary_reads_otherwise_is_keyed_by_its_kanji_too() -> None:
    from exa_orch.workflows.entities.person_keys import block_keys

    kanji = entities.record(0, person("a", "山崎豊子", "https://ja.wikipedia.org/wiki/山崎豊子", "", ""))
    latin = entities.record(
        1, person("b", "Toyoko Yamasaki", "https://en.wikipedia.org/wiki/Toyoko_Yamasaki", "", "")
    )
    assert block_keys(kanji) & block_keys(latin)


def test_a_hong_kong_company_in_traditional_characters_joins_its_cantonese_english_name() -> None:
    place = ("Hong Kong", "Jewellery retail")
    zh = co("a", "周生生集團", "https://zh.wikipedia.org/zh-hk/周生生", *place)
    en = co("b", "Chow Sang Sang Holdings International", "https://www.chowsangsang.com/en/", *place)
    assert entities.resolve([zh, en]).groups == [[0, 1]]
    assert "in Cantonese" in weigh(zh, en).reason  # Mandarin reads 周生生 "zhoushengsheng"


def test_a_company_name_in_kanji_reads_by_its_on_readings_a_persons_never() -> None:
    import json

    data = json.loads((Path(japanese.__file__).with_name("kanji_on.json")).read_text(encoding="utf-8"))
    assert "KANJIDIC2" in data["source"] and len(data["on"]) > 2500  # scripts/kanji-on-readings.py
    assert len(data["kun"]) > 2000  # and their kun readings, a family name's
    assert japanese.spells("日産", "nissan", company=True) and not japanese.spells("日産", "nissan")
    from exa_orch.workflows.entities import glossary

    said = glossary.translates("日産化学", names.clean_name("Nissan Chemical Corporation"))
    assert said and "translates" in said


def test_a_japanese_name_in_kunrei_shiki_is_its_hepburn_spelling() -> None:
    assert japanese.latin_key("Nissin") == japanese.latin_key("Nisshin")
    assert japanese.latin_key("Hukuda Tatuya") == japanese.latin_key("Fukuda Tatsuya")
    assert japanese.latin_key("Shuntaro") == "shuntaro"  # Hepburn's own shu
    assert japanese.spells("日清", "nissin", company=True)


@pytest.mark.parametrize(
    ("latin", "arabic"),
    [("Abdul Rahman al-Sumait", "عبد الرحمن السميط"),  # "abd" and the article run together
     ("Gihan El-Sadat", "جيهان السادات")],  # a g before i written ج
)  # fmt: skip
def test_an_arabic_name_reads_past_its_article_and_a_soft_g(latin: str, arabic: str) -> None:
    assert name_evidence(latin, arabic)[0] == 5.0
    assert name_evidence("Hassan Sadat", arabic)[0] < 0  # another given name


def test_a_name_heard_whole_with_its_trade_word_is_a_candidate_pair() -> None:
    # made-up names: the Hangul writes "Solutions" too, the Latin first word alone is too short to key
    place = ("Seoul, South Korea", "Software")
    en = co("a", "Peak Solutions", "https://www.peaksolutions.com/", *place)
    ko = co("b", "피크솔루션즈", "https://ko.wikipedia.org/wiki/피크솔루션즈", *place)
    assert entities.resolve([en, ko]).groups == [[0, 1]]


def test_a_name_in_another_script_is_weighed_beside_each_latin_name_of_its_employer() -> None:
    """No reading's key brings יאיר לפיד and Yair Lapid together; one employer does, and only
    across scripts: two Latin names of one employer are no candidate pair by it."""
    hebrew = person(
        "a", "יאיר לפיד", "https://he.wikipedia.org/wiki/יאיר_לפיד", "Yesh Atid", "Tel Aviv, Israel"
    )
    latin = person(
        "b", "Yair Lapid", "https://en.wikipedia.org/wiki/Yair_Lapid", "Yesh Atid", "Tel Aviv, Israel"
    )
    other = person("c", "Meir Cohen", "https://en.wikipedia.org/wiki/Meir_Cohen", "Yesh Atid", "Israel")
    recs = [entities.record(i, x) for i, x in enumerate((hebrew, latin, other))]
    keys = [clustering._keys(r) for r in recs]
    assert keys[0] & keys[1] == {"w:yesh atid"}
    blocks = [sorted(b) for b in clustering._blocks(recs)]
    assert [0, 1] in blocks and [1, 2] not in blocks and [2, 1] not in blocks
    assert entities.resolve([hebrew, latin, other]).groups == [[0, 1], [2]]


@pytest.mark.parametrize(
    ("latin", "written"),
    [
        ("Philipp Kirkorov", "Филипп Киркоров"),  # ph / ф
        ("Vlade Divac", "Владе Дивац"),  # Serbian ц, a c
        ("Levon Aronian", "Լևոն Արոնյան"),  # Armenian վ, a v; յ, an i
        ("Otto Rehhagel", "Ότο Ρεχάγκελ"),  # χ, an h; γκ, a g
    ],
)
def test_a_name_in_an_alphabet_meets_its_latin_spelling_as_it_sounds(latin: str, written: str) -> None:
    weight, why = name_evidence(latin, written)
    assert weight >= 5.0 and "as it sounds" in why


def test_a_name_in_an_alphabet_spelled_as_it_sounds_still_tells_two_given_names_apart() -> None:
    assert name_evidence("Valentin Meladze", "Костянтин Меладзе")[0] < 2.0
    assert (
        name_evidence("Philipp Kirkorov", "Филипп Киркоров")[0]
        > name_evidence("Pavel Kirkorov", "Филипп Киркоров")[0]
    )


@pytest.mark.parametrize(
    ("latin", "written"),
    [("Chaim Katz", "חיים כץ"), ("Menachem Herzfeld", "מנחם הרצפלד"), ("Haim Katz", "חיים כץ")],
)
def test_a_hebrew_names_het_and_tsadi_read_as_latin_spellings_write_them(latin: str, written: str) -> None:
    assert name_evidence(latin, written)[0] >= 5.0


def test_a_hebrew_name_read_so_still_tells_two_names_apart() -> None:
    assert name_evidence("Chaim Cohen", "חיים לוי")[0] < 0


@pytest.mark.parametrize(
    ("latin", "written"),
    [("Wichai Charnsiri", "วิชัย ชาญศิริ"), ("Pravit Charnvitaya", "ประวิทย์ ชาญวิทยา")],
)
def test_a_thai_names_closing_yo_is_an_n_and_its_wo_a_v_as_latin_spellings_write_them(
    latin: str, written: str
) -> None:
    assert name_evidence(latin, written)[0] >= 4.0


@pytest.mark.parametrize(
    ("latin", "written"),
    [
        ("Saensuk Property", "บริษัท แสนสุข พร็อพเพอร์ตี้ จำกัด (มหาชน)"),  # แ read after its consonant
        ("Delta Foods", "บริษัท เดลต้า ฟู้ดส์ จำกัด"),  # the legal form dropped, เด read "de"
    ],
)
def test_a_thai_company_name_sounds_as_its_latin_name(latin: str, written: str) -> None:
    from exa_orch.workflows.entities.glossary import agrees

    assert agrees(latin, names.clean_name(latin), written, names.clean_name(written))
    assert "chamkat" not in names.clean_name(written) and "brisath" not in names.clean_name(written)


@pytest.mark.parametrize(
    ("latin", "written"),
    [
        ("George Petrakis", "Γιώργος Πετράκης"),
        ("Miltiadis Sarris", "Μίλτος Σαρρής"),
        ("Kostiantyn Bondar", "Константин Бондарь"),
    ],
)
def test_a_greek_or_ukrainian_given_name_is_its_english_or_russian_form(latin: str, written: str) -> None:
    assert name_evidence(latin, written)[0] >= 5.0
    assert name_evidence("Nikos " + latin.split()[1], written)[0] < 2.0  # another given name


def test_a_company_name_in_another_script_is_weighed_beside_each_latin_name_of_its_trade_and_country() -> (
    None
):
    thai = co("a", "บริษัท แสนสุข พร็อพเพอร์ตี้ จำกัด (มหาชน)", "https://th.wikipedia.org/wiki/แสนสุข",
              "Bangkok, Thailand", "Real estate")  # fmt: skip
    own = co("b", "Saensuk Property", "https://www.saensuk.co.th/", "Bangkok, Thailand", "Real estate")
    other = co("c", "Siam Estates", "https://www.siamestates.co.th/", "Bangkok, Thailand", "Real estate")
    recs = [entities.record(i, x) for i, x in enumerate((thai, own, other))]
    keys = [clustering._keys(r) for r in recs]
    assert keys[0] & keys[2] == {"w:real estate:thailand"}  # nothing but the trade in one country
    blocks = [sorted(b) for b in clustering._blocks(recs)]
    assert [0, 2] in blocks and [1, 2] not in blocks  # never two Latin names by it
    assert entities.resolve([thai, own, other]).groups == [[0, 1], [2]]
    # a trade too many share pairs nothing by it
    many = [
        co(f"x{i}", f"Estate {i}", f"https://www.estate{i}.co.th/", "Bangkok, Thailand", "Real estate")
        for i in range(60)
    ]
    recs = [entities.record(i, x) for i, x in enumerate((thai, *many))]
    assert not any(
        0 in b and len(b) == 2
        for b in clustering._one_sided(recs, {"w:real estate:thailand": list(range(61))})
    )


@pytest.mark.parametrize(
    ("persian", "latin"),
    [
        ("بهرام ناظمی", "Bahram Nazemi"),  # ظ sounded z in Persian
        ("کیوان سپهرنیا", "Keyvan Sepehrnia"),  # پ then ه: p and h, not the digraph "ph"
    ],
)
def test_a_persian_name_is_keyed_as_its_latin_spelling_sounds(persian: str, latin: str) -> None:
    from exa_orch.workflows.entities.consonants import consonant_letters
    from exa_orch.workflows.entities.person_keys import block_keys

    a = entities.record(0, person("a", persian, f"https://fa.wikipedia.org/wiki/{persian}", "", ""))
    b = entities.record(1, person("b", latin, f"https://en.wikipedia.org/wiki/{latin}", "", ""))
    assert block_keys(a) & block_keys(b)
    assert consonant_letters("ظفر") == "dhfr"  # an Arabic name keeps Arabic's reading


@pytest.mark.parametrize(
    ("hebrew", "latin"),
    [
        ("אורי שכטר", "Uri Schechter"),  # כ as the ch of a German or Yiddish spelling
        ("נועם אליחי", "Noam Elichai"),  # ח as ch
    ],
)
def test_a_hebrew_name_is_keyed_as_its_latin_spelling_writes_ch(hebrew: str, latin: str) -> None:
    from exa_orch.workflows.entities.person_keys import block_keys

    a = entities.record(0, person("a", hebrew, f"https://he.wikipedia.org/wiki/{hebrew}", "", ""))
    b = entities.record(1, person("b", latin, f"https://en.wikipedia.org/wiki/{latin}", "", ""))
    assert block_keys(a) & block_keys(b)


@pytest.mark.parametrize(
    ("script", "latin"),
    [
        ("عبد الفتاح السيسي", "President Abdel Fattah Al-Sisi"),  # a title before the Latin name
        ("ماہرہ خان", "Mahira Khan (@mahirahkhan)"),  # a handle after it
        ("مصطفى حجي", "Mustapha Hadji"),  # a French spelling's dj, a ج
    ],
)
def test_a_name_in_arabic_letters_reads_past_the_latin_pages_title_and_handle(
    script: str, latin: str
) -> None:
    assert name_evidence(script, latin)[0] > 0


def test_a_title_left_out_of_a_latin_name_still_leaves_its_consonants_to_agree() -> None:
    assert name_evidence("عبد الفتاح السيسي", "President Abdel Fattah Al-Hamdi")[0] < 0
    assert name_evidence("ماہرہ خان", "Mahira Rashid (@mahirakhan)")[0] < 0


@pytest.mark.parametrize(
    ("hangul", "latin", "agree"),
    [
        ("앤디 김", "Senator Andy Kim", True),  # a foreign given name, then a Korean family name
        ("도널드 트럼프", "Donald Trump", True),  # a foreign name, word by word
        ("앤디 김", "Eddie Kim", False),  # another given name
        ("앤디 김", "Andy Park", False),  # another family name
        ("하워드 레너드", "Howard Leonard", False),  # Howard: one consonant heard, too few
        ("오스카 레너드", "Oscar Leonard", True),  # an r after a vowel unsounded
        ("에릭 밴스", "Eric Vance", True),  # a v written ㅂ
        ("에릭 밴스", "Eric Banks", False),
        ("알레한드로 아리에타", "Alejandro Arrieta", True),  # a Spanish j written ㅎ
        ("알레산드로 아리에타", "Alejandro Arrieta", False),
    ],
)
def test_a_foreign_name_written_in_hangul_word_by_word_sounds_as_the_latin_one(
    hangul: str, latin: str, agree: bool
) -> None:
    assert (name_evidence(hangul, latin)[0] > 0) is agree


@pytest.mark.parametrize(
    ("thai", "latin", "agree"),
    [
        ("เทพไชยา อุ่นหนู", "Thepchaiya Un-Nooh", True),  # a hyphenated family name, one word in Thai
        ("ดาวิกา โฮร์เน่", "Davika Hoorne", True),  # an English r Thai writes silent
        ("ธงไชย แมคอินไตย์", "Thongchai McIntyre", True),  # and a hard c
        ("ธงไชย แมคอินไตย์", "Thongchai McIntosh", False),
        ("วิชัย อยู่สุข", "Wichai Yoosuk", True),  # อ before ย silent: the y opens the word
        ("วิชัย อยู่สุข", "Wichai Boonsuk", False),
    ],
)
def test_a_thai_name_reads_as_thai_writes_an_english_name(thai: str, latin: str, agree: bool) -> None:
    weight, said = name_evidence(thai, latin)
    assert (weight > 0) is agree
    assert latin in said  # named as written


@pytest.mark.parametrize(
    ("script", "latin", "agree"),
    [
        # a title in Arabic before the name, one of whose words is the other's given name
        ("الشيخ الدكتور سلطان بن خليفة آل نهيان", "Sultan bin Khalifa Al Nahyan", True),
        # the generations and the royal house a Latin name leaves out
        ("الأمير سعود بن نايف بن عبد العزيز آل سعود", "Saud bin Nayef", True),
        ("سعود بن نايف بن عبد العزيز آل سعود", "Saud bin Fahd", False),  # another father
        ("سلطان بن خليفة الظاهري", "Sultan bin Khalifa", False),  # a family name that is no house stays
        ("عيسى بن سلمان آل خليفة", "Isa bin Salman Al Khalifa", True),  # عي, a long i
        ("محمد القرقاوي", "Mohammad Al Gergawi", True),  # ق as the Gulf says it, a g; al- left out
        ("حافظ الأسد", "Hafez al-Assad", True),  # ظ as z
        ("مهرداد چراغی", "Mehrdad Cheraghi", True),  # Persian چ, a ch (not a French one, ش)
        ("مهرداد چراغی", "Mehrdad Sharifi", False),
        ("محمدرضا گرامی", "Mohammad Reza Gerami", True),  # Persian گ, a hard g; one word for two
        ("غلامحسین کرباسی", "Gholam-Hossein Karbasi", True),  # an m before a consonant, written apart
        ("ئازاد میرانی", "Azad Mirani", True),  # Kurdish ئ, the seat of a word's opening vowel
        ("ئازاد میرانی", "Yazad Mirani", False),
    ],
)
def test_an_arabic_name_reads_past_its_titles_and_the_lineage_a_latin_name_leaves_out(
    script: str, latin: str, agree: bool
) -> None:
    assert (name_evidence(script, latin)[0] > 0) is agree


@pytest.mark.parametrize(
    ("a", "b", "agree"),
    [
        ("Ziya Məmmədov", "Ziya Mammadov", True),  # Azerbaijani ə as English writes it
        ("Vaqif Mustafazadə", "Vagif Mustafazadeh", True),  # q as g
        ("Vaqif Mustafazadə", "Vagif Samadoghlu", False),
        ("Қайрат Келімбетов", "Kairat Kelimbetov", True),  # Kazakh Қ and і
        ("Болат Жамишев", "Bolat Jamishev", True),  # Ж written j
        ("Болат Жамишев", "Marat Jaksybekov", False),
    ],
)
def test_azerbaijani_and_kazakh_names_read_as_their_english_spellings(a: str, b: str, agree: bool) -> None:
    assert (name_evidence(a, b)[0] > 0) is agree


@pytest.mark.parametrize(
    ("hangul", "latin", "agree"),
    [
        ("슬기", "Seulgi", True),  # a stage name as it sounds
        ("태민", "Taemin", True),
        ("씨엘", "CL", True),  # its letters spelled out by their names
        ("슬기", "Sana", False),
        ("태민", "Tiffany", False),
    ],
)
def test_a_single_name_in_hangul_sounds_as_the_latin_one(hangul: str, latin: str, agree: bool) -> None:
    assert (name_evidence(hangul, latin)[0] > 0) is agree


@pytest.mark.parametrize(
    ("a", "b", "agree"),
    [
        ("سید محمد بهشتی", "Mohammad Beheshti", True),  # seyyed, a Persian title without an article
        ("حجت‌الاسلام علی یونسی", "Ali Younesi", True),  # hojatoleslam
        ("سید محمد بهشتی", "Mohammad Yazdi", False),
        ("Հովհաննես Թումանյան", "Hovhannes Tumanyan", True),  # Armenian ու, one vowel u
        ("김석래", "Kim Suck-rai", True),  # ㄹ written r or l, 래 rae or rai
        ("김석래", "Kim Suk-min", False),
        ("鄧永鏘", "David Tang Wing Cheung", True),  # Hong Kong: an English name, the Chinese one after
        ("鄧永鏘", "Tang Wing Cheung, David", True),  # as a board lists him
        ("鄧永鏘", "David Tang Wing Kit", False),
        ("梁政龍", "Peter Leung Ching Loong", True),  # Hong Kong's ch for j, oo for u
        ("Roeslan Abdulgani", "Ruslan Abdulgani", True),  # Indonesian spelling before 1972, oe as u
    ],
)
def test_names_read_past_persian_titles_and_in_the_spellings_of_armenian_korean_hong_kong_and_indonesia(
    a: str, b: str, agree: bool
) -> None:
    assert (name_evidence(a, b)[0] > 0) is agree


@pytest.mark.parametrize(
    ("bengali", "latin", "agree"),
    [
        ("সুনীল গঙ্গোপাধ্যায়", "Sunil Ganguly", True),  # the anglicized form of a Kulin name
        ("সুনীল গঙ্গোপাধ্যায়", "Sunil Gangopadhyay", True),
        ("ঋতুপর্ণ ঘোষ", "Rituparno Ghosh", True),
        ("সুনীল গঙ্গোপাধ্যায়", "Sunil Chatterjee", False),
        ("সুনীল চট্টোপাধ্যায়", "Sunil Chatterjee", True),
        ("বিনায়ক সেন", "Vinayak Sen", True),  # Bengali writes a b for a Latin v
        ("ৰাজীৱ গগৈ", "Rajiv Gogoi", True),  # Assamese's ৰ r and ৱ, a w or a Latin v
        ("ৰাজীৱ গগৈ", "Rajiv Gohain", False),
        ("ওয়াহিদুজ্জামান রেজা", "Wahiduzzaman Reza", True),  # ও before য়: a w
        ("विष्णु रिमाल", "Bishnu Rimal", True),  # Devanagari's व, a b as Nepali says it
        ("विष्णु रिमाल", "Bishnu Regmi", False),
    ],
)
def test_bengali_and_nepali_names_read_as_their_latin_spellings(
    bengali: str, latin: str, agree: bool
) -> None:
    assert (name_evidence(bengali, latin)[0] > 0) is agree


@pytest.mark.parametrize(
    ("hebrew", "latin", "agree"),
    [
        ("גיל כהן", "Gil Cohen", True),  # a hard c as כ
        ("יוסי כספי", "Yossi Casspi", True),
        ("בנימין זילבר", "Benjamin Zilber", True),  # a j before a vowel as י
        ("אייל ורדי", "Eyal Vardi", True),
        ("גיל כהן", "Gil Katz", False),
    ],
)
def test_a_hebrew_name_reads_as_latin_spellings_write_its_sounds(
    hebrew: str, latin: str, agree: bool
) -> None:
    assert (name_evidence(hebrew, latin)[0] > 0) is agree


@pytest.mark.parametrize(
    ("cyrillic", "latin", "agree"),
    [
        ("Богдан Гнатюк", "Bohdan Hnatyuk", True),  # Ukrainian Г, an h
        ("Богдан Гнатюк", "Bogdan Gnatyuk", True),  # as Russian reads it
        ("Галина Гончар", "Halyna Honchar", True),
        ("Галина Гончар", "Halyna Horbach", False),
    ],
)
def test_a_cyrillic_g_reads_as_the_h_ukrainian_says(cyrillic: str, latin: str, agree: bool) -> None:
    assert (name_evidence(cyrillic, latin)[0] > 0) is agree


@pytest.mark.parametrize(
    ("greek", "latin"),
    [("Ευθύμιος Καλογερόπουλος", "Efthymios Kalogeropoulos"),  # ευ before θ: ef
     ("Ευθύμιος Καλογερόπουλος", "Evthimios Kalogeropoulos"),  # and the older ev still
     ("Δημήτρης Ηλιάδης", "Demetris Eliades"),  # η as Cyprus writes it, e
     ("Ιωάννης Ηλιάδης", "Ioannis Eliades")],  # one word of η as i, another as e
)  # fmt: skip
def test_a_greek_name_reads_as_older_and_cypriot_spellings_write_it(greek: str, latin: str) -> None:
    assert name_evidence(greek, latin)[0] >= 5.5
    assert name_evidence(greek, "Andreas Mavroyiannis")[0] < 0


def test_a_thai_ro_han_and_a_title_written_on_the_name_read_as_the_latin_name() -> None:
    assert name_evidence("ธรรมนัส พรหมเผ่า", "Thammanat Prompao")[0] == 5.0  # รร an a: "tham"
    assert name_evidence("แก้ว ไชยวรรณ", "Kaew Chaiyawan")[0] == 5.0  # a word's รร: "wan"
    assert name_evidence("คุณหญิงสุดารัตน์ เกยุราพันธุ์", "Sudarat Keyuraphan")[0] == 5.0  # Khunying
    assert name_evidence("สันติ ภิรมย์ภักดี", "Santi Bhirombhakdi & family")[0] == 5.0  # a rich list's
    assert name_evidence("คุณหญิงสุดารัตน์ เกยุราพันธุ์", "Sudarat Bhirombhakdi")[0] < 0


def test_a_south_indian_initial_stands_for_the_word_the_script_writes_whole() -> None:
    assert name_evidence("கா. சண்முகம்", "K. Shanmugam")[0] == 5.0  # ச an s: Shanmugam
    assert name_evidence("దగ్గుబాటి పురందేశ్వరి", "D. Purandeswari")[0] == 5.0
    assert name_evidence("దగ్గుబాటి పురందేశ్వరి", "N. Purandeswari")[0] < 0


def test_chinese_family_names_as_older_hokkien_and_cantonese_spellings_write_them() -> None:
    pairs = (("Charlie Soong", "宋嘉澍"), ("Peter Kwa", "柯志明"), ("Kevin Loke", "陸永健"), ("Henry Pao", "包志明"),
             ("Martin Yung", "榮志明"), ("Grace Chau", "周雅文"), ("Simon Kwan", "關志明"), ("Daniel Koo", "辜志明"))  # fmt: skip
    for latin, chinese in pairs:
        assert name_evidence(latin, chinese) == (4.0, name_evidence(latin, chinese)[1])
        assert "English given name" in name_evidence(latin, chinese)[1]


def test_a_cyrillic_name_without_a_site_joins_the_group_whose_latin_name_sounds_alike() -> None:
    # "likon" and "licon": three consonants, fewer than a reading heard whole asks (sounds_alike)
    at, trade = "Veliky Novgorod, Russia", "Mineral fertilizers"
    items = [
        co("a", "Ликон", "https://www.licon.ru/", at, trade, "«Ликон» — производитель азотных удобрений."),
        co(
            "b",
            "Licon Group",
            "https://www.licon.ru/en/",
            at,
            trade,
            "Licon Group is a producer of fertilizers.",
        ),
        co(
            "c",
            "ПАО «Ликон»",
            "https://ru.wikipedia.org/wiki/Ликон_(компания)",
            at,
            trade,
            "«Ликон» — химическая компания.",
        ),
    ]
    assert entities.resolve(items).groups == [[0, 1, 2]]
    other = co(
        "d", "Lycan Holdings", "https://www.lycan.com/", at, trade, "Lycan Holdings makes fertilizers."
    )
    assert [3] in entities.resolve([*items, other]).groups


def test_a_hangul_loanword_reads_with_a_soft_g_and_an_unsounded_r_at_once() -> None:
    from exa_orch.workflows.entities.glossary import agrees

    assert agrees("GS에너지", "gseneoji", "GS Energy", "gs energy")
    assert agrees(
        "한빛에너지솔루션", "hanbiteneojisollusyeon", "Hanbit Energy Solutions", "hanbit energy solutions"
    )
    assert not agrees(
        "한빛에너지솔루션", "hanbiteneojisollusyeon", "Daebang Energy Solutions", "daebang energy solutions"
    )


@pytest.mark.parametrize(
    ("kana", "latin"),
    [("ハビエル・スビサガ", "Javier Zubizaga"),  # Spanish: j an h, z an s
     ("ミハエル・バッハラー", "Michael Bachler")],  # German: ch after a vowel an h
)  # fmt: skip
def test_a_spanish_or_german_name_in_katakana_is_heard_as_its_language_says_it(kana: str, latin: str) -> None:
    from exa_orch.workflows.entities.foreign_names import katakana

    found = katakana(kana, latin)
    assert found is not None and found[0] == 5.0
    assert katakana(kana, "Javier Zubieta") is None


def test_an_m_before_b_or_p_is_the_n_katakana_writes_there() -> None:
    """Katakana writes ン before b or p where English spells an m (Kempbell, ケンベル "kenberu"), the
    p of "mpb" unsounded: one consonant off, not two; another family name still differs."""
    from exa_orch.workflows.entities.foreign_names import katakana

    found = katakana("ヒルダ・ケンベル", "Hilda Kempbell")
    assert found is not None and found[0] == 5.0
    assert katakana("ヒルダ・ケンベル", "Hilda Kessler") is None


def test_a_spanish_g_is_never_heard_with_an_english_r_unsounded() -> None:
    """Spanish sounds its r: "Marges" heard as Spanish is "marhes" (mrs), never "mahes" (ms) as
    マホーゾ is, which takes an English r unsounded and a Spanish g at once; マルヘス is Marges."""
    from exa_orch.workflows.entities.foreign_names import katakana

    assert katakana("ルイ・マホーゾ", "Rui Marges") is None
    found = katakana("ルイ・マルヘス", "Rui Marges")
    assert found is not None and found[0] == 5.0


@pytest.mark.parametrize(
    ("written", "latin", "agree"),
    [("Шумен-Керамика", "Shumen Keramika", True),
     ("Смолян-Керамика", "Shumen Keramika", False),  # smrn: an l more than Shumen's smn
     ("டெக்கான் மோட்டார்ஸ்", "Deccan Motors", True),
     ("சுகுணா மோட்டார்ஸ்", "Deccan Motors", False)],  # chukuna, jkn: a ch for Deccan's d
)  # fmt: skip
def test_a_short_word_a_consonant_off_is_another_word(written: str, latin: str, agree: bool) -> None:
    """Two names of as many words sound alike whole with a consonant off in six, but in a word of
    three consonants or fewer a consonant off (but one for a close one) is another word."""
    assert (
        bool(read_names.reading_agrees(written, names.clean_name(written), latin, names.clean_name(latin)))
        is agree
    )


def test_an_english_g_before_e_is_heard_soft_whatever_its_r() -> None:
    """English sounds George's g soft and may leave its r unsounded (ジョージ, "jooji"), as Italian
    would spell it: the English reading alone hears it so."""
    from exa_orch.workflows.entities.foreign_names import katakana

    found = katakana("ジョージ・タカミネ", "George Takamine")
    assert found is not None and found[0] == 5.0


def test_a_name_read_whole_as_one_company_is_not_joined_by_its_start_to_another() -> None:
    """A name in Arabic letters joined to one Latin name by its whole reading (مارسيلا لينيا, Marsella
    Linea) and to another only by its reading's start (Marsella Ferries: "begins with the sounds of
    marsella") is the first's: the join by the start is dropped, with why; alone, or beside a tie
    that is no reading, it stands."""
    from exa_orch.workflows.entities.clustering import _whole_reading_first
    from exa_orch.workflows.entities.evidence import Evidence
    from exa_orch.workflows.entities.records import make

    records = [
        make(0, "a", "company", "مارسيلا لينيا", url="https://www.ennaharonline.com/x"),
        make(1, "f", "company", "Marsella Ferries", url="https://www.marsellaferries.fr/"),
        make(2, "l", "company", "Marsella Linea", url="https://www.marsellalinea.com/"),
    ]
    part = Evidence(for_=[(4.0, "مارسيلا لينيا reads mrsylyny, which begins with the sounds of marsella")])
    whole = Evidence(for_=[(4.0, "مارسيلا لينيا reads mrsylyny, which sounds as marsella linea does")])
    edges = [(4.0, (0, 1)), (4.0, (0, 2))]
    dropped = _whole_reading_first(records, edges, {(0, 1): part, (0, 2): whole})
    assert list(dropped) == [(0, 1)] and "only its start" in dropped[(0, 1)]
    assert _whole_reading_first(records, edges[:1], {(0, 1): part}) == {}
    # a tie other than a reading (one listing's quote pages) is no whole reading of the name
    listed = Evidence(for_=[(6.0, "both pages quote one listing, 6060.HK")])
    assert _whole_reading_first(records, edges, {(0, 1): part, (0, 2): listed}) == {}


def test_a_legal_form_written_as_a_word_in_another_script_is_heard_with_the_latin_one() -> None:
    """Cyrillic writes "Company" as a word (Компани), which cleaning keeps while it drops the Latin
    name's: the reading is heard against the Latin name as written too, whole, not by its start."""
    written, latin = "Кокпекты Голд Компани", "Kokpekty Gold Company"
    read = read_names.reading_agrees(written, names.clean_name(written), latin, names.clean_name(latin))
    assert read and not read_names.read_in_part(read)
    other = "Kokpekty Operating Company"
    apart = read_names.reading_agrees(written, names.clean_name(written), other, names.clean_name(other))
    assert not apart or read_names.read_in_part(apart)


def test_a_latin_v_is_heard_as_the_b_hangul_and_kana_write_for_it() -> None:
    """노바렐 (nobarel) is Novarel, and 비스타렌 Vistaren: Hangul writes ㅂ for a v and a b alike, so a
    Latin v is heard as a b too (scripts._HEARD_AS); a consonant of another place stays apart."""
    from exa_orch.workflows.entities.glossary import agrees as names_agree
    from exa_orch.workflows.entities.names import clean_name

    assert sound_key("nobarel", read=True) in latin_sound_keys("novarel")
    for written, latin, agrees in (
        ("노바렐", "Novarel", True),
        ("비스타렌", "Vistaren", True),
        ("노바렐", "Novamel", False),
    ):
        said = names_agree(written, clean_name(written), latin, clean_name(latin))
        assert bool(said) is agrees, (latin, said)


def test_a_marketplace_store_page_is_named_as_its_brand() -> None:
    from exa_orch.workflows.entities.script_forms import without_cjk_forms

    assert without_cjk_forms("韦宁堂官方旗舰店") == without_cjk_forms("韦宁堂旗艦店") == "韦宁堂"
    assert without_cjk_forms("旗舰店") == "旗舰店"  # nothing else: the words are the name's
    store = co("a", "韦宁堂官方旗舰店", "https://weiningtang.tmall.com/", "Yunnan, China", "Pu'er tea")
    brand = co("b", "韦宁堂", "https://baike.baidu.com/item/韦宁堂", "Yunnan, China", "Pu'er tea")
    assert weigh(store, brand).joins


def test_a_name_in_kana_leads_the_name_its_site_adds_its_trade_to() -> None:
    # written without spaces, as names in characters and Hangul are (short_names.unspaced_leading)
    site = co("a", "こもれびうどん", "https://www.komorebi-udon.jp/", "Tokyo, Japan", "Udon restaurants")
    legal = co(
        "b",
        "株式会社こもれび",
        "https://ja.wikipedia.org/wiki/こもれび_(企業)",
        "Tokyo, Japan",
        "Udon restaurants",
    )
    other = co(
        "c", "株式会社こもれび", "https://ja.wikipedia.org/wiki/こもれび_(企業)", "Tokyo, Japan", "Housing"
    )
    assert weigh(legal, site).joins
    assert not weigh(other, site).joins  # two trades: another company of the name


def test_a_french_ou_before_a_vowel_is_the_waw_arabic_letters_write() -> None:
    assert name_evidence("كريم وزاني", "Karim Ouazzani")[0] == 5.0  # Ouazzani: وزاني
    assert name_evidence("كريم وزاني", "Karim Ourzazi")[0] < 0


def test_a_french_ch_before_a_vowel_is_heard_as_katakana_writes_a_sh() -> None:
    assert name_evidence("ヒシャム・ダンテル", "Hicham Dantel")[0] == 5.0  # Hicham: ヒシャム
    assert name_evidence("マリオ・ヴァイシャー", "Mario Waich")[0] < 5.0  # a ch closing a word: German's
