"""Import only what a command needs: no SymPy for the array exercises, in the grading
process or in the zygote; a file that uses SymPy anyway still gets it."""

import subprocess
import sys
import textwrap

from graders.grading.engine import ROOT, grade_file
from graders.sandbox.sandbox import Sandbox
from graders.sandbox.submission import Submission
from graders.sandbox.zygote import Zygote

LOADED = """
import sys
import graders.{slug}, graders.grading.engine, graders.cli.check
print(sorted(m for m in ("sympy", "hypothesis") if m in sys.modules))
"""


def _loaded(slug):
    out = subprocess.run([sys.executable, "-c", LOADED.format(slug=slug)], capture_output=True, text=True,
                         check=True).stdout
    return eval(out)  # a list of names we printed ourselves


def test_an_array_exercise_is_graded_without_importing_sympy():
    assert _loaded("softmax") == []  # nor Hypothesis, until a property is drawn live (kit/lazy.py)
    assert _loaded("hand_scores") == []  # SymPy too: until a check uses it (see below)


GRADE = """
import sys
from graders.grading.engine import ROOT, caches, grade_file
from graders.grading.settings import Settings
r = grade_file("softmax", {path!r}, cached=caches(Settings.from_environ().plans))  # as a command would
print(repr((r.points, r.max_points, "hypothesis" in sys.modules)))
"""


def _grade(tmp_path, path):
    env = {**__import__("os").environ, "ATTN_GRADE_CACHE": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", GRADE.format(path=str(path))], capture_output=True, text=True,
                         check=True, env=env).stdout
    return eval(out.strip().splitlines()[-1])  # a tuple we printed ourselves


def test_a_check_that_replays_every_plan_never_imports_hypothesis(tmp_path):
    solution = ROOT / "solutions" / "softmax.py"
    assert _grade(tmp_path, solution) == (10.0, 10.0, True)  # the first run records the plans
    assert _grade(tmp_path, solution) == (10.0, 10.0, False)  # then every check replays them
    mutant = ROOT / "tests" / "mutants" / "softmax" / "sums_wrong_axis.py"
    points, _, imported = _grade(tmp_path, mutant)
    assert points < 10 and imported  # a failing property is drawn live, to shrink its counterexample


def test_a_zygote_without_sympy_still_serves_a_file_that_uses_it(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(textwrap.dedent("""
        import sys
        LOADED_AT_START = "sympy" in sys.modules
        def loaded():
            return LOADED_AT_START
    """))
    for preload in (False, True):
        zygote = Zygote()
        zygote.start(sympy=preload)
        try:
            with Submission(probe, zygote=zygote) as sub:
                assert sub.start().ready and sub.call("loaded") is preload
            with Sandbox(ROOT / "solutions", zygote=zygote) as sandbox:
                result = grade_file("hand_scores", ROOT / "solutions" / "hand_scores.py", sandbox=sandbox)
            assert result.points == result.max_points == 8
        finally:
            zygote.close()


EXACT = """
import sys
from graders.grading.engine import caches, grade_file
from graders.grading.settings import Settings
r = grade_file({slug!r}, {path!r}, cached=caches(Settings.from_environ().plans))  # as a command would
print(repr((r.points, r.max_points, "sympy.core" in sys.modules)))
"""


def _grade_exact(tmp_path, slug, path):
    env = {**__import__("os").environ, "ATTN_GRADE_CACHE": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", EXACT.format(slug=slug, path=str(path))], capture_output=True,
                         text=True, check=True, env=env).stdout
    return eval(out.strip().splitlines()[-1])  # a tuple we printed ourselves


def test_a_check_whose_passes_are_remembered_never_imports_sympy(tmp_path):
    """kit/lazy.py's ``module`` and engine.Reference: SymPy is imported by the first check that uses it."""
    for slug, full in (("hand_scores", 8.0), ("variance_proof", 6.0)):
        solution = ROOT / "solutions" / f"{slug}.py"
        assert _grade_exact(tmp_path, slug, solution) == (full, full, True)  # recorded, compared, remembered
        assert _grade_exact(tmp_path, slug, solution) == (full, full, False)  # every pass remembered
    mutant = sorted((ROOT / "tests" / "mutants" / "hand_scores").glob("*.py"))[0]
    points, _, imported = _grade_exact(tmp_path, "hand_scores", mutant)
    assert points < 8 and imported  # a failing check compares, with SymPy


def test_a_lazy_module_imports_the_one_every_import_gets():
    code = """
import sys
from graders.kit.lazy import load, module
sp = module("sympy")
assert "sympy.core" not in sys.modules
assert "not imported" not in repr(sp) and "at first use" in repr(sp)
assert sp.Integer(2) + 1 == 4 - 1 and "sympy.core" in sys.modules
import sympy
assert sp.Integer is sympy.Integer and module("sympy") is sympy  # one SymPy: the real one
load(sp)
try:
    module("no_such_module_here")
except ModuleNotFoundError as exc:
    assert exc.name == "no_such_module_here"
else:
    raise AssertionError("a missing module was not refused")
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_reference_gives_its_path_without_importing_and_its_names_when_asked():
    code = """
import sys
from graders.grading.engine import ROOT, reference
ref = reference("variance_proof")
assert ref.__file__ == str(ROOT / "solutions" / "variance_proof.py") and "sympy.core" not in sys.modules
assert str(ref.dot_variance()) == "d_k" and "sympy.core" in sys.modules
assert reference("variance_proof") is ref and reference("no_such_exercise") is None
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip() == "ok", done.stderr


def test_list_and_hint_load_neither_numpy_nor_the_zygote():
    """A learner's list and hint print at once: what they import of grading/sandboxes.py (the
    folder limits) must not bring sandbox/errors.py's NumPy, nor the zygote."""
    code = ("import sys; import graders.cli.progress, graders.cli.hint, graders.cli.state; "
            "print(sorted(m for m in ('numpy', 'graders.sandbox.zygote') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
