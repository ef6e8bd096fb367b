"""The documentation site builds in MkDocs' strict mode (links and anchors checked), and its two
generated references say what the code says: every option of every ``attn-grade`` command and
subcommand as ``attn-grade CMD --help`` prints it, and every field of Settings with every
environment variable Settings.from_environ reads.

The site is built once, into a folder of this run (never the project's site/). Without MkDocs the
tests are skipped with the reason (``pip install -e '.[docs]'``; the test extra has it), except in
CI (CI=true), where a missing MkDocs fails them."""

from __future__ import annotations

import html
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOOK = ROOT / "docs" / "hooks" / "reference.py"
OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")


def _require_mkdocs():
    if importlib.util.find_spec("mkdocs") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true and MkDocs is not installed (the test extra installs it)")
        pytest.skip("MkDocs is not installed here (pip install -e '.[docs]', or python3 tasks.py docs)")


def _hook():
    spec = importlib.util.spec_from_file_location("attn_docs_reference", HOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    _require_mkdocs()
    out = tmp_path_factory.mktemp("site")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                            str(ROOT / "mkdocs.yml"), "--site-dir", str(out)],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stdout}\n{built.stderr}"
    assert "WARNING" not in built.stderr, built.stderr
    return out


def _text(page: str) -> str:
    """A built page's text, as a reader sees it."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def _sections(page: str) -> dict:
    """{heading id: HTML} of the reference's command sections (h2 to h4, each up to the next)."""
    main = page[page.index('role="main"'):]
    parts = re.split(r'<h[234] id="([^"]+)"', main)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def _declared_in_help(text: str) -> set:
    """The options --help lists, each on a line of its own: '  -h, --help', '  --dir DIR  ...'."""
    return set(OPTION.findall(" ".join(re.findall(r"^  (-.*?)(?: {2,}|$)", text, re.M))))


def _declared_in_reference(section: str) -> set:
    """The options the reference's tables list, in their first column."""
    return set(OPTION.findall(" ".join(_text(c) for c in re.findall(r"<tr>\s*<td>(.*?)</td>", section, re.S))))


def _commands() -> list[list[str]]:
    """Every command line whose --help is documented: [], [VERB], [VERB, ACTION], as the hook finds them."""
    return [parser.prog.split()[1:] for _, parser in _hook().command_parsers()]


def _help(words: list[str]) -> str:
    env = {**os.environ, "COLUMNS": "100", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "graders.cli", *words, "--help"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_site_builds_strictly_with_every_page(site):
    for page in ("index.html", "learners.html", "notebooks.html", "security.html",
                 "reference/commands.html", "reference/settings.html", "contract.html", "writing-a-grader.html"):
        assert (site / page).is_file(), page
    assert "Security" in _text((site / "security.html").read_text(encoding="utf-8"))
    assert not (site / "hooks").exists(), "the hook was published as a page"


def test_every_command_is_in_the_reference(site):
    sections = _sections((site / "reference" / "commands.html").read_text(encoding="utf-8"))
    hook = _hook()
    commands = _commands()
    assert ["grade"] in commands and ["check"] in commands and ["course", "build"] in commands, commands
    missing = [" ".join(c) for c in commands if hook.anchor(" ".join(["attn-grade", *c])) not in sections]
    assert not missing, f"commands without a section in the reference: {missing}"


@pytest.mark.parametrize("words", _commands() if HOOK.exists() else [], ids=lambda w: " ".join(w) or "attn-grade")
def test_the_reference_says_what_help_says(site, words):
    """The options ``attn-grade WORDS --help`` lists and those the command's table in the reference
    lists are the same set; and so are all the option strings either text names (usage, help texts,
    examples): none missing from the reference, none there that the help does not know."""
    sections = _sections((site / "reference" / "commands.html").read_text(encoding="utf-8"))
    section = sections[_hook().anchor(" ".join(["attn-grade", *words]))]
    text = _help(words)
    listed, tabled = _declared_in_help(text), _declared_in_reference(section)
    assert "--help" in listed, f"no options found in attn-grade {' '.join(words)} --help:\n{text}"
    assert listed == tabled, (f"listed by --help, not in the reference's table: {sorted(listed - tabled)}; "
                              f"in the table, not listed by --help: {sorted(tabled - listed)}")
    shown, documented = set(OPTION.findall(text)), set(OPTION.findall(_text(section)))
    assert shown <= documented, f"in --help, not in the reference: {sorted(shown - documented)}"
    assert documented <= shown, f"in the reference, not in --help: {sorted(documented - shown)}"


class _Reads(dict):
    """An environment that remembers every variable asked of it."""

    def __init__(self, *args):
        super().__init__(*args)
        self.asked = set()

    def get(self, key, default=None):
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self.asked.add(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self.asked.add(key)
        return super().__contains__(key)


def _variables_read() -> set:
    """Every variable Settings.from_environ asks for, found by running it: first on an empty
    environment, then with every variable seen so far set, until no new one is asked for."""
    from graders.grading.settings import Settings

    seen: set = set()
    while True:
        env = _Reads({name: "/tmp/x" for name in seen})
        Settings.from_environ(env)
        if env.asked <= seen:
            return seen
        seen |= env.asked


def test_every_setting_and_variable_is_in_the_settings_reference(site):
    import dataclasses

    from graders.grading.settings import Settings

    page = (site / "reference" / "settings.html").read_text(encoding="utf-8")
    text = _text(page[page.index('role="main"'):])  # the page, without the menus
    fields = [f.name for f in dataclasses.fields(Settings)]
    variables = _variables_read()
    assert "ATTN_GRADE_CACHE" in variables and "cache" in fields, (variables, fields)
    table = text[text.index("Environment variables"):text.index("Fields of Settings")]
    listed = set(re.findall(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b", table))
    assert listed == variables, f"listed {sorted(listed)}, read {sorted(variables)}"
    described = text[text.index("Fields of Settings"):text.index("How the environment is read")]
    missing = [name for name in fields if not re.search(rf"(?<![\w]){name}(?![\w])", described)]
    assert not missing, f"fields of Settings not in the settings reference: {missing}"
