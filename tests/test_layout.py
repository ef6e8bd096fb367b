"""The house rules of graders/: which room may import which, read from the source with ``ast``.

    cli -> classroom -> batch -> outfolder -> grading -> kit -> bounded -> sandbox

(cli/ is a package, one module per verb; hints/ holds no code.) A room may import itself and the rooms to
its right (and the registry, from grading on); terminal/ imports nothing of the package, and grading/
and the rooms left of it may import it; a per-exercise grader imports only kit/; a hidden grader imports
kit/ and its public twin; sandbox/ imports nothing else of the package, and
sandbox/inside/, whose files are loaded by path into the sandbox, nothing of it at all.
classroom/ is a folder per job, each saying which others it may import.
Every import counts, those inside functions too.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from graders import registry

PACKAGE = Path(__file__).resolve().parent.parent / "graders"
ROOMS = ("sandbox", "bounded", "kit", "terminal", "grading", "outfolder", "batch", "classroom")
ALLOWED = {
    "sandbox": {"sandbox"},
    "bounded": {"bounded", "sandbox"},
    "kit": {"kit", "bounded", "sandbox"},
    "terminal": {"terminal"},
    "grading": {"grading", "terminal", "kit", "bounded", "sandbox", "registry"},
    "outfolder": {"outfolder", "grading", "terminal", "kit", "registry"},
    "batch": {"batch", "outfolder", "grading", "terminal", "kit", "bounded", "sandbox", "registry"},
    "classroom": {"classroom", "batch", "outfolder", "grading", "terminal", "kit", "bounded", "sandbox", "registry"},
    "cli": {"classroom", "grading", "terminal", "kit", "registry"},  # the sandbox through grading/sandboxes.py
    "registry": set(),
    "package": set(),
    "exercise": {"kit"},
}


def modules() -> dict[str, Path]:
    """Dotted name -> file, for every module of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = ("graders", *path.relative_to(PACKAGE).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = modules()


def room(name: str) -> str:
    """The room of a module: sandbox, kit, grading, classroom, hidden, exercise, cli, registry or package."""
    parts = name.split(".")[1:]
    if not parts:
        return "package"
    if parts[0] in ROOMS or parts[0] == "hidden":
        return parts[0]
    if parts[0] in registry.BY_SLUG:
        return "exercise"
    return parts[0]  # cli, registry


def imports(name: str) -> list[tuple[int, str]]:
    """(line, module of the package) for every import in module ``name``, wherever it is written."""
    return [(line, target) for line, target, _ in _imports(name)]


def _imports(name: str) -> list[tuple[int, str, bool]]:
    """(line, module of the package, written absolute) for every import in module ``name``."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, True) for a in node.names if a.name.split(".")[0] == "graders"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").split(".")[0] == "graders":
                target = node.module
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append((node.lineno, sub if sub in MODULES else target, not node.level))
    return found


def test_the_house_has_its_rooms():
    for name in ROOMS:
        assert (PACKAGE / name / "__init__.py").is_file(), name
    assert (PACKAGE / "registry.py").is_file() and (PACKAGE / "cli" / "__init__.py").is_file()
    for e in registry.EXERCISES:
        assert (PACKAGE / f"{e.slug}.py").is_file() and (PACKAGE / "hidden" / f"{e.slug}.py").is_file(), e.slug
        assert (PACKAGE / "hints" / f"{e.slug}.md").is_file(), f"{e.slug} has no hints (graders/hints/)"
    loose = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__", "registry"} - set(registry.BY_SLUG)
    assert not loose, f"modules outside any room: {sorted(loose)}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_one_way(name):
    mine = room(name)
    wrong = []
    for line, target in imports(name):
        theirs = room(target)
        if mine == "hidden":
            ok = theirs == "kit" or target == f"graders.{name.rpartition('.')[2]}" or target == "graders.hidden"
        else:
            ok = theirs == mine or theirs in ALLOWED[mine]
        if not ok:
            wrong.append(f"line {line}: {target} ({theirs})")
    assert not wrong, f"{name} ({mine}) may not import: " + "; ".join(wrong)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_inside_the_package_are_relative(name):
    """So the public package also works when copied under another name (attn_checks/)."""
    absolute = [line for line, _, is_absolute in _imports(name) if is_absolute]
    assert not absolute, f"{name}: absolute imports of graders on lines {absolute}"


INSIDE = sorted(p.stem for p in (PACKAGE / "sandbox" / "inside").glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("stem", INSIDE)
def test_what_runs_inside_the_sandbox_imports_nothing_of_the_package(stem):
    assert imports(f"graders.sandbox.inside.{stem}") == []


def test_the_inside_room_holds_what_the_zygote_loads_by_path_and_nothing_else():
    from graders.sandbox.inside import factory

    assert sorted(factory.SIBLINGS + ("factory",)) == INSIDE


def test_no_circles():
    graph = {name: {t for _, t in imports(name) if t != name} for name in MODULES}
    state, path = {}, []

    def visit(node):
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                cycle = path[path.index(nxt):] + [nxt]
                raise AssertionError("import circle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_the_package_docstring_names_every_folder_and_module():
    doc = ast.get_docstring(ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))) or ""
    folders = {p.name + "/" for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    files = {p.name for p in PACKAGE.glob("*.py")} - {"__init__.py"} - {f"{s}.py" for s in registry.BY_SLUG}
    missing = sorted(n for n in folders | files if n not in doc)
    assert not missing, f"graders/__init__.py does not mention {missing}"


JOBS = sorted(p.parent.name for p in (PACKAGE / "classroom").glob("*/__init__.py"))


@pytest.mark.parametrize("name", ROOMS + ("cli", "hidden", "sandbox/inside") + tuple(f"classroom/{j}" for j in JOBS))
def test_each_room_explains_itself(name):
    """Its __init__ docstring names every module that lives there."""
    doc = ast.get_docstring(ast.parse((PACKAGE / name / "__init__.py").read_text(encoding="utf-8"))) or ""
    assert len(doc) > 80, f"graders/{name}/__init__.py needs a docstring saying what lives there"
    if name == "hidden":
        return
    if name != "sandbox/inside":  # which imports nothing of the package (a test above)
        assert "May import" in doc, f"graders/{name}/__init__.py should say what it may import"
    for path in sorted((PACKAGE / name).glob("*.py")):
        if path.name != "__init__.py":
            assert path.name in doc, f"graders/{name}/__init__.py does not mention {path.name}"


def classes_by_name(paths) -> dict:
    """class name -> the modules that define a class of that name at their top level."""
    found = {}
    for path in paths:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                shown = path.relative_to(PACKAGE.parent) if path.is_relative_to(PACKAGE.parent) else path
                found.setdefault(node.name, []).append(str(shown))
    return found


def test_one_name_per_concept():
    """No two classes of the package share a name: a reader who meets ``Outcome`` or ``Student`` knows which."""
    twice = {name: where for name, where in classes_by_name(MODULES.values()).items() if len(where) > 1}
    assert not twice, f"classes that share a name: {twice}"


def test_the_one_name_rule_can_fail(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text("class Outcome:\n    pass\n")
    monkeypatch.setitem(MODULES, "graders.sandbox.a", tmp_path / "a.py")
    with pytest.raises(AssertionError, match="Outcome.*graders/kit/outcomes.py"):
        test_one_name_per_concept()


def job_of(name: str) -> str:
    """classroom/<job>/ for a module of a job's folder, else its room followed by "/"."""
    parts = name.split(".")[1:]
    if parts[:1] == ["classroom"] and len(parts) > 2:
        return f"classroom/{parts[1]}/"
    return "the registry" if room(name) == "registry" else f"{room(name)}/"


def job_may_import(job: str) -> set:
    doc = ast.get_docstring(ast.parse((PACKAGE / "classroom" / job / "__init__.py").read_text(encoding="utf-8")))
    said = " ".join(doc.partition("May import:")[2].split())
    return {f"classroom/{job}/"} | set(re.findall(r"[a-z_]+(?:/[a-z_]+)*/", said)) | (
        {"the registry"} if "the registry" in said else set())


@pytest.mark.parametrize("job", JOBS)
def test_each_classroom_job_imports_what_it_says(job):
    """A job's folder (classroom/report/, classroom/nbgrader/, ...) imports only the rooms and the other
    jobs its __init__ names after "May import"."""
    allowed = job_may_import(job)
    wrong = sorted({f"{name} imports {target}" for name in MODULES if job_of(name) == f"classroom/{job}/"
                    for _, target in imports(name) if job_of(target) not in allowed})
    assert not wrong, f"classroom/{job}/__init__.py does not allow: " + "; ".join(wrong)


def test_the_job_rule_can_fail(tmp_path, monkeypatch):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from ..release import leaks\n")
    monkeypatch.setitem(MODULES, "graders.classroom.hub.bad", bad)
    with pytest.raises(AssertionError, match="hub.bad imports graders.classroom.release.leaks"):
        test_each_classroom_job_imports_what_it_says("hub")


def test_the_rule_can_fail(tmp_path, monkeypatch):
    """A planted wrong-way import is caught: the checks above are not vacuous."""
    bad = tmp_path / "graders" / "sandbox" / "bad.py"
    bad.parent.mkdir(parents=True)
    bad.write_text("def f():\n    from ..grading import engine\n    from .. import registry\n")
    monkeypatch.setitem(MODULES, "graders.sandbox.bad", bad)
    with pytest.raises(AssertionError, match="line 2: graders.grading.engine.*line 3: graders.registry"):
        test_imports_point_one_way("graders.sandbox.bad")
    cyc = tmp_path / "graders" / "kit" / "cyc.py"
    cyc.parent.mkdir(parents=True)
    cyc.write_text("from . import cyc2\n")
    cyc2 = cyc.with_name("cyc2.py")
    cyc2.write_text("def g():\n    from . import cyc\n")
    monkeypatch.setitem(MODULES, "graders.kit.cyc", cyc)
    monkeypatch.setitem(MODULES, "graders.kit.cyc2", cyc2)
    with pytest.raises(AssertionError, match="import circle: graders.kit.cyc -> graders.kit.cyc2 -> graders.kit.cyc"):
        test_no_circles()


# ------------------------------------------------------------------ what a grader may use of another module
HIDDEN = sorted(p for p in (PACKAGE / "hidden").glob("*.py") if p.name != "__init__.py")


def private_names(path: Path) -> list[str]:
    """Each name starting with "_" that the file imports (``from X import _name``) or reads from something
    it imported (``X._name``, an imported grader module above all), as "line N: ..."."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found, imported = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name.startswith("_") and alias.name != "__future__":
                    found.append((node.lineno, f"line {node.lineno}: {alias.name} from {source}"))
                imported.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            imported.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in imported
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            found.append((node.lineno, f"line {node.lineno}: {node.value.id}.{node.attr}"))
    return [text for _, text in sorted(found)]


@pytest.mark.parametrize("path", HIDDEN, ids=lambda p: p.name)
def test_hidden_graders_use_only_public_names(path):
    """A hidden twin uses what its public grader offers, not its insides: a helper it needs is public
    there (or in kit/), so renaming a private helper never breaks a file that is not shipped."""
    found = private_names(path)
    assert not found, f"graders/hidden/{path.name} uses private names: " + "; ".join(found)


def test_the_private_name_rule_can_fail(tmp_path):
    bad = tmp_path / "softmax.py"
    bad.write_text("from ..softmax import CATALOGUE, _softmax\nfrom .. import softmax as s\n\n"
                   "def f(sub):\n    return s._floor(sub), s.__doc__\n")
    assert private_names(bad) == ["line 1: _softmax from ..softmax", "line 5: s._floor"]


def kit_names_graders_use() -> dict[str, str]:
    """name -> the first grader that imports it from kit/ (graders/<slug>.py, graders/hidden/<slug>.py, and
    the graders ``attn-grade course new`` writes from graders/classroom/authoring/scaffoldtext.py's templates)."""
    from graders.classroom.authoring import scaffold

    sources = [(f"graders/{p.relative_to(PACKAGE)}", p.read_text(encoding="utf-8"))
               for e in registry.EXERCISES for p in (PACKAGE / f"{e.slug}.py", PACKAGE / "hidden" / f"{e.slug}.py")]
    sources += [(f"scaffold.{t}", "\n".join(line for line in getattr(scaffold, t).splitlines()
                                            if line.startswith("from .")))
                for t in ("GRADER", "HIDDEN")]
    used = {}
    for where, text in sources:
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "kit":
                for alias in node.names:
                    used.setdefault(alias.name, where)
    return used


KIT = sorted(name for name in MODULES if room(name) == "kit")


@pytest.mark.parametrize("name", KIT)
def test_kit_modules_declare_only_what_exists(name):
    """A kit module's ``__all__`` (which every module kit/ re-exports from must have) names only what it
    defines or imports, once each."""
    module = importlib.import_module(name)
    names = getattr(module, "__all__", None)
    if names is None:
        assert name.rpartition(".")[2] not in _reexported_from(), f"{name} is re-exported by kit but has no __all__"
        return
    assert len(set(names)) == len(names), f"{name}.__all__ names something twice"
    missing = [n for n in names if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ names what it does not have: {missing}"


def _reexported_from() -> set[str]:
    tree = ast.parse((PACKAGE / "kit" / "__init__.py").read_text(encoding="utf-8"))
    return {node.module for node in tree.body if isinstance(node, ast.ImportFrom) and node.level == 1}


def test_kit_offers_what_graders_import_from_it():
    """graders.kit.__all__ is the graders' vocabulary: every name a grader imports from kit/, each
    declared by the module it comes from, and nothing no grader uses."""
    import graders.kit as kit

    used = kit_names_graders_use()
    offered = set(kit.__all__)
    assert not set(used) - offered, "graders import from kit what graders.kit.__all__ lacks: " + ", ".join(
        f"{n} ({used[n]})" for n in sorted(set(used) - offered))
    assert not offered - set(used), f"graders.kit.__all__ offers what no grader uses: {sorted(offered - set(used))}"
    for n in kit.__all__:
        homes = [m for m in _reexported_from() if n in getattr(importlib.import_module(f"graders.kit.{m}"),
                                                                 "__all__", ())]
        assert homes, f"graders.kit.{n} is declared by none of the modules kit re-exports from"


def test_every_sub_a_check_is_given_is_a_student():
    """What a grader calls on the student's code is the declared Protocol (kit/student.py),
    and each of the five things a check is handed implements it."""
    from graders.grading.budget import Budgeted
    from graders.grading.notebook import InProcess
    from graders.grading.plans import Recording, Replay
    from graders.kit import Student
    from graders.sandbox.submission import Submission

    doc = importlib.import_module(Student.__module__).__doc__
    assert all(f".{name} " in doc for name in ("Submission", "InProcess", "Budgeted", "Recording", "Replay"))
    lacking = [cls.__name__ for cls in (Submission, InProcess, Budgeted, Recording, Replay)
               if not issubclass(cls, Student)]
    assert not lacking, f"not a Student (no call or call_full): {lacking}"


def test_only_settings_reads_the_environments_choices():
    """What the environment chooses is read once, in grading/settings.py, and passed down: no other
    module reads an ATTN_* variable. (ATTN_ZYGOTE_* are not settings: zygote.py sets them in the
    environment of the zygote it starts, and factory.py reads them there.)"""
    import re

    readers = [f"{path.relative_to(PACKAGE)}:{n}" for name, path in MODULES.items() if name != "graders.grading.settings"
               for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
               if re.search(r"\bATTN_(?!ZYGOTE_)[A-Z_]+", line) and re.search(r"environ|getenv", line)]
    assert not readers, f"ATTN_* read outside grading/settings.py: {readers}"
