"""The words `glossary` translates organisation names by, with where each was read: terms of
place, trade and structure in Chinese, Japanese and Korean names (`TERMS`; countries' names in
cjk_countries.py). Data only; glossary.py reads it. The words of names in Arabic, Hebrew, Cyrillic
and Greek letters are in word_tables.py, the titles one person holds in titles.py.

`TERMS` is kept to words of place, trade and structure that organisations' names are made of:
each is the usual English rendering of the word in company and institution names (sources: the
CC-CEDICT and Wiktionary entries for each word, and the English names the organisations that
bear them publish). A proper name is never a term, but for the Japanese business groups whose
names lead many companies' (三菱 Mitsubishi, 三井 Mitsui, 住友 Sumitomo; the private railways' groups,
東急 Tokyu, 阪急 Hankyu; the trading houses and department stores; Wikipedia, "Keiretsu"), which no
dataset here reads, and Korea's large business groups in the spellings they use (한화 Hanwha, 롯데
Lotte), which their Revised Romanization does not give, and the large groups of China, Hong Kong
and Taiwan in the English names they publish (中信 CITIC, 华润 China Resources, 國泰 Cathay), which
no reading gives. A group's name is a word a name must write, never a trade left out: 東急ホテルズ
is not Tokyu's railway.
"""

from __future__ import annotations

from exa_orch.workflows.entities.cjk_countries import CJK_COUNTRIES

# A term: its kind ("filler": structure, may be left out; "trade": may be left out beside a
# brand; "word": must be matched) and its English words (a phrase is words joined by a space).
FILLER = "filler"
TRADE = "trade"
WORD = "word"


def rendered(table: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """`table` (words written with spaces between spellings -> English renderings split by "|")."""
    return {w: tuple(english.split("|")) for spellings, english in table.items() for w in spellings.split()}


def _terms(kind: str, table: dict[str, str]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """`rendered` terms of one kind."""
    return {term: (kind, english) for term, english in rendered(table).items()}


TERMS: dict[str, tuple[str, tuple[str, ...]]] = {
    **_terms(
        FILLER,
        {
            "公司 会社 회사": "company",
            "有限 股份": "limited",
            "责任 責任": "liability",  # 有限责任公司: a limited liability company
            "相互会社": "mutual|company",
            # a Korean public corporation (한국전력공사, Korea Electric Power Corporation)
            "공사 公社": "corporation",
            "공단 公团 公團": "service|corporation",  # 국민연금공단 National Pension Service
            # a Japanese real estate investment trust's form (日本ビルファンド投資法人, Nippon Building
            # Fund Inc.), and a juridical person's (学校法人, an educational corporation)
            "投資法人": "investment corporation|investment|corporation",
            "法人": "corporation",
            # a Japanese group's parent, "head office" (大和証券グループ本社, Daiwa Securities Group Inc.)
            "本社": "head office|headquarters",
            "总公司 總公司": "corporation|company",  # 中国烟草总公司, China National Tobacco Corporation
        },
    ),
    **_terms(
        TRADE,
        {
            "航空 항공": "air|airlines|airways|aviation|air lines",
            "银行 銀行 은행": "bank|banking",
            "保险 保險 保険 보험": "insurance",
            "人寿 人壽 生命 생명": "life|life insurance",  # 中国人寿, China Life Insurance
            "生命保険 生命保險 人寿保险 人壽保險 생명보험": "life insurance|life",  # 住友生命保険, Sumitomo Life
            # non-life insurance, which English names call insurance or fire and marine (DB손해보험, DB
            # Insurance; 損害保険ジャパン, Sompo Japan Insurance)
            "손해보험 損害保険 损害保险 損害保險": "insurance|non life insurance|general insurance|fire and marine insurance",
            # a Korean insurer's short name, fire (and marine): 삼성화재, Samsung Fire & Marine Insurance
            "화재 해상": "fire and marine insurance|marine and fire insurance|fire and marine|fire|marine",
            "证券 證券 証券 증권": "securities",
            "电信 電信 전신": "telecom|telecommunications",
            "通信 통신": "telecom|communications|telecommunications",
            "电力 電力 전력": "electric|power|electric power",
            "电气 電氣 電気 전기": "electric",
            "电子 電子 전자": "electronics|electronic",
            "电机 電機": "electric|electrical machinery",
            "石油 석유": "petroleum|oil",
            "石化 石油化学 石油化學 石油化工 석유화학": "petrochemical|petrochemicals",
            "化学 化學 화학": "chemical|chemicals|chem",  # LG화학, LG Chem
            "钢铁 鋼鐵 鉄鋼 철강": "steel",
            "制铁 製鐵 製鉄 제철": "steel|steel manufacturing",
            # steelmaking and special steel (日新製鋼, Nisshin Steel; 大同特殊鋼, Daido Steel; 山陽特殊製鋼,
            # Sanyo Special Steel; 神戸製鋼所, Kobe Steel): the English names leave "making" and "works" out
            "製鋼 制钢 製鋼所 제강": "steel|steel works|steelworks",
            "特殊鋼 特殊钢 特殊製鋼 특수강": "special steel|specialty steel|steel",
            "橡胶 橡膠 ゴム 고무": "rubber",  # 住友ゴム工業, Sumitomo Rubber Industries
            "汽车 汽車 自動車 자동차": "motor|motors|automobile|auto",
            "重工 重工業 중공업": "heavy industries|heavy industry",
            "工业 공업": "industries|industrial|industry",
            "工業": "industries|industrial|industry|kogyo",  # 日本冶金工業, Nippon Yakin Kogyo
            "建设 建設 건설": "construction|engineering and construction",  # 현대건설, Hyundai E&C
            "物流 물류": "logistics",
            "急便 快递 快遞 택배": "express|courier|delivery",
            "航运 航運": "shipping|lines|shipping lines",
            "旅客": "passenger",
            "海运 海運 해운": "shipping",
            "运输 運輸 운수": "transport|transportation",
            "铁路 鐵路 鉄道 鐵道 철도": "railway|railways|rail|railroad",  # 鐵道: old Japanese names (大井川鐵道)
            "医药 醫藥 医薬 의약": "pharmaceutical|pharmaceuticals|medicine|pharma",
            "制药 製藥 製薬 薬品 药业 藥業 제약": "pharmaceutical|pharmaceuticals|pharma",
            "生物 生物科技": "biologics|bio|biotech|biotechnology",
            "医疗 醫療 医療 의료": "medical|healthcare",
            "食品 식품": "foods|food",
            "饮料 飲料": "beverage|beverages",
            "啤酒 麦酒 맥주": "beer|brewery",
            # confectionery, ginseng, manufacturing, brewing and tea, as Japanese, Korean and Chinese
            # makers name them (森永製菓, Morinaga; 롯데제과, Lotte Confectionery; 한국인삼공사, Korea Ginseng
            # Corporation; 東海楽器製造, Tokai Gakki Seizo; 八海醸造, Hakkai Brewery; 勐海茶厂, Menghai Tea Factory)
            "製菓 制果 제과": "confectionery|confectionary|seika",
            "人参 人蔘 인삼": "ginseng",
            "製造 制造 제조": "manufacturing|manufacture|seizo",
            "醸造 酿造 釀造 양조": "brewery|brewing|jozo",
            "茶業 茶业 茶葉 茶叶": "tea",
            "茶厂 茶廠": "tea factory|tea",
            "乳业 乳業 乳品": "dairy",
            "能源": "energy",
            "矿业 礦業 鉱業 광업": "mining",
            "鉱山 矿山 礦山 광산": "mining|mines|mine",
            "金属 金屬 금속": "metal|metals",
            "林业 林業 임업": "forestry",
            "信托 信託 신탁": "trust",
            "地产 地產 不動産 부동산": "real estate|properties|property|land|realty",
            "地所": "estate|real estate|jisho",  # 三菱地所 Mitsubishi Estate
            "置地": "land",
            "百货 百貨 백화점": "department store|department stores",
            "电视 電視 電視台 电视台 テレビ": "television|tv",
            "放送 방송": "broadcasting|broadcast",
            "新闻 新聞 신문": "news|newspaper|shimbun",
            "出版": "publishing",
            "科技 技术 技術 기술": "technology|technologies|tech",
            "软件 軟體 軟件": "software",
            "网络 網絡 網路": "network|networks",
            "通讯 通訊": "communications",
            "半导体 半導體 半導体 반도체": "semiconductor|semiconductors",
            "电池 電池": "battery|batteries",
            "机场 機場 空港 공항": "airport",
            "造船 조선해양": "shipbuilding",
            # Hangul writes 造船 (shipbuilding) and 朝鮮 (Joseon, Korea's old name) alike: 대선조선,
            # Daesun Shipbuilding; 조선일보, the Chosun Ilbo
            "조선": "shipbuilding|chosun|joseon",
            # and 酒造 (distilling, brewing) and 鑄造 (casting) alike: 대선주조, Daesun Distilling
            "주조": "distilling|distillery|brewery|brewing|casting|foundry",
            "造船所": "shipbuilding|shipyard|shipyards",  # 名村造船所, Namura Shipbuilding
            "海洋 해양": "ocean|marine",
            "金融 금융": "financial|finance",
            "金控": "financial holding|financial holdings|financial",
            # a Korean financial holding company calls itself a financial group in English (KB금융지주,
            # KB Financial Group; 신한금융지주, Shinhan Financial Group)
            "금융지주": "financial group|financial holdings|financial holding",
            "投资 投資 투자": "investment|investments",
            "资产 資產 資産": "asset|assets",
            "管理": "management",
            "管理局": "authority|administration",  # 香港機場管理局, Airport Authority Hong Kong
            "商业 商業": "commercial",
            "储蓄 儲蓄": "savings",
            "邮政 郵政": "post|postal",
            "旅行 여행": "travel",
            "酒店 饭店 飯店 호텔": "hotel|hotels",
            "零售": "retail",
            "电器 電器": "appliances|electric|electrical appliances|electric appliances|electronics",
            "机械 機械 기계": "machinery",
            "精密": "precision",
            "水泥": "cement",
            "玻璃": "glass",
            "自行车 自行車 自転車": "bicycle|bicycles|cycles|cycle|bike|bikes",
            "进出口 進出口": "export import|import and export|import export",
            "健康": "health|healthcare",
            "资源 資源": "resources|resource",
            "材料 재료": "materials|material",  # 明基材料, BenQ Materials
            "轮船 輪船": "shipping|steamship|steam navigation",  # 太古輪船, Swire Shipping
            "房地产投资信托基金 房地產投資信託基金": "reit|real estate investment trust",
            # Japan Railways' companies (JR九州, Kyushu Railway; JR東日本, East Japan Railway)
            "JR": "railway|railways|japan railways",
            "烟草 煙草 담배": "tobacco",
            "锌业 鋅業 아연": "zinc",
            "年金 养老金 養老金 연금": "pension|pensions",
            "体育 體育": "sports",
            "交通": "transport|communications",
            "大学 大學 대학교 대학": "university",
            "研究所 研究院 연구소 연구원": "institute",
            "科学院 科學院": "academy of sciences",
            "医院 醫院 病院 병원": "hospital",
            "政府 정부": "government",
            "内阁 內閣 内閣 내각": "cabinet",
            # more trades the names of the blind worlds' companies were made of, each as the
            # companies render it (Korea Hydro & Nuclear Power, China Mobile, Nippon Paper
            # Industries, Lotte Duty Free, Korea Aerospace Industries, Foshan Lighting)
            "水力 수력": "hydro|hydroelectric",
            "原子力 核电 核電 원자력": "nuclear|nuclear power",
            "燃气 燃氣 가스 ガス 瓦斯": "gas",
            "移动 移動": "mobile",
            "免税 免稅 면세점 면세": "duty free",
            "造纸 造紙 製紙 纸业 紙業 제지": "paper",
            "照明 조명": "lighting",
            "计算机 計算機": "computer",
            "航空宇宙 항공우주": "aerospace",
            "产业 產業 産業 산업": "industries|industrial|industry",
            # and Japanese trade words with the reading a company's English name may keep
            # (Idemitsu Kosan, Nippon Yusen, Toyo Seikan, Nippon Sanso, Yamaha's "gakki")
            "楽器 乐器 樂器 악기": "musical instrument|musical instruments|instruments|gakki",
            "製作所": "works|manufacturing|seisakusho",
            "香料": "flavors|fragrances|flavours|flavor|fragrance",
            "眼鏡 眼镜 안경": "eyewear|optical|glasses|megane",
            "織物 织物": "textile|textiles|fabrics|orimono",
            "光学 光學 광학": "optical|optics",
            "塗料 涂料 ペイント 페인트": "paint|paints|coatings",
            "塑胶 塑膠 塑料 プラスチック 플라스틱": "plastics|plastic",
            "興産": "kosan|industrial",
            "郵船": "yusen|shipping",
            "製罐 制罐": "seikan|can|cans",
            "酸素 氧气": "sanso|oxygen",
            # and trades of the fifteenth session's tuning worlds' names (CC-CEDICT's renderings, as
            # China Northern Rare Earth, Huayou Cobalt, Innolux Optoelectronics write them)
            "稀土": "rare earth|rare earths|rare-earth",
            "钴业 鈷業": "cobalt",
            "光电 光電": "optoelectronics|optoelectronic|photoelectric",
            "书店 書店": "bookstore|bookstores|books",
            # and the trades of the eighteenth session's tuning worlds' names, as the companies
            # render them (Mori Building, Keisei Electric Railway, Kumho Tire, Taihan Cable)
            "ビル 빌딩": "building|buildings",
            "電鉄 电铁 電鐵": "electric railway|railway|railways|dentetsu",
            "타이어 タイヤ 轮胎 輪胎": "tire|tires|tyre|tyres",
            "전선 電線 电线": "cable|cables|wire",
            # and more trades Chinese and Japanese names are made of (CC-CEDICT's renderings, as
            # First Tractor, Sumitomo Heavy Industries, Nippon Express write them)
            "拖拉机 拖拉機": "tractor|tractors",
            "重機械工業 重机械工业": "heavy industries|heavy machinery industries",
            "重機械 重机械": "heavy machinery|heavy industries",
            "通运 通運": "express|transport|logistics",
            "娱乐 娛樂 엔터테인먼트 エンターテインメント": "entertainment",
            "传媒 傳媒": "media",
            "超市": "supermarket|supermarkets",
            "服饰 服飾": "apparel|fashion|clothing",
            "纺织 紡織 방직": "textile|textiles|spinning",  # 일신방직, Ilshin Spinning
            "煤业 煤業 煤炭": "coal|coal mining",
            "电网 電網": "grid|power grid",
            "水务 水務": "water",
            "环保 環保": "environmental|environmental protection|environment",
            "光伏": "solar|photovoltaic|pv",
            "风电 風電": "wind power|wind",
            "电讯 電訊": "telecom|telecommunications",
            "租赁 租賃": "leasing",
            "建材": "building materials",
            "陶瓷": "ceramics|ceramic",
            "家电 家電": "home appliances|appliances|electrical appliances",
            "空调 空調": "air conditioning|air conditioner|air conditioners",
            "物业 物業": "property|properties|property services",
            # and Hong Kong's and Macau's (Chinese Estates, New World First Bus, Macau Light Rapid
            # Transit, MTR's 地鐵): CC-CEDICT's renderings
            "置业 置業": "estates|estate|properties|property",
            "巴士 客车 客車": "bus|buses|coach",
            "缆车 纜車": "cable car|tram|ropeway",
            "轻轨 輕軌": "light rail|light rapid transit",
            "地铁 地鐵": "metro|subway|underground|mtr",
            "电车 電車": "tramways|tram|trams",
            "渡轮 渡輪 小轮 小輪": "ferry|ferries",
            "旅游 旅遊": "travel|tourism|tours",
            "度假村": "resorts|resort",
            # and more trades company names in Chinese characters and kana are made of, as their
            # English names render them (CC-CEDICT's and Wiktionary's renderings: Takara Shuzo,
            # Sumitomo Warehouse, Industrial Bank's 兴业, Nisshin Seifun, Toyo Suisan, Shandong Hi-Speed)
            "酒造": "brewery|breweries|sake brewery|shuzo",
            "蒸留所 蒸溜所 蒸馏厂 蒸餾廠 蒸馏酒厂 蒸餾酒廠": "distillery|distilleries",
            "汽船": "kisen|steamship|shipping",
            "倉庫 仓库": "warehouse|warehousing|soko",
            "工程": "engineering|construction",
            "实业 實業": "industrial|industries|enterprise|enterprises",
            "企业 企業": "enterprise|enterprises",
            "化工": "chemical|chemicals|chemical industry",
            "电梯 電梯 エレベータ エレベーター 엘리베이터": "elevator|elevators|lift|lifts",
            "酱油 醬油 醤油": "soy sauce|shoyu",
            "化妆品 化妝品 化粧品 화장품": "cosmetics",
            "电脑 電腦": "computer|computers",
            "兴业 興業": "industrial|industries|enterprises|kogyo",
            "家居": "home|home furnishing|home furnishings|furniture",
            "制粉 製粉": "flour milling|flour mills|flour|seifun",
            "制糖 製糖": "sugar|seito",
            "水产 水產 水産 수산": "fisheries|seafood|suisan",
            "百貨店": "department store|department stores",
            "船舶": "shipping|ships|marine|shipbuilding",  # 中国船舶重工, China Shipbuilding Industry
            "基金": "fund|funds",
            "观光 觀光 観光 관광": "tourism|sightseeing|kanko",
            "港务 港務 港口": "port|ports",
            "飞机 飛機": "aircraft",
            "模具": "dies|moulds|molds|tooling",
            "机器人 機器人": "robot|robots|robotics",
            "自动化 自動化": "automation",
            "高速": "expressway|expressways|highway|hi speed|high speed",
            "公路": "highway|expressway|road",
            "黄金 黃金": "gold",
            "铜业 銅業": "copper",
            "铝业 鋁業": "aluminum|aluminium",
            "资讯 資訊": "information|info",
            "数据 數據": "data",
            "影业 影業": "pictures|films|film",
            "游戏 遊戲 게임 ゲーム": "games|game|gaming",
            "广告 廣告 광고": "advertising",
            "酒业 酒業": "liquor|wine|spirits",
            "牧业 牧業": "dairy|livestock",
            "渔业 漁業": "fisheries|fishery|fishing",
            "粮油 糧油": "grain and oil|cereals and oils|oils and grains",
            "包装 包裝 포장": "packaging",
            "印刷 인쇄": "printing",
            "家具 傢俬 가구": "furniture",
            "珠宝 珠寶": "jewellery|jewelry",
            "钟表 鐘錶": "watches|watch|clocks",
            "教育 교육": "education",
            "燃料": "fuel|fuels",
            "军工 軍工": "defense|defence|military",
            "航天": "aerospace|space",
            "快递 快遞 速运 速運": "express|courier|delivery",
            "广播 廣播": "broadcasting|radio",
            "新能源": "new energy",
        },
    ),
    **_terms(
        WORD,
        {
            # a group or a holding company is another entity than its company of the same name
            # (中国人寿保险(集团)公司 is not China Life Insurance Company Limited): never left out
            "集团 集團 グループ 그룹": "group",
            "에어 エア": "air",  # a loanword airlines' names write (진에어, Jin Air; 에어서울, Air Seoul)
            "控股 ホールディングス 홀딩스 지주": "holdings|holding",
            "中华 中華": "china|chinese|chunghwa|zhonghua",
            "东日本 東日本": "east japan|eastern japan|higashi nippon|higashi nihon",
            "西日本": "west japan|western japan|nishi nippon|nishi nihon",
            "大韩 大韓 대한": "korea|korean|daehan",
            "高丽 高麗 고려": "korea|korean|koryo|goryeo",  # 고려아연 Korea Zinc, 고려대학교 Korea University
            "台湾 台灣": "taiwan",
            "香港": "hong kong|hk",  # 中國太平保險(香港) / China Taiping Insurance (HK)
            "澳门 澳門": "macau|macao",
            "九龙 九龍": "kowloon",
            "新世界": "new world",
            "国际 國際 国際 국제": "international",
            "国家 國家": "national|state",  # 国家电网, State Grid
            "国民 國民 국민": "national|kookmin|kokumin",
            "人民": "peoples|people",
            "东方 東方": "eastern|orient|oriental",
            "远东 遠東": "far eastern|far east",
            "南方": "southern|south",
            "北方": "northern|north",
            "第一": "first|daiichi|dai ichi",
            "亚洲 亞洲 아시아 アジア": "asia|asian",
            "太阳 太陽": "sun|solar",
            "工商": "industrial and commercial",
            "农业 農業": "agricultural|agriculture",
            "农村 農村 农商 農商": "rural",  # 重庆农村商业银行, Chongqing Rural Commercial Bank
            "招商": "merchants",
            "开发 開發 发展 發展": "development",
            "北京": "beijing|peking",
            "上海": "shanghai",
            "广州 廣州": "guangzhou|canton",
            "重庆 重慶": "chongqing",
            # provinces whose characters' common reading is not the place's (藏 cang, not zang)
            "西藏": "tibet|tibetan|xizang",
            "内蒙古 內蒙古": "inner mongolia|nei mongol|neimenggu",
            "天津": "tianjin",
            "哈尔滨 哈爾濱": "harbin",  # read "haerbin"
            "青岛 青島": "qingdao|tsingtao",  # the postal spelling its brewery keeps
            "深圳": "shenzhen",
            "台北": "taipei",
            "高雄": "kaohsiung",
            "东京 東京": "tokyo",
            "大阪": "osaka",
            "京都": "kyoto",
            "名古屋": "nagoya",
            "横浜 横滨": "yokohama",
            "神戸": "kobe",
            "九州": "kyushu",
            "北海道": "hokkaido",
            "関西": "kansai",
            "中部": "chubu",
            "東北": "tohoku",
            "三菱": "mitsubishi",
            "三井": "mitsui",
            "住友": "sumitomo",
            # and Japan's groups whose names lead their companies' (東急ホテルズ, 阪急阪神百貨店,
            # 伊藤忠商事): the major private railways, the trading houses and the department stores,
            # in the spellings the groups use. Source: Wikipedia, "Private railways in Japan" (the
            # major private railways), "Sōgō shōsha" and "Keiretsu".
            "東急": "tokyu",
            "阪急": "hankyu",
            "阪神": "hanshin",
            "近鉄": "kintetsu",
            "東武": "tobu",
            "西武": "seibu",
            "小田急": "odakyu",
            "京王": "keio",
            "京急": "keikyu",
            "京阪": "keihan",
            "京成": "keisei",
            "名鉄": "meitetsu",
            "南海": "nankai",
            "相鉄": "sotetsu",
            "西鉄": "nishitetsu",
            "伊藤忠": "itochu",
            "丸紅": "marubeni",
            "双日": "sojitz",
            "野村": "nomura",
            "日立": "hitachi",
            "東芝": "toshiba",
            "安田": "yasuda",
            "古河": "furukawa",
            "高島屋 髙島屋": "takashimaya",
            "三越": "mitsukoshi",
            "伊勢丹": "isetan",
            "大丸": "daimaru",
            # Korea's large business groups, whose names lead their companies' (삼성전자, 한화생명), in
            # the spellings the groups use, which Revised Romanization does not give (한화 is
            # "hanhwa", the group "Hanwha"). Source: the Korea Fair Trade Commission's list of
            # large business groups, as Wikipedia's "Chaebol" gives it.
            "삼성": "samsung",
            "현대": "hyundai",
            "롯데": "lotte",
            "한화": "hanwha",
            "신세계": "shinsegae",
            "두산": "doosan",
            "금호": "kumho",
            "한진": "hanjin",
            "효성": "hyosung",
            "포스코": "posco",
            "대우": "daewoo",
            "기아": "kia",
            "농협": "nonghyup",
            "신한": "shinhan",
            # and the large groups of China, Hong Kong and Taiwan whose names lead their companies'
            # (中信证券 CITIC Securities, 华润置地 China Resources Land, 國泰人壽 Cathay Life), in the
            # English names the groups publish, which no reading gives. Source: each group's own
            # English name (its site, its listings), as Wikipedia's article on it gives it.
            "中信": "citic",
            "中远 中遠": "cosco",
            "华润 華潤": "china resources",
            "光大": "everbright",
            "招商局": "china merchants",
            "中石化 中國石化 中国石化": "sinopec",
            "中化": "sinochem",
            "中车 中車": "crrc",
            "保利": "poly",
            "太古": "swire",
            "怡和": "jardine",
            "和记 和記": "hutchison",
            "新鸿基 新鴻基": "sun hung kai",
            "恒基": "henderson",
            "九龙仓 九龍倉": "wharf",
            "紫光": "unigroup",
            "华晨 華晨": "brilliance",
            "上汽": "saic",
            "一汽": "faw",
            "国泰 國泰": "cathay",
            "新光": "shin kong",
            "玉山": "e sun|esun",
            "统一 統一": "uni president|president",
            "英皇": "emperor",
            "海信": "hisense",
            "太平洋": "pacific",
            "新世纪 新世紀": "new century",
            "大众 大眾": "volkswagen",  # 上汽大众, SAIC Volkswagen: the joint ventures' partner
        },
    ),
    # Thai words of company names (Wiktionary, and the English names the companies publish:
    # ธนาคารกรุงเทพ, Bangkok Bank; กรุงเทพประกันภัย, Bangkok Insurance; เมืองไทยประกันชีวิต, Muang Thai
    # Life Assurance); a Thai name's other words are heard by their consonants (glossary._run_meets)
    **_terms(
        TRADE,
        {
            "ธนาคาร": "bank",
            "ประกันภัย": "insurance",
            "ประกันชีวิต": "life assurance|life insurance|life",
            "ปูนซิเมนต์": "cement",
            "โรงพยาบาล": "hospital",
            "โรงแรม": "hotel|hotels",
            "พลังงาน": "energy",
            "ไฟฟ้า": "electricity|electric|power",
            "หลักทรัพย์": "securities",
            "สมาคม": "association",
            "ผู้ส่งออก": "exporters|exporter|export",
            "ข้าว": "rice",
            "โรงสี": "mills|mill|millers",
            "ยาง": "rubber",
        },
    ),
    **_terms(
        WORD,
        {
            "กรุงเทพ กรุงเทพฯ กรุงเทพมหานคร": "bangkok",
            "ไทย ประเทศไทย": "thai|thailand",
            "แห่งประเทศไทย": "of thailand",
            "สยาม": "siam",
            "อิสลาม": "islamic",
            "เครือ กลุ่ม": "group",
        },
    ),
    **_terms(WORD, CJK_COUNTRIES),  # 肯尼亚航空, Kenya Airways (cjk_countries.py)
}
