"""How long a learner waits: ``attn-grade check`` cold and warm, and ``watch`` after a save.

    python bench/check.py [--repeat 3] [--slugs softmax attention]

In one run, on a copy of the reference solutions (every check passes, the
state a learner works towards):

* ``python -c "import numpy, sympy"``: the yardstick, since every check needs
  at least that much of Python;
* ``attn-grade check SLUG`` for each slug and for all of them, **cold** (an empty
  plan cache: every check is recorded first, every exact answer read and
  compared; and no resident zygote: the command starts it), **first** (the
  cache as ``python3 tasks.py setup`` leaves it, ``attn-grade prepare``: every
  check recorded, the reference's answers graded, and the resident zygote
  started, which waits 15 minutes; the files saved once: the learner's first
  check after setup), **ended** (the same, but the resident zygote has ended
  since: a first check that starts it), **kept** (the files
  unchanged since that check, at full marks: its results are shown again,
  graders/cli/fullmarks.py), **saved** (each file saved again with one more line,
  the learner's loop: graded, with the plans, the verdicts on the exact answers
  and the passes on disk and the cold run's resident zygote waiting), and saved
  with ATTN_GRADE_RESIDENT=0, a zygote of the command's own, for comparison;
  and all of them after saving softmax.py alone; and the untouched stubs of
  exercises/, first (after prepare) and again (``--fresh``, everything warm);
  and right files written otherwise than the reference (the first of each
  exercise's tests/corpus/, code as tutorials write it), first and saved: a
  first check of new answers also reads them (SymPy, the bounded helper's
  warm-up) and runs their checks, which a save that keeps the answers skips;
* ``attn-grade watch SLUG`` in a pseudo-terminal: the time from saving the
  file (a correct one, then one with a mistake) to the new report on screen.

Each figure is the median of ``--repeat`` runs; the rounds interleave the
yardstick with the commands, so a busy machine slows both alike. Ratios are
to the yardstick, except first/saved. Targets: one exercise warm <= 1x, all
warm <= 2x (saved, here: every file graded), a watch re-check of a correct file
<= 0.3 s (issue 11); the first check after setup <= 2x a later one (issue 38).
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from graders import registry  # noqa: E402

PY = sys.executable
CLI = [str(Path(PY).with_name("attn-grade"))] if Path(PY).with_name("attn-grade").exists() else [PY, "-m", "graders.cli"]
READS = 1.0  # seconds between a first check and the next: a learner reads the report (the resident
# zygote started by a first check that needs no SymPy loads it meanwhile)
MISTAKE = ROOT / "tests" / "mutants" / "softmax" / "no_max_shift.py"  # fails one check, not a property


def timed(cmd, env, cwd) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr.decode()}")
    return took


def save(work: Path, slugs, n: int) -> None:
    """Save each of these files again with one more line (a learner's edit that changes nothing)."""
    for slug in slugs:
        path = work / f"{slug}.py"
        path.write_text(path.read_text() + f"# saved {n}\n")


def fresh_state(work: Path, prepared: bool) -> dict:
    """An empty cache and no resident zygote; with ``prepared``, the cache as ``python3 tasks.py
    setup`` leaves it (``attn-grade prepare``: every check recorded, nothing else)."""
    cache = Path(tempfile.mkdtemp(prefix="bench-cache-", dir=work.parent))
    runtime = Path(tempfile.mkdtemp(prefix="bench-rt-"))
    env = {"ATTN_GRADE_CACHE": str(cache), "ATTN_GRADE_RUNTIME": str(runtime)}
    if prepared:
        subprocess.run(CLI + ["prepare", "--quiet"], env={**os.environ, **env}, cwd=ROOT,
                       stdout=subprocess.DEVNULL, check=True)
    return env


def others_slugs(folder: Path) -> list:
    return [e.slug for e in registry.EXERCISES if (folder / f"{e.slug}.py").is_file()]


def drop(env, base_env) -> None:
    subprocess.run(CLI + ["stop"], env={**base_env, **env}, stdout=subprocess.DEVNULL)
    shutil.rmtree(env["ATTN_GRADE_CACHE"])
    shutil.rmtree(env["ATTN_GRADE_RUNTIME"])


def bench_checks(slugs, repeat, work, stubs, others, base_env):
    """Medians of: the yardstick, and per group cold, first (after prepare), kept (unchanged
    since the first run), saved (every file of the group saved again: graded, plans warm), own
    (saved, and ATTN_GRADE_RESIDENT=0); all with only softmax.py saved; and the untouched stubs,
    first (after prepare) and again (--fresh: graded again, everything warm); and right files
    other than the reference (the tests' corpus of tutorials' code), first and saved."""
    yard, fig = [], {k: {} for k in ("cold", "first", "ended", "kept", "saved", "own")}
    groups = [(s, [s], [s]) for s in slugs] + [("all", [], slugs)]
    n = 0
    for r in range(repeat):
        yard.append(timed([PY, "-c", "import numpy, sympy"], base_env, work))
        for name, args, files in groups:
            cmd = CLI + ["check", *args, "--dir", str(work)]
            state = fresh_state(work, prepared=False)
            fig["cold"].setdefault(name, []).append(timed(cmd, {**base_env, **state}, work))
            drop(state, base_env)
            state = fresh_state(work, prepared=True)
            subprocess.run(CLI + ["stop"], env={**base_env, **state}, stdout=subprocess.DEVNULL)  # 15 minutes on
            n += 1
            save(work, files, n)
            fig["ended"].setdefault(name, []).append(timed(cmd, {**base_env, **state}, work))
            drop(state, base_env)
            state = fresh_state(work, prepared=True)
            env = {**base_env, **state}
            n += 1
            save(work, files, n)  # a file the learner wrote: nothing of it on disk yet
            fig["first"].setdefault(name, []).append(timed(cmd, env, work))
            time.sleep(READS)
            fig["kept"].setdefault(name, []).append(timed(cmd, env, work))
            for key, extra in (("saved", {}), ("own", {"ATTN_GRADE_RESIDENT": "0"})):
                n += 1
                save(work, files, n)
                fig[key].setdefault(name, []).append(timed(cmd, {**env, **extra}, work))
            if not args:
                n += 1
                save(work, ["softmax"], n)
                fig["saved"].setdefault("all, softmax saved", []).append(timed(cmd, env, work))
            drop(state, base_env)
        state = fresh_state(work, prepared=True)
        env = {**base_env, **state}
        cmd = CLI + ["check", "--dir", str(stubs)]
        fig["first"].setdefault("all stubs", []).append(timed(cmd, env, stubs))
        fig["saved"].setdefault("all stubs", []).append(timed(cmd + ["--fresh"], env, stubs))
        drop(state, base_env)
        state = fresh_state(work, prepared=True)
        env = {**base_env, **state}
        cmd = CLI + ["check", *others_slugs(others), "--dir", str(others)]
        fig["first"].setdefault("all, tutorials'", []).append(timed(cmd, env, others))
        n += 1
        save(others, others_slugs(others), n)
        fig["saved"].setdefault("all, tutorials'", []).append(timed(cmd, env, others))
        drop(state, base_env)
        yard.append(timed([PY, "-c", "import numpy, sympy"], base_env, work))
        print(f"  round {r + 1}/{repeat} done", file=sys.stderr, flush=True)
    return statistics.median(yard), {k: {g: statistics.median(v) for g, v in d.items()} for k, d in fig.items()}


class Screen:
    def __init__(self, argv, env, cwd):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(cwd)
            # a Ctrl-C typed at the terminal must reach it, even when this script was started with
            # SIGINT ignored (a background job of a shell script), which exec would pass on
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.execve(argv[0], argv, env)
        self.seen = b""

    def wait_for(self, text: bytes, after: int, timeout=120.0) -> tuple[int, float]:
        deadline = time.monotonic() + timeout
        while True:
            at = self.seen.find(text, after)
            if at >= 0:
                return at + len(text), time.perf_counter()
            if time.monotonic() > deadline:
                raise SystemExit(f"watch never showed {text!r}:\n{self.seen[-800:].decode(errors='replace')}")
            if select.select([self.fd], [], [], 0.01)[0]:
                self.seen += os.read(self.fd, 65536)

    def stop(self):
        os.write(self.fd, b"\x03")
        os.waitpid(self.pid, 0)


def bench_watch(repeat, work, env, mistake=MISTAKE):
    """Seconds from the save to the report on screen: a correct file, and one with a mistake."""
    solution = (ROOT / "solutions" / "softmax.py").read_text()
    screen = Screen(CLI + ["watch", "softmax", "--dir", str(work), "--color", "never"], env, work)
    at, _ = screen.wait_for(b"(Ctrl-C to stop)", 0)
    at, _ = screen.wait_for(b"\n", at)
    good, bad = [], []
    for r in range(repeat + 1):  # the first round warms the plans of the mistake's live runs
        for text, sink, marker in ((mistake.read_text(), bad, b"save softmax.py to check again"),
                                   (solution + f"\n# save {r}\n", good, b"softmax at full marks")):
            (work / "softmax.py").write_text(text)
            saved = time.perf_counter()
            at, seen = screen.wait_for(marker, at)
            if r:
                sink.append(seen - saved)
            time.sleep(0.3)
    screen.stop()
    return statistics.median(good), statistics.median(bad)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure (the median is shown)")
    ap.add_argument("--slugs", nargs="*", default=[e.slug for e in registry.EXERCISES])
    ap.add_argument("--mistake", type=Path, default=MISTAKE,
                    help="the softmax.py with a mistake that watch is given (default: %(default)s)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-check-") as tmp:
        work = Path(tmp) / "exercises"
        shutil.copytree(ROOT / "solutions", work, ignore=shutil.ignore_patterns("*.md", "__pycache__"))
        # As a learner's Python runs: compiled modules are kept (a machine-wide
        # PYTHONDONTWRITEBYTECODE would make every run compile the graders again).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["NO_COLOR"] = "1"
        print(f"attn-grade check on the reference solutions, median of {args.repeat} runs", file=sys.stderr)
        stubs = Path(tmp) / "stubs"
        shutil.copytree(ROOT / "exercises", stubs, ignore=shutil.ignore_patterns("__pycache__"))
        others = Path(tmp) / "tutorials"
        others.mkdir()
        for e in registry.EXERCISES:  # the first of each exercise's corpus of right code
            found = sorted((ROOT / "tests" / "corpus" / e.slug).glob("*.py"))
            if found:
                shutil.copyfile(found[0], others / f"{e.slug}.py")
        yard, fig = bench_checks(args.slugs, args.repeat, work, stubs, others, env)
        runtime = tempfile.mkdtemp(prefix="bench-rt-")
        watch_env = {**env, "ATTN_GRADE_CACHE": str(Path(tmp) / "watch-cache"), "ATTN_GRADE_RUNTIME": runtime}
        subprocess.run(CLI + ["check", "softmax", "--dir", str(work)], env=watch_env, stdout=subprocess.DEVNULL)
        good, bad = bench_watch(args.repeat, work, watch_env, args.mistake)
        subprocess.run(CLI + ["stop"], env=watch_env, stdout=subprocess.DEVNULL)
        shutil.rmtree(runtime)
    print(f"\nyardstick  python -c 'import numpy, sympy'   {yard:.3f} s\n")
    print("cold: no plans on disk, no resident zygote; first: the same after 'attn-grade prepare'\n"
          "(what 'python3 tasks.py setup' leaves: the zygote waiting), each file saved once: a\n"
          "learner's first check; first/saved: that to a later check (target <= 2x); ended/saved:\n"
          "the same once the zygote has ended (15 idle minutes after); kept: unchanged since, at full\n"
          "marks, so its results are shown again; saved: saved again (a line more), graded with\n"
          "plans on disk and the zygote waiting; own: saved, ATTN_GRADE_RESIDENT=0 (a zygote of the\n"
          "command's own). 'all stubs': the untouched stubs, first, then again with --fresh;\n"
          "'all, tutorials'': right files unlike the reference (tests/corpus/), first and saved.\n")
    print(f"{'attn-grade check':<18}{'cold s':>7}{'first s':>8}{'first/':>8}{'ended/':>7}{'kept x':>7}"
          f"{'saved s':>8}{'saved x':>8}{'own x':>7}\n{'':<33}{'saved':>8}{'saved':>7}")
    for name in fig["saved"]:
        cold, first, ended, kept, saved, own = (fig[k].get(name) for k in ("cold", "first", "ended", "kept",
                                                                            "saved", "own"))
        cells = [f"{cold:7.3f}" if cold else " " * 7, f"{first:8.3f}" if first else " " * 8,
                 f"{first / saved:7.2f}x" if first else " " * 8, f"{ended / saved:6.2f}x" if ended else " " * 7,
                 f"{kept / yard:6.2f}x" if kept else " " * 7,
                 f"{saved:8.3f}", f"{saved / yard:7.2f}x", f"{own / yard:6.2f}x" if own else ""]
        print(f"{name:<18}" + "".join(cells))
    print(f"\nattn-grade watch softmax: save -> report  correct file {good:.3f} s, "
          f"with a mistake ({args.mistake.stem}) {bad:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
