"""One generic test over the registry: every grader against its solution,
its stub, its mutants (realistic wrong answers) and its correct alternatives.

Every mutant file declares what its feedback must say, in lines at its top:

* ``# diagnosis: <words>`` (one or more lines): the feedback contains those words,
  and every hint it gives ("It looks like ...", graders/kit/catalogue.py) and every
  piece of fixed advice (a cause or a fix a check states on its own observation,
  registered with ``advice()``, graders/kit/checks.py) contains one of them; ``# diagnosis: none``:
  the feedback gives neither. So a hint naming a mistake the student did not make,
  or advice a check gives whenever it fails, fails the test.
* ``# lesson: <mistake>``, for a mistake on the course's list of headline
  mistakes (LESSON_MISTAKES): the public checks alone take points off, since
  they are what students see before the deadline; ``# public: cannot, <why>``
  excuses a mutant that the public checks cannot catch, and says why.
* ``# never: <words>``: advice the feedback must not give, because nothing in this
  mutant's answers supports it (a check once gave it whenever it failed).
"""

import ast
import re
from pathlib import Path

import pytest

from graders import registry
from graders.grading.engine import ROOT, checks_of, grade_file
from graders.kit.catalogue import HINTS
from graders.kit.checks import ADVICE

# The mistakes the lessons are about (issue 10): each must cost public points in its exercise.
LESSON_MISTAKES = (
    "no √d_k or dividing by d_k", "√d_model in place of √d_k", "softmax over the wrong axis or the whole array",
    "masking after the softmax", "an off-by-one causal mask", "a padding mask on queries or with the wrong polarity",
    "keys or values from the wrong side", "heads interleaved or concatenated in the wrong order",
    "W_o left out or transposed", "floats where exact values are asked", "an rng ignored or only partly used",
)
GUESSING = re.compile(r"\blooks? like\b|\bseems?\b|\bapparently\b", re.I)

SLUGS = [e.slug for e in registry.EXERCISES]
HERE = Path(__file__).parent
MUTANTS = sorted((HERE / "mutants").glob("*/*.py"))
ALTERNATIVES = sorted((HERE / "alternatives").glob("*/*.py"))
# Right code as people write it: public tutorials, course repositories and from-scratch projects,
# adapted only to the signatures, each naming its source (issue 34). Every file keeps full marks.
CORPUS = sorted((HERE / "corpus").glob("*/*.py"))


def _messages(result):
    return "\n".join(c.message for c in result.checks)


def _no_grader_errors(result):
    errors = [f"{c.name}: {c.message}" for c in result.checks if c.outcome == "error"]
    assert not errors, "the grader itself failed:\n" + "\n".join(errors)


@pytest.mark.parametrize("slug", SLUGS)
def test_check_points_add_up_to_the_registry(slug):
    checks = checks_of(slug)
    assert checks, f"graders/{slug}.py defines no checks"
    assert sum(c.spec.points for c in checks) == registry.get(slug).points
    assert any(c.spec.hidden for c in checks) and any(not c.spec.hidden for c in checks)
    assert len({c.spec.name for c in checks}) == len(checks), "check names must be unique"
    for c in checks:
        assert set(c.spec.uses) <= set(registry.get(slug).functions), c.spec.name


@pytest.mark.parametrize("slug", SLUGS)
def test_hidden_checks_live_only_in_graders_hidden(slug):
    """Students get graders/ without hidden/: a hidden check left in graders/<slug>.py would ship."""
    public = checks_of(slug, hidden=False)
    assert public and not any(c.spec.hidden for c in public), f"graders/{slug}.py holds a hidden check"
    hidden = checks_of(slug)[len(public):]
    assert hidden and all(c.spec.hidden for c in hidden), f"graders/hidden/{slug}.py holds a public check"
    assert {c.__module__ for c in hidden} == {f"graders.hidden.{slug}"}


@pytest.mark.parametrize("slug", SLUGS)
def test_reference_solution_scores_full_marks(slug):
    result = grade_file(slug, ROOT / "solutions" / f"{slug}.py")
    _no_grader_errors(result)
    lost = [f"{c.name}: {c.message}" for c in result.checks if not c.passed]
    assert result.points == result.max_points == registry.get(slug).points, "\n".join(lost)


@pytest.mark.parametrize("slug", SLUGS)
def test_stub_scores_zero_without_crashing_the_grader(slug):
    result = grade_file(slug, ROOT / "exercises" / f"{slug}.py")
    assert not result.problem, result.problem  # the stub imports cleanly
    _no_grader_errors(result)
    assert result.points == 0, [(c.name, c.points) for c in result.checks if c.points]
    assert all(c.message for c in result.checks), "every failed check must say why"


def _declared(path, key):
    return [line.split(":", 1)[1].strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.startswith(f"# {key}:")]


def wrong_hints(text: str, declared: list) -> list:
    """The hints and the registered advice in ``text`` that contain none of the ``declared`` words,
    and any guessing ("looks like", "seems") outside a hint of the graders'."""
    said = HINTS | ADVICE
    allowed = [h for h in said if any(d in h for d in declared)]
    rest = text
    for h in sorted(allowed, key=len, reverse=True):
        rest = rest.replace(h, "")
    wrong = [h for h in sorted(said, key=len, reverse=True) if h in rest]
    for h in wrong:
        rest = rest.replace(h, "")
    return wrong + [rest[max(0, m.start() - 60): m.end() + 60] for m in GUESSING.finditer(rest)]


def test_undeclared_advice_counts_as_a_wrong_hint():
    """Advice registered with ``advice()`` in a mutant's feedback fails the test unless the mutant declares it."""
    from graders import saturation

    text = f"f(7) gave 1.5, but f(rng=7) gave 2.5: the same seed must give the same result; {saturation.GLOBAL_STATE}"
    assert wrong_hints(text, []) == [saturation.GLOBAL_STATE]
    assert wrong_hints(text, ["the same seed"]) == [saturation.GLOBAL_STATE]  # words of the observation only
    assert wrong_hints(text, ["NumPy's global state"]) == []


def _message_texts(path):
    """The text of every string literal in a grader file, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree) if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docs]


@pytest.mark.parametrize("slug", SLUGS)
def test_feedback_asks_no_questions(slug):
    """A question about the student's code ("are the two swapped?", "did you ...?") states a cause that
    nothing confirmed: a check says what it observed and what was expected (issue 21)."""
    for path in (ROOT / "graders" / f"{slug}.py", ROOT / "graders" / "hidden" / f"{slug}.py"):
        asked = [t for t in _message_texts(path) if "?" in t or re.search(r"\bdid you\b", t, re.I)]
        assert not asked, f"{path.name}: {asked}"


@pytest.mark.parametrize("path", MUTANTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_mutant(path, record_property):
    """Loses marks; says its diagnosis and no other hint; a lesson mistake loses public marks.
    Its figures go to the summary at the end of the run (conftest.py, corpus_figures)."""
    result = grade_file(path.parent.name, path)
    record_property("mutant", _figures(path, result))
    _no_grader_errors(result)
    assert result.points < result.max_points, f"{path.name} kept full marks"
    _says_its_diagnosis_and_no_other(path, _messages(result))
    _a_lesson_mistake_loses_public_marks(path, result)


def _figures(path, result) -> dict:
    """What the corpus summary counts of one mutant: caught, publicly too, its diagnosis shown, wrong hints."""
    text, declared = _messages(result), _declared(path, "diagnosis")
    words = [w for w in declared if w != "none"]
    public = sum(c.max_points - c.points for c in result.checks if c.visibility == "public")
    return {"slug": path.parent.name, "name": f"{path.parent.name}/{path.stem}", "caught": result.points < result.max_points, "public": public > 0,
            "declared": bool(words), "shown": bool(words) and all(w in text for w in words),
            "wrong": len(wrong_hints(text, words)) + sum(w in text for w in _declared(path, "never"))}


def _says_its_diagnosis_and_no_other(path, text):
    declared = _declared(path, "diagnosis")
    assert declared, f"{path.name} declares no '# diagnosis: <words>' (or '# diagnosis: none')"
    assert declared == ["none"] or "none" not in declared, "'# diagnosis: none' stands alone"
    words = [] if declared == ["none"] else declared
    for w in words:
        assert w in text, f"expected the feedback to say {w!r}; it said:\n{text}"
    wrong = wrong_hints(text, words)
    assert not wrong, f"hints about mistakes {path.name} does not make: {wrong}\nThe feedback:\n{text}"
    said = [w for w in _declared(path, "never") if w in text]
    assert not said, f"advice {path.name} has no evidence for: {said}\nThe feedback:\n{text}"


def _a_lesson_mistake_loses_public_marks(path, result):
    lessons = _declared(path, "lesson")
    assert all(item in LESSON_MISTAKES for item in lessons), f"unknown lesson mistake in {lessons}"
    excuse = _declared(path, "public")
    public = [c for c in result.checks if c.visibility == "public"]
    lost = sum(c.max_points - c.points for c in public)
    if not lessons:
        assert not excuse, "only a lesson mistake needs an excuse for keeping its public points"
        return
    if excuse:
        assert excuse[0].startswith("cannot, ") and lost == 0, "an excuse must say why, and be needed"
        return
    text = "\n".join(f"{c.name}: {c.message}" for c in public if not c.passed)
    assert lost > 0, f"{path.name} ({lessons[0]}) keeps every public point:\n{text}"


@pytest.mark.parametrize("path", ALTERNATIVES + CORPUS, ids=lambda p: f"{p.parents[1].name}/{p.parent.name}/{p.stem}")
def test_right_code_keeps_full_marks(path, record_property):
    """A correct alternative of ours, or right code from the corpus: full marks, public and hidden,
    and no hint at all (a hint names a mistake; right code has none)."""
    result = grade_file(path.parent.name, path)
    text = _messages(result)
    # a hint names a mistake; a tip given with full marks ("That counts. A tip: ...") names none
    named = [h for h in HINTS if h in text] + [m.group(0) for m in GUESSING.finditer(text)]
    record_property("right", {"name": f"{path.parent.name}/{path.stem}", "lost": result.max_points - result.points,
                              "wrong": len(named)})
    _no_grader_errors(result)
    lost = [f"{c.name}: {c.message}" for c in result.checks if not c.passed]
    assert result.points == result.max_points, "\n".join(lost)
    assert not named, f"right code was told of a mistake: {named}"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_corpus_file_names_its_source_and_what_was_adapted(path):
    head = path.read_text(encoding="utf-8")
    for key in ("source", "license", "adapted"):
        assert _declared(path, key), f"{path.name} has no '# {key}: ...' line"
    assert head.startswith('"""'), f"{path.name} starts with no docstring saying its style"


def test_the_corpus_spans_every_exercise():
    """At least 40 right files in all, and some in every exercise."""
    per = {slug: len(list((HERE / "corpus" / slug).glob("*.py"))) for slug in SLUGS}
    assert sum(per.values()) >= 40 and all(per.values()), per


@pytest.mark.parametrize("slug", SLUGS)
def test_corpus_has_enough_mutants_and_alternatives(slug):
    assert len(list((HERE / "mutants" / slug).glob("*.py"))) >= 5
    assert len(list((HERE / "alternatives" / slug).glob("*.py"))) >= 2


@pytest.mark.parametrize("slug", SLUGS)
def test_grading_twice_gives_identical_results(slug):
    path = next(iter(sorted((HERE / "mutants" / slug).glob("*.py"))), ROOT / "solutions" / f"{slug}.py")
    first, second = grade_file(slug, path), grade_file(slug, path)
    assert [(c.name, c.points, c.outcome, c.message) for c in first.checks] == \
           [(c.name, c.points, c.outcome, c.message) for c in second.checks]
