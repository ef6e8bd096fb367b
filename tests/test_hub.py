"""A term on the course's JupyterHub (graders/classroom/hub/hub.py, `python3 tasks.py hub`), in headless Chromium.

The grader account releases part1_scores (the nbgrader commands the formgrader's terminal would run);
three students log in to the hub in the browser, fetch it from JupyterLab's Assignments tab, work
(.ci/walkthrough_answers.py writes their answers, as the student: one right, one with a mistake in
hand_scores, one who leaves the proof and hands in after the due date), run the public checks in
JupyterLab and submit from the Assignments tab. The grader collects and grades with `attn-grade
grade --nbgrader-course`; the instructor marks the written proofs in formgrader, a hub service, in the
browser; feedback is released, and a student fetches it from the Assignments tab and reads it.

Screenshots (the Assignments tab, the public checks' output, the feedback page) go to SHOTS, which the
test prints. Run as root (it makes Unix users, removed again at the end, failure or not); elsewhere it is
skipped with the reason, and in CI (CI=true) a missing piece fails it. About 6 minutes, more the first
time (the servers' environments are built once and kept in /var/cache/attn-hub).
"""

from __future__ import annotations

import csv
import shutil
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from support import hubkit

pytestmark = [pytest.mark.system, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
SHOTS = Path(tempfile.gettempdir()) / "attn-hub-screenshots"
ANSWERS = (ROOT / ".ci" / "walkthrough_answers.py").read_text(encoding="utf-8")
STARTED = time.monotonic()


def step(text: str) -> None:
    print(f"[{time.monotonic() - STARTED:6.0f} s] {text}", flush=True)


def public_checks(page, slug: str):
    """The output of ``slug``'s public checks cell, once it has printed its points."""
    cell = page.locator(".jp-Notebook .jp-Cell", has_text=f'public_checks("{slug}"')
    output = cell.locator(".jp-OutputArea")
    output.get_by_text(f"Public checks of {slug}:").wait_for()
    cell.scroll_into_view_if_needed()
    return cell, output.inner_text()


def submit(page, hub, user: str) -> None:
    hubkit.lab(page, hub, user)
    panel = hubkit.assignments(page)
    panel.locator("#fetched_assignments_list").get_by_role("button", name="Submit").click()
    panel.locator("#submitted_assignments_list").get_by_text("part1_scores").wait_for()


def mark_proof(page, hub, student: str, score: int, comment: str) -> str:
    """The proof marked in formgrader's page of ``student``'s variance_proof, as a person does: a comment,
    a score, then on to the next field (formgrader saves each when it changes). Their variance_proof row."""
    students = f"{hub.formgrader}/manage_students/{student}/part1_scores"
    page.goto(students)
    page.get_by_role("link", name="variance_proof", exact=True).click()
    page.wait_for_load_state("networkidle")  # its grades and comments loaded: only then does it save a change

    def saved(kind):
        return page.expect_response(lambda r: f"/formgrader/api/{kind}/" in r.url and r.request.method == "PUT"
                                    and r.ok)
    with saved("comment"):
        page.locator("#variance_proof-proof-comment").fill(comment)
        page.locator("#variance_proof-proof").focus()
    with saved("grade"):
        page.locator("#variance_proof-proof").fill(str(score))
        page.locator("#variance_proof-proof").press("Tab")
    page.goto(students)
    row = page.locator("tr", has_text="variance_proof").first
    row.get_by_text(" / 10").first.wait_for()
    return row.inner_text()


def test_the_hub_refuses_an_ordinary_user_and_says_why(monkeypatch, capsys):
    from graders.classroom.hub import hub

    monkeypatch.setattr(hub.os, "geteuid", lambda: 1000)
    assert hub.main(["--port", "0"]) == 2
    said = capsys.readouterr().err
    assert "needs root" in said and "LocalProcessSpawner" in said and "Traceback" not in said, said


def test_a_term_on_the_course_hub_in_chromium():
    hubkit.require()
    from graders.classroom.hub.hub import running
    from graders.classroom.hub.hubsetup import HubError, HubLayout

    global STARTED
    STARTED = time.monotonic()
    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    print(f"\nscreenshots: {SHOTS}")
    layout = HubLayout("attn-hubtest", 3)
    try:
        with running(layout) as hub, hubkit.chromium() as browser:
            shown = []  # the page in use, for a screenshot of where a failure happened
            try:
                term(hub, browser, layout, shown)
            except Exception:
                if shown:
                    shown[-1].screenshot(path=SHOTS / "failure.png")
                    print(f"the page at the failure: {SHOTS / 'failure.png'} ({shown[-1].url})")
                raise
    except HubError as exc:
        if "creating the account" in str(exc) and not hubkit.in_ci():
            pytest.skip(f"the users cannot be made here: {exc}")
        pytest.fail(str(exc))
    finally:
        step("hub stopped, its users and folders removed")


def term(hub, browser, layout, shown: list) -> None:
    s1, s2, s3 = layout.students
    step(f"hub ready at {hub.url}; the grader releases part1_scores")
    hub.grader("nbgrader generate_assignment part1_scores && nbgrader release_assignment part1_scores")
    pages = {}
    for student, mode in ((s1, "right"), (s2, "mistake"), (s3, "stub")):
        step(f"{student} logs in, fetches part1_scores from the Assignments tab, works ({mode})")
        page = pages[student] = hubkit.login(browser, hub, student)
        shown.append(page)
        hubkit.lab(page, hub, student)
        panel = hubkit.assignments(page)
        released = panel.locator("#released_assignments_list")
        released.get_by_text("part1_scores").wait_for()
        if student == s1:
            page.screenshot(path=SHOTS / "1-assignments-tab.png")
        assert "part1_scores" in released.inner_text() and "attn-exercises" in released.inner_text()
        released.get_by_role("button", name="Fetch").click()
        panel.locator("#fetched_assignments_list").get_by_text("part1_scores").wait_for()
        hub.user(student, f"{hub.users_bin}/python - {mode} ~/part1_scores", input=ANSWERS)

    outputs = {}
    for student in (s1, s2):
        step(f"{student} runs hand_scores in JupyterLab: the public checks' report")
        page = pages[student]
        shown.append(page)
        hubkit.run_all(page, hub, student, "part1_scores/hand_scores.ipynb")
        cell, outputs[student] = public_checks(page, "hand_scores")
        if student == s1:
            cell.screenshot(path=SHOTS / "2-public-checks.png")
        page.keyboard.press("Control+s")
    assert "hand_scores: 3/3" in outputs[s1] and "✗" not in outputs[s1], outputs[s1]
    assert "✗" in outputs[s2] and "hand_scores: 3/3" not in outputs[s2], outputs[s2]

    step(f"{s1} and {s2} submit from the Assignments tab; the due date passes; {s3} submits late")
    for student in (s1, s2, s3):
        shown.append(pages[student])
        if student == s3:
            time.sleep(1)  # the due date has whole seconds: after s2's hand-in, before s3's
            hub.grader(f"nbgrader db assignment add part1_scores --duedate='{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}'")
            time.sleep(1)
        submit(pages[student], hub, student)

    step("the grader collects and grades with attn-grade grade --nbgrader-course")
    hub.grader("nbgrader collect --update part1_scores")
    graded = hub.grader("cd .. && attn-grade grade course/submitted --out graded/part1 --nbgrader-course course/ "
                        "--assignment part1_scores --no-progress")
    assert "Graded 3 student(s)" in graded, graded

    step("the instructor marks the proofs in formgrader, the hub's service")
    teacher = hubkit.login(browser, hub, layout.instructor)
    shown.append(teacher)
    teacher.wait_for_url("**/lab**")
    teacher.goto(f"{hub.url}hub/home")
    assert teacher.locator("a[href*='/services/attn-exercises']").count() > 0, "no link to the formgrader service"
    row1 = mark_proof(teacher, hub, s1, 4, "Complete: each step justified.")
    row2 = mark_proof(teacher, hub, s2, 2, "Item 2 half: why may the variances be added?")
    assert "10 / 10" in row1 and "8 / 10" in row2, (row1, row2)

    step("feedback generated and released; the student fetches it from the Assignments tab and reads it")
    hub.grader("nbgrader generate_feedback part1_scores && nbgrader release_feedback part1_scores")
    page = pages[s1]
    shown.append(page)
    hubkit.lab(page, hub, s1)
    panel = hubkit.assignments(page)
    panel.locator("#submitted_assignments_list").get_by_role("button", name="Fetch Feedback").click()
    panel.get_by_text("(view feedback)").wait_for()
    found = sorted(Path(f"/home/{s1}/part1_scores/feedback").glob("*/variance_proof.html"))
    assert found, f"no feedback in /home/{s1}/part1_scores/feedback after Fetch Feedback"
    page.goto(f"{hub.url}user/{s1}/files/" + quote(str(found[-1].relative_to(f"/home/{s1}"))))
    page.get_by_text("Complete: each step justified.").wait_for()
    page.screenshot(path=SHOTS / "3-feedback.png")
    feedback = page.locator("body").inner_text()
    assert "Score: 10.0 / 10.0" in feedback and "(Score: 4.0 / 4.0)" in feedback, feedback[:1500]

    step("nbgrader export: the grades, the late penalty included")
    hub.grader("nbgrader export")
    with (layout.course / "grades.csv").open(encoding="utf-8") as f:
        grades = {row["student_id"]: row for row in csv.DictReader(f)}
    score = {s: float(grades[s]["score"]) for s in (s1, s2, s3)}
    most = float(grades[s1]["max_score"])
    assert score[s1] == most and 0 < score[s2] < most, grades
    assert score[s3] == 0 and float(grades[s3]["late_submission_penalty"]) > 0, grades[s3]
    step(f"the term is done; screenshots in {SHOTS}")
