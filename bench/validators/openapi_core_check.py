"""openapi-core: real answers of a running server validated against the served document.

Usage: python openapi_core_check.py BASE KEY (see bench/validators/README.md).
"""

import json
import sys
import urllib.error
import urllib.request

from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse

base, key = sys.argv[1], sys.argv[2]
with urllib.request.urlopen(base + "/api/v1/openapi.json") as resp:
    spec = json.load(resp)
# The schemas under /data/schema are JSON (`application/schema+json`), which openapi-core
# does not know of itself.
config = Config(extra_media_type_deserializers={"application/schema+json": json.loads})
api = OpenAPI.from_dict(spec, config=config)

CASES = [
    ("/api/v1/laisvadienis", {"date": "2026-12-23"}, False),
    ("/api/v1/laisvadienis", {"date": "2026-12-24"}, False),
    ("/api/v1/laisvadienis", {"date": "2026-13-01"}, False),
    ("/api/v1/days", {"from": "2026-12-21", "to": "2026-12-27"}, False),
    ("/api/v1/day", {"date": "2026-12-24", "lang": "en"}, True),
    ("/api/v1/holidays", {"year": "2026"}, True),
    ("/api/v1/holidays", {"year": "2026"}, False),
    ("/api/v1/name-days", {"date": "2026-02-29"}, True),
    ("/api/v1/working-time", {"year": "2026", "week": "6"}, True),
    ("/api/v1/working-days", {"from": "2026-01-01", "to": "2026-12-31"}, True),
    ("/api/v1/working-days/add", {"date": "2026-12-23", "days": "3"}, True),
    ("/api/v1/name-days/search", {"name": "jon"}, True),
    ("/api/v1/holidays/upcoming", {"from": "2026-11-24", "count": "5"}, True),
    ("/api/v1/long-weekends", {"year": "2026", "max_leave_days": "4"}, True),
    ("/data/manifest.json", {}, False),
    ("/data/years/2026.json", {}, False),
    ("/data/years/1200.json", {}, False),
    ("/data/schema/year.schema.json", {}, False),
    ("/health", {}, False),
    ("/ready", {}, False),
]

failures = 0
for path, args, keyed in CASES:
    query = "&".join(f"{k}={v}" for k, v in args.items())
    url = f"{base}{path}" + (f"?{query}" if query else "")
    request = urllib.request.Request(url, headers={"X-API-Key": key} if keyed else {})
    try:
        with urllib.request.urlopen(request) as resp:
            status, body, ctype = resp.status, resp.read(), resp.headers["Content-Type"]
    except urllib.error.HTTPError as err:
        status, body, ctype = err.code, err.read(), err.headers["Content-Type"]
    mock_request = MockRequest(base, "get", path, args=args, headers={"X-API-Key": key} if keyed else {})
    mock_response = MockResponse(body, status_code=status, content_type=ctype)
    try:
        api.validate_response(mock_request, mock_response)
        print(f"openapi-core {status} {url}: valid")
    except Exception as err:  # noqa: BLE001 (report every kind of failure)
        failures += 1
        print(f"openapi-core {status} {url}: INVALID: {err!r} {getattr(err, '__cause__', '')}")
sys.exit(1 if failures else 0)
