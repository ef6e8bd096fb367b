"""The course's JupyterHub (graders/classroom/hub/hub.py) and headless Chromium driven by Playwright, for
tests/test_hub.py. Tests only: it imports pytest.

    missing()                  what this machine lacks for a hub term (root, useradd, node, ...), or ""
    require()                  a skip naming it; in CI (CI=true) a failure instead
    chromium()                 Playwright's Chromium: Debian's /usr/bin/chromium, no browser download
    login(browser, hub, user)  a new browser context logged in to the hub as ``user``; its page in JupyterLab
    assignments(page)          JupyterLab's Assignments tab (the Nbgrader menu's Assignment List)
    run_all(page, hub, user, path)   a notebook opened in JupyterLab and every cell run

Playwright rather than Selenium: its locators wait for JupyterLab's widgets by themselves, and it drives
the system's Chromium through ``executable_path``, so neither a browser download nor a driver matching
the browser's version (Selenium's chromedriver) is needed.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
WAIT_MS = 180_000  # JupyterLab's first start, on two busy cores


def missing() -> str:
    """What the hub term needs and this machine lacks, as a sentence; "" when nothing is missing."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "the hub term needs root: it makes Unix users and the hub starts their servers as them"
    for tool in ("useradd", "userdel", "chpasswd", "runuser"):
        if not shutil.which(tool):
            return f"{tool} is missing (Debian's passwd and util-linux packages): the users cannot be made"
    if not Path(CHROMIUM).exists():
        return "chromium is not installed (apt-get install chromium)"
    for module, extra in (("playwright", "hub"), ("jupyterhub", "hub")):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed in this Python (pip install -e '.[{extra}]')"
    if not shutil.which("configurable-http-proxy") and not (shutil.which("node") and shutil.which("npm")):
        return "neither configurable-http-proxy nor Node.js with npm is installed (apt-get install nodejs npm)"
    if not os.access("/usr/bin/python3", os.X_OK):
        return "/usr/bin/python3 is missing: the users' servers need a Python every user can run"
    return ""


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def require() -> None:
    why = missing()
    if why:
        if in_ci():
            pytest.fail(f"CI=true and {why}")
        pytest.skip(why)


@contextmanager
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()


def login(browser, hub, user: str):
    """A fresh context (cookies of its own) logged in as ``user``: their JupyterLab, started by the hub."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(f"{hub.url}hub/login")
    page.fill("#username_input", user)
    page.fill("#password_input", hub.passwords[user])
    page.click("#login_submit")
    return page


def lab(page, hub, user: str, path: str = "") -> None:
    """``user``'s JupyterLab (at ``path``), once its main area is drawn."""
    page.goto(f"{hub.url}user/{user}/lab{'/tree/' + path if path else ''}")
    page.wait_for_selector("#jp-main-dock-panel", state="visible")


def assignments(page):
    """The Assignments tab: opened from the Nbgrader menu; returned once it has listed the courses' work."""
    page.get_by_role("menuitem", name="Nbgrader").click()
    page.get_by_role("menuitem", name="Assignment List").click()
    panel = page.locator("#nbgrader-assignment-list")
    panel.wait_for(state="visible")
    panel.locator("#released_assignments_list_loading").wait_for(state="hidden")
    return panel


def run_all(page, hub, user: str, path: str) -> None:
    """The notebook at ``path`` opened in ``user``'s JupyterLab, its kernel started, every cell run."""
    lab(page, hub, user, path)
    page.locator(".jp-Notebook").first.wait_for(state="visible")
    choose = page.locator(".jp-Dialog").get_by_role("button", name="Select", exact=True)
    try:  # JupyterLab may ask which kernel: the notebook's own, Python 3 (ipykernel), is offered
        choose.click(timeout=20_000)
    except Exception:  # noqa: BLE001 - no question asked: the kernel starts by itself
        pass
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
