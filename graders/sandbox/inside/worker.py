"""The worker: the only process in which a student's code runs.

This file is self-contained on purpose (standard library and NumPy only): it
is loaded by path from factory.py (the zygote, started with ``python -I -S``),
so it never imports the grading package, the graders or the reference
solutions. ``serve`` runs in a confined process forked for one exercise file;
the parent (sandbox.py, submission.py) uses ``send``, ``recv`` and the
encoding, and ``call`` also serves in-process callers (graders/grading/plans.py
and notebook.py).

Protocol. Each message is a 4-byte big-endian length followed by that many
bytes of UTF-8 JSON. Requests arrive on REQ_FD, answers leave on RES_FD; the
student's own stdout and stderr are ordinary pipes the parent drains and never
parses; an answer also carries, for its feedback, the last characters one call
printed to stdout ("printed", base64 of their UTF-8). Values cross as plain JSON
plus three tagged forms:

    {"__nd__": {"dtype": "<f8", "shape": [2, 3], "b64": "..."}}   a numeric array
    {"__tuple__": [...]}                                           a tuple
    {"__sympy__": "srepr text", "class": "Add"}                    a SymPy object, as text
    {"__rng__": 1234}                                              (request only) np.random.default_rng(1234)
    {"__mt19937__": {"key": [624 ints], "pos": 0}}                 (request only) a Generator(MT19937) in that state
    {"__other__": "module.Class"}                                  anything else: only its type name

An answer to a call is plain data about what happened, nothing more:
{"ok": true, "value": ..., "after": {"args": [...], "kwargs": {...}}, "poked": {...},
"earlier": ...} (where the request asks for them with "after": true: "after", the
array arguments as they were after the call, encoded like the value, None in the
places of the others; "poked", the same once every array the call returned was
written to, then put back, so that an argument the result shares memory with
shows as changed; "earlier", the value the previous such call returned, encoded
again now, so that a result this call overwrote shows as changed), or {"ok": false, "error": {"type", "mro", "message",
"where"}} (the exception's type and its classes' names, its message, and the
student's line it passed through last). Whether an argument changed, and whether
an exception counts, are decided by the parent (submission.py, wire.py and the
graders' kit), never here: this process is the student's once their code runs.
The parent decodes and validates every answer (wire.py); nothing the
worker sends is trusted.
"""

import base64
import importlib.util
import json
import math
import os
import struct
import sys
import traceback
import zlib

MAX_STR = 20_000
MAX_ITEMS = 10_000
MAX_ELEMENTS = 2_000_000  # of an array an answer carries (wire.py's bound; this side imports nothing of it)
PRINTED = 2_000  # characters kept of what one call printed


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
    if arr.dtype.kind not in "biuf" or arr.size > MAX_ELEMENTS:
        return {"__nd__": meta}  # no data: the parent rejects it with a message
    data = np.ascontiguousarray(arr).tobytes()
    meta["b64"] = base64.b64encode(data).decode("ascii")
    return {"__nd__": meta}


ARENA = []  # the memory the grader shares for the arguments it reads back after a call (sandbox/arena.py)


def open_arena(fd) -> bool:
    """Map the grader's arena (its fd, inherited); whether it could be. The fd is closed either way."""
    import mmap

    try:
        ARENA[:] = [mmap.mmap(fd, os.fstat(fd).st_size)]
        return True
    except (OSError, ValueError):
        ARENA.clear()
        return False
    finally:
        os.close(fd)


def decode(x):
    """Turn the parent's plain data back into arguments."""
    if isinstance(x, list):
        return [decode(v) for v in x]
    if isinstance(x, dict):
        if "__arena__" in x:  # a view of the arena: the grader reads it back after the call
            import numpy as np

            m = x["__arena__"]
            dtype, shape = np.dtype(m["dtype"]), tuple(m["shape"])
            count = 1
            for n in shape:
                count *= n
            return np.frombuffer(ARENA[0], dtype=dtype, count=count, offset=m["offset"]).reshape(shape)
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
        if "__mt19937__" in x:
            return mt19937(x["__mt19937__"])
        if "__float__" in x:
            return float(x["__float__"])
        return {k: decode(v) for k, v in x.items()}
    return x


def mt19937(state):
    """np.random.Generator(MT19937) with the state the parent sent (graders/sandbox/chosen_rng.py chose
    it): exactly 624 32-bit words and a position in [0, 624], or the request is refused."""
    import numpy as np

    key, pos = (state.get("key"), state.get("pos")) if isinstance(state, dict) else (None, None)
    if not (isinstance(state, dict) and len(state) == 2 and isinstance(key, list) and len(key) == 624
            and all(type(w) is int and 0 <= w < 2 ** 32 for w in key) and type(pos) is int and 0 <= pos <= 624):
        raise ValueError("malformed MT19937 state in the request")
    gen = np.random.Generator(np.random.MT19937(0))
    gen.bit_generator.state = {"bit_generator": "MT19937",
                               "state": {"key": np.array(key, dtype=np.uint32), "pos": pos}}
    return gen


# ---------------------------------------------------------------- calls
def describe_exception(exc, filename):
    """Type, message and the student's own line, without the worker's frames: plain data. The
    parent decides what they mean (whether the exception counts, say), never this process."""
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


def arguments_after(args, kwargs):
    """The array arguments as they are after the call, encoded like return values, in the
    places of the request (None for every other argument). Whether one changed is for the
    parent to decide, against its own copy of what it sent."""
    np = sys.modules.get("numpy")
    is_array = (lambda a: isinstance(a, np.ndarray)) if np is not None else (lambda a: False)
    return {"args": [encode(a) if is_array(a) else None for a in args],
            "kwargs": {k: encode(v) for k, v in kwargs.items() if is_array(v)}}


def reseed(req):
    """Reset the global random states before every call, to a seed made from the call itself
    (its function and arguments): the same call always sees the same global state, so
    grades are reproducible and a batch of recorded calls answers as the same calls made
    one by one; a different call sees a different state, so code that draws from
    np.random.* instead of the rng it is given changes its answer when only the way the
    arguments are written changes, and the rng checks catch it."""
    text = json.dumps([req.get("func"), req.get("args", []), req.get("kwargs", {})], sort_keys=True)
    seed = zlib.crc32(text.encode("utf-8"))
    np = sys.modules.get("numpy")
    if np is not None:
        np.random.seed(seed)
    rnd = sys.modules.get("random")
    if rnd is not None:
        rnd.seed(seed)


def call(module, filename, req):
    fn = getattr(module, req["func"], None)
    if not callable(fn):
        return {"ok": False, "missing": True}
    args = decode(req.get("args", []))
    kwargs = decode(req.get("kwargs", {}))
    reseed(req)
    with Printed() as printed:
        answer = _answer(fn, args, kwargs, filename, req.get("after") is True)
    if printed.size:
        answer["printed"] = printed_field(printed.text)
    return answer


def _answer(fn, args, kwargs, filename, after):
    """What one call did, as plain data: its value, or its exception; and (``after``: the
    request asked) its array arguments as they are after it."""
    try:
        value = fn(*args, **kwargs)
    except BaseException as exc:  # SystemExit and KeyboardInterrupt are answers too
        return {"ok": False, "error": describe_exception(exc, filename)}
    try:
        answer = {"ok": True, "value": encode(value)}
        if after:
            answer["after"] = arguments_after(args, kwargs)
    except BaseException as exc:
        return {"ok": False, "error": describe_exception(exc, filename), "encoding": True}
    if after:  # what the grader learns here is about memory: a failure to learn it is no error of the call's
        try:
            answer["poked"] = _poked(value, args, kwargs)
        except BaseException:
            answer["poked"] = None
        try:
            answer["earlier"] = encode(_EARLIER[0]) if _EARLIER else None
        except BaseException:
            answer["earlier"] = {"__other__": "could not be read again"}
        _EARLIER[:] = [value]
    return answer


_EARLIER = []  # the value of the last call that asked for "after" (since the last batch began), as it is now


def _poked(value, args, kwargs):
    """The array arguments as they are while every array ``value`` holds (itself, or the items of a
    tuple or list) is filled with other entries; each is put back before this returns."""
    np = sys.modules.get("numpy")
    if np is None:
        return None
    items = value if type(value) in (tuple, list) else (value,)
    held = [a for a in items if isinstance(a, np.ndarray) and 0 < a.size <= MAX_ELEMENTS and a.flags.writeable
            and a.dtype.kind in "biuf"]  # as large as an answer may carry, no larger
    saved = [a.copy() for a in held]
    try:
        for a, old in zip(held, saved):
            a[...] = ~old if a.dtype.kind == "b" else (np.nan if a.dtype.kind == "f" else old + 1)
        return arguments_after(args, kwargs)
    finally:
        for a, old in zip(held, saved):
            a[...] = old


class Printed:
    """What one call prints to standard output: the last PRINTED characters are kept for its
    feedback, and everything still goes on to the real stream. Standard error is left out:
    Python shows a warning only the first time its line runs in a process, so what a call
    writes there depends on the calls made before it (recorded plans batch them). Where
    there is no standard output (``sys.stdout = None``), print() prints nothing, as always."""

    def __init__(self):
        self.parts, self.size = [], 0

    @property
    def text(self) -> str:
        return "".join(self.parts)[-PRINTED:]

    def keep(self, text):
        self.parts.append(text[-PRINTED:])
        self.size += len(self.parts[-1])
        if self.size > 8 * PRINTED:  # now and then, not at every write
            self.parts = [self.text]
            self.size = len(self.parts[0])

    def __enter__(self):
        self.stream = sys.stdout
        if self.stream is not None:
            sys.stdout = _Tee(self, self.stream)
        return self

    def __exit__(self, *exc):
        sys.stdout = self.stream  # even if the call replaced it


class _Tee:
    def __init__(self, printed, stream):
        self._printed, self._stream = printed, stream

    def write(self, text):
        if isinstance(text, str):
            self._printed.keep(text)
        return self._stream.write(text)

    def __getattr__(self, name):  # flush, buffer, isatty, ... as the real stream has them
        return getattr(self._stream, name)


def printed_field(text):
    """What a call printed, as the answer carries it: base64 of its UTF-8, so the parent's count
    of a message's values (commas, brackets) counts none of it."""
    return base64.b64encode(text.encode("utf-8", "replace")).decode("ascii")


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
    {"op": "call", "file": F, "func": ..., "args": [...], "kwargs": {...}} calls one (with
    "after": true, its answer carries the array arguments back as they were after the call);
    {"op": "batch", "file": F, "calls": [...]} makes those calls in turn, answering each
    as it returns ({"part": i, "answer": ...}), then {"done": n}.
    """
    send(res_fd, {"hello": True, "sandbox": sandbox})
    modules = {}
    while True:
        req = recv(req_fd)
        if req is None:
            return
        try:
            answer = handle(folder, modules, req, lambda part: send(res_fd, dict(part, id=req.get("id"))))
        except BaseException as exc:  # a failure of the worker itself, e.g. bad arguments
            answer = {"ok": False, "error": describe_exception(exc, ""), "internal": True}
        answer["id"] = req.get("id")
        send(res_fd, answer)


def handle(folder, modules, req, part=None):
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
    if req.get("op") == "batch":  # each answer as it comes: a call that hangs is known by those before it
        calls = req.get("calls", [])
        _EARLIER.clear()  # a check's batch: its answers are the same whatever ran before it (plans.pass_name)
        for i, r in enumerate(calls):
            part({"part": i, "answer": call(modules[name], filename, r)})
        return {"done": len(calls)}
    return call(modules[name], filename, req)
