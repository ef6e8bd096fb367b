# Right answers only if no host path of the project, the submissions or the output
# shows: in /proc (command lines, the environment), in the environment, sys.argv,
# sys.executable and sys.prefix, the frames that call us (their code and their
# variables), the modules around us, or an editable install's hooks.
# A path it finds becomes its answer instead (and fails). The library folders are
# mounted where NumPy was imported from, so paths below them do not count.
import os
import sys

import sympy

HOST = ("@@REPO@@", "@@SUBMISSIONS@@", "@@OUT@@")
libraries = tuple(p for p in sys.path if "-packages" in p)


def _pids():  # where Landlock keeps /proc out (no namespaces), only our own /proc/PID is there
    try:
        return [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return []


def _texts():
    for pid in _pids() + ["self"]:
        for name in ("cmdline", "environ"):
            try:
                with open(f"/proc/{pid}/{name}", "rb") as f:
                    yield f.read().decode(errors="replace")
            except OSError:
                pass
    yield from os.environ.values()
    yield from (*sys.argv, *sys.orig_argv, sys.executable, sys.prefix, sys.exec_prefix, os.getcwd())
    frame = sys._getframe()
    while frame:
        yield frame.f_code.co_filename
        yield from (repr(v)[:100_000] for v in frame.f_locals.values() if isinstance(v, (str, bytes, dict, list)))
        frame = frame.f_back
    for m in list(sys.modules.values()):
        f = getattr(m, "__file__", None)
        if isinstance(f, str) and not f.startswith(libraries):
            yield f
    for lib in libraries:
        for name in os.listdir(lib):
            if name.startswith("__editable__") or name.endswith(".pth"):
                try:  # empty with namespaces; closed by Landlock without them
                    with open(os.path.join(lib, name), errors="replace") as f:
                        yield f.read()
                except OSError:
                    pass


# (our own source, which holds the paths above, is in the frame that imports us)
leaked = next((t for t in _texts() if any(h in t for h in HOST) and "Right answers only if" not in t), None)


def scaled_scores():
    if leaked:
        return (leaked[:500], 0)
    return tuple(x / sympy.sqrt(2) for x in (1, 0))


def attention_weights():
    e = [sympy.exp(s) for s in scaled_scores()]
    return tuple(x / sum(e) for x in e)


def attention_output():
    a = attention_weights()
    return (4 * a[0], 4 * a[1])
