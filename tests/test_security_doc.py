"""SECURITY.md's threat table stays true to the code: each function it names exists where it says,
and each test it names exists in its file (a renamed function or test fails here, not in a reader's
trust)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "SECURITY.md"
SETTINGS = ("ns", "userns", "landlock", "own", "limits")
ROOMS = ("sandbox", "bounded", "kit", "grading", "classroom", "cli", "batch", "outfolder", "terminal")


def _rows() -> list[list[str]]:
    lines = [line for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith("| ")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    assert header == ["guarantee", "enforced by", *SETTINGS, "proved by"], header
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines[1:]]


def resolve(ref: str):
    """The object ``ref`` names (``sandbox.inside.jail.build_root``: graders.sandbox.inside.jail's build_root)."""
    parts = ref.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module("graders." + ".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)  # AttributeError: the doc names what is not there
        return obj
    raise ModuleNotFoundError(ref)


def _code_refs(cell: str) -> list[str]:
    return [r for r in re.findall(r"`([\w.]+)`", cell) if r.split(".")[0] in ROOMS]


def _test_refs(cell: str) -> list[tuple[str, str | None, list[str]]]:
    """(file, test or None, hostile cases) for each ``tests/...`` the cell names."""
    found = []
    for m in re.finditer(r"`(tests/[\w/]+\.py)(?:::(\w+))?`(?: \(([\w, ]+)\))?", cell):
        found.append((m.group(1), m.group(2), [c.strip() for c in (m.group(3) or "").split(",") if c.strip()]))
    return found


def test_every_row_names_enforcement_each_setting_and_a_test():
    rows = _rows()
    assert len(rows) >= 15
    for row in rows:
        assert len(row) == 2 + len(SETTINGS) + 1, row
        assert _code_refs(row[1]), f"{row[0]}: no function named"
        assert all(row[2:-1]), f"{row[0]}: a setting left blank"
        assert _test_refs(row[-1]), f"{row[0]}: no test named"


@pytest.mark.parametrize("row", _rows(), ids=lambda r: r[0][:40])
def test_each_function_the_table_names_exists(row):
    for ref in _code_refs(row[1]):
        assert resolve(ref) is not None, ref


@pytest.mark.parametrize("row", _rows(), ids=lambda r: r[0][:40])
def test_each_test_the_table_names_exists(row):
    for file, test, cases in _test_refs(row[-1]):
        source = (ROOT / file).read_text(encoding="utf-8")
        assert test is None or re.search(rf"^def {test}\(", source, re.M), f"{file} has no test {test}"
        for case in cases:
            assert any((ROOT / "tests" / "hostile" / case).glob("*")) or (
                ROOT / "tests" / "hostile" / f"{case}.py").exists(), f"no hostile case {case}"


@pytest.mark.parametrize("ref", ["sandbox.inside.jail.build_rooot", "sandbox.nowhere.enter", "kit.parse.Parser"])
def test_a_wrong_name_is_caught(ref):
    with pytest.raises((AttributeError, ModuleNotFoundError)):
        resolve(ref)


def test_the_sandbox_room_points_here():
    import graders.sandbox

    assert "SECURITY.md" in graders.sandbox.__doc__
