"""attn-grade comment: one comment, written once, for every submission that behaves alike.

An instructor writes in OUT/comments.toml a comment under a group's key (groups.py)::

    [softmax.7ccedaf72ce2039f]
    text = '''Subtract each row's maximum before np.exp: ...'''

``apply`` adds it to the feedback of every student whose file of that exercise
has that signature, as a check worth no points, "a comment from your
instructor", in their results.json (Gradescope's shape, which report.html, the
feedback pages and the nbgrader notebooks are made from). It runs after every
``attn-grade grade`` and on its own (``attn-grade comment OUT``). A comment
stays while the student's answers behave the same; once a regrade moves a
student out of the group it is dropped from their feedback, and the command
says so. OUT/comments.json keeps whom each comment reached (which is how a drop
is seen) and the students whose nbgrader notebooks still lack a change.
Comments change no score.
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

from ... import registry
from ...outfolder.outfiles import STUDENTS, Busy, write_atomic, writing
from ...terminal.wrap import fit_lines
from ...grading.results import MAX_CHECK_TEXT, CheckResult, clean, cut, gradescope_test
from ...kit.outcomes import Outcome
from . import analysis, groups

FILE, LEDGER = "comments.toml", "comments.json"
NAME = "a comment from your instructor"


class CommentError(ValueError):
    """comments.toml cannot be used; the message says where and why."""


def read(out: Path) -> dict:
    """key -> comment text from OUT/comments.toml ({} if there is none), or a CommentError."""
    path = Path(out) / FILE
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CommentError(f"{path} could not be read: {exc}") from None
    found = {}
    for slug, table in data.items():
        if slug not in registry.BY_SLUG:
            raise CommentError(f"{path}: [{slug}...]: no exercise is called {slug}; the exercises are "
                               f"{', '.join(registry.BY_SLUG)}")
        if not isinstance(table, dict):
            raise CommentError(f"{path}: {slug} should be a table of groups, [{slug}.SIGNATURE]")
        for signature, entry in table.items():
            key = f"{slug}.{signature}"
            if not groups.SIGNATURE.fullmatch(signature):
                raise CommentError(f"{path}: [{key}]: a group's signature is 16 hexadecimal digits, as "
                                   f"report.html and the starter file show it")
            if not (isinstance(entry, dict) and isinstance(entry.get("text"), str) and entry["text"].strip()):
                raise CommentError(f"{path}: [{key}] needs a line text = \"...\" with the comment")
            found[key] = cut(clean(entry["text"].strip()), MAX_CHECK_TEXT)
    return found


def starter(klass: analysis.Class) -> str:
    """A comments.toml to fill in: every group of two or more that answers otherwise than the reference
    and lost points, commented out."""
    lines = ["# Comments for groups of submissions that answer alike (attn-grade comment).",
             "# Remove the '#' of a group's lines and write its comment; run 'attn-grade comment OUT'",
             "# (or grade again) and it reaches every member's feedback. Keys come from report.html.", ""]
    for slug, found in groups.of(klass).items():
        for g in (g for g in found if g.answers_otherwise and len(g.members) > 1):
            what = g.mistake or "no known mistake named"
            who = ", ".join(g.members[:3]) + (", ..." if len(g.members) > 3 else "")
            lines += [" ".join(f"# {len(g.members)} students ({who}); {what}".split()),  # one line, whatever it says
                      f"# [{g.key}]", "# text = '''...'''", ""]
    return "\n".join(lines)


def apply(out: Path, say=print) -> set:
    """Give every student the comments of their groups, drop those they left; return the students
    whose results.json changed. Says what reached whom, and every comment dropped."""
    out = Path(out)
    wanted = read(out)
    ledger = _ledger(out)
    if not wanted and not ledger:
        return set()  # no comment was ever written here
    old = ledger.get("reached") if isinstance(ledger.get("reached"), dict) else {}
    before = {k: [s for s in v if isinstance(s, str)] for k, v in old.items() if isinstance(v, list)}
    reached, changed, unread = {}, set(), set()
    for path in sorted((out / STUDENTS).glob("*/results.json")):
        student = path.parent.name
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not (isinstance(data, dict) and isinstance(data.get("tests"), list)):
                raise ValueError("not a results.json of attn-grade grade")
        except (OSError, ValueError) as exc:
            say(f"comments: {path} could not be read ({exc}); its comments are left as they were")
            unread.add(student)
            continue
        extra = data.get("extra_data") if isinstance(data.get("extra_data"), dict) else {}
        behaviour = analysis.behaviour_in(data)
        tests = [t for t in data["tests"] if not _is_comment(t)]
        for slug in extra.get("exercises", []) if isinstance(extra.get("exercises"), list) else ():
            key = groups.key_of(slug, behaviour.get(slug))
            if key in wanted:
                tests.append(_comment_test(slug, key, wanted[key]))
                reached.setdefault(key, []).append(student)
        if tests != data.get("tests"):
            data["tests"] = tests
            write_atomic(path, json.dumps(data, indent=2, sort_keys=True) + "\n")
            changed.add(student)
    for key, members in before.items():  # whom a file that could not be read had: kept as it was
        for s in sorted(set(members) & unread):
            reached.setdefault(key, []).append(s)
    reached = {key: sorted(members) for key, members in reached.items()}
    graded = {p.parent.name for p in (out / STUDENTS).glob("*/results.json")}
    dropped = [(key, s) for key, members in sorted(before.items()) for s in members if s not in reached.get(key, [])]
    pending = sorted(set(ledger.get("pending", []) if isinstance(ledger.get("pending"), list) else []) | changed)
    write_atomic(out / LEDGER, json.dumps({"reached": reached, "pending": pending}, indent=2, sort_keys=True) + "\n")
    for key, members in sorted(reached.items()):
        say(f"comment {key}: in the feedback of {len(members)} student(s)")
    for key, student in dropped:
        why = ("it is no longer in comments.toml" if key not in wanted else
               "they have no results in OUT any more" if student not in graded else
               f"their {key.split('.')[0]} answers differently now")
        say(f"comment {key}: dropped from {student}'s feedback ({why})")
    unmatched = sorted(set(wanted) - set(reached))
    for key in unmatched:
        say(f"comment {key}: no student's answers behave so now; it reaches no one")
    return changed


def written_to_notebooks(out: Path, students) -> None:
    """The nbgrader notebooks of ``students`` now carry their comments: no longer pending."""
    ledger = _ledger(Path(out))
    if isinstance(ledger.get("pending"), list) and ledger["pending"]:
        ledger["pending"] = sorted(set(ledger["pending"]) - set(students))
        write_atomic(Path(out) / LEDGER, json.dumps(ledger, indent=2, sort_keys=True) + "\n")


def pending(out: Path) -> set:
    """The students whose comments changed since their nbgrader notebooks were last written."""
    return set(_ledger(Path(out)).get("pending", []))


def _ledger(out: Path) -> dict:
    try:
        data = json.loads((out / LEDGER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _is_comment(test) -> bool:
    return isinstance(test, dict) and isinstance(test.get("extra_data"), dict) and "comment" in test["extra_data"]


def _comment_test(slug: str, key: str, text: str) -> dict:
    """The comment as a check worth nothing, in results.json's shape, marked with its group's key."""
    test = gradescope_test(slug, CheckResult(slug, NAME, 0.0, 0.0, Outcome.PASSED, text, "public"))
    test["extra_data"]["comment"] = key
    return test


# ------------------------------------------------------------------ the command
def register(subparsers) -> None:
    p = subparsers.add_parser(
        "comment", help="one comment for every submission that answers alike (instructors)",
        description=f"Add the comments of OUT/{FILE} to the feedback of every student of their group: a group "
                    "is the submissions of one exercise that answer every recorded call alike (report.html lists "
                    f"them). Without {FILE}, write a starter listing the groups that lost points. A comment "
                    "is dropped, saying so, from a student a regrade moved out of its group. Scores never change.")
    p.add_argument("out", type=Path, metavar="OUT", help="the --out folder of 'attn-grade grade'")
    p.set_defaults(run=_run)


def _run(parser, args) -> int:
    out = args.out
    if not (out / "gradebook.csv").is_file():
        parser.error(f"{out}: no gradebook.csv there; give the --out folder of 'attn-grade grade'")
    try:
        with writing(out, "attn-grade comment"):
            return _comment(out)
    except Busy as exc:
        print(f"attn-grade comment: {exc}", file=sys.stderr)
        return 2


def _comment(out: Path) -> int:
    if not (out / FILE).is_file():
        try:
            klass = analysis.load(out)
        except (OSError, ValueError, KeyError, IndexError) as exc:
            print(f"attn-grade comment: {out} could not be read ({type(exc).__name__}: {exc})", file=sys.stderr)
            return 2
        write_atomic(out / FILE, starter(klass))
        print(fit_lines(f"wrote {out / FILE}: the groups that lost points, commented out; write a comment "
                        f"under a group's key and run 'attn-grade comment {out}' again"))
        return 0
    try:
        apply(out, say=lambda line: print(fit_lines(line)))
    except CommentError as exc:
        print(f"attn-grade comment: {exc}", file=sys.stderr)
        return 2
    return 0
