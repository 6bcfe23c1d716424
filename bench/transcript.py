#!/usr/bin/env python3
"""A behaviour transcript of one build of kalendorius, to diff against another build's.

    bench/transcript.py --server BIN --generator BIN --sources DIR --out FILE
                        [--bodies DIR] [--max-body BYTES]

It builds a dataset from DIR with the generator (into a temporary directory), starts the
server on a free loopback port with a fresh state directory and every limit lifted, issues
keys with the key tool, then asks a fixed list of requests and writes, for each, the
request (method, target, the headers given) and the answer (status, every header but
`date`, sorted by name, and the body: JSON pretty-printed and text in full when small,
else its length and SHA-256). What it covers:

- the key tool: every command (create, list, show, set-limits, revoke, restore, delete,
  export, import) with the server running and stopped, and the refusals (bad ids, limits,
  expiries, a state directory that does not exist);
- every operation of `/api/v1/openapi.json` (its paths, iterated): a valid request, each
  parameter's bad values, a missing required one, a repeated one, `today` where dates are
  taken, the defaults written out, the documented combinations; keyed ones without a key,
  with a bad, a revoked, a Bearer and a query key; `If-None-Match` with the `ETag` got;
  `Accept-Encoding: gzip` and `br` (twice: the first compression is fast and weakly
  tagged, the second kept); HEAD; a CORS preflight;
- every kind of page, with the query variants of the page forms, 404 pages and languages,
  the style sheet and the icon; `/docs`; `/data/`; the probes and `/metrics` (status and
  content type only); unknown paths, methods and hosts;
- the rate limits: `RateLimit-*` headers, a 429 from each window (minute, day, month, the
  longest named when several are used up) on a second server with tiny limits, and the
  counters of every public counter and of a key kept across a restart.

Every section, and within an operation's section each parameter's requests, sends from a
loopback address of its own (127.x.y.z, derived from its name) and, when keyed, with a key of
its own, so that `RateLimit-Remaining` depends only on the requests before it in that group:
a build that adds an endpoint or a parameter (or lists them in another order: they are asked
in a fixed order) changes its own group only. The checks of #31 are there too: compressed
bodies decoded and compared with the plain one, another query's tag never a 304, two key
lines, leading zeros, links of error pages, `/metrics` behind proxy headers.

What varies between two runs of the same binary is masked: the port, the temporary
directory, the keys, key ids and hashes (numbered in order of appearance), the times of
today (key creation), timing figures of the generator, and `RateLimit-Reset`/`Retry-After`
(written as the range they fall in: up to a minute, a day, or longer). Two runs of the same
build on the same day (Europe/Vilnius: answers that use `today` change at its midnight)
give identical transcripts.

Python 3 standard library only. Brotli bodies cannot be decoded without a third-party
module: their length and SHA-256 are recorded as sent (the server compresses
deterministically), and decoded as well when the `brotli` module happens to be installed.
"""

import argparse
import gzip
import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from datetime import datetime, timedelta, timezone

try:  # optional, never required
    import brotli  # type: ignore
except ImportError:  # pragma: no cover
    brotli = None

# The binaries run without the caller's KALENDORIUS_* settings (the config file says all).
ENV = {k: v for k, v in os.environ.items() if not k.startswith("KALENDORIUS_")}
ENV.update({"LC_ALL": "C.UTF-8", "NO_COLOR": "1"})

NO_LIMIT = 1000000000  # limits::MAX_LIMIT: nothing is ever refused
PUBLIC_COUNTERS = ["laisvadienis", "days", "pages", "feeds", "data"]

# A valid value for each parameter name (the OpenAPI document gives few examples), chosen so
# that the answer says something (a holiday, a long weekend, a shift over a holiday); a
# parameter named here by path and name wins over the name alone. A parameter named in
# neither takes its OpenAPI example, then its default, then its enum's first value, then its
# minimum.
GOOD = {
    "date": "2026-12-24",
    "from": "2026-01-01",
    "to": "2026-12-31",
    "year": "2026",
    "lang": "en",
    "week": "6",
    "scope": "all",
    "shortened": "true",
    "from_year": "2025",
    "to_year": "2027",
    "grade": "5",
    "count": "4",
    "max_leave_days": "4",
    "days": "10",
    "name": "jon",
    "place": "zarasai",
    "hours_per_week": "36",
    "norm": "reduced",
    "schedule": "8:00,8:00,8:00,8:00,4:00",
    "start": "2026-12-24T20:00",
    "end": "2026-12-25T08:00",
}
GOOD_AT = {
    ("/api/v1/leave", "start"): "2026-12-21",
    ("/api/v1/holidays/upcoming", "from"): "2026-11-24",
    ("/api/v1/working-days/add", "date"): "2026-12-20",
    ("/api/v1/sun", "from"): "2026-12-01",
    ("/api/v1/sun", "to"): "2026-12-31",
}

# The valid request of an operation with no required parameter but needing one of several.
BASE_AT = {
    "/api/v1/holidays": [("year", "2026")],
    "/api/v1/school-holidays": [("year", "2026")],
    "/api/v1/sun": [("date", "2026-12-24")],
}

# Bad values by parameter name (with the schema's bounds added, see bad_values).
BAD = {
    "date": ["2023-02-29", "2026-13-01", "1582-12-31", "2101-01-01", "26-12-24", "2026-12-24x", "x", ""],
    "year": ["x", "+2024", "02024", "1582", "2101", ""],
    "lang": ["de", "EN", "lt-LT", ""],
    "week": ["4", "7", "x", "05", ""],
    "place": ["atlantis", "ZARASAI", ""],
    "hours_per_week": ["0", "41", "36.125", "x", "40", "-1", ""],
    "norm": ["bogus", "FULL", "full", "part_time", ""],
    "schedule": [
        "8:00,8:00",
        "25:00,8:00,8:00,8:00,8:00",
        "9:00,9:00,9:00,9:00,9:00",
        "0:00,0:00,0:00,0:00,0:00",
        "8:00,8:00,8:00,8:00,8:00,8:00",
        "8,8,8,8,8",
        "",
    ],
    "start": [
        "2026-03-29T03:30",
        "2026-10-25T03:30",
        "2026-10-25T03:30+02:00",
        "2026-10-25T03:30+03:00",
        "2026-12-24 20:00",
        "2026-12-24T20:00:00",
        "1919-12-31T20:00",
        "x",
        "",
    ],
    "name": ["a" * 65, "", "%"],
    "scope": ["bogus", "RED", ""],
    "shortened": ["yes", "TRUE", ""],
}
DATE_BAD = BAD["date"]

# Requests of a path beyond the generated ones: the documented combinations and errors.
EXTRA = {
    "/api/v1/days": [
        [("from", "2026-12-31"), ("to", "2026-01-01")],
        [("from", "2026-01-01"), ("to", "2027-01-02")],
        [("from", "2026-01-01"), ("to", "2027-01-01")],
        [("from", "2100-12-01"), ("to", "2100-12-31")],
        [("from", "1583-01-01"), ("to", "1583-01-05")],
        [("from", "2026-12-24"), ("to", "2026-12-24")],
        [("from", "x"), ("to", "")],
    ],
    "/api/v1/laisvadienis": [
        [("date", "2026-12-24"), ("lang", "en")],
        [("date", "2026-12-26")],
        [("date", "2026-12-31")],
        [("date", "2027-01-01")],
        [("date", "2026-03-11")],
        [("date", "2026-12-24"), ("api_key", "ltk_" + "0" * 64)],
    ],
    "/api/v1/holidays": [
        [("date", "2026-12-24")],
        [("date", "2026-12-24"), ("year", "2026")],
        [("year", "1583")],
        [("year", "2100"), ("lang", "ru")],
        [("year", "2026"), ("lang", "pl")],
    ],
    "/api/v1/school-holidays": [
        [("date", "2026-12-24")],
        [("date", "2026-12-24"), ("year", "2026")],
        [("year", "2026"), ("grade", "0")],
        [("year", "2026"), ("grade", "12")],
        [("year", "2026"), ("grade", "13")],
    ],
    "/api/v1/working-time": [
        [("year", "2026"), ("hours_per_week", "36")],
        [("year", "2026"), ("hours_per_week", "36"), ("norm", "part_time")],
        [("year", "2026"), ("hours_per_week", "38.25"), ("norm", "reduced")],
        [("year", "2026"), ("hours_per_week", "40"), ("norm", "reduced")],
        [("year", "2026"), ("hours_per_week", "40"), ("norm", "full")],
        [("year", "2026"), ("hours_per_week", "36"), ("norm", "full")],
        [("year", "2026"), ("hours_per_week", "36"), ("schedule", "8:00,8:00,8:00,8:00,4:00")],
        [("year", "2026"), ("schedule", "8:00,8:00,8:00,8:00,4:00"), ("week", "6")],
        [("year", "2026"), ("schedule", "6:00,6:00,6:00,6:00,6:00,6:00"), ("week", "6")],
        [("year", "2026"), ("schedule", "8:15,8:15,8:15,8:15,7:00")],
        [("year", "2026"), ("schedule", "6:00,6:00,6:00,6:00,6:00,6:00")],
        [("year", "2026"), ("week", "5")],
    ],
    "/api/v1/working-days": [
        [("from", "2026-12-31"), ("to", "2026-01-01")],
        [("from", "2026-01-01"), ("to", "2026-12-31"), ("hours_per_week", "36")],
        [("from", "2026-01-01"), ("to", "2026-12-31"), ("hours_per_week", "36"), ("norm", "part_time")],
        [("from", "2026-01-01"), ("to", "2026-12-31"), ("schedule", "8:15,8:15,8:15,8:15,7:00")],
        [("from", "1583-01-01"), ("to", "2100-12-31")],
    ],
    "/api/v1/working-days/add": [
        [("date", "2026-12-20"), ("days", "-10")],
        [("date", "2026-12-20"), ("days", "0")],
        [("date", "2100-12-20"), ("days", "100")],
        [("date", "1583-01-05"), ("days", "-100")],
        [("date", "2026-12-20"), ("days", "100000")],
        [("date", "2026-12-20"), ("days", "-100001")],
        [("date", "2026-12-20"), ("days", "1.5")],
    ],
    "/api/v1/leave": [
        [("start", "2026-12-21"), ("days", "0")],
        [("start", "2026-12-21"), ("days", "366")],
        [("start", "2026-12-21"), ("days", "367")],
        [("start", "2100-12-01"), ("days", "60")],
        [("start", "2026-12-21"), ("days", "10"), ("week", "6"), ("lang", "ru")],
    ],
    "/api/v1/shift-hours": [
        [("start", "2026-12-25T08:00"), ("end", "2026-12-24T20:00")],
        [("start", "2026-12-24T20:00"), ("end", "2026-12-24T20:00")],
        [("start", "2026-12-24T00:00"), ("end", "2026-12-27T00:00")],
        [("start", "2026-12-24T00:00"), ("end", "2026-12-27T00:01")],
        [("start", "2026-03-28T22:00"), ("end", "2026-03-29T06:00")],
        [("start", "2026-10-24T22:00"), ("end", "2026-10-25T06:00")],
        [("start", "2026-10-25T03:30+03:00"), ("end", "2026-10-25T03:30+02:00")],
        [("start", "2026-12-24T20:00+02:00"), ("end", "2026-12-25T06:00Z")],
        [("start", "2026-12-31T22:00"), ("end", "2027-01-01T06:00"), ("week", "6"), ("lang", "pl")],
    ],
    "/api/v1/holidays/upcoming": [
        [],
        [("from", "2026-12-31"), ("count", "50"), ("scope", "all")],
        [("from", "2100-12-20"), ("count", "10")],
    ],
    "/api/v1/long-weekends": [
        [("year", "2026"), ("max_leave_days", "0")],
        [("year", "2026"), ("max_leave_days", "10")],
        [("year", "2100")],
    ],
    "/api/v1/name-days/search": [
        [("name", "Jonas")],
        [("name", "JONAS")],
        [("name", "ona")],
        [("name", "žyg")],
        [("name", "zzzzzz")],
        [("name", "a" * 64)],
    ],
    "/api/v1/name-days": [
        [("date", "2026-06-24"), ("lang", "en")],
    ],
    "/api/v1/day": [
        [("date", "2026-12-24"), ("lang", "ru")],
        [("date", "2026-06-24"), ("lang", "pl")],
        [("date", "2026-02-16")],
    ],
    "/api/v1/sun": [
        [("date", "2026-06-21"), ("place", "klaipeda")],
        [("from", "2026-01-01"), ("to", "2026-12-31")],
        [("from", "2026-01-01"), ("to", "2027-01-02")],
        [("from", "2026-12-31"), ("to", "2026-12-01")],
        [("date", "2026-12-24"), ("from", "2026-12-01")],
        [("from", "2026-12-01")],
        [("date", "1919-12-31")],
        [("date", "2026-12-24"), ("place", "vilniaus-rajonas")],
    ],
    "/api/v1/moon": [
        [("year", "1919")],
        [("year", "1920")],
        [("year", "2026"), ("lang", "ru")],
    ],
    "/api/v1/feeds/holidays.ics": [
        [],
        [("from_year", "2027"), ("to_year", "2025")],
        [("from_year", "2000"), ("to_year", "2030")],
        [("from_year", "2000"), ("to_year", "2031")],
        [("from_year", "2026")],
        [("to_year", "2026")],
        [("lang", "en"), ("scope", "all"), ("shortened", "true"), ("from_year", "2026"), ("to_year", "2026")],
        [("from_year", "+2026")],
    ],
    "/api/v1/feeds/name-days.ics": [[], [("lang", "pl")]],
    "/api/v1/feeds/school-holidays.ics": [[], [("grade", "0")], [("grade", "12"), ("lang", "en")]],
    "/api/v1/feeds/moon.ics": [[], [("lang", "ru")]],
}

PAGES = [
    "/",
    "/?lang=en",
    "/?lang=ru",
    "/?lang=pl",
    "/?lang=de",
    "/?lang=EN",
    "/2026",
    "/2026?lang=en",
    "/2026?lang=ru",
    "/2026?lang=pl",
    "/2026?lang=xx",
    "/2026/12",
    "/2026/12?lang=en",
    "/2026/12/24",
    "/2026/12/24?lang=ru",
    "/2026/12/24?lang=pl",
    "/2026/ilgieji-savaitgaliai",
    "/2026/ilgieji-savaitgaliai?lang=en",
    "/1583",
    "/2100/12/31",
    "/vardai",
    "/vardai?q=jon",
    "/vardai?q=Jonas&lang=en",
    "/vardai?q=%C5%BEyg",
    "/vardai?q=",
    "/vardai?q=zzzzzz",
    "/vardai?q=" + "a" * 65,
    "/vardai?q=jon&q=ona",
    # the contract form of the year page
    "/2026?hours_per_week=36&norm=reduced",
    "/2026?hours_per_week=36&norm=part_time&lang=en",
    "/2026?hours_per_week=36",
    "/2026?hours_per_week=38.25&norm=reduced",
    "/2026?hours_per_week=40&norm=full",
    "/2026?hours_per_week=40&norm=reduced",
    "/2026?hours_per_week=abc&norm=full",
    "/2026?hours_per_week=0&norm=reduced",
    "/2026?hours_per_week=36&norm=bogus",
    "/2026?hours_per_week=&norm=",
    "/2026/12?hours_per_week=36&norm=reduced",
    # the grade form (month, day and year pages)
    "/2026?grade=5",
    "/2026/12?grade=5",
    "/2026/12?grade=0&lang=en",
    "/2026/12?grade=12",
    "/2026/12?grade=13",
    "/2026/12?grade=x",
    "/2026/12/24?grade=5",
    "/2026/10/30?grade=5",
    # the place form (day page)
    "/2026/12/24?place=zarasai",
    "/2026/12/24?place=ZARASAI",
    "/2026/12/24?place=atlantis",
    "/2026/12/24?place=",
    "/2026/12/24?place=klaipeda&grade=5&lang=en",
    "/2026/12/24?lang=en&grade=5&place=zarasai&hours_per_week=36&norm=reduced",
    # 404 pages
    "/abc",
    "/abc?lang=en",
    "/2026/13",
    "/2026/02/30",
    "/2026/12/24/",
    "/2026/",
    "/1582",
    "/2101",
    "/02026",
    "/2026/1",
    "/2026/12/24/x",
    "/static/style.old.css",
    "/favicon.ico",
    # links on error pages must stay on the site; a page ignores what it does not read
    "//evil.example/x",
    "/\\evil.example",
    "/2026/12?grade=05",
    "/2026/12?q=1",
    "/2026/12?q=2",
    "/2026/12?x=1",
]

OTHER = [
    ("GET", "/api/v2/days?from=2026-01-01&to=2026-01-31", []),
    ("GET", "/api/v1/days/?from=2026-01-01&to=2026-01-31", []),
    ("GET", "/api/v1/nope", []),
    ("GET", "/api/v1", []),
    ("GET", "/api", []),
    ("GET", "/api/v1/openapi.json/", []),
    ("GET", "/data", []),
    ("GET", "/data/", []),
    ("GET", "/data/nope.json", []),
    ("GET", "/data/years/1582.json", []),
    ("GET", "/data/years/2101.json", []),
    ("GET", "/data/years/x.json", []),
    ("GET", "/data/years/2026", []),
    ("GET", "/data/schema/nope.json", []),
    ("GET", "/docs", []),
    ("GET", "/docs/", []),
    ("GET", "/docs/oauth-receiver.html", []),
    ("GET", "/docs/nope", []),
    ("GET", "/docsx", []),
    ("HEAD", "/docs", []),
    ("GET", "/health", []),
    ("HEAD", "/health", []),
    ("GET", "/health?x=1", []),
    ("GET", "/health/", []),
    ("GET", "/ready", []),
    ("HEAD", "/ready", []),
    ("POST", "/api/v1/laisvadienis?date=2026-12-24", []),
    ("PUT", "/api/v1/day?date=2026-12-24", []),
    ("DELETE", "/2026", []),
    ("POST", "/docs", []),
    ("POST", "/health", []),
    ("PATCH", "/data/manifest.json", []),
    ("OPTIONS", "/api/v1/day?date=2026-12-24", [("Origin", "https://example.org"), ("Access-Control-Request-Method", "GET"), ("Access-Control-Request-Headers", "x-api-key")]),
    ("OPTIONS", "/2026", []),
    ("OPTIONS", "/nope", []),
    ("GET", "/api/v1/laisvadienis?date=2026-12-24", [("X-Forwarded-For", "203.0.113.9")]),
    ("GET", "/api/v1/laisvadienis?date=2026-12-24", [("Origin", "https://example.org")]),
    ("GET", "/api/v1/laisvadienis?date=2026-12-24", [("If-None-Match", "W/\"x\", *")]),
    ("GET", "/api/v1/days?from=2026-01-01&to=2026-12-31", [("Accept-Encoding", "gzip;q=0, br;q=0")]),
    ("GET", "/api/v1/days?from=2026-01-01&to=2026-12-31", [("Accept-Encoding", "x-gzip")]),
    ("GET", "/api/v1/days?from=2026-01-01&to=2026-12-31", [("Accept-Encoding", "gzip;q=1, br;q=0.5")]),
    ("GET", "/api/v1/days?from=2026-01-01&to=2026-12-31", [("Accept-Encoding", "*")]),
    ("GET", "/api/v1/days?from=2026-01-01&to=2026-12-31", [("Accept-Encoding", "identity")]),
    ("GET", "/api/v1/laisvadienis?date=2026-12-24", [("Accept-Encoding", "gzip, br")]),
    ("GET", "/api/v1/laisvadienis?date=2026-12-24%20", []),
    ("GET", "/api/v1/laisvadienis?date=2026%2D12%2D24", []),
    ("GET", "/api/v1/laisvadienis?date=2026-12-24&unknown=1", []),
    ("GET", "/api/v1/laisvadienis?date=2026-12-24&", []),
    ("GET", "/api/v1/laisvadienis?&date=2026-12-24", []),
    ("GET", "/api/v1/laisvadienis?date", []),
    ("GET", "/api/v1/laisvadienis?DATE=2026-12-24", []),
    ("GET", "/API/V1/laisvadienis?date=2026-12-24", []),
    ("GET", "//api/v1/laisvadienis?date=2026-12-24", []),
]


# ----------------------------------------------------------------------------- masking


class Masker:
    """Replaces what differs between two runs of one build by stable placeholders."""

    def __init__(self):
        self.literal = []  # (text, placeholder), longest first when applied
        self.labels = {}  # key -> label (its owner), in order of appearance
        self.digests = {}  # SHA-256 of a key -> its label
        self.prefixes = {}  # an id prefix given on a command line -> placeholder
        self.today = datetime.now(timezone.utc)

    def add_literal(self, text, placeholder):
        if text:
            self.literal.append((text, placeholder))
            self.literal.sort(key=lambda p: -len(p[0]))

    def add_key(self, key, label):
        """Keys are named by label (their owner), not by number: a build that issues more
        keys (a new keyed endpoint's section) does not renumber the others."""
        if key not in self.labels:
            label = re.sub(r"[^A-Za-z0-9/._-]+", "-", label)
            self.labels[key] = label
            self.digests[hashlib.sha256(key.encode()).hexdigest()] = label

    def add_prefix(self, prefix):
        for digest, label in self.digests.items():
            if digest.startswith(prefix):
                self.prefixes[prefix] = f"<id:{label}:{len(prefix)}>"

    def _key_sub(self, m):
        frag = m.group(0)
        for key, label in self.labels.items():
            if key == frag:
                return f"ltk_<key:{label}>"
            if key.startswith(frag):
                return f"ltk_<key:{label}:{len(frag)}>"
        return frag  # not one of ours (a made-up key such as ltk_000...)

    def _hex_sub(self, m):
        text = m.group(0)
        if len(text) == 64 and text in self.digests:
            return f"<hash:{self.digests[text]}>"
        if len(text) == 16:
            for digest, label in self.digests.items():
                if digest.startswith(text):
                    return f"<id:{label}>"
        return text

    def _time_sub(self, m):
        try:
            when = datetime.fromisoformat(m.group(1)).replace(tzinfo=timezone.utc)
        except ValueError:
            return m.group(0)
        if abs(when - self.today) < timedelta(days=1):
            return "<now>"
        return m.group(0)

    def __call__(self, text):
        for lit, placeholder in self.literal:
            text = text.replace(lit, placeholder)
        text = re.sub(r"ltk_[0-9a-f]{4,64}", self._key_sub, text)
        text = re.sub(r"(?<![0-9a-f])([0-9a-f]{64}|[0-9a-f]{16})(?![0-9a-f])", self._hex_sub, text)
        for prefix, placeholder in self.prefixes.items():
            text = re.sub(rf"(?<![0-9a-f]){prefix}(?![0-9a-f])", placeholder, text)
        text = re.sub(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z", self._time_sub, text)
        return text


def seconds_range(value):
    """RateLimit-Reset and Retry-After depend on the clock: the range they fall in."""
    try:
        v = int(value)
    except ValueError:
        return value
    # The boundaries are far from the values a window gives (a minute: up to 61, a day: up
    # to 86 460, a calendar month: days), so that timing never moves a value across one.
    if v <= 120:
        return "<up to 2 min>"
    if v <= 90000:
        return "<2 min..25 h>"
    return "<over 25 h>"


# ----------------------------------------------------------------------------- the run


class Server:
    def __init__(self, binary, config, log_path):
        self.binary = binary
        self.config = config
        self.log_path = log_path
        self.proc = None
        self.addr = None

    def start(self):
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--config", self.config],
            stdout=subprocess.PIPE,
            stderr=log,
            start_new_session=True,
            env=ENV,
        )
        deadline = time.time() + 60
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"the server exited before listening (log: {self.log_path})")
            log.write(line)
            log.flush()
            m = re.search(rb"listening on http://(\S+)", line)
            if m:
                self.addr = m.group(1).decode()
                break
        else:
            raise SystemExit("the server did not listen within 60 s")
        # Keep draining its stdout (the access log) so it never blocks on a full pipe.
        import threading

        def drain(pipe, sink):
            for chunk in iter(lambda: pipe.read1(65536), b""):
                sink.write(chunk)
            sink.close()

        threading.Thread(target=drain, args=(self.proc.stdout, log), daemon=True).start()
        return self.addr

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                return self.proc.wait()
        return self.proc.returncode if self.proc else None


class Transcript:
    def __init__(self, args):
        self.args = args
        self.out = []
        self.mask = Masker()
        self.work = tempfile.mkdtemp(prefix="kalendorius-transcript.")
        self.mask.add_literal(self.work, "<WORK>")
        self.mask.add_literal(os.path.realpath(self.work), "<WORK>")
        self.servers = []
        self.section_name = ""
        self.client = "127.0.0.1"
        self.key = None  # the key of the current section
        self.addr = None
        self.bodies_n = 0
        self.identity = {}  # target -> identity body, to compare decoded bodies with
        self.counts = {"requests": 0, "key_commands": 0, "operations": 0, "sections": 0}

    # -- output

    def w(self, line=""):
        self.out.append(self.mask(line))

    def use_client(self, name):
        """Sends from a loopback address of its own, derived from name."""
        digest = hashlib.sha256(name.encode()).digest()
        self.client = f"127.{digest[0]}.{digest[1]}.{1 + digest[2] % 254}"

    def section(self, name):
        """A new section, with its own client address (and key, when keyed)."""
        self.section_name = name
        self.use_client(name)
        self.counts["sections"] += 1
        self.w("")
        self.w("=" * 78)
        self.w(f"== {name}")
        self.w("=" * 78)

    # -- the key tool

    def keys(self, argv, config=None, record=True, stdin=None):
        cmd = [self.args.server, "keys", "--config", config or self.config] + argv
        p = subprocess.run(cmd, capture_output=True, input=stdin, timeout=60, env=ENV)
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        owner = argv[argv.index("--owner") + 1] if "--owner" in argv[:-1] else "created-" + str(len(self.mask.labels))
        for key in re.findall(r"ltk_[0-9a-f]{64}", out):
            self.mask.add_key(key, owner)
        if record:
            self.counts["key_commands"] += 1
            shown = " ".join(self.mask(a) for a in argv)
            cfg = "tight.toml" if config and config != self.config else "main.toml"
            self.w("")
            self.w(f"$ kalendorius-server keys --config {cfg} {shown}")
            for line in out.splitlines():
                self.w(f"  stdout| {line}")
            for line in err.splitlines():
                self.w(f"  stderr| {line}")
            self.w(f"  exit {p.returncode}")
        return p.returncode, out, err

    def new_key(self, owner, per_minute=NO_LIMIT, per_day=NO_LIMIT, config=None, record=False):
        argv = ["create", "--owner", owner, "--per-minute", str(per_minute), "--per-day", str(per_day)]
        rc, out, err = self.keys(argv, config=config, record=record)
        key = out.strip().splitlines()[-1] if out.strip() else ""
        if rc != 0 or not key.startswith("ltk_"):
            raise SystemExit(f"keys create failed: {err}")
        return key

    @staticmethod
    def key_id(key):
        return hashlib.sha256(key.encode()).hexdigest()[:16]

    # -- HTTP

    def raw(self, method, target, headers=(), host=True):
        """One request on a fresh connection; returns (status, reason, [(name, value)], body)."""
        h, port = self.addr.rsplit(":", 1)
        conn = http.client.HTTPConnection(h, int(port), timeout=30, source_address=(self.client, 0))
        conn.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        if host:
            conn.putheader("Host", self.addr)
        for name, value in headers:
            conn.putheader(name, value)
        conn.endheaders()
        resp = conn.getresponse()
        body = resp.read()
        result = (resp.status, resp.reason, resp.getheaders(), body)
        conn.close()
        return result

    def raw_bytes(self, request_bytes):
        """A request written byte for byte (for what http.client will not send)."""
        h, port = self.addr.rsplit(":", 1)
        with socket.create_connection((h, int(port)), timeout=30, source_address=(self.client, 0)) as s:
            s.sendall(request_bytes)
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status_line = lines[0].split(" ", 2)
        headers = [tuple(x.strip() for x in line.split(":", 1)) for line in lines[1:] if ":" in line]
        return int(status_line[1]), status_line[2] if len(status_line) > 2 else "", headers, body

    def req(self, method, target, headers=(), note="", host=True, raw=None, metrics=False):
        """Sends one request and writes it and its answer; returns (status, headers dict, body)."""
        self.counts["requests"] += 1
        headers = list(headers)
        if raw is not None:
            status, reason, hdrs, body = self.raw_bytes(raw)
        else:
            status, reason, hdrs, body = self.raw(method, target, headers, host)
        hmap = {}
        for name, value in hdrs:
            hmap.setdefault(name.lower(), []).append(value)
        self.w("")
        if raw is not None:
            self.w(f"### {note}")
            for line in raw.decode("latin-1").rstrip("\r\n").split("\r\n"):
                self.w(f"> {line.replace(self.addr, '<ADDR>')}")
        else:
            self.w(f"### {method} {target}" + (f"   ({note})" if note else ""))
            if not host:
                self.w("> (no Host header)")
            for name, value in headers:
                self.w(f"> {name}: {value}")
        self.w(f"< {status} {reason}")
        if metrics or (status == 200 and (target or "").split("?")[0] == "/metrics"):
            self.w(f"< content-type: {', '.join(hmap.get('content-type', []))}")
            self.w(f"  body: (not recorded: the metrics change with every request)")
            return status, hmap, body
        for name in sorted(hmap):
            if name == "date":
                continue
            for value in hmap[name]:
                if name in ("ratelimit-reset", "retry-after"):
                    value = seconds_range(value)
                self.w(f"< {name}: {value}")
        if method != "HEAD":
            self.write_body(target, hmap, body)
        return status, hmap, body

    def write_body(self, target, hmap, body):
        if not body:
            self.w("  body: empty")
            return
        encoding = ",".join(hmap.get("content-encoding", []))
        ctype = ",".join(hmap.get("content-type", []))
        sha = hashlib.sha256(body).hexdigest()
        if encoding:
            decoded = None
            if encoding == "gzip":
                decoded = gzip.decompress(body)
            elif encoding == "br" and brotli is not None:
                decoded = brotli.decompress(body)
            if decoded is None:
                self.w(f"  body: {encoding}, {len(body)} bytes, sha256 {sha} (not decoded)")
                return
            same = self.identity.get(target)
            relation = "" if same is None else (", the same as the identity answer" if same == decoded else ", DIFFERS from the identity answer")
            self.w(
                f"  body: {encoding}, {len(body)} bytes; decoded {len(decoded)} bytes, "
                f"sha256 {hashlib.sha256(decoded).hexdigest()}{relation}"
            )
            return
        self.identity.setdefault(target, body)
        text = None
        if "json" in ctype:
            try:
                text = json.dumps(json.loads(body), indent=2, ensure_ascii=False)
                kind = "json"
            except ValueError:
                text = None
        if text is None and (ctype.startswith("text/") or "calendar" in ctype or "json" in ctype):
            try:
                text = body.decode("utf-8")
                kind = "text"
            except UnicodeDecodeError:
                text = None
        if text is not None and len(text.encode()) <= self.args.max_body:
            self.w(f"  body ({kind}, {len(body)} bytes):")
            for line in text.splitlines():
                self.w(f"  | {line}")
            return
        extra = ""
        if text is not None and "html" in ctype:
            m = re.search(r"<title>(.*?)</title>", text, re.S)
            if m:
                extra = f"; <title>{m.group(1).strip()}</title>"
        self.w(f"  body: {len(body)} bytes, sha256 {sha}{extra}")
        if self.args.bodies:
            self.bodies_n += 1
            slug = re.sub(r"[^A-Za-z0-9._-]+", "_", target)[:80].strip("_") or "root"
            ext = "json" if "json" in ctype else "html" if "html" in ctype else "ics" if "calendar" in ctype else "txt"
            path = os.path.join(self.args.bodies, f"{self.bodies_n:04d}-{slug}.{ext}")
            content = text if text is not None else None
            with open(path, "wb") as f:
                f.write(self.mask(content).encode() if content is not None else body)

    # -- helpers for the variants of one request

    def variants(self, target, keyed, headers, etag_too=True, compress=True, head=True):
        """Revalidation, compression and HEAD for one valid target (already asked once)."""
        status, hmap, body = self.req("GET", target, headers, note="again")
        etag = (hmap.get("etag") or [None])[0]
        if etag:
            self.req("GET", target, headers + [("If-None-Match", etag)])
            self.req("GET", target, headers + [("If-None-Match", "*")])
            self.req("GET", target, headers + [("If-None-Match", '"other", ' + etag)])
            self.req("GET", target, headers + [("If-None-Match", '"other"')])
            weak = "W/" + etag if not etag.startswith("W/") else etag
            self.req("GET", target, headers + [("If-None-Match", weak)])
        if compress:
            for enc in ("gzip", "br"):
                for n in (1, 2):
                    s, h, _ = self.req("GET", target, headers + [("Accept-Encoding", enc)], note=f"{enc} #{n}")
                tag = (h.get("etag") or [None])[0]
                if tag:
                    self.req("GET", target, headers + [("Accept-Encoding", enc), ("If-None-Match", tag)])
            self.req("HEAD", target, headers + [("Accept-Encoding", "gzip")])
        if head:
            self.req("HEAD", target, headers)

    # -- sections

    def run(self):
        a = self.args
        self.config = os.path.join(self.work, "main.toml")
        data = os.path.join(self.work, "data")

        self.w("kalendorius behaviour transcript (bench/transcript.py)")
        self.w("server: --server BIN, generator: --generator BIN, sources: --sources DIR (not named here,")
        self.w("so that transcripts of two builds diff cleanly)")

        # -- the dataset
        self.section("generator: build the dataset")
        p = subprocess.run(
            [a.generator, "build", "--sources", a.sources, "--out", data], capture_output=True, timeout=600, env=ENV
        )
        self.w(f"$ kalendorius-generator build --sources SOURCES --out <WORK>/data")
        for stream, text in (("stdout", p.stdout), ("stderr", p.stderr)):
            for line in text.decode("utf-8", "replace").splitlines():
                line = line.replace(os.path.abspath(a.sources), "SOURCES").replace(a.sources, "SOURCES")
                line = re.sub(r"\bin \d+(\.\d+)? ?(s|ms)\b", "in <t>", line)
                self.w(f"  {stream}| {line}")
        self.w(f"  exit {p.returncode}")
        if p.returncode != 0:
            raise SystemExit("the generator failed")

        self.write_config(self.config, os.path.join(self.work, "state"), data, {})
        tight = os.path.join(self.work, "tight.toml")
        self.write_config(
            tight,
            os.path.join(self.work, "state-tight"),
            data,
            {
                # one window each, so that each refusal names it
                "laisvadienis_per_minute": 3,
                "days_per_month": 3,
                "feeds_per_minute": 2,
                "feeds_per_month": 2,
                "pages_per_minute": 50,
                "data_per_minute": 50,
            },
        )

        # -- the key tool, before the server starts
        self.section("key tool: no server running")
        self.keys(["--help"])
        for sub in ("create", "list", "show", "revoke", "restore", "delete", "set-limits", "export", "import"):
            self.keys([sub, "--help"])
        self.keys(["list", "--state", os.path.join(self.work, "nowhere")])
        self.keys(["list"])  # no database yet
        k1 = self.new_key("transcript-a", record=True)
        self.keys(["create", "--owner", "transcript-b", "--per-minute", "120", "--per-day", "50000", "--expires", "2027-12-31"])
        self.keys(["create", "--owner", "transcript-c", "--expires", "2027-07-31"])
        self.keys(["create", "--owner", "transcript-d", "--expires", "2027-01-01T12:00:00+02:00"])
        self.keys(["create", "--owner", "defaults"])
        self.keys(["create", "--owner", "past", "--expires", "2020-01-01"])
        self.keys(["create", "--owner", "zero", "--per-minute", "0"])
        self.keys(["create", "--owner", "huge", "--per-day", str(NO_LIMIT + 1)])
        self.keys(["create", "--owner", "bad-date", "--expires", "2027-02-30"])
        self.keys(["create"])
        self.keys(["list"])
        kid = self.key_id(k1)
        self.keys(["show", kid])
        self.mask.add_prefix(kid[:6])
        self.keys(["show", kid[:6]])
        self.keys(["show", "0000"])
        self.keys(["show", "abc"])
        self.keys(["export"])
        self.keys(["export", "--counters"])

        # -- the server
        main = Server(a.server, self.config, os.path.join(self.work, "server.log"))
        self.servers.append(main)
        self.addr = main.start()
        self.mask.add_literal(self.addr, "<ADDR>")

        self.section("key tool: with the server running (through its admin socket)")
        k_rev = self.new_key("revoked-later", record=True)
        rid = self.key_id(k_rev)
        self.keys(["list"])
        self.keys(["set-limits", rid, "--per-minute", "300"])
        self.keys(["set-limits", rid, "--per-day", "7"])
        self.keys(["set-limits", rid])
        self.keys(["set-limits", rid, "--per-minute", "0"])
        self.keys(["set-limits", "ffffffff", "--per-minute", "5"])
        self.keys(["show", rid])
        self.req("GET", "/api/v1/day?date=2026-12-24", [("X-API-Key", k_rev)], note="before revoke")
        self.keys(["revoke", rid])
        self.keys(["revoke", rid])
        self.req("GET", "/api/v1/day?date=2026-12-24", [("X-API-Key", k_rev)], note="revoked")
        self.keys(["restore", rid])
        self.req("GET", "/api/v1/day?date=2026-12-24", [("X-API-Key", k_rev)], note="restored")
        self.keys(["show", rid])
        backup = os.path.join(self.work, "backup.jsonl")
        self.keys(["export", "--out", backup])
        self.w(f"  (contents of <WORK>/backup.jsonl, mode {oct(os.stat(backup).st_mode & 0o777)})")
        with open(backup) as f:
            for line in f:
                self.w(f"  file| {line.rstrip()}")
        self.keys(["import", backup])
        self.keys(["delete", rid])
        self.req("GET", "/api/v1/day?date=2026-12-24", [("X-API-Key", k_rev)], note="deleted")
        self.keys(["list"])
        self.keys(["import", backup])
        self.req("GET", "/api/v1/day?date=2026-12-24", [("X-API-Key", k_rev)], note="imported back")
        changed = os.path.join(self.work, "changed.jsonl")
        with open(backup) as f, open(changed, "w") as g:
            for line in f:
                rec = json.loads(line)
                if rec["id"] == rid:
                    rec["per_minute"] = 11
                g.write(json.dumps(rec, separators=(",", ":")) + "\n")
        self.keys(["import", changed])
        self.keys(["import", changed, "--replace"])
        self.keys(["show", rid])
        self.keys(["import", "-"], stdin=b"not json\n")
        self.keys(["import", os.path.join(self.work, "missing.jsonl")])
        self.keys(["revoke", rid])
        self.revoked_key = k_rev

        # -- the operations of the OpenAPI document
        self.section("openapi document")
        status, hmap, body = self.req("GET", "/api/v1/openapi.json")
        doc = json.loads(body)
        self.w("")
        self.w("summary of the document (operations, their parameters, responses):")
        for path in sorted(doc["paths"]):
            for method, op in sorted(doc["paths"][path].items()):
                if not isinstance(op, dict) or "responses" not in op:
                    continue
                sec = "keyed" if op.get("security") else "public"
                self.w(f"  {method.upper()} {path} [{op.get('operationId')}, {','.join(op.get('tags', []))}, {sec}]")
                for prm in op.get("parameters", []):
                    prm = resolve(doc, prm)
                    self.w(f"    {prm['name']} ({prm['in']}{', required' if prm.get('required') else ''}): {json.dumps(prm.get('schema'), sort_keys=True, ensure_ascii=False)}")
                self.w(f"    responses: {' '.join(sorted(op['responses']))}")
        self.variants("/api/v1/openapi.json", False, [])

        for path in sorted(doc["paths"]):
            op = doc["paths"][path].get("get")
            if op is None:
                continue
            self.counts["operations"] += 1
            self.operation(doc, path, op)

        # -- pages
        self.section("pages")
        status, hmap, body = self.req("GET", "/")
        for target in PAGES:
            self.req("GET", target)
        m = re.search(rb'href="(/static/style[^"]*\.css)"', body)
        if m:
            style = m.group(1).decode()
            self.w("")
            self.w(f"(the style sheet named by the home page: {style})")
            self.req("GET", style)
            self.variants(style, False, [], head=True)
        self.variants("/favicon.ico", False, [], compress=False)
        for target in ("/2026/12", "/2026/12/24?lang=en", "/vardai?q=jon", "/abc"):
            self.variants(target, False, [])

        self.section("other paths, methods, headers")
        for method, target, headers in OTHER:
            self.req(method, target, headers)
        self.variants("/docs", False, [])
        self.req("GET", "/metrics", metrics=True)
        self.req("HEAD", "/metrics", metrics=True)
        self.req("GET", "/metrics", [("X-Forwarded-For", "127.0.0.1")])
        self.req("GET", "/metrics", [("Forwarded", "for=127.0.0.1")])
        self.req("GET", "/metrics", [("X-Real-IP", "127.0.0.1")])
        self.req("GET", "/metrics", [("True-Client-IP", "127.0.0.1")])
        self.req(
            None, None, note="GET without a Host header (HTTP/1.1)",
            raw=b"GET /api/v1/laisvadienis?date=2026-12-24 HTTP/1.1\r\nConnection: close\r\n\r\n",
        )
        self.req(
            None, None, note="GET with two Host headers",
            raw=b"GET /api/v1/laisvadienis?date=2026-12-24 HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n",
        )
        self.req(
            None, None, note="GET without a Host header (HTTP/1.0)",
            raw=b"GET /api/v1/laisvadienis?date=2026-12-24 HTTP/1.0\r\n\r\n",
        )
        self.req(
            None, None, note="a key header without the Bearer scheme",
            raw=b"GET /api/v1/day?date=2026-12-24 HTTP/1.1\r\nHost: x\r\nAuthorization: Basic dXNlcjpwYXNz\r\nConnection: close\r\n\r\n",
        )
        self.req(
            None, None, note="a malformed request line",
            raw=b"GET /a b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        )

        # -- rate limits
        self.section("rate limits: the headers of the main server (every limit lifted)")
        for target in ("/api/v1/laisvadienis?date=2026-12-24", "/api/v1/days?from=2026-12-01&to=2026-12-31",
                       "/2026", "/api/v1/feeds/holidays.ics", "/data/manifest.json"):
            self.req("GET", target)
            self.req("GET", target)
        self.req("GET", "/api/v1/day?date=2026-12-24", [("X-API-Key", k1)])

        main_code = main.stop()
        self.w("")
        self.w(f"(main server stopped with SIGTERM: exit {main_code})")
        self.section("key tool: after the server stopped")
        self.keys(["show", kid])
        self.keys(["list", "--state", os.path.join(self.work, "state")])

        self.tight_and_restart(tight)
        self.summary()

    def operation(self, doc, path, op):
        keyed = bool(op.get("security"))
        self.section(f"{'keyed' if keyed else 'public'} GET {path}")
        if path == "/metrics":
            self.req("GET", path, metrics=True)
            self.req("HEAD", path, metrics=True)
            return
        params = [resolve(doc, p) for p in op.get("parameters", [])]
        query_params = sorted((p for p in params if p["in"] == "query"), key=lambda p: order(p["name"]))
        path_params = [p for p in params if p["in"] == "path"]
        headers = []
        if keyed:
            self.key = self.new_key("section " + path)
            headers = [("X-API-Key", self.key)]

        if path_params:
            # one request per value of each path parameter, good and bad
            for prm in path_params:
                schema = prm.get("schema", {})
                values = list(schema.get("enum", [])) or [good_value(path, prm)]
                bad = (["nope.json", "x"] if schema.get("enum") else bad_values(path, prm))
                first = None
                for v in values + bad:
                    target = path.replace("{" + prm["name"] + "}", urllib.parse.quote(v, safe=""))
                    self.req("GET", target, headers)
                    first = first or target
                self.variants(first, keyed, headers)
            return

        base = BASE_AT.get(path) or [(p["name"], good_value(path, p)) for p in query_params if p.get("required")]
        target = build(path, base)
        status, vh, _ = self.req("GET", target, headers, note="valid")
        valid_target, valid_etag = target, (vh.get("etag") or [None])[0]
        if keyed:
            self.req("GET", target, [], note="no key")
            self.req("GET", target, [("X-API-Key", "ltk_" + "0" * 64)], note="unknown key")
            self.req("GET", target, [("X-API-Key", "not-a-key")], note="malformed key")
            self.req("GET", target, [("X-API-Key", self.revoked_key)], note="revoked key")
            self.req("GET", target, [("Authorization", "Bearer " + self.key)], note="Bearer key")
            self.req("GET", target, [("Authorization", "Basic dXNlcjpwYXNz")], note="Basic")
            self.req("GET", target, [("Authorization", "Bearer " + self.key), ("X-API-Key", self.key)], note="both")
            self.req("GET", target, [("X-API-Key", ""), ("X-API-Key", self.key)], note="two key lines, the first empty")
            self.req("GET", target, [("X-API-Key", self.key), ("X-API-Key", "ltk_" + "0" * 64)], note="two key lines")
            self.req("GET", target, [("Authorization", ""), ("Authorization", "Bearer " + self.key)], note="two Authorization lines, the first empty")
            self.req("GET", target, [("X-API-Key", "")], note="empty key")
            self.req("GET", build(path, base + [("api_key", self.key)]), [], note="query key")
            self.req("GET", build(path, base + [("api_key", self.key), ("api_key", self.key)]), [], note="query key twice")
        self.req("OPTIONS", target, [("Origin", "https://example.org"), ("Access-Control-Request-Method", "GET"), ("Access-Control-Request-Headers", "x-api-key, if-none-match")])
        self.variants(target, keyed, headers)

        names = [p["name"] for p in query_params]
        for prm in query_params:
            name = prm["name"]
            rest = [(n, v) for n, v in base if n != name]
            good = good_value(path, prm)
            self.w("")
            self.w(f"-- parameter {name} (from a client address and with a key of its own)")
            self.use_client(f"{path} {name}")
            if keyed:
                self.key = self.new_key(f"{path} {name}")
                headers = [("X-API-Key", self.key)]
            if prm.get("required"):
                self.req("GET", build(path, rest), headers, note=f"{name} missing")
            else:
                self.req("GET", build(path, rest + [(name, good)]), headers, note=f"{name} given")
                default = prm.get("schema", {}).get("default")
                if default is not None:
                    self.req("GET", build(path, rest + [(name, str(default))]), headers, note=f"{name} at its default")
                for value in prm.get("schema", {}).get("enum", []):
                    if value not in (good, default):
                        self.req("GET", build(path, rest + [(name, value)]), headers)
            self.req("GET", build(path, rest + [(name, good), (name, good)]), headers, note=f"{name} repeated")
            for bad in bad_values(path, prm):
                self.req("GET", build(path, rest + [(name, bad)]), headers, note=f"{name} bad")
            if is_date(prm):
                required = [(p["name"], good_value(path, p)) for p in query_params if p.get("required") and p["name"] != name]
                t = build(path, required + [(name, "today")])
                self.req("GET", t, headers, note="today")
                self.req("GET", build(path, required + [(name, "TODAY")]), headers, note="today, upper case")
                self.variants(t, keyed, headers, head=False)
                if valid_etag:
                    self.req("GET", t, headers + [("If-None-Match", valid_etag)], note="another query's tag")
                other = build(path, required + [(name, "today"), ("lang", "ru")]) if "lang" in names else t
                self.req("GET", other, headers, note="another query")
                s2, h2, _ = self.req("GET", other, headers + [("Accept-Encoding", "gzip")], note="another query, gzip")
                self.req("GET", other, headers + [("Accept-Encoding", "br")], note="another query, br")
                today_etag = (h2.get("etag") or [None])[0]
                if today_etag and valid_target != t:
                    self.req("GET", valid_target, headers + [("If-None-Match", today_etag)], note="another query's tag")
        self.w("")
        self.w("-- combinations (from a client address and with a key of their own)")
        self.use_client(f"{path} combinations")
        if keyed:
            self.key = self.new_key(f"{path} combinations")
            headers = [("X-API-Key", self.key)]
        dates = [p["name"] for p in query_params if is_date(p)]
        if len(dates) > 1:
            self.req("GET", build(path, [(n, "today") for n in dates]), headers, note="every date today")
        self.req("GET", build(path, base + [("unknown", "1")]), headers, note="an unknown parameter")
        for extra in EXTRA.get(path, []):
            if all(n in names or n == "api_key" for n, _ in extra):
                self.req("GET", build(path, extra), headers)
        self.key = None

    def tight_and_restart(self, tight):
        self.section("rate limits: a second server with tiny limits, then restarted on its state")
        self.w("limits: laisvadienis 3/minute; days 3/month; feeds 2/minute and 2/month; pages and")
        self.w("data 50/minute; a key of 3/minute, a key of 2/day")
        k_min = self.new_key("three-a-minute", per_minute=3, per_day=NO_LIMIT, config=tight, record=True)
        k_day = self.new_key("two-a-day", per_minute=NO_LIMIT, per_day=2, config=tight, record=True)
        srv = Server(self.args.server, tight, os.path.join(self.work, "tight.log"))
        self.servers.append(srv)
        old = self.addr
        self.addr = srv.start()
        self.mask.add_literal(self.addr, "<ADDR>")
        lais = "/api/v1/laisvadienis?date=2026-12-24"
        for i in range(3):
            self.req("GET", lais)
        self.req("GET", lais, note="over the minute")
        self.req("HEAD", lais, note="refused too")
        self.req("GET", "/api/v1/laisvadienis?date=x", note="refused before the parameters")
        self.req("OPTIONS", lais, note="never counted")
        self.req("GET", "/api/v1/days?from=2026-12-01&to=2026-12-31")
        s, h, _ = self.req("GET", "/api/v1/days?from=2026-12-01&to=2026-12-31")
        etag = (h.get("etag") or [""])[0]
        self.req("GET", "/api/v1/days?from=2026-12-01&to=2026-12-31", [("If-None-Match", etag)], note="a 304 counts")
        self.req("GET", "/api/v1/days?from=2026-12-01&to=2026-12-31", note="over the month")
        self.req("GET", "/api/v1/feeds/holidays.ics")
        self.req("GET", "/api/v1/feeds/name-days.ics")
        self.req("GET", "/api/v1/feeds/school-holidays.ics", note="over the minute and the month")
        self.req("GET", "/2026/12")
        self.req("GET", "/nope", note="a 404 page counts with the pages")
        self.req("GET", "/data/manifest.json")
        self.req("GET", "/data/nope", note="a 404 under /data")
        self.req("GET", "/health", note="never counted")
        for i in range(3):
            self.req("GET", "/api/v1/day?date=2026-12-24", [("X-API-Key", k_min)])
        self.req("GET", "/api/v1/day?date=x", [("X-API-Key", k_min)], note="over the minute")
        self.req("GET", "/api/v1/day?date=2026-12-24", note="no key: 401 before the limits")
        self.req("GET", "/api/v1/holidays?year=2026", [("X-API-Key", k_day)])
        self.req("GET", "/api/v1/holidays?year=x", [("X-API-Key", k_day)], note="a 400 counts")
        self.req("GET", "/api/v1/holidays?year=2026", [("X-API-Key", k_day)], note="over the day")
        self.keys(["show", self.key_id(k_min)], config=tight)
        self.keys(["list"], config=tight)
        code = srv.stop()
        self.w("")
        self.w(f"(server stopped with SIGTERM: exit {code}; started again on the same state)")
        self.keys(["show", self.key_id(k_day)], config=tight)
        srv2 = Server(self.args.server, tight, os.path.join(self.work, "tight2.log"))
        self.servers.append(srv2)
        self.addr = srv2.start()
        self.mask.add_literal(self.addr, "<ADDR>")
        self.req("GET", "/ready")
        self.req("GET", lais, note="still over the minute")
        self.req("GET", "/api/v1/days?from=2026-12-01&to=2026-12-31", note="still over the month")
        self.req("GET", "/api/v1/feeds/moon.ics", note="still over")
        self.req("GET", "/2026", note="pages: the count goes on")
        self.req("GET", "/data/places.json", note="data: the count goes on")
        self.req("GET", "/data/manifest.json", note="data: the count goes on")
        self.req("GET", "/api/v1/day?date=2026-12-24", [("X-API-Key", k_min)], note="still over the minute")
        self.req("GET", "/api/v1/holidays?year=2026", [("X-API-Key", k_day)], note="still over the day")
        code = srv2.stop()
        self.w("")
        self.w(f"(server stopped with SIGTERM: exit {code})")
        self.addr = old

    def summary(self):
        c = self.counts
        self.w("")
        self.w("=" * 78)
        self.w(
            f"== {c['requests']} requests in {c['sections']} sections ({c['operations']} GET operations of the "
            f"OpenAPI document), {c['key_commands']} key tool commands"
        )

    def write_config(self, path, state, data, limits):
        lines = [
            'listen = "127.0.0.1:0"',
            f'data = "{data}"',
            f'state = "{state}"',
            "shutdown_timeout_secs = 2",
            "",
            "[log]",
            'format = "text"',
            'level = "info"',
            "",
            "[limits]",
        ]
        for counter in PUBLIC_COUNTERS:
            for window in ("minute", "month"):
                name = f"{counter}_per_{window}"
                lines.append(f"{name} = {limits.get(name, NO_LIMIT)}")
        lines.append(f"key_default_per_minute = {NO_LIMIT}")
        lines.append(f"key_default_per_day = {NO_LIMIT}")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")

    def cleanup(self):
        for srv in self.servers:
            try:
                srv.stop()
            except Exception:  # noqa: BLE001 - best effort on the way out
                pass
        if self.args.keep_work:
            print(f"[transcript] kept {self.work}", file=sys.stderr)
        else:
            shutil.rmtree(self.work, ignore_errors=True)


def resolve(doc, obj):
    while "$ref" in obj:
        node = doc
        for part in obj["$ref"].lstrip("#/").split("/"):
            node = node[part]
        obj = node
    return obj


def is_date(prm):
    schema = prm.get("schema", {})
    return "today" in schema.get("pattern", "") or "today" in schema.get("description", "")


def good_value(path, prm):
    name = prm["name"]
    if (path, name) in GOOD_AT:
        return GOOD_AT[(path, name)]
    if name in GOOD:
        return GOOD[name]
    schema = prm.get("schema", {})
    for v in (prm.get("example"), schema.get("example"), schema.get("default")):
        if v is not None:
            return str(v)
    if schema.get("enum"):
        return str(schema["enum"][0])
    if "minimum" in schema:
        return str(schema["minimum"])
    return "x"


def bad_values(path, prm):
    name = prm["name"]
    schema = prm.get("schema", {})
    if is_date(prm):
        out = list(DATE_BAD)
    elif name in BAD:
        out = list(BAD[name])
    elif name == "end":
        out = list(BAD["start"])
    elif schema.get("enum"):
        out = ["bogus", str(schema["enum"][0]).upper(), ""]
    else:
        out = ["x", ""]
    if schema.get("type") == "integer":
        good = good_value(path, prm)
        for v in ("0" + good, "-0", "+" + good, " " + good):
            if v not in out:
                out.append(v)
        for v in ("x", "1.5", ""):
            if v not in out:
                out.append(v)
        if "minimum" in schema:
            out.append(str(schema["minimum"] - 1))
        if "maximum" in schema:
            out.append(str(schema["maximum"] + 1))
        out.append("99999999999999999999")
    if "maxLength" in schema and "a" * (schema["maxLength"] + 1) not in out:
        out.append("a" * (schema["maxLength"] + 1))
    seen = []
    for v in out:
        if v not in seen:
            seen.append(v)
    return seen


def order(name):
    """Parameters in a fixed order (GOOD's, then by name), not the document's: a build that
    lists them in another order asks the same requests in the same order."""
    names = list(GOOD)
    return (names.index(name), name) if name in names else (len(names), name)


def build(path, pairs):
    if not pairs:
        return path
    return path + "?" + "&".join(f"{urllib.parse.quote(n)}={urllib.parse.quote(v, safe=':,')}" for n, v in pairs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True, help="kalendorius-server binary")
    ap.add_argument("--generator", required=True, help="kalendorius-generator binary")
    ap.add_argument("--sources", required=True, help="the sources directory the generator builds from")
    ap.add_argument("--out", required=True, help="the transcript to write")
    ap.add_argument("--bodies", help="also write every body too large for the transcript into this directory")
    ap.add_argument("--max-body", type=int, default=4096, help="bodies up to this many bytes are written in full (4096)")
    ap.add_argument("--keep-work", action="store_true", help="keep the temporary directory (dataset, state, server logs)")
    args = ap.parse_args()
    args.server = os.path.abspath(args.server)
    args.generator = os.path.abspath(args.generator)
    if args.bodies:
        os.makedirs(args.bodies, exist_ok=True)
    t = Transcript(args)
    started = time.time()
    try:
        t.run()
    finally:
        t.cleanup()
    with open(args.out, "w") as f:
        f.write("\n".join(t.out) + "\n")
    c = t.counts
    print(
        f"[transcript] {args.out}: {c['requests']} requests, {c['operations']} operations, "
        f"{c['key_commands']} key tool commands, {len(t.out)} lines in {time.time() - started:.0f} s",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
