"""``attn-grade course new`` writes the exercise's section of docs/contract.md in the form
docs/writing-a-grader.md gives and tests/test_contract.py reads: at the end of "The exercises",
numbered next, one signature per function. A section written first by hand is kept; a function
name the contract states already is refused, before anything is written."""

import re
import shutil
from pathlib import Path

import pytest

from graders.classroom.authoring.scaffold import ScaffoldError, new

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
SECTIONS = re.findall(r"^### (\d+)\. `(\w+)`", CONTRACT, re.M)  # the exercises' sections, in order
NEXT = len(SECTIONS) + 1  # the number the next exercise's section gets
LESSON = 1 + max(int(p.name[:2]) for p in (ROOT / "course" / "lessons").glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture
def root(tmp_path):
    for rel in ("graders/registry.py", "docs/contract.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, tmp_path / rel)
    shutil.copytree(ROOT / "course" / "lessons", tmp_path / "course" / "lessons")
    return tmp_path


def test_the_section_goes_at_the_end_of_the_exercises_in_the_contracts_form(root, monkeypatch):
    import test_contract  # what it reads of the contract, read from the new one

    said = []
    new(root, "rope", "Rotary position embeddings", "part3_attention", ["rotate", "unrotate"], say=said.append)
    text = (root / "docs" / "contract.md").read_text(encoding="utf-8")
    section = text.index(f"### {NEXT}. `rope`: Rotary position embeddings\n")
    last = SECTIONS[-1]
    assert text.index(f"### {last[0]}. `{last[1]}`") < section < text.index("## Properties the graders test with Hypothesis")
    monkeypatch.setattr(test_contract, "CONTRACT", text)
    stated = test_contract._contract_signatures()
    assert stated["rotate"] == stated["unrotate"] == (["x"], []) and stated["softmax"] == (["z", "axis"], ["-1"])
    assert f"| {LESSON} | [`{LESSON:02d}_rope.ipynb`]({LESSON:02d}_rope.ipynb) |" in \
        (root / "course/lessons/README.md").read_text()
    assert said[0].startswith(f"NO LESSON YET: course/lessons/{LESSON:02d}_rope.ipynb is a placeholder")


def test_a_section_written_first_is_kept(root):
    contract = root / "docs" / "contract.md"
    mine = f"### {NEXT}. `rope`: Rotary position embeddings\n\n- `rotate(x, theta=10000.0)`: mine\n"
    contract.write_text(contract.read_text(encoding="utf-8").replace("\n## Properties", f"\n{mine}\n## Properties"))
    before, said = contract.read_text(encoding="utf-8"), []
    new(root, "rope", "Rotary position embeddings", "part3_attention", ["rotate"], say=said.append)
    assert contract.read_text(encoding="utf-8") == before
    assert "docs/contract.md has a section for rope already: kept as it is." in said


def test_a_function_the_contract_states_already_is_refused(root):
    before = {p: p.read_text() for p in root.rglob("*") if p.is_file()}
    with pytest.raises(ScaffoldError, match="docs/contract.md states softmax already"):
        new(root, "rope", "T", "part3_attention", ["rotate", "softmax"], say=print)
    assert {p: p.read_text() for p in root.rglob("*") if p.is_file()} == before
