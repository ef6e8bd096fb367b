"""results.json for Gradescope, and what run_autograder prints: ``for_gradescope``, ``for_instructor``.

Gradescope shows a student the top-level ``output`` at once; each test when
its ``visibility`` allows; and the total only while no test is hidden,
provided Gradescope sums the tests itself, since a top-level ``score``
"Overrides total of tests if specified" ("Autograder Specifications",
https://gradescope-autograders.readthedocs.io/en/latest/specs/, Output format
and Controlling Test Case Visibility: "If test cases are hidden, students
will not be able to see their total score"). So results.json has no
top-level score, and its output counts only the checks a student may see
now. run_autograder's stdout is shown to instructors only
(``stdout_visibility`` hidden): it gets the rest. A check SymPy could not
settle waits for a person: its test has ``extra_data.needs_manual_grade``, and
the output says its points are pending, not lost (Gradescope's manual grading
is where a person gives them).
"""

from __future__ import annotations

from ...grading.results import gradescope_test, points_text

# When students see the hidden checks (--hidden-visibility), in the words of the top-level output.
SHOWN = {"hidden": "count toward your total; only your instructor sees them",
         "after_due_date": "are shown, with your total, after the due date (the late due date, if there is one)",
         "after_published": "are shown, with your total, when your instructor publishes the grades"}


def for_gradescope(results, hidden_visibility: str, seconds: float, box: dict | None = None) -> dict:
    """results.json for ``results``: a test per check, hidden checks with ``hidden_visibility``,
    no top-level score, and an output that tells nothing of the hidden checks but when they show."""
    tests = []
    for i, r in enumerate(results, 1):
        for k, c in enumerate(r.checks, 1):
            test = gradescope_test(r.exercise, c)  # the batch's test, in Gradescope's own terms:
            del test["exercise"]  # its number, tags and the visibility chosen, the exercise in extra_data
            test.update(number=f"{i}.{k}", visibility="visible" if c.visibility == "public" else hidden_visibility,
                        tags=[r.exercise], extra_data={"exercise": r.exercise, **test["extra_data"]})
            tests.append(test)
    everything = hidden_visibility == "visible"
    lines = []
    for r in results:
        seen = [c for c in r.checks if everything or c.visibility == "public"]
        pending = round(sum(c.pending for c in seen), 6)
        lines.append(f"{r.exercise}: {sum(c.points for c in seen):g}/{sum(c.max_points for c in seen):g}"
                     + ("" if everything else " on the checks shown now") + (f" ({r.problem})" if r.problem else "")
                     + (f", and {points_text(pending)} wait for a person's check (pending, not lost)" if pending else ""))
    if not everything:
        lines.append(f"Further checks, which compare with the reference solution, {SHOWN[hidden_visibility]}.")
    return {"execution_time": round(seconds, 3), "output": "\n".join(lines), "stdout_visibility": "hidden",
            "tests": tests, "extra_data": {"isolation": (box or {}).get("measures", []),
                                           "not_isolated": (box or {}).get("missing", [])}}


def for_instructor(data: dict) -> str:
    """What run_autograder's stdout adds (Gradescope shows it to instructors only): the points
    with the hidden checks, which protections held, and what could not be closed."""
    got = {}
    for t in data.get("tests", []):
        slug = t["tags"][0]
        got[slug] = [a + b for a, b in zip(got.get(slug, (0, 0)), (t["score"], t["max_score"]))]
    extra = data["extra_data"]
    lines = ["For the instructor:", *(f"  {slug}: {a:g}/{b:g}, hidden checks included" for slug, (a, b) in got.items()),
             f"  isolated by: {'; '.join(extra['isolation']) or 'nothing'}",
             f"  not isolated: {'; '.join(extra['not_isolated']) or 'nothing missing'}"]
    lines += [f"  NOT CLOSED to the sandbox: {p}" for p in extra["not_closed"]]
    return "\n".join(lines)
