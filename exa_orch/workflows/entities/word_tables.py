"""The words of organisation names in Arabic (and Persian), Hebrew, Cyrillic and Greek letters,
with where each was read, and the letters that tell those scripts: data only; heard_words.py
translates names by them, and hears their other words by their consonants. The words of names in
Latin-script languages are in latin_words.py.
"""

from __future__ import annotations

import re

from exa_orch.workflows.entities.terms import rendered

# Words of Arabic organisation names (the article al- and the preposition li- kept on, as the names
# write them) -> their English renderings; a name's other words are heard by their consonants
# (heard_words._heard_match). Sources: the Wiktionary entries for each word and the English names the
# organisations publish.
ARABIC: dict[str, tuple[str, ...]] = rendered(
    {
        "مصر": "egypt|egyptian|misr",
        "قطر القطرية": "qatar|qatari",
        "المصرية المصري": "egypt|egyptian",
        "العمانية": "oman|omani",
        "الأردن الأردنية الأردني": "jordan|jordanian",
        "الملكية": "royal",
        "السعودية السعودي": "saudi|saudia|saudi arabia|saudi arabian",
        "العربية": "arab|arabian|arabe",
        "الإمارات": "emirates",
        "الكويت الكويتية": "kuwait|kuwaiti",
        "للطيران الطيران": "air|airlines|airways|aviation",
        "الخطوط_الجوية": "airlines|airways",  # "the air lines", two words read as one (heard_words._words)
        "الجوية": "air|airways",
        "للطاقة الطاقة": "energy",
        "للاتصالات الاتصالات اتصالات": "telecom|telecommunications|telecoms",
        "بنك البنك مصرف المصرف": "bank|banque|banco",
        "الوطني الوطنية": "national|nationale",
        "الأهلي": "national|ahli",
        "للبترول البترول": "petroleum",
        "للاستثمار الاستثمار الاستثمارات للاستثمارات": "investment|investments",
        "جهاز الهيئة هيئة": "authority",
        "صندوق": "fund",
        "العامة العام": "public|general",
        "الإسلامي الإسلامية": "islamic",
        "للكهرباء الكهرباء والكهرباء كهرباء": "electricity|electric|power",
        "مجموعة المجموعة": "group|groupe",
        "المقاولون مقاولون": "contractors",  # المقاولون العرب, The Arab Contractors
        "العرب": "arab|arabs|arabe",
        "النادي نادي": "club",
        "شركة الشركة": "",
        # the places and trades Gulf, Levant and Maghreb companies are named by
        "الدوحة": "doha",
        "دبي": "dubai",
        "أبوظبي ابوظبي": "abu dhabi",
        "الشارقة": "sharjah",
        "الرياض": "riyadh|riyad",
        "البحرين": "bahrain",
        "عمان العماني": "oman|omani",
        "الخليج الخليجي الخليجية": "gulf",
        "المغرب المغربي المغربية للمغرب": "morocco|moroccan|maroc|marocain|marocaine",
        "التونسي التونسية تونس": "tunisia|tunisian|tunisie|tunis|tunisien|tunisienne",
        "الجزائر الجزائري الجزائرية": "algeria|algerian|algerie|algerien|algerienne",
        # the trades of Gulf and Egyptian listed companies' names (their exchanges' English names:
        # Saudi Ceramic Co / الخزف السعودي, Oman Fisheries Co / الأسماك العمانية)
        "مكتبة مكتبات": "bookstore|bookstores|library",
        "الخزف": "ceramic|ceramics",
        "الأسماك أسماك": "fisheries|fish",
        "صناعات": "industries",
        "للمقاولات المقاولات": "contracting",
        "الطبية الطبي": "medical",
        "للألياف الألياف": "fiber|fibre",
        "البصرية": "optic|optical|optics",
        "البحر": "sea",
        "الأحمر": "red",
        "للتجزئة التجزئة": "retail",
        "للألبان": "dairy",
        "للسياحة السياحة": "tourism",
        "للسيارات السيارات": "motors|automotive",
        "الفنادق للفنادق": "hotels",
        "سعودي": "saudi",
        "لبنان اللبناني اللبنانية": "lebanon|lebanese|liban|libano|libanais|libanaise",
        "الإسكندرية": "alexandria",
        "القاهرة": "cairo",
        "القطري": "qatar|qatari",
        "العربي": "arab|arabian|arabe",
        "الأفريقي الإفريقي": "african|africa",
        "القابضة": "holding|holdings",
        "الدولي الدولية": "international|internationale",
        "للخدمات الخدمات": "services",
        "المالي المالية": "financial",
        "التجاري التجارية للتجارة": "commercial|trade|commerciale|commerce",
        "للتأمين التأمين": "insurance|assurance|assurances",
        "العقارية العقاري": "properties|real estate",
        "للتطوير التطوير للتنمية التنمية لتنمية التعمير للتعمير": "development|developments",
        "الصادرات": "export|exports",
        "الخارجي الخارجية": "foreign|external|exterieur|exterieure",
        "الفجيرة": "fujairah",
        "عجمان": "ajman",
        "المركزي": "central|centrale",
        "المتحد المتحدة": "united",
        "العالمية": "global|international|world",
        "للبتروكيماويات البتروكيماويات": "petrochemical|petrochemicals",
        "للغاز الغاز": "gas",
        "للصناعات الصناعات الصناعية الصناعي": "industries|industrial|industrielle|industriel",
        "الرياضية": "sports",
        "الأرضية": "ground",
        "للتموين": "catering",
        "بورصة البورصة": "exchange|stock exchange|bourse|boursa|borsa",
        # the trades and regions Gulf and Egyptian manufacturers, food makers and hospitals are
        # named by (Southern Province Cement; Saudi Dairy and Foodstuff; King Faisal Specialist
        # Hospital). Not cement (أسمنت): heard by its consonants it counts towards the three a heard
        # name needs (شركة أسمنت سيناء / Sinai Cement), as a term it would not
        "لصناعة صناعة": "",  # "for the making of": Qatar National Cement Company
        "المنطقة منطقة": "region|province",
        "الجنوبية الجنوبي": "southern|south",
        "الشمالية الشمالي": "northern|north",
        "الشرقية الشرقي": "eastern|east",
        "الغربية الغربي": "western|west",
        "الزراعية الزراعي": "agricultural|agriculture",
        "الغذائية الأغذية للأغذية والأغذية": "food|foods|foodstuff",
        "الألبان": "dairy",
        "الرعاية_الصحية للرعاية_الصحية": "healthcare|health care",  # "the care, the health" (heard_words._words)
        "الصحية الصحي": "health|healthcare|medical",
        "مستشفى المستشفى": "hospital",
        "التخصصي": "specialist|specialty",
        "الشرق_الأوسط": "middle east",
        "الملك": "king",
        "للأدوية الأدوية": "pharmaceutical|pharmaceuticals",
        # the trades and bodies Gulf and Maghreb state companies are named by (Kuwait Oil Company,
        # National Oil Corporation, Abu Dhabi Securities Exchange, Saudi Arabia Railways, Crédit
        # Agricole du Maroc); their French names too, where a Maghreb company goes by one
        "نفط النفط للنفط": "oil|petroleum",
        "المؤسسة مؤسسة": "corporation|establishment|foundation|institution",
        "الإسكان للإسكان والإسكان": "housing",
        "سوق": "market|exchange",
        "للأوراق_المالية الأوراق_المالية": "securities",  # "the papers, the financial" (heard_words._words)
        "الخطوط_الحديدية": "railways|railway",  # "the iron lines"
        "للماء الماء المياه ومياه مياه": "water",
        "للمشروبات المشروبات": "beverages|beverage|drinks",
        "المملكة": "kingdom",
        "العسكرية العسكري": "military|defence|defense",
        "الشعبي الشعبية": "popular|populaire|people's",
        "الفلاحي الفلاحية": "agricultural|agricole",
        "القرض": "credit",
        # Maghreb and Egyptian state industries, in their French names too (Groupe Chimique Tunisien,
        # Compagnie des Phosphates de Gafsa)
        "المجمع مجمع": "group|groupe|complex",
        "الكيميائي الكيميائية الكيماويات للكيماويات الكيماوية": "chemical|chemicals|chimique|chimiques",
        "الفوسفات للفوسفات فسفاط الفسفاط": "phosphate|phosphates",
        "الأسمدة للأسمدة": "fertilizer|fertilizers|fertiliser|fertilisers|engrais",
        "الأبيض البيضاء": "white",
        # and the trades of Gulf ports and airports and Egyptian mills (Abu Dhabi Airports, Port of
        # Fujairah, Oman Drydock, Misr Spinning and Weaving, Nile Cotton Ginning, Cleopatra Ceramics)
        "مطارات مطار": "airports|airport",
        "ميناء موانئ": "port|ports",
        "الحوض_الجاف": "drydock|dry dock",  # "the basin, the dry" (heard_words._words)
        "للغزل الغزل": "spinning",
        "والنسيج النسيج للنسيج": "weaving|textile|textiles",
        "الأقطان القطن": "cotton",
        "لحليج حليج": "ginning",
        "سيراميكا للسيراميك السيراميك": "ceramica|ceramics|ceramic",
        # Persian words of company names (Wiktionary): شرکت (company) left out, as English may
        "شرکت": "",
        "ملی": "national",
        "صنایع": "industries|industry",
        "صنعتی": "industrial|industries",
        "پتروشیمی": "petrochemical|petrochemicals",
        "گروه": "group",
        "بانک": "bank",
        "بیمه": "insurance",
        "فولاد": "steel",
        "سیمان": "cement",
        "نفت": "oil|petroleum",
        "ایران": "iran|iranian",
        "مخابرات": "telecommunication|telecommunications|telecom",
        "توسعه": "development",
        "صادرات": "export|exports",
        "گاز": "gas",
        "پالایش": "refining|refinery",
        "پخش": "distribution",
        "نفتی": "oil|petroleum",
        # and Iraq's state companies and banks (North Oil Company, Trade Bank of Iraq)
        "العراق العراقي العراقية": "iraq|iraqi",
        "غاز الغاز للغاز": "gas",
        "التجارة التجاري التجارية": "trade|commercial",
        "الشمال الشمالية": "north|northern",
        "الجنوب الجنوبية": "south|southern",
        "مصافي المصافي مصفاة": "refineries|refinery",
        "كردستان كوردستان": "kurdistan",
        # the trades of Gulf retailers, banks and oil service companies (Abdullah Al Othaim Markets,
        # Credit Bank of Iraq, Iraqi Drilling Company, Kuwait Oil Tanker Company) and Iran's (National
        # Iranian Drilling Company, Telecommunication Infrastructure Company, Bandar Abbas Refinery)
        "أسواق الأسواق": "markets|market",
        "صيدليات الصيدليات": "pharmacies|pharmacy",
        "الائتمان للائتمان": "credit",
        "الحفر للحفر": "drilling",
        "ناقلات لناقلات": "tankers|tanker",
        "البترولية": "petroleum",
        "نفتکش": "tanker|tankers",
        "حفاری": "drilling",
        "ارتباطات": "communications|communication",
        "زیرساخت": "infrastructure",
        "پالایشگاه": "refinery",
        # and the trades of Egyptian, Gulf and Iranian contractors, food groups and carmakers (Rowad
        # Modern Engineering, Cairo Poultry, Emirates Integrated Telecommunications, Iran Khodro,
        # Mostazafan Foundation, Knowledge Economic City, Nasser Social Bank, Pak Suzuki Motor)
        "الهندسة للهندسة الهندسية": "engineering",
        "الحديثة الحديث": "modern",
        "الدواجن للدواجن": "poultry",
        "المتكاملة": "integrated",
        "خدمات لخدمات الخدمات": "services",
        "المحلية المحلي": "local",
        "الاقتصادية الاقتصادي": "economic",
        "المعرفة": "knowledge",
        "مدينة": "city",
        "الاجتماعي الاجتماعية": "social",
        "طيران": "air|airlines|airways|aviation",
        "خودرو": "khodro|motors|automobile|auto",
        "موٹر موتور": "motor|motors",
        "بنیاد": "foundation",
        "کمپنی": "",
        # and the trades of Libya's, Yemen's and Algeria's state oil, steel and shipping companies
        # (Zawia Oil Refining, Akakus Oil Operations, Brega Petroleum Marketing, Yemen Petroleum,
        # Libyan Iron and Steel, United Arab Shipping) and of Iran's carpet, saffron and pistachio
        # cooperatives (Iran Carpet Company, Rafsanjan Pistachio Producers Cooperative)
        "اليمن اليمني اليمنية": "yemen|yemeni",
        "ليبيا الليبي الليبية": "libya|libyan",
        "لتكرير التكرير تكرير": "refining",
        "للعمليات العمليات": "operations",
        "النفطي النفطية": "oil|petroleum",
        "لتسويق التسويق تسويق": "marketing",
        "لإنتاج الإنتاج إنتاج": "production",
        "الطبيعي": "natural",
        "المسال": "liquefied",
        "للحديد الحديد": "iron",
        "والصلب الصلب للصلب": "steel",
        "مطاحن المطاحن": "mills|flour mills",
        "للملاحة الملاحة": "navigation|shipping",
        "الحرة": "free",
        "التعاوني التعاونية تعاونی": "cooperative|co-operative",
        "فرش": "carpet|carpets",
        "زعفران": "saffron",
        "پسته": "pistachio|pistachios",
        # and the nations, the overseas and the factories of Levantine banks and cement makers (Bank
        # of Syria and Overseas, Banque Libano-Française, Lebanese Canadian Bank, Jordan Cement
        # Factories, Arab Banking Corporation)
        "سوريا سورية السورية السوري": "syria|syrian|syrie|syrienne",
        "كندا الكندي الكندية": "canada|canadian|canadien|canadienne",
        "فرنسا الفرنسي الفرنسية": "france|french|francais|francaise|franco",
        "بريطانيا البريطاني البريطانية": "britain|british",
        "الأمريكي الأمريكية الأميركي الأميركية": "american|america",
        "ألمانيا الألماني الألمانية": "germany|german",
        "تركيا التركي التركية": "turkey|turkish|turkiye",
        "فلسطين الفلسطيني الفلسطينية": "palestine|palestinian",
        "السودان السوداني السودانية": "sudan|sudanese",
        "المهجر والمهجر": "overseas|outre-mer",
        "مصانع مصنع": "factories|factory|works",
        "للتمويل التمويل والتمويل": "finance|financing",
        "المصرفية المصرفي": "banking",
        # the places, ports and trades of Gulf, Egyptian and Maghreb industrial and port companies
        # (RAK Ceramics / سيراميك رأس الخيمة, Suez Cement, Alexandria Container & Cargo Handling,
        # Tanger Med Special Agency / الوكالة الخاصة طنجة المتوسط, Arab Maritime Petroleum Transport)
        "رأس_الخيمة": "ras al khaimah|rak",  # two words read as one (heard_words._words)
        "السويس": "suez",
        "طنجة": "tangier|tanger|tangiers",
        "المتوسط": "mediterranean|med",
        "الاتحاد": "union|etihad|ittihad",
        "الدوائية للأدوية الأدوية أدوية": "pharmaceutical|pharmaceuticals|pharma",
        "المواد للمواد والمواد": "materials",
        "الإنشائية للإنشاءات الإنشاءات": "construction",
        "الوكالة وكالة": "agency",
        "الخاصة": "special",
        "للمناطق المناطق": "zones",
        "ميناء الميناء": "port",
        "الموانئ للموانئ": "ports",
        "الحاويات للحاويات": "container|containers",
        "لتداول تداول": "handling",
        "البضائع والبضائع": "cargo",
        "البحرية البحري": "marine|maritime",
        "لنقل النقل للنقل": "transport",
        "مطاحن": "mills|flour mills",
        "الدقيق": "flour",
        "المخابز والمخابز": "bakeries",
        "حديد الحديد للحديد": "steel|iron",
        "الصلب للصلب والصلب": "steel",
        # and Persian's, beside those above (Central Bank of the Islamic Republic of Iran, Islamic
        # Republic of Iran Shipping Lines, Tose'e Ta'avon Bank)
        "مرکزی": "central|markazi",
        "جمهوری": "republic",
        "اسلامی": "islamic",
        "کشتیرانی": "shipping|lines",
        "تعاون": "cooperative|cooperation|taavon",
        "سازمان": "organization|organisation",
    }
)


def _spellings(table: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """`table` and its words as the web also writes them: an alif without its hamza (الاسلامي for
    الإسلامي, اسواق for أسواق), and Arabic's kaf and yeh as Persian writes them (ک, ی: بانک beside بنك) and
    the other way round."""
    bare = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا"})
    swaps = (str.maketrans({"ك": "ک", "ي": "ی", "ى": "ی"}), str.maketrans({"ک": "ك", "ی": "ي"}))
    out = dict(table)
    for word, english in table.items():
        for spelled in (word.translate(bare), *(word.translate(t) for t in swaps)):
            out.setdefault(spelled, english)
            out.setdefault(spelled.translate(bare), english)
    return out


ARABIC = _spellings(ARABIC)
ARABIC_LETTERS = re.compile(r"[\u0600-\u06ff]")
# Words of Hebrew organisation names (Wiktionary), with the article (ה) and the prepositions (ל,
# for; ו, and) Hebrew writes onto a word as the names write them ("אפריקה ישראל להשקעות", Africa
# Israel Investments; "חברת החשמל", the Israel Electric Corporation); "חברת", "חברה" (company) may
# be left out.
HEBREW: dict[str, tuple[str, ...]] = rendered(
    {
        "בנק": "bank",
        "קבוצת": "group",
        "תעשיות התעשייה תעשייה": "industries|industry",
        "מערכות": "systems",
        "ביטוח לביטוח": "insurance",
        "חברת חברה החברה": "",
        "השקעות להשקעות": "investment|investments",
        "אחזקות החזקות": "holdings|holding",
        "אנרגיה אנרגיות": "energy|energies",
        "מתחדשת": "renewable",
        "טכנולוגיות": "technologies|technology",
        "תקשורת": "communications|communication",
        "פיננסים": "finance|financial",
        "פרמצבטיות": "pharmaceutical|pharmaceuticals",
        "אלקטרוניות": "electronic|electronics",
        "ביטחון": "security|defense|defence",
        "ישראל לישראל": "israel",
        "הישראלית הישראלי": "israeli|israel",
        "המרכזית המרכזי מרכזי": "central",
        "פיתוח לפיתוח": "development",
        "נכסים": "properties|property",
        "ובנין ובניין בניין": "building",
        "מספנות": "shipyards",
        "יקבי": "winery|wineries",
        "מזון": "food|foods",
        "החשמל חשמל": "electric|electricity",
        "נפט לנפט": "oil",
    }
)
HEBREW_LETTERS = re.compile(r"[\u05d0-\u05ea]")
# Words of organisation names in Cyrillic letters (Russian, Ukrainian, Belarusian, Bulgarian,
# Serbian, Kazakh), in lower case and in the forms names write them (an adjective agreeing with its
# noun, a place in the genitive: "Банк Москвы", the Bank of Moscow) -> their English renderings;
# "" a word English leaves out (компания, "company"). A name's other words are heard by their
# consonants (heard_words.py). Sources: the Wiktionary entries for each word and the English names
# the organisations publish (Russian Standard Bank, National Bank of Kazakhstan, Magnitogorsk Iron
# and Steel Works).
CYRILLIC: dict[str, tuple[str, ...]] = rendered(
    {
        "банк банка банку банком банкі банкът": "bank",
        "группа группы група групи групата": "group",
        "холдинг холдинга холдингу холдинг": "holding|holdings",
        "компания компании компанія компанії компанија компанията": "",
        "национальный национальная национальное национального национальной національний національна "
        "національного національної национален национална национална ұлттық": "national",
        "народный народная народного народного народна": "people's|peoples|national",
        "государственный государственная государственного державний державна державного": "state",
        "центральный центральная центрального центральна централна": "central",
        "русский русская русское русского русской российский российская российское российского "
        "российской российские российских": "russian|russia",
        "украинский украинская украинского український українська українського": "ukrainian|ukraine",
        "казахстанский казахстанская казахстанского": "kazakhstan|kazakh",
        "белорусский белорусская беларускі": "belarusian|belarus",
        "българска български": "bulgarian|bulgaria",
        "српска српски": "serbian|serbia",
        "москва москвы москве московский московская московского": "moscow",
        "россия россии": "russia|russian",  # Вертолёты России, Russian Helicopters
        "украина украины україна україни": "ukraine",
        "беларусь беларуси": "belarus",
        "развития развитие розвитку развитие": "development",
        "металлургический металлургическая металлургического металургійний металургійна": (
            "metallurgical|iron and steel|steel"
        ),
        "горно-металлургическая горно-металлургический горно-металлургического": "mining and metallurgical",
        "комбинат комбината": "works|plant|combine",
        "завод завода заводы заводов": "plant|works|factory|plants",
        "фабрика фабрики": "factory|mill",
        "концерн концерна": "concern|group",
        "институт института інститут": "institute",
        "авиакомпания авиакомпании авіакомпанія": "airlines|airline",
        "горнорудный горнорудная горнорудного": "mining",
        "алюминиевый алюминиевая алюминиевого алюминий алюминия": "aluminium|aluminum",
        "евразийская евразийский евразийского евроазиатская евроазиатский": "eurasian",
        "коньячный коньячного": "brandy|cognac",
        "воды": "waters|water",
        "медная медной медный": "copper",
        "нефтяная нефтяной нефтяного нафтова": "oil",
        "газовая газовый": "gas",
        "энергетическая энергетический енергетична": "energy|power",
        "строительная строительный будівельна": "construction",
        "страховая страховой страхова": "insurance",
        "авиалинии авиалиний": "airlines",
        "торговый торговая торгового торговий търговска торговельний торговельна": "trade|trading|commercial",
        "инвестиционный инвестиционная инвестиционна": "investment|investments",
        "промышленный промышленная промышленного промисловий": "industrial",
        "сельскохозяйственный сельскохозяйственного": "agricultural",
        "сберегательный ощадний": "savings",
        "кредитный кредитная": "credit",
        "первый первая първа": "first",
        "объединённая объединенная обединена": "united",
        "морской морская морского морський морська морського": "marine|maritime|sea",
        "пароходство": "shipping",
        "вертолётный вертолетный вертолётного вертолетного": "helicopter|helicopters",
        "сибирский сибирская сибирского": "siberian|siberia",
        "уральский уральская уральского": "ural|urals",
        "железные железных": "railways|railway",
        "дороги дорога": "",  # железные дороги, railways: one word in English
        "республики республика": "republic",
        "комерцијална": "commercial",
        # plants' and makers' words (the English names the plants publish: Tula Cartridge Works, Russian
        # Helicopters, Ulan-Ude Aviation Plant, Chelyabinsk Tractor Plant)
        "трубный трубная трубного трубопрокатный трубопрокатного": "pipe|tube",
        "локомотивы локомотивов": "locomotives",
        "вертолёты вертолеты вертолётов вертолетов": "helicopters",
        "авиационный авиационная авиационного авиационное": "aviation|aircraft",
        "машиностроительный машиностроительного машиностроения": "machine-building|engineering",
        "патронный патронного": "cartridge",
        "стекольный стекольного": "glass|glassworks",
        "хрустальный хрустального": "crystal",
        "тракторный тракторного": "tractor",
        "цинковый цинкового": "zinc",
        "кондитерская кондитерской": "confectionery",
        "химический химического химическая": "chemical",
        "корпорация корпорации": "corporation",
        "машины машин": "machines",
        "русские русских": "russian",
        "музей музея": "museum",
        "оружия": "arms|weapons",
    }
)
CYRILLIC_LETTERS = re.compile(r"[\u0400-\u04ff]")
# Words of Greek organisation names, without accents, in lower case and their genitives (Sources:
# Wiktionary; the English names the organisations publish: the Agricultural Bank of Greece, the
# National Bank of Greece, the Hellenic Postbank).
GREEK: dict[str, tuple[str, ...]] = rendered(
    {
        "τραπεζα τραπεζας": "bank",
        "ελλαδος ελλαδας ελλαδα": "greece|hellenic",
        "ελληνικη ελληνικης ελληνικα ελληνικος ελληνικων": "hellenic|greek",
        "εθνικη εθνικης": "national",
        "αγροτικη αγροτικης": "agricultural",
        "εμπορικη εμπορικης": "commercial",
        "κεντρικη κεντρικης": "central",
        "ομιλος ομιλου": "group",
        "εταιρεια εταιρειας": "",
        "ναυτιλιακη ναυτιλιακης": "shipping|maritime",
        "τηλεπικοινωνιες τηλεπικοινωνιων": "telecommunications|telecom",
        "οργανισμος οργανισμου": "organisation|organization|authority",  # Οργανισμός Λιμένος: Port Authority
        "λιμενος λιμανι λιμανιου": "port",
        "πετρελαια πετρελαιων": "petroleum",
        "ασφαλιστικη ασφαλειες": "insurance",
        "συμμετοχων": "holdings|holding",
        "βιομηχανια βιομηχανιας": "industry|industries",
        "κυπρου κυπρος": "cyprus",
        "αναπτυξιακη αναπτυξιακης αναπτυξης": "development",
        "πειραιως": "piraeus",
        "αθηνων": "athens",
        # state utilities' and carriers' words (Public Power Corporation, Electricity Authority of
        # Cyprus, Cyprus Airways, Minoan Lines)
        "δημοσια δημοσιας": "public",
        "επιχειρηση επιχειρησης": "corporation|enterprise|company",
        "ηλεκτρισμου": "power|electricity",
        "αρχη": "authority",
        "κυπριακες κυπριακη κυπριακης": "cyprus|cypriot",
        "αερογραμμες": "airways|airlines",
        "γραμμες": "lines",
        "της του των": "",  # "of the"
    }
)
GREEK_LETTERS = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
