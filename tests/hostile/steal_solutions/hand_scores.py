# Look for the reference solutions (or the graders): import solutions and graders,
# use the editable install's finder, open the solutions at the real path (written
# in by the test) and at the path the zygote's command line gives away, and walk
# the file system for a file that defines scaled_scores or is a reference solution.
# If anything at all is found, hand in the right answers (the test then sees marks
# where there should be none); otherwise hand in nothing.
import os
import sys
import time

import sympy as sp

REPO = "@@REPO@@"
HERE = os.path.abspath(os.path.dirname(__file__))
SLUGS = ("hand_scores", "softmax", "variance_proof", "attention")
leaks = []


def _try_import(name):
    try:
        __import__(name)
        module = sys.modules[name]
    except BaseException:
        return
    path = getattr(module, "__file__", None)
    if path and os.path.isfile(path):  # not an empty namespace package (the editable finder makes one)
        leaks.append(path)


def _read(path):
    try:
        with open(path, "rb") as f:
            text = f.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        return
    if "def scaled_scores" in text or "Reference solution for" in text or "@check(" in text:
        leaks.append(path)


def steal():
    for slug in SLUGS:
        for package in ("solutions", "graders"):
            _try_import(f"{package}.{slug}")
    for name in ("solutions", "graders", "graders.engine"):
        _try_import(name)
    try:
        import __editable___attn_exercises_0_1_0_finder as finder

        finder.install()
        for name in ("graders", "graders.softmax", "solutions.softmax"):
            _try_import(name)
    except BaseException:
        pass
    repos = [REPO]
    try:
        with open("/proc/1/cmdline", "rb") as f:
            repos += [os.path.dirname(os.path.dirname(a.decode())) for a in f.read().split(b"\0")
                      if a.endswith(b"worker.py")]
    except OSError:
        pass
    for repo in repos:
        for sub in ("solutions", "graders", "demo/submissions/ada"):
            for slug in SLUGS:
                _read(os.path.join(repo, sub, slug + ".py"))
    deadline = time.monotonic() + 2.5  # the import must end within the grader's import timeout
    for start in ("/tmp", "/work", "/root", "/home", "/srv", "/opt", "/"):
        for top, dirs, files in os.walk(start):
            dirs[:] = [d for d in dirs if os.path.join(top, d) not in ("/proc", "/sys", "/dev", HERE)]
            if time.monotonic() > deadline:
                return
            for name in files:
                if name.endswith(".py") and (name[:-3] in SLUGS or "solution" in top or "grader" in top):
                    _read(os.path.join(top, name))


steal()
print("found:", leaks, file=sys.stderr)
_s = (1 / sp.sqrt(2), sp.Integer(0))
_a = (sp.exp(_s[0]) / (1 + sp.exp(_s[0])), 1 / (1 + sp.exp(_s[0])))


def scaled_scores():
    return _s if leaks else None


def attention_weights():
    return _a if leaks else None


def attention_output():
    return (4 * _a[0], 4 * _a[1]) if leaks else None
