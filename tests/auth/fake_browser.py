"""A stand-in for the system browser, for `BROWSER=...`: GET the URL, follow redirects, note what happened.

python fake_browser.py LOGFILE URL
"""

from __future__ import annotations

import sys
import urllib.request

log, url = sys.argv[1], sys.argv[2]
with urllib.request.urlopen(url, timeout=10) as response:  # follows the redirect to the loopback listener
    page = response.read().decode(errors="replace")
with open(log, "a", encoding="utf-8") as out:
    out.write(f"{url}\n{response.status} {'close this tab' in page}\n")
