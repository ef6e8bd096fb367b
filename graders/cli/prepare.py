"""attn-grade prepare: record every check once for this machine, so the first check is quick."""

from __future__ import annotations

from .name import COMMAND
from ..terminal.help import HelpFormatter
from .term import fit


def register(sub) -> None:
    prp = sub.add_parser(
        "prepare", help="record the checks once for this machine (setup does this)",
        description="Each check replays a recording of its calls, made once per machine against the "
                    "reference solution. This makes every recording now, and starts the worker factory "
                    "your checks fork their sandboxes from (it waits 15 minutes for one), so that your first "
                    "check is as quick as the ones after it. 'python3 tasks.py setup' runs it; run it yourself after "
                    "updating the project or its libraries (otherwise the next check records what "
                    "changed, a few seconds once). It never runs your code and changes no grade.",
        formatter_class=HelpFormatter)
    prp.add_argument("--quiet", action="store_true", help="print only the last line")
    prp.set_defaults(run=run, command_parser=prp)


def run(parser, args) -> int:
    from .. import registry
    from ..grading.prepare import NoFolder, prepare, rehearse
    from .progress import has_hidden

    say = (lambda text: None) if args.quiet else (lambda text: print(text, flush=True))
    slugs, hidden, folder = [e.slug for e in registry.EXERCISES], has_hidden(), args.settings.plans
    say("Recording every check once for this machine, then grading the reference\n"
        f"solutions in the sandbox, as '{COMMAND} check' grades your files:")
    try:
        rows = {r.slug: r for r in prepare(slugs, folder, hidden=hidden)}
    except NoFolder as exc:
        print(fit(f"{COMMAND} prepare: nothing to do, {exc}; each check records what it needs"))
        return 0

    def each(result):
        row = rows[result.exercise]
        made = f"{row.recorded} new" if row.recorded else "none new"
        live = f", {row.live} live" if row.live else ""
        say(f"  {result.exercise:<16} {row.checks:>3} checks ({made}{live}), {row.seconds:4.1f} s;"
            f" the reference: {_points(result.points)}/{_points(result.max_points)}")

    if all(r.no_reference for r in rows.values()):
        print(fit("No reference solutions here: the public checks came recorded by your instructor."))
        return 0
    results, report = rehearse(slugs, folder, hidden=hidden, each=each)
    short = [r for r in results if r.points < r.max_points]
    for r in short:
        lost = [c for c in r.checks if c.points < c.max_points]
        print(fit(f"{r.exercise}: the reference solution lost points here ({r.problem or lost[0].message}); "
                  f"this is not your code: please report it, with '{COMMAND} check {r.exercise}' output"))
    if report is not None and report.protections:
        from ..grading.sandboxes import protections_in_words

        say(fit(protections_in_words(report.protections)))
    from ..grading.sandboxes import start_resident

    start_resident(args.settings.resident_runtime)  # so the first check finds it, as the later ones do
    recorded = sum(r.recorded for r in rows.values())
    print(f"Ready: {sum(r.checks for r in rows.values())} checks on disk ({recorded} recorded now), in\n"
          + fit(f"{folder}: your first '{COMMAND} check' will not need to record them.", hang=0))
    return 1 if short else 0


def _points(x: float) -> str:
    return f"{x:g}"
