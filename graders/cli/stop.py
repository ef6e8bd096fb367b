"""attn-grade stop: end the resident zygote that keeps check and watch fast."""

from __future__ import annotations


def register(sub) -> None:
    stp = sub.add_parser(
        "stop", help="end the background helper that keeps checks fast",
        description="The first check starts a helper in the background that has NumPy and SymPy loaded "
                    "and starts the sandbox your code runs in, so the next check starts at once. It ends "
                    "by itself after 15 minutes unused; this ends it now (and the next check starts a "
                    "new one). To check without it, set ATTN_GRADE_RESIDENT=0.")
    stp.set_defaults(run=run, command_parser=stp)


def run(parser, args) -> int:
    from ..grading.sandboxes import stop_resident

    asked = stop_resident(args.settings.runtime)
    print(f"ended {asked} background helper{'s' if asked != 1 else ''}" if asked else "no background helper was running")
    return 0
