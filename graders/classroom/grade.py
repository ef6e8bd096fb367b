"""``attn-grade grade``: grade a class in whichever layout it is handed in.

``run(opts)`` reads SUBMISSIONS as nbgrader's submitted/ folder when it is one
(nbsubmit.py), else as one folder of ``<slug>.py`` files per student, and
batch-grades it (graders/batch/run.py). With ``--nbgrader-course`` the
scores then go into that course's gradebook (nbgradebook.py).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .. import registry
from ..batch.run import FOLDERS, BatchError, Options, discover, exercises_of
from ..batch.run import run as run_batch
from ..batch.preflight import NoSandbox
from ..outfolder.outfiles import STUDENTS, Busy, student_id, writing
from ..terminal.wrap import fit_lines
from .report import comments
from .nbgrader import nbsubmit
from .gradescope import owner_only
from .authoring.course import variants_chosen
from ..terminal.help import HelpFormatter

__all__ = ["Options", "layout_of", "run", "register"]


def layout_of(submissions: Path):
    """nbgrader's layout when SUBMISSIONS is a submitted/ folder, else one folder per student."""
    return nbsubmit.LAYOUT if nbsubmit.detect(submissions) else FOLDERS


def run(opts: Options, say=print) -> dict:
    """Grade SUBMISSIONS in its own layout; return facts about each student graded in this run."""
    return run_batch(opts, say, layout_of(opts.submissions))


# ------------------------------------------------------------------ the command
def register(subparsers) -> None:
    grd = subparsers.add_parser(
        "grade", help="grade a folder of student submissions (instructors)",
        description="Grade SUBMISSIONS/<student>/<slug>.py for every student folder, in parallel "
                    "sandboxed workers. Writes OUT/students/<student>/results.json (Gradescope's shape) and "
                    "OUT/gradebook.csv, atomically. Students already graded in OUT are kept, so an "
                    "interrupted run resumes where it stopped; --force grades everyone again. "
                    "SUBMISSIONS may also be nbgrader's submitted/ folder "
                    "(<student>/<assignment>/<slug>.ipynb, recognised by itself): the answer cells "
                    "are taken out and graded in the sandbox; the notebooks are never executed.",
        formatter_class=HelpFormatter,
        epilog="examples:\n  attn-grade grade submissions/ --out graded/ --jobs 4\n"
               "  attn-grade grade course/submitted --out graded/ --nbgrader-course course/\n"
               "  attn-grade grade submissions/ --out graded/ --cluster tls://10.0.0.5:8786 \\\n"
               "      --tls-ca-file cluster.pem --tls-cert cluster.pem --tls-key cluster.key")
    grd.add_argument("submissions", type=Path, metavar="SUBMISSIONS",
                     help="folder with one sub-folder per student")
    grd.add_argument("--out", type=Path, required=True, metavar="OUT",
                     help="where results.json files and gradebook.csv go (created if missing)")
    grd.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                     help=f"students graded in parallel (default: the number of cores, {os.cpu_count()})")
    grd.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                     help="time allowed for one call of a student's function: wall time, stretched up to "
                          "3x while a call still computing waits for a busy CPU (default: 10)")
    grd.add_argument("--memory", type=int, default=1024, metavar="MB",
                     help="address-space limit of a student's worker (default: 1024)")
    grd.add_argument("--file-budget", type=float, default=Options.file_budget, metavar="SECONDS",
                     help="wall time for all the calls of one exercise file; checks left when it is spent "
                          f"score zero, saying so (default: {Options.file_budget:g})")
    grd.add_argument("--student-budget", type=float, default=Options.student_budget, metavar="SECONDS",
                     help=f"wall time for all of one student's files (default: {Options.student_budget:g})")
    grd.add_argument("--assignment", action="append", default=[], choices=registry.ASSIGNMENTS, metavar="NAME",
                     help="grade this assignment's exercises only (repeatable; default: every assignment "
                          "handed in): results.json, the gradebook and the summary then hold its points only; "
                          f"one of {', '.join(registry.ASSIGNMENTS)}")
    grd.add_argument("--student", action="append", default=[], metavar="ID",
                     help="grade this student only (repeatable; default: every student)")
    grd.add_argument("--force", action="store_true",
                     help="grade again students whose results are up to date (a student is graded again "
                          "anyway when their files, the graders, the solutions or the settings changed)")
    grd.add_argument("--no-progress", action="store_true", help="no progress bar")
    grd.add_argument("--allow-unisolated", action="store_true",
                     help="grade even where the sandbox cannot isolate students from each other and from the "
                          "solutions (no namespaces and no Landlock: an old kernel); every results.json and the "
                          "summary say so")
    grd.add_argument("--cluster", metavar="ADDRESS", default="",
                     help="grade on Dask distributed instead of this machine's processes: 'local:N' starts N "
                          "single-threaded worker processes here, reached with a throwaway TLS certificate "
                          "that only this run holds; 'tls://HOST:PORT' uses a running scheduler and its "
                          "workers, started with the cluster's certificate (README, 'Grading on several "
                          "machines'); each worker must have the same versions and isolate students as this "
                          "machine does; needs pip install 'attn-exercises[cluster]'")
    grd.add_argument("--tls-ca-file", metavar="FILE", help="for --cluster tls://: the cluster's CA certificate "
                     "(default: Dask's configuration, distributed.comm.tls.ca-file)")
    grd.add_argument("--tls-cert", metavar="FILE", help="for --cluster tls://: this client's certificate "
                     "(default: distributed.comm.tls.client.cert)")
    grd.add_argument("--tls-key", metavar="FILE", help="for --cluster tls://: this client's private key, "
                     "readable by you alone (default: distributed.comm.tls.client.key)")
    grd.add_argument("--insecure-cluster", action="store_true",
                     help="allow a plain tcp://HOST:PORT scheduler, neither encrypted nor authenticated: anyone "
                          "who can reach it can run code as you and change grades; every results.json and the "
                          "summary say so")
    grd.add_argument("--variants", action="store_true",
                     help="give each student their own numbers in the exercises that vary (hand_scores, "
                          "worked_example): "
                          "a public function of the assignment and the student's id (the folder's name, "
                          "nbgrader's student id) picks one of 64 variants; with --nbgrader-course, "
                          "c.AttnGrade.variants = True in the course's nbgrader_config_local.py does too")
    grd.add_argument("--nbgrader-course", type=Path, metavar="DIR",
                     help="also write the scores into this nbgrader course (its gradebook and "
                          "autograded/ notebooks), so formgrader, generate_feedback and export work "
                          "as after 'nbgrader autograde'; needs nbgrader")
    grd.add_argument("--group", metavar="NAME",
                     help="let this group of graders read OUT: its folders 2750 (setgid) and files 0640, group "
                          "NAME; you must be in the group (default: OUT is yours alone, folders 0700, files 0600, "
                          "and a run without --group closes an OUT shared before)")
    grd.set_defaults(run=_run)


def _run(parser, args) -> int:
    subs, out = args.submissions, args.out
    if not subs.is_dir():
        parser.error(f"SUBMISSIONS {subs}: no such folder")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.timeout <= 0:
        parser.error("--timeout must be a positive number of seconds")
    if args.memory < 256:
        parser.error("--memory must be at least 256 MB (NumPy and SymPy need room)")
    if args.file_budget <= 0 or args.student_budget <= 0:
        parser.error("--file-budget and --student-budget must be positive numbers of seconds")
    if args.cluster and not _cluster_address(args.cluster):
        parser.error(f"--cluster {args.cluster}: give local:N (N workers on this machine) or a scheduler's "
                     f"address, tls://HOST:PORT")
    given = (args.tls_ca_file, args.tls_cert, args.tls_key)
    if any(given) and not all(given[:2]):
        parser.error("--tls-ca-file and --tls-cert go together (and --tls-key, unless the key is in the "
                     "certificate's file)")
    tls_files = given if any(given) else ()
    if args.cluster or any(given):
        from ..batch.tls import refusal

        why = refusal(args.cluster, tls_files, args.insecure_cluster) if args.cluster else \
            "--tls-ca-file, --tls-cert and --tls-key are for --cluster tls://HOST:PORT"
        if why:
            parser.error(why)
    subs_real, out_real = subs.resolve(), out.resolve()
    if out_real == subs_real or subs_real in out_real.parents:
        parser.error(f"--out {out} is inside SUBMISSIONS; it would be graded as a student")
    if out_real in subs_real.parents:
        parser.error(f"SUBMISSIONS {subs} is inside --out {out}; keep them apart")
    if out.exists() and not out.is_dir():
        parser.error(f"--out {out} exists and is not a folder")
    if args.group is not None and (why := owner_only.group_refusal(args.group)):
        parser.error(f"--group {args.group}: {why}")
    course = None
    if args.nbgrader_course is not None:
        course = _nbgrader_preflight(parser, args, subs_real, out_real)
    opts = Options(subs_real, out_real, jobs=args.jobs, timeout=args.timeout, memory_mb=args.memory,
                   force=args.force, progress=not args.no_progress, file_budget=args.file_budget,
                   student_budget=args.student_budget, assignments=tuple(dict.fromkeys(args.assignment)),
                   students=tuple(dict.fromkeys(args.student)), allow_unisolated=args.allow_unisolated,
                   cluster=args.cluster, tls=tls_files, insecure_cluster=args.insecure_cluster,
                   plans=args.settings.plans,
                   variants=args.variants or variants_chosen(course))
    try:
        with writing(out_real, "attn-grade grade"):
            owner_only.settle(out_real, args.group)  # before anything is written in it (outfolder/outfiles.py)
            return _grade(parser, args, opts, course)
    except (Busy, owner_only.Unsettled) as exc:
        print(f"attn-grade grade: {exc}", file=sys.stderr)
        return 2


def _grade(parser, args, opts: Options, course) -> int:
    """Grade, apply the comments, write the nbgrader course's scores and the integrity report."""
    subs_real, out_real = opts.submissions, opts.out
    try:
        facts = run(opts)
    except NoSandbox as exc:
        print(f"attn-grade grade: {exc}", file=sys.stderr)
        return 3
    except BatchError as exc:  # what OUT or the choices hold, not how the command is typed: no usage
        parser.exit(2, fit_lines(f"attn-grade grade: {exc}", stream=sys.stderr) + "\n")
    touched = _comments(out_real)
    differences = []
    if course is not None:
        from .nbgrader.nbgradebook import write

        students = [name for name, _ in discover(subs_real)[0]
                    if not opts.students or name in opts.students or student_id(name) in opts.students]
        done = write(course, students, out_real, progress=not args.no_progress,
                     assignments=opts.assignments or None, changed=set(facts) | touched)
        comments.written_to_notebooks(out_real, [student_id(s) for s in students
                                                 if student_id(s) not in done.get("unwritten", ())])
        print(f"nbgrader gradebook of {args.nbgrader_course}: {done['written']} submission(s) autograded "
              f"from our results (autograded/ notebooks and auto scores), {done['kept']} already up to date")
        for line in done["problems"]:
            print("  " + line)
        from .nbgrader.nbextend import late_summary

        for line in late_summary(Path(args.nbgrader_course), opts.assignments or registry.ASSIGNMENTS):
            print(line if line.startswith("  ") else fit_lines(line))
        differences = done["differences"]
    _integrity(opts, course, differences)
    print(fit_lines(f"Next: attn-grade report {shown_path(out_real)} writes the class report (report.html: scores, "
                    f"mistakes, groups, flags)"))
    return 0


def shown_path(path: Path) -> str:
    """``path`` as typed back to the user: relative to the folder they are in when it is inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve())) or "."
    except ValueError:
        return str(path)


def _comments(out: Path) -> set:
    """The instructor's comments (comments.py) put in the feedback of their groups; the students whose
    results changed since their nbgrader notebooks were written (none where comments were never used)."""
    try:
        comments.apply(out, say=lambda line: print(fit_lines(line)))
    except comments.CommentError as exc:
        print(f"attn-grade grade: {exc}; the comments were left as they were", file=sys.stderr)
    return comments.pending(out)


def _cluster_address(address: str) -> bool:
    """Whether ``address`` is local:N (N >= 1) or scheme://host:port."""
    import re

    return bool(re.fullmatch(r"local:[1-9][0-9]*|[a-z]+://[^\s/]+:[0-9]+", address))


def _integrity(opts: Options, course, differences) -> None:
    """Flags for a person (integrity.py): in the summary and in OUT/integrity.json."""
    from .integrity import copying, integrity

    layout = layout_of(opts.submissions)
    release = Path(course.CourseDirectory.root) / "release" if course is not None else None
    codes, exercises = {}, exercises_of(opts, layout)
    flags = integrity.scan(opts.submissions, layout.name, release, exercises, codes=codes, variants=opts.variants)
    flags += integrity.unhardened(differences)
    flags += copying.find(opts.out, codes, exercises, release, layout.name)
    graded = {p.parent.name for p in (Path(opts.out) / STUDENTS).glob("*/results.json")}  # this run's and earlier
    flags = sorted((f for f in flags if f.student in graded),  # of whom OUT holds results (--student grades a few)
                   key=lambda f: (f.student, f.where, f.kind, f.detail))  # each student's flags together
    integrity.write(opts.out, flags)
    print(fit_lines(integrity.summary(flags)))


def _nbgrader_preflight(parser, args, subs, out):
    """The course's nbgrader config, or a usage error naming what is wrong."""
    from .nbgrader.nbgradebook import GradebookError, preflight

    if not args.nbgrader_course.is_dir():
        parser.error(f"--nbgrader-course {args.nbgrader_course}: no such folder")
    try:
        return preflight(args.nbgrader_course.resolve(), subs, out)
    except GradebookError as exc:
        parser.error(str(exc))
