"""Headless Chromium for the tests that look at a page as a browser draws it (Debian's chromium
package; .ci/run installs it and sets ATTN_REQUIRE_CHROMIUM=1). Tests only: it imports pytest.

    chromium(target, tmp, *args)          a file or a URL opened with Chromium's switches (--dump-dom,
                                          --screenshot=...); where it is not installed, a skip (a failure
                                          when ATTN_REQUIRE_CHROMIUM=1)
    framed(page, tmp, style, onload, ms)  ``page`` in an iframe of a probe page whose script measures it
                                          and writes what it found on the probe's <body>; that tag
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(target: Path | str, tmp: Path, *args) -> subprocess.CompletedProcess:
    """``target`` (a file, or a URL as a str) opened in headless Chromium with ``args``; its profile in ``tmp``."""
    if not CHROMIUM:
        if os.environ.get("ATTN_REQUIRE_CHROMIUM") == "1":
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("headless Chromium is not installed here (.ci/run installs Debian's chromium)")
    url = target.as_uri() if isinstance(target, Path) else target
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={tmp / 'profile'}", "--enable-logging=stderr", "--v=0", *args, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def framed(page: Path, tmp: Path, style: str, onload: str,
           budget_ms: int = 5000) -> tuple[str, subprocess.CompletedProcess]:
    """``page`` loaded in an iframe styled ``style`` (``f`` in the probe's script); when it has loaded,
    ``onload`` runs and sets ``document.body.dataset``. The probe's <body> tag as Chromium leaves
    it ("" when there is none), and Chromium's run (its stdout and stderr, to show on failure)."""
    probe = tmp / "probe.html"
    probe.write_text(f"<!doctype html><body><iframe id=f style='{style}'></iframe><script>"
                     f"var f=document.getElementById('f');f.onload=function(){{{onload}}};"
                     f"f.src={json.dumps(page.as_uri())};</script></body>")
    done = chromium(probe, tmp, "--dump-dom", f"--virtual-time-budget={budget_ms}", "--allow-file-access-from-files")
    body = re.search(r"<body[^>]*>", done.stdout)
    return (body.group() if body else ""), done
