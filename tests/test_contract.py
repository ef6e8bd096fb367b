"""The exercise contract lives in the repository (docs/contract.md), and the stubs keep it."""

import ast
import re
import subprocess

import pytest

from graders import registry
from graders.grading.engine import ROOT

CONTRACT = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")


def _contract_signatures() -> dict:
    """{name: (parameter names, defaults as text)} of each `name(...)` the contract states."""
    found = {}
    for m in re.finditer(r"`(\w+)\(([^`]*)\)(?: -> [^`]+)?`", CONTRACT):
        tree = ast.parse(f"def {m.group(1)}({m.group(2)}): pass")
        found[m.group(1)] = _shape(tree.body[0].args)
    return found


def _shape(args):
    names = [a.arg for a in args.args]
    return names, [ast.unparse(d) for d in args.defaults]


@pytest.mark.parametrize("slug", [e.slug for e in registry.EXERCISES])
def test_every_stub_has_the_contracts_names_parameters_and_defaults(slug):
    stated = _contract_signatures()
    stub = ast.parse((ROOT / "exercises" / f"{slug}.py").read_text(encoding="utf-8"))
    defs = {d.name: _shape(d.args) for d in stub.body if isinstance(d, ast.FunctionDef)}
    for name in registry.get(slug).functions:
        assert name in stated, f"docs/contract.md does not state {name}"
        assert defs.get(name) == stated[name], f"exercises/{slug}.py: {name}{defs.get(name)} vs the contract's " \
                                               f"{stated[name]}"


def test_nothing_in_the_repository_points_outside_it():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not files:
        pytest.skip("not a git checkout")
    outside = [f for f in files if f.endswith((".md", ".py", ".toml", ".ipynb", ".cfg", ".txt"))
               and "../shared" in (ROOT / f).read_text(encoding="utf-8", errors="replace")
               and f != "tests/test_contract.py"]
    assert not outside, f"these files point to ../shared, which a clone does not have: {outside}"
