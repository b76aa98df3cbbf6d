"""The words of organisation names in the Brahmic scripts of South Asia (Devanagari for Hindi,
Marathi and Nepali; Bengali and Assamese; Gurmukhi; Gujarati; Oriya; Tamil; Telugu; Kannada;
Malayalam) and in Sinhala, with their English renderings: data only; heard_words.py translates names
by them and hears their other words by their consonants, as it does Arabic's (राष्ट्रीय डेयरी
विकास बोर्ड / National Dairy Development Board; भारतीय जीवन बीमा निगम / Life Insurance
Corporation of India; तेल एवं प्राकृतिक गैस निगम, whose initials ONGC are). Loanwords (बैंक, बोर्ड,
लिमिटेड) are heard, not listed. Sources: the Wiktionary entries for each word and the names the
organisations publish in both scripts.
"""

from __future__ import annotations

import re

from exa_orch.workflows.entities.terms import rendered

# The words a name says its kind of body, its nation and its trade by, in each script; "" the word
# "company", which English may leave out, and "and", which a cleaned Latin name does.
INDIC: dict[str, tuple[str, ...]] = rendered(
    {
        "कंपनी कम्पनी কোম্পানি நிறுவனம் కంపెనీ ಕಂಪನಿ കമ്പനി કંપની ਕੰਪਨੀ କମ୍ପାନୀ සමාගම": "",
        "एवं और तथा व এবং ও மற்றும் మరియు ಮತ್ತು અને ਅਤੇ ଏବଂ හා සහ": "and",
        "राष्ट्रीय জাতীয় தேசிய జాతీయ ರಾಷ್ಟ್ರೀಯ ദേശീയ રાષ્ટ્રીય ਰਾਸ਼ਟਰੀ ଜାତୀୟ ජාතික": "national",
        "भारत भारतीय ভারত ভারতীয় இந்திய இந்தியா భారత భారతీయ ಭಾರತ ಭಾರತೀಯ ഇന്ത്യ ഇന്ത്യൻ ભારત ભારતીય "
        "ਭਾਰਤ ਭਾਰਤੀ ଭାରତ ଭାରତୀୟ": "india|indian|bharat|bharatiya",
        "निगम নিগম ନିଗମ ನಿಗಮ ਨਿਗਮ નિગમ கழகம் సంస్థ සංස්ථාව": "",  # corporation: a C in initials
        "विकास বিকাশ উন্নয়ন வளர்ச்சி மேம்பாட்டு అభివృద్ధి ಅಭಿವೃದ್ಧಿ വികസന વિકાસ ਵਿਕਾਸ ବିକାଶ සංවර්ධන": "development",
        "मंडल मण्डल পর্ষদ வாரியம் ಮಂಡಳಿ મંડળ ମଣ୍ଡଳ මණ්ඩලය": "board",
        "प्राधिकरण কর্তৃপক্ষ ஆணையம் ಪ್ರಾಧಿಕಾರ ପ୍ରାଧିକରଣ අධිකාරිය": "authority",
        "विद्युत বিদ্যুৎ மின்சார மின் విద్యుత్ ವಿದ್ಯುತ್ വൈദ്യുതി વીજળી ਬਿਜਲੀ ବିଦ୍ୟୁତ විදුලිබල": "electricity|power",
        "ऊर्जा শক্তি ஆற்றல் శక్తి ಶಕ್ತಿ ഊർജ ઊર્જા ਊਰਜਾ ଶକ୍ତି බලශක්ති": "energy|power",
        "तेल তেল எண்ணெய் చమురు ತೈಲ എണ്ണ તેલ ਤੇਲ ତୈଳ තෙල්": "oil",
        "प्राकृतिक প্রাকৃতিক இயற்கை సహజ ನೈಸರ್ಗಿಕ പ്രകൃതി પ્રાકૃતિક ਕੁਦਰਤੀ ପ୍ରାକୃତିକ ස්වාභාවික": "natural",
        "गैस গ্যাস எரிவாயு గ్యాస్ ಅನಿಲ വാതക ગેસ ਗੈਸ ଗ୍ୟାସ ගෑස්": "gas",
        "राज्य রাজ্য மாநில రాష్ట్ర ರಾಜ್ಯ സംസ്ഥാന રાજ્ય ਰਾਜ ରାଜ୍ୟ": "state",
        "केंद्रीय केन्द्रीय কেন্দ্রীয় மத்திய కేంద్ర ಕೇಂದ್ರ കേന്ദ്ര કેન્દ્રીય ਕੇਂਦਰੀ କେନ୍ଦ୍ରୀୟ": "central",
        "चाय चिया চা চাহ தேயிலை తేయాకు ಚಹಾ തേയില ચા ਚਾਹ ଚା තේ": "tea",
        "इस्पात ইস্পাত எஃகு ఉక్కు ಉಕ್ಕು ഉരുക്ക് પોલાદ ଇସ୍ପାତ වානේ": "steel",
        "खनन खनिज খনি খনিজ சுரங்க கனிம ఖనిజ గనుల ಗಣಿ ಖನಿಜ ഖനന ખનન ਖਣਨ ଖଣି පතල්": "mining|mineral|minerals|mines",
        "बीमा বীমা காப்பீட்டு காப்பீடு బీమా ವಿಮಾ ವಿಮೆ ഇൻഷുറൻസ് વીમા ਬੀਮਾ ବୀମା රක්ෂණ": "insurance",
        "जीवन জীবন ஆயுள் జీవిత ಜೀವ ജീവൻ જીવન ਜੀਵਨ ଜୀବନ ජීවිත": "life",
        "सहकारी সমবায় கூட்டுறவு సహకార ಸಹಕಾರಿ സഹകരണ સહકારી ਸਹਿਕਾਰੀ ସମବାୟ සමුපකාර": "cooperative|co operative",
        "दुग्ध दूध দুগ্ধ দুধ பால் పాల ಹಾಲು പാൽ દૂધ ਦੁੱਧ ଦୁଗ୍ଧ කිරි": "milk|dairy",
        "उत्पादक উৎপাদক உற்பத்தியாளர் ఉత్పత్తిదారుల ಉತ್ಪಾದಕರ ഉൽപാദക ઉત્પાદક ਉਤਪਾਦਕ ଉତ୍ପାଦକ": "producers|producer",
        "संघ সংঘ சங்கம் ஒன்றியம் సంఘం ಒಕ್ಕೂಟ ಸಂಘ સંઘ ਸੰਘ ସଂଘ": "union|federation|association",
        "जिला जिल्हा জেলা மாவட்ட జిల్లా ಜಿಲ್ಲಾ ജില്ലാ જિલ્લા ਜ਼ਿਲ੍ਹਾ ଜିଲ୍ଲା": "district",
        "उद्योग শিল্প தொழில் పరిశ్రమ ಉದ್ಯಮ ಕೈಗಾರಿಕೆ വ്യവസായ ઉદ્યોગ ਉਦਯੋਗ ଶିଳ୍ପ": "industries|industry|industrial",
        "उर्वरक সার உரங்கள் ఎరువుల ರಸಗೊಬ್ಬರ വളം ખાતર ਖਾਦ ସାର": "fertilizer|fertilizers|fertiliser",
        "रेशम রেশম பட்டு పట్టు ರೇಷ್ಮೆ പട്ട് રેશમ ਰੇਸ਼ਮ ରେଶମ": "silk",
        "वायुसेवा": "airlines|air service|airways",
        "पर्यटन পর্যটন சுற்றுலா పర్యాటక ಪ್ರವಾಸೋದ್ಯಮ വിനോദസഞ്ചാര પ્રવાસન ਸੈਰ-ਸਪਾਟਾ ପର୍ଯ୍ୟଟନ සංචාරක": "tourism",
        "खानपान": "catering",
        "रेलवे রেলওয়ে ரயில்வே రైల్వే ರೈಲ್ವೆ റെയിൽവേ રેલવે ਰੇਲਵੇ ରେଳବାଇ දුම්රිය": "railway|railways",
        "बंदरगाह বন্দর துறைமுக ఓడరేవు ಬಂದರು തുറമുഖ બંદર ਬੰਦਰਗਾਹ ବନ୍ଦର වරාය": "port|ports",
        "बैंक ব্যাংক வங்கி బ్యాంకు ಬ್ಯಾಂಕ್ ബാങ്ക് બેંક ਬੈਂਕ ବ୍ୟାଙ୍କ බැංකුව": "bank",
        "मिल मिल्स মিল மில் మిల్ ಮಿಲ್ മിൽ મિલ ਮਿੱਲ ମିଲ": "mills|mill",
        "पाटकल পাটকল": "jute mills|jute mill",
        "वृक्षारोपण বাগান தோட்ட తోట ತೋಟ തോട്ടം વાવેતર ਬਾਗ ବଗିଚା වැවිලි": "plantations|plantation|estate|garden",
        "जनता जन জনতা மக்கள் ప్రజా ಜನತಾ ജനത જનતા ਜਨਤਾ ଜନତା මහජන": "people's|peoples|public",
        "लंका লঙ্কা இலங்கை లంక ಲಂಕಾ ലങ്ക ලංකා": "lanka|ceylon",
    }
)
# The letters of the scripts `INDIC` holds words of (the Brahmic block, and Sinhala)
INDIC_LETTERS = re.compile(r"[\u0900-\u0d7f\u0d80-\u0dff]")
