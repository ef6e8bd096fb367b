"""The worker: the only process in which a student's code runs.

This file is self-contained on purpose (standard library and NumPy only, plus
its sibling jail.py loaded by path): the parent starts it as
``python -I -S worker.py zygote CTRL_FD LIBDIR...`` so that it never imports
the grading package, the graders or the reference solutions. The zygote
imports NumPy and SymPy once and forks one sandbox per student (``child``,
which becomes the sandbox's init); the init forks a fresh, confined worker
per exercise file (``student``).

Protocol. Each message is a 4-byte big-endian length followed by that many
bytes of UTF-8 JSON. Requests arrive on REQ_FD, answers leave on RES_FD; the
student's own stdout and stderr are ordinary pipes the parent drains and never
parses. Values cross as plain JSON plus three tagged forms:

    {"__nd__": {"dtype": "<f8", "shape": [2, 3], "b64": "..."}}   a numeric array
    {"__tuple__": [...]}                                           a tuple
    {"__sympy__": "srepr text", "class": "Add"}                    a SymPy object, as text
    {"__rng__": 1234}                                              (request only) np.random.default_rng(1234)
    {"__other__": "module.Class"}                                  anything else: only its type name

The parent decodes and validates every answer (graders/wire.py); nothing the
worker sends is trusted.
"""

import base64
import importlib.util
import json
import math
import os
import signal
import struct
import sys
import traceback

MAX_STR = 20_000
MAX_ITEMS = 10_000


def send(fd, obj):
    """Write one message: its length (4 bytes, big-endian), then its JSON."""
    data = json.dumps(obj, allow_nan=True).encode("utf-8")
    view = memoryview(struct.pack(">I", len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def recv(fd):
    head = _read_exact(fd, 4)
    if head is None:
        return None
    (size,) = struct.unpack(">I", head)
    body = _read_exact(fd, size)
    return None if body is None else json.loads(body.decode("utf-8"))


def _read_exact(fd, size):
    chunks = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


# ---------------------------------------------------------------- encoding
def _type_name(x):
    t = type(x)
    return f"{t.__module__}.{t.__qualname__}"


def encode(x, depth=0):
    """Turn a student's return value into plain data (never pickle)."""
    if depth > 20:
        return {"__other__": "nesting too deep"}
    t = type(x)
    if x is None or t in (bool, int, str):
        if t is str and len(x) > MAX_STR:
            return {"__other__": f"a string of {len(x)} characters"}
        if t is int and x.bit_length() > 4000:
            return {"__other__": "an integer with more than 4000 bits"}
        return x
    if t is float:
        return x if math.isfinite(x) else {"__float__": repr(x)}
    if t in (tuple, list):
        if len(x) > MAX_ITEMS:
            return {"__other__": f"a {t.__name__} of {len(x)} items"}
        items = [encode(v, depth + 1) for v in x]
        return {"__tuple__": items} if t is tuple else items
    np = sys.modules.get("numpy")
    if np is not None and isinstance(x, (np.ndarray, np.generic)):
        return _encode_numpy(np, x)
    sp = sys.modules.get("sympy")
    if sp is not None and isinstance(x, sp.Basic):
        text = sp.srepr(x)
        if len(text) > MAX_STR:
            return {"__other__": f"a SymPy expression of {len(text)} characters"}
        return {"__sympy__": text, "class": type(x).__name__}
    return {"__other__": _type_name(x)}


def _encode_numpy(np, x):
    cls = _type_name(x)
    if isinstance(x, np.generic):
        arr = np.asarray(x)
        cls = "numpy scalar " + cls
    else:
        arr = np.ndarray.view(x, np.ndarray) if type(x) is not np.ndarray else x
    meta = {"dtype": arr.dtype.str, "kind": arr.dtype.kind, "shape": list(arr.shape), "class": cls}
    if arr.dtype.kind not in "biuf" or arr.size > 2_000_000:
        return {"__nd__": meta}  # no data: the parent rejects it with a message
    data = np.ascontiguousarray(arr).tobytes()
    meta["b64"] = base64.b64encode(data).decode("ascii")
    return {"__nd__": meta}


def decode(x):
    """Turn the parent's plain data back into arguments."""
    if isinstance(x, list):
        return [decode(v) for v in x]
    if isinstance(x, dict):
        if "__nd__" in x:
            import numpy as np

            m = x["__nd__"]
            raw = base64.b64decode(m["b64"])
            return np.frombuffer(raw, dtype=np.dtype(m["dtype"])).reshape(m["shape"]).copy()
        if "__tuple__" in x:
            return tuple(decode(v) for v in x["__tuple__"])
        if "__rng__" in x:
            import numpy as np

            return np.random.default_rng(x["__rng__"])
        if "__float__" in x:
            return float(x["__float__"])
        return {k: decode(v) for k, v in x.items()}
    return x


# ---------------------------------------------------------------- calls
def describe_exception(exc, filename):
    """Type, message and the student's own line, without the worker's frames."""
    where = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == filename:
            where = f"line {frame.lineno}: {(frame.line or '').strip()}"
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        where = f"line {exc.lineno}: {(exc.text or '').strip()}"
    try:
        message = (exc.msg if isinstance(exc, SyntaxError) else str(exc))[:2000]
    except BaseException:  # a lying __str__
        message = "<message could not be read>"
    return {
        "type": type(exc).__name__,
        "mro": [c.__name__ for c in type(exc).__mro__],
        "message": message,
        "where": where,
    }


def snapshot(args, kwargs):
    """Copies of the array arguments, keyed by position or keyword name."""
    np = sys.modules.get("numpy")
    if np is None:
        return {}
    items = list(enumerate(args)) + list(kwargs.items())
    return {key: a.copy() for key, a in items if isinstance(a, np.ndarray)}


def mutated(before, args, kwargs):
    """The positions and keyword names of array arguments the call changed."""
    np = sys.modules.get("numpy")
    now = dict(enumerate(args), **kwargs)
    return [key for key, b in before.items()
            if not (b.shape == now[key].shape and np.array_equal(b, now[key], equal_nan=True))]


def reseed():
    """Reset the global random states before every call, so an answer depends on the
    call alone, never on the calls before it (code that should use the rng it is
    given, but uses np.random.*, then gives the same answer for every seed)."""
    np = sys.modules.get("numpy")
    if np is not None:
        np.random.seed(20261130)
    rnd = sys.modules.get("random")
    if rnd is not None:
        rnd.seed(20261130)


def call(module, filename, req):
    fn = getattr(module, req["func"], None)
    if not callable(fn):
        return {"ok": False, "missing": True}
    args = decode(req.get("args", []))
    kwargs = decode(req.get("kwargs", {}))
    before = snapshot(args, kwargs)
    reseed()
    try:
        value = fn(*args, **kwargs)
    except BaseException as exc:  # SystemExit and KeyboardInterrupt are answers too
        return {"ok": False, "error": describe_exception(exc, filename)}
    try:
        encoded = encode(value)
    except BaseException as exc:
        return {"ok": False, "error": describe_exception(exc, filename), "encoding": True}
    return {"ok": True, "value": encoded, "mutated": mutated(before, args, kwargs)}


class StudentFinder:
    """Finds a student's own modules (``from softmax import softmax``) in their folder.

    Sources are read by relative path from the working directory (the scratch
    folder), whose ancestors the sandbox user may not be allowed to search.
    It is consulted after the standard finders, so a student's file cannot
    shadow a library module.
    """

    def __init__(self, folder):
        self.folder = folder

    def find_spec(self, name, path=None, target=None):
        filename = os.path.join(self.folder, name + ".py")
        if path is not None or "." in name or not os.path.isfile(filename):
            return None
        return importlib.util.spec_from_loader(name, self, origin=filename)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        filename = module.__spec__.origin
        with open(filename, "rb") as f:
            source = f.read()
        module.__file__ = filename
        exec(compile(source, filename, "exec", dont_inherit=True), module.__dict__)


def load(folder, filename):
    """Import the student's file as a module named after its slug."""
    name = os.path.splitext(os.path.basename(filename))[0]
    if name in sys.modules and getattr(sys.modules[name], "__file__", None) == filename:
        return sys.modules[name]  # already imported by a sibling
    finder = StudentFinder(folder)
    spec = finder.find_spec(name)
    if spec is None:
        raise FileNotFoundError(f"{filename} is not in the submission")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def serve(folder, req_fd, res_fd, sandbox=None):
    """Answer the parent's requests for the student files in ``folder`` until it hangs up.

    {"op": "load", "file": F} imports F (once) and lists its functions;
    {"op": "call", "file": F, "func": ..., "args": [...], "kwargs": {...}} calls one.
    """
    send(res_fd, {"hello": True, "sandbox": sandbox})
    modules = {}
    while True:
        req = recv(req_fd)
        if req is None:
            return
        try:
            answer = handle(folder, modules, req)
        except BaseException as exc:  # a failure of the worker itself, e.g. bad arguments
            answer = {"ok": False, "error": describe_exception(exc, ""), "internal": True}
        answer["id"] = req.get("id")
        send(res_fd, answer)


def handle(folder, modules, req):
    name = os.path.basename(str(req.get("file", "")))
    filename = os.path.join(folder, name)
    if req.get("op") == "load":
        if name not in modules:
            try:
                modules[name] = load(folder, filename)
            except BaseException as exc:
                return {"ready": False, "error": describe_exception(exc, filename)}
        module = modules[name]
        names = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_"))
        return {"ready": True, "functions": names}
    if name not in modules:
        return {"ok": False, "error": {"type": "RuntimeError", "mro": ["RuntimeError"],
                                       "message": f"{name} was not loaded"}, "internal": True}
    if req.get("op") == "batch":
        return {"answers": [call(modules[name], filename, r) for r in req.get("calls", [])]}
    return call(modules[name], filename, req)


# ---------------------------------------------------------------- the zygote
MAX_FILES, MAX_FILE_BYTES = 64, 1 << 20


def read_folder(folder, scratch):
    """The student's .py files (their folder), keyed by path relative to ``scratch``.

    Read before confinement, with the grader's rights, so only regular files
    are taken: a symbolic link (to /etc/shadow, to a solution) is skipped.
    """
    import stat

    rel = os.path.relpath(folder, scratch)
    files = {}
    if os.path.islink(folder):
        return files, rel
    for name in sorted(os.listdir(folder))[:1000]:
        if not name.endswith(".py") or len(files) >= MAX_FILES:
            continue
        try:
            fd = os.open(os.path.join(folder, name), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                files[os.path.normpath(os.path.join(rel, name))] = os.read(fd, MAX_FILE_BYTES)
        finally:
            os.close(fd)
    return files, rel


def child(req, fds, jail):
    """In a fresh fork of the zygote: build the student's sandbox, then be its init. Never returns.

    The init answers the parent on the control socket ``fds[0]``:
    {"op": "fork"} with the four pipe ends of a new worker attached starts a
    fresh process for the next exercise file (after ``jail.reset`` where the
    sandbox has namespaces; without them a sandbox serves one process only and
    answers {"ok": false}); {"op": "status"} answers the exit code of the last
    one, once it has ended. The parent ending the conversation ends the sandbox.
    """
    code = 0
    try:
        jail.die_with_parent()  # a zygote that is killed takes its workers with it
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        jail.close_fds(keep={0, 1, 2, fds[0]})
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        cfg = dict(req["sandbox"], libraries=[p for p in sys.path if os.path.isdir(p)])
        files, rel = read_folder(req["folder"], cfg["scratch"])
        box = jail.enter(cfg, files)
        init(fds[0], cfg, files, rel, box, jail)
    except BaseException:
        code = 70
    finally:
        os._exit(code)


def init(ctrl_fd, cfg, files, rel, box, jail):
    """Serve the parent's fork and status requests until it hangs up (see ``child``)."""
    import socket

    scratch, namespaced = box[0], box[1]
    sock = socket.socket(fileno=ctrl_fd)
    last, started, finished = None, 0, {}
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 1 << 12, 4)
        except OSError:
            return
        if not msg:
            return
        op = json.loads(msg.decode("utf-8")).get("op")
        if op == "fork" and len(fds) == 4 and (started == 0 or namespaced):
            if started:
                jail.reset(scratch, files)
                finished.clear()
            pid = os.fork()
            if pid == 0:
                sock.close()
                student(fds, cfg, rel, box, jail)
            for fd in fds:
                os.close(fd)
            last, started = pid, started + 1
            sock.send(b'{"ok": true}')
        elif op == "status" and last is not None:
            sock.send(json.dumps({"status": _wait(last, finished)}).encode())
        else:
            for fd in fds:
                os.close(fd)
            sock.send(b'{"ok": false}')


def student(fds, cfg, rel, box, jail):
    """A fresh process of the sandbox for one exercise file: confine, then serve. Never returns."""
    code = 0
    try:
        req_fd, res_fd, out_fd, err_fd = fds
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        jail.close_fds(keep={0, 1, 2, req_fd, res_fd})
        _, namespaced, measures, missing = box
        measures, missing = jail.become_student(cfg, namespaced, measures, missing)
        # after the credentials changed (which clears it): without namespaces nothing else
        # ends this process when the sandbox is killed
        jail.die_with_parent()
        # relative to the scratch folder, our working directory: its ancestors may not be
        # searchable by the sandbox user, but the working directory itself always is
        folder = os.path.normpath(rel)
        sys.meta_path.append(StudentFinder(folder))  # a student's file may import a sibling
        serve(folder, req_fd, res_fd, {"measures": measures, "missing": missing})
    except BaseException:
        traceback.print_exc()
        code = 70
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        os._exit(code)


def zygote(ctrl_fd):
    """Pre-import the heavy libraries once, then fork a confined worker per request.

    Requests arrive on a Unix socket with the worker's four pipe ends attached
    (SCM_RIGHTS): {"op": "spawn", "folder": ..., "sandbox": {...}} answers
    {"pid": n}; {"op": "wait", "pid": n} answers {"status": exit code or null}.
    """
    import socket

    import numpy  # noqa: F401 - imported once here, shared by every fork

    try:
        import sympy  # noqa: F401
    except ImportError:
        sympy = None
    _warm_up(numpy, sympy)
    jail = _sibling("jail")
    jail.die_with_parent()  # the grading process that started us was killed (kill -9): so are we
    sock = socket.socket(fileno=ctrl_fd)
    finished, forgotten = {}, set()
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 1 << 16, 8)
        except OSError:
            return
        if not msg:
            return
        req = json.loads(msg.decode("utf-8"))
        _reap(finished, forgotten)
        if req["op"] == "spawn":
            pid = os.fork()
            if pid == 0:
                sock.close()
                child(req, fds, jail)
            for fd in fds:
                os.close(fd)
            sock.send(json.dumps({"pid": pid}).encode())
        elif req["op"] == "wait":
            sock.send(json.dumps({"status": _wait(req["pid"], finished)}).encode())
        elif req["op"] == "forget":  # reaped whenever it ends; its status is not kept
            if finished.pop(req["pid"], None) is None:
                forgotten.add(req["pid"])
            sock.send(b'{"ok": true}')


def _warm_up(np, sp):
    """Use NumPy and SymPy once, so that every fork finds their lazy imports and caches ready.

    Each exercise file gets a fresh fork (graders/sandbox.py, Worker); without
    this, each would pay again for SymPy's first expressions and printing.
    """
    a = np.random.default_rng(0).standard_normal((4, 3))
    s = a @ a.T / np.sqrt(3.0)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    np.einsum("ij,kj->ik", e / e.sum(axis=-1, keepdims=True), e)
    np.tril(np.ones((3, 3), dtype=bool))
    if sp is not None:
        d = sp.Symbol("d", positive=True, integer=True)
        x = sp.exp(1 / sp.sqrt(2)) / (1 + sp.exp(1 / sp.sqrt(2))) + d / 2 - sp.Rational(1, 3)
        sp.srepr(sp.Tuple(x, sp.Integer(0), sp.Float(0.5), x.evalf(15)))


def _wait(pid, finished, seconds=2.0):
    """The exit code of a worker that is ending (negative: killed by that signal)."""
    import time

    deadline = time.monotonic() + seconds
    while pid not in finished:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return None
        if done:
            finished[pid] = os.waitstatus_to_exitcode(status)
        elif time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            deadline = float("inf")
        else:
            time.sleep(0.005)
    return finished.pop(pid)


def _reap(finished, forgotten):
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid in forgotten:  # a pid is not reused before it is reaped, so this is that worker
            forgotten.discard(pid)
        else:
            finished[pid] = os.waitstatus_to_exitcode(status)


def _sibling(name):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py")
    spec = importlib.util.spec_from_file_location("_attn_" + name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    # python -I -S worker.py zygote CTRL_FD LIBDIR...
    sys.path.extend(sys.argv[3:])  # the library folders (numpy, sympy); no .pth hooks run
    zygote(int(sys.argv[2]))


if __name__ == "__main__":
    main()
