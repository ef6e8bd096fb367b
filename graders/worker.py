"""The worker: the only process in which a student's code runs.

This file is self-contained on purpose (standard library and NumPy only): the
parent starts it as ``python -I -S worker.py FILE REQ_FD RES_FD LIBDIR...`` so
that it never imports the grading package, the graders or the reference
solutions.

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
import struct
import sys
import traceback

MAX_STR = 20_000
MAX_ITEMS = 10_000


def send(fd, obj):
    data = json.dumps(obj, allow_nan=True).encode("utf-8")
    buf = struct.pack(">I", len(data)) + data
    while buf:
        n = os.write(fd, buf)
        buf = buf[n:]


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
        message = str(exc)[:2000]
    except BaseException:  # a lying __str__
        message = "<message could not be read>"
    return {
        "type": type(exc).__name__,
        "mro": [c.__name__ for c in type(exc).__mro__],
        "message": message,
        "where": where,
    }


def snapshot(args):
    np = sys.modules.get("numpy")
    if np is None:
        return None
    return [a.copy() if isinstance(a, np.ndarray) else None for a in args]


def mutated(before, args):
    if before is None:
        return []
    np = sys.modules["numpy"]
    out = []
    for i, (b, a) in enumerate(zip(before, args)):
        if b is not None and not (b.shape == a.shape and np.array_equal(b, a, equal_nan=True)):
            out.append(i)
    return out


def call(module, filename, req):
    fn = getattr(module, req["func"], None)
    if not callable(fn):
        return {"ok": False, "missing": True}
    args = decode(req.get("args", []))
    kwargs = decode(req.get("kwargs", {}))
    before = snapshot(args)
    try:
        value = fn(*args, **kwargs)
    except BaseException as exc:  # SystemExit and KeyboardInterrupt are answers too
        return {"ok": False, "error": describe_exception(exc, filename)}
    try:
        encoded = encode(value)
    except BaseException as exc:
        return {"ok": False, "error": describe_exception(exc, filename), "encoding": True}
    return {"ok": True, "value": encoded, "mutated": mutated(before, args)}


def load(filename):
    """Import the student's file as a module named after its slug."""
    name = os.path.splitext(os.path.basename(filename))[0]
    sys.path.insert(0, os.path.dirname(os.path.abspath(filename)))
    spec = importlib.util.spec_from_file_location(name, filename)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main():
    filename, req_fd, res_fd = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sys.path.extend(sys.argv[4:])  # the library folders (numpy, sympy); no .pth hooks run
    try:
        module = load(filename)
    except BaseException as exc:
        send(res_fd, {"ready": False, "error": describe_exception(exc, filename)})
        return
    names = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_"))
    send(res_fd, {"ready": True, "functions": names})
    while True:
        req = recv(req_fd)
        if req is None:
            return
        try:
            answer = call(module, filename, req)
        except BaseException as exc:  # a failure of the worker itself, e.g. bad arguments
            answer = {"ok": False, "error": describe_exception(exc, filename), "internal": True}
        answer["id"] = req.get("id")
        send(res_fd, answer)


if __name__ == "__main__":
    main()
