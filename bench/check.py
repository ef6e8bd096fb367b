"""How long a learner waits: ``attn-grade check`` cold and warm, and ``watch`` after a save.

    python bench/check.py [--repeat 3] [--slugs softmax attention]

In one run, on a copy of the reference solutions (every check passes, the
state a learner works towards):

* ``python -c "import numpy, sympy"``: the yardstick, since every check needs
  at least that much of Python;
* ``attn-grade check SLUG`` for each slug and for all seven, **cold** (an empty
  plan cache: every check is recorded first, every exact answer read and
  compared; and no resident zygote: the command starts it), **kept** (the files
  unchanged since that check, at full marks: its results are shown again,
  graders/cli/kept.py), **saved** (each file saved again with one more line,
  the learner's loop: graded, with the plans, the verdicts on the exact answers
  and the passes on disk and the cold run's resident zygote waiting), and saved
  with ATTN_GRADE_RESIDENT=0, a zygote of the command's own, for comparison;
  and all seven after saving softmax.py alone;
* ``attn-grade watch SLUG`` in a pseudo-terminal: the time from saving the
  file (a correct one, then one with a mistake) to the new report on screen.

Each figure is the median of ``--repeat`` runs; the rounds interleave the
yardstick with the commands, so a busy machine slows both alike. Ratios are
to the yardstick. Targets (issue 11): one exercise warm <= 1x, all seven warm
<= 2x (saved, here: every file graded), a watch re-check of a correct file
<= 0.3 s.
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


def bench_checks(slugs, repeat, work, base_env):
    """Medians of: the yardstick, and per group cold, kept (unchanged since the cold run),
    saved (every file of the group saved again: graded, plans warm), own (saved, and
    ATTN_GRADE_RESIDENT=0); and all seven with only softmax.py saved."""
    yard, fig = [], {k: {} for k in ("cold", "kept", "saved", "own")}
    groups = [(s, [s], [s]) for s in slugs] + [("all seven", [], slugs)]
    n = 0
    for r in range(repeat):
        yard.append(timed([PY, "-c", "import numpy, sympy"], base_env, work))
        for name, args, files in groups:
            cache = Path(tempfile.mkdtemp(prefix="bench-cache-", dir=work.parent))
            runtime = Path(tempfile.mkdtemp(prefix="bench-rt-"))  # no resident zygote yet
            env = {**base_env, "ATTN_GRADE_CACHE": str(cache), "ATTN_GRADE_RUNTIME": str(runtime)}
            cmd = CLI + ["check", *args, "--dir", str(work)]
            fig["cold"].setdefault(name, []).append(timed(cmd, env, work))
            fig["kept"].setdefault(name, []).append(timed(cmd, env, work))
            for key, extra in (("saved", {}), ("own", {"ATTN_GRADE_RESIDENT": "0"})):
                n += 1
                save(work, files, n)
                fig[key].setdefault(name, []).append(timed(cmd, {**env, **extra}, work))
            if not args:
                n += 1
                save(work, ["softmax"], n)
                fig["saved"].setdefault("all, softmax saved", []).append(timed(cmd, env, work))
            subprocess.run(CLI + ["stop"], env=env, stdout=subprocess.DEVNULL)
            shutil.rmtree(cache)
            shutil.rmtree(runtime)
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
        yard, fig = bench_checks(args.slugs, args.repeat, work, env)
        runtime = tempfile.mkdtemp(prefix="bench-rt-")
        watch_env = {**env, "ATTN_GRADE_CACHE": str(Path(tmp) / "watch-cache"), "ATTN_GRADE_RUNTIME": runtime}
        subprocess.run(CLI + ["check", "softmax", "--dir", str(work)], env=watch_env, stdout=subprocess.DEVNULL)
        good, bad = bench_watch(args.repeat, work, watch_env, args.mistake)
        subprocess.run(CLI + ["stop"], env=watch_env, stdout=subprocess.DEVNULL)
        shutil.rmtree(runtime)
    print(f"\nyardstick  python -c 'import numpy, sympy'   {yard:.3f} s\n")
    print("cold: no plans on disk, no resident zygote; kept: unchanged since that check, which\n"
          "was at full marks, so its results are shown again; saved: the files saved again (a line\n"
          "more), so graded, with the plans on disk and the zygote waiting; own zygote: saved, with\n"
          "ATTN_GRADE_RESIDENT=0 (the command starts a zygote of its own, as before the resident one)\n")
    print(f"{'attn-grade check':<19}{'cold s':>7}{'cold x':>8}{'kept x':>8}{'saved s':>8}{'saved x':>8}{'own x':>7}")
    for name in fig["saved"]:
        row = [fig[k].get(name) for k in ("cold", "kept", "saved", "own")]
        cells = [f"{row[0]:7.3f}" if row[0] else " " * 7, *(f"{v / yard:7.2f}x" if v else " " * 8 for v in row[:2]),
                 f"{row[2]:8.3f}", f"{row[2] / yard:7.2f}x", f"{row[3] / yard:6.2f}x" if row[3] else ""]
        print(f"{name:<19}" + "".join(cells))
    print(f"\nattn-grade watch softmax: save -> report  correct file {good:.3f} s, "
          f"with a mistake ({args.mistake.stem}) {bad:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
