#!/usr/bin/env python3
"""Build sources/namedays.csv from the three reference name-day lists.

Usage (from the repo root):
    python3 sources/tools/build_namedays.py REFERENCE_DIR [OUTPUT]
REFERENCE_DIR holds the aligned copies of the three lists (alignment_by_day.csv and
lt_namedays_mod_namedays.csv; they are not part of the repository, see docs/data.md);
OUTPUT defaults to sources/namedays.csv.

Policy: a name goes on a day when at least two of the lists MK, MN, AB carry it
on that day (alignment rows that are not only_*). The spelling is MK's, else
MN's; AB (ASCII only) never supplies a spelling. Every `variant` row is decided
in VARIANTS below; other deliberate changes are in FIXES.
"""
import csv
import statistics
import sys
import unicodedata
from collections import defaultdict

if len(sys.argv) < 2:
    sys.exit(__doc__)
REF = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else "sources/namedays.csv"
CODES = ("MK", "MN", "AB")
COLS = ("metai_kalendorius", "mod_namedays", "abalin")
ONLY = {"only_perl": "MK", "only_php": "MN", "only_abalin": "AB"}

# Spellings that SOURCES.md lists as typos (the note then says "typo", else "spells").
TYPOS = set("""Aušhnė Andhus Felidta Amoldas Binifacas Liudlė Cuntilda Hetga Tovaldas
Napaleonas Akvilma Atgaudė Gatigintas Kentautė Rimagailė Sitvija Vatys Vitbutas Gaitė
Dargvitė Vaidvitė Tauvaldė Almanė Mantmailė Saugirdas Nelis Lieoa Saile Heiga Moderdas
Benjeminas Kornelia Marvydas Arenas Arene Retenis""".split())

# Variant rows, keyed by (month, day, MK cell or else MN cell).
# Value: (name to use, lists that carry that name, comment) or None to drop the row.
# Rows not listed keep the MK spelling with all three lists (a typo in one list).
VARIANTS = {
    (3, 8): {"Vydminas": ("Vydminas", "MK MN", "Vydminas (MK MN) kept; AB Vydmantas is another name, AB only that day")},
    (3, 9): {"Žygintas": ("Žygintas", "MK MN", "Žygintas (MK MN) kept; AB Zygimantas (Žygimantas) is another name, AB only that day")},
    (3, 23): {"Galgintas": ("Galigintas", "MK MN AB", "MK Galgintas, MN Gatigintas, AB Galigantas are each one letter from Galigintas (VLKK register form); Galigintas used")},
    (4, 6): {"Gerardas": ("Genardas", "MN AB", "Genardas (MN AB, in the VLKK register) kept; MK Gerardas is another name, MK only that day (Gerardas has 5-24, 9-24, 11-24)")},
    (4, 8): {"Dionizas": ("Dionyzas", "MK MN AB", "MN AB spell Dionyzas, as MK itself does on 10-9; Dionyzas used")},
    (5, 7): {"Rimutė": ("Rimtė", "MN AB", "Rimtė (MN AB) kept; MK Rimutė is another name (both in the VLKK register), MK only that day")},
    (5, 14): {"Vilda": (None, "", "MK Vilda / MN Milda are two names, each in one list only: both dropped (Vilda has 1-17, Milda 5-13)")},
    (6, 24): {"Eivilitė": ("Eiviltė", "MK MN AB", "MN AB Eiviltė, the pair of Eiviltas (all three lists); MK Eivilitė read as a misspelling of it")},
    (8, 2): {"Tautvilas": ("Tautvilas", "MK MN", "Tautvilas (MK MN) kept; AB Tautvaldas is another name, AB only that day")},
    (8, 14): {"Grintautas": ("Grintautas", "MK AB", "Grintautas (MK AB, in the VLKK register) kept; MN Gintautas is another name, MN only that day (Gintautas has 5-31)")},
    (8, 25): {"Liucilė": ("Liucilė", "MK MN", "Liucilė (MK MN) kept; AB Liucija is another name, AB only that day")},
    (9, 10): {"Girmintė": ("Girmintė", "MK AB", "Girmintė (MK AB) kept; MN Girmantė is another name, MN only that day")},
    (9, 28): {"Saliamonas": ("Saliamonas", "MK MN AB", "MN AB Salemonas is not an accepted form in the VLKK register; standard Saliamonas (as on 2-8) used")},
    (9, 30): {"Bytautė": ("Bytautė", "MK AB", "Bytautė (MK AB) kept; MN Gytautė is another name, MN only that day (Gytautė has 9-11)")},
    (10, 15): {"Galimintas": ("Gailiminas", "MK MN AB", "MN AB Gailiminas, MK Galimintas (neither in the VLKK register): the spelling two lists share is used")},
    (10, 20): {"Deimina": ("Geimina", "MN AB", "Geimina (MN AB, in the VLKK register) kept; MK Deimina is another name, MK only that day")},
    (11, 2): {"Valentas": ("Valentinas", "MN AB", "Valentinas (MN AB) kept; MK Valentas is another name, MK only that day (Valentas has 5-21)")},
    (11, 22): {"Steigintas": ("Steikintas", "MK MN AB", "MN AB Steikintas is the VLKK register form; MK Steigintas read as a misspelling of it")},
    (12, 22): {"Dovilė": ("Dobilė", "MN AB", "Dobilė (MN AB) kept; MK Dovilė is another name, MK only that day (Dovilė has 6-3)")},
    (12, 31): {"Gedgantas": ("Gedgantas", "MK AB", "Gedgantas (MK AB) kept; MN Gedgaudas is another name, MN only that day (Gedgaudas has 1-18, 3-22)")},
}

# Other deliberate changes to non-variant rows: (month, day, name) -> (name, extra list, its spelling, comment).
FIXES = {
    (2, 27, "Fortunatas"): ("Fortūnatas", None, None, "MN Fortūnatas (with ū) is the correct spelling of MK Fortunatas"),
    (7, 25, "Aušrinė"): ("Aušrinė", "MN", "Aušhnė", "MN typo Aušhnė merged into Aušrinė (MK AB)"),
    (10, 31, "Liucilė"): ("Liucilė", "MN", "Liudlė", "MN typo Liudlė merged into Liucilė (MK AB)"),
    (5, 21, "Vaidevutis"): ("Vaidevutis", "AB", "Vaidivutis",
                            "Vaidevutis (MK MN) and Vaidivutis (MK AB) are two spellings of one name "
                            "(the legendary Prussian ruler); only Vaidevutis is in the VLKK given-name "
                            "register (data.gov.lt dataset 2664), so it is kept and AB's Vaidivutis is "
                            "merged into it"),
}
MERGED_SINGLES = {(7, 25, "Aušhnė"), (10, 31, "Liudlė")}
# Rows carried by two lists that are merged into another row of the same day by FIXES.
MERGED_ROWS = {(5, 21, "Vaidivutis")}

# Gender: ending rule of GENDER.md plus exceptions.
GENDER_EXCEPTIONS = {
    "Jogaila": "m", "Skirgaila": "m", "Švitrigaila": "m",  # grand dukes, male in -a
    "Neris": "f",  # river name; female in the VLKK register (like Naktis), despite -is
}


def fold(s):
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).lower()


def gender(name):
    if name in GENDER_EXCEPTIONS:
        return GENDER_EXCEPTIONS[name]
    f = fold(name)
    if f.endswith(("as", "is", "ys", "us")):
        return "m"
    if f.endswith(("a", "e")):
        return "f"
    raise SystemExit(f"no gender for {name}")


def note(name, codes, cells):
    """'MN typo Binifacas' for every carrying list whose spelling differs."""
    by_spelling = defaultdict(list)
    for code, cell in zip(CODES, cells):
        differs = fold(cell) != fold(name) if code == "AB" else cell != name
        if code in codes and cell and differs:
            by_spelling[cell].append(code)
    parts = []
    for spelling, who in by_spelling.items():
        verb = "typo" if spelling in TYPOS else ("spell" if len(who) > 1 else "spells")
        parts.append(f"{' '.join(who)} {verb} {spelling}")
    return " ".join(parts)


def main():
    rows = list(csv.DictReader(open(f"{REF}/alignment_by_day.csv", encoding="utf-8")))
    mn_order = defaultdict(dict)
    for i, r in enumerate(csv.DictReader(open(f"{REF}/lt_namedays_mod_namedays.csv", encoding="utf-8"))):
        mn_order[(int(r["month"]), int(r["day"]))][r["name"]] = i
    days = defaultdict(list)      # (m, d) -> [(sort key, name, gender, source)]
    comments = defaultdict(list)  # (m, d) -> [comment]
    excluded = {"MK": 0, "MN": 0, "AB": 0}
    variant_seen, dropped = set(), set()
    for pos, r in enumerate(rows):
        m, d = int(r["month"]), int(r["day"])
        cells = [r[c] for c in COLS]
        first = cells[0] or cells[1]
        if r["match"].startswith("only_"):
            if (m, d, first or cells[2]) not in MERGED_SINGLES:
                excluded[ONLY[r["match"]]] += 1
            continue
        if (m, d, first) in MERGED_ROWS:
            continue
        name, codes = first, [c for c, cell in zip(CODES, cells) if cell]
        if "variant" in r["match"] and first in VARIANTS.get((m, d), {}):
            variant_seen.add((m, d))
            name, code_str, why = VARIANTS[(m, d)][first]
            comments[(m, d)].append(why)
            codes = code_str.split()
            if len(codes) < 3:
                dropped.add((m, d))
            if name is None:
                continue
        fix = FIXES.get((m, d, first))
        if fix:
            name, extra, spelling, why = fix
            comments[(m, d)].append(why)
            if extra:
                codes.append(extra)
                cells[CODES.index(extra)] = spelling
        codes = [c for c in CODES if c in codes]
        source = " ".join(codes)
        extra_note = note(name, codes, cells)
        if extra_note:
            source += "; " + extra_note
        # MN order first (incl. MN typo spellings), then MK order for names MN lacks.
        mn_cell = cells[1] if "MN" in codes else None
        key = (0, mn_order[(m, d)][mn_cell]) if mn_cell else (1, pos)
        days[(m, d)].append((key, name, gender(name), source))
    assert variant_seen == set(VARIANTS), set(VARIANTS) - variant_seen

    counts = [len(days[k]) for k in sorted(days)]
    total = sum(counts)
    assert len(days) == 366
    stats = f"{min(counts)}/{statistics.median(counts):g}/{max(counts)}"
    header = f"""\
# Lithuanian name days (vardadieniai). Generated by sources/tools/build_namedays.py from a
# day-by-day alignment of the three lists below (see docs/data.md, "Name days").
# Edit the script and rerun it rather than editing this file by hand.
# Lists: MK = Metai::Kalendorius 0.07 (CPAN; long day.lt-style list; licence unclear: "Copyleft",
#   META license unknown). MN = Joomla mod_namedays 1.0.6 names_lt_LT.php (GPL-2.0).
#   AB = abalin nameday-api json/namedays.json "lt" (MIT; ASCII only; no Jan 1 / Feb 29).
#   Because of MK's licence every row below is also carried by MN or AB; MK serves as a
#   cross-check and supplies the diacritic spelling where MN lacks the name.
# Policy: a name is listed on a day only when at least two lists carry it on that day
#   (alignment rows all3 / two:*, variant pairs reviewed one by one in the day comments).
#   Names found in one list only are excluded, with no exceptions: {excluded['MK']} MK-only,
#   {excluded['MN']} MN-only and {excluded['AB']} AB-only rows (the MN typos Aušhnė and Liudlė are
#   merged into Aušrinė 7-25 and Liucilė 10-31 instead; Vaidivutis, MK AB, a second spelling
#   of Vaidevutis, MK MN, on 5-21, is merged into the register form Vaidevutis). In
#   {len(dropped)} `variant` rows the two spellings are really different names; the one that
#   only one list has is left out (both on 5-14). Every day keeps at least {min(counts)} names.
# Spelling: MK, else MN, with diacritics; AB spellings are never used. Typos fixed as listed.
# Included: {total} rows on 366 days; names per day min/median/max = {stats}.
# gender: -as/-is/-ys/-us = m, -a/-ė = f; exceptions: Jogaila, Skirgaila, Švitrigaila = m;
#   Neris = f (river name, female in the VLKK register, like Naktis); Svalia = f by its ending
#   (not in the VLKK register, unverified).
# source: the lists carrying the name that day (order MK MN AB); after ';' how another
#   carrying list spells it.
"""
    with open(OUT, "w", encoding="utf-8", newline="") as out:
        out.write(header)
        out.write("month,day,name,gender,source\n")
        w = csv.writer(out, lineterminator="\n")
        for (m, d) in sorted(days):
            for c in comments[(m, d)]:
                out.write(f"# {m}-{d}: {c}\n")
            for _, name, g, source in sorted(days[(m, d)]):
                w.writerow([m, d, name, g, source])
    print(f"{OUT}: {total} rows, names/day min/median/max {stats}; excluded {excluded}")


if __name__ == "__main__":
    main()
