"""Examples of the README and docs/guide.md through a client generated from the served OpenAPI document.

Usage: python client.py BASE KEY, with the package that openapi-python-client generated
from BASE/api/v1/openapi.json installed (see bench/validators/README.md). Exits non-zero
when an answer does not parse into the generated types or says something unexpected.
"""

import datetime
import sys

from kalendorius_client import AuthenticatedClient, Client
from kalendorius_client.api.data import data_manifest, data_year
from kalendorius_client.api.keyed import working_time
from kalendorius_client.api.probes import health, ready
from kalendorius_client.api.public import laisvadienis
from kalendorius_client.models import DayStatus, WorkingTime

base, key = sys.argv[1], sys.argv[2]
public = Client(base_url=base, raise_on_unexpected_status=True)
keyed = AuthenticatedClient(
    base_url=base,
    token=key,
    prefix="",
    auth_header_name="X-API-Key",
    raise_on_unexpected_status=True,
)

# The README's first example (README.md#a-days-status): a working day, whose `reason` is null.
status = laisvadienis.sync(client=public, date="2026-12-23")
assert isinstance(status, DayStatus), status
assert status.laisvadienis is False and status.reason is None, status
print("laisvadienis 2026-12-23:", status.to_dict())
status = laisvadienis.sync(client=public, date="2026-12-24")
assert isinstance(status, DayStatus) and status.laisvadienis, status
print("laisvadienis 2026-12-24:", status.to_dict())

# The 6-day week, as a plain 6.
totals = working_time.sync(client=keyed, year=2026, week=6)
assert isinstance(totals, WorkingTime), totals
summary = {k: v for k, v in totals.to_dict().items() if k != "months"}
print("working-time 2026, week=6:", summary)

manifest = data_manifest.sync(client=public)
print("data manifest:", manifest.dataset_version, manifest.first_year, manifest.last_year)
year = data_year.sync(client=public, year=2026)
assert len(year.days) == 365 and year.days[0].date == datetime.date(2026, 1, 1) or str(
    year.days[0].date
) == "2026-01-01", year.days[0]
print("data year 2026:", len(year.days), "days")
print("health:", health.sync(client=public).to_dict(), "ready:", ready.sync(client=public).to_dict())
