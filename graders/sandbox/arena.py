"""The arguments of a call, as the grader reads them after it: memory it shares, not the worker's word.

A check that a function leaves its input unchanged needs the array arguments
as they are after the call. The worker used to report them; a submission that
walked to the worker's globals and replaced the function that reports them
(``sys._getframe``, ``gc.get_referrers``) scored as if it left its input alone.
Now the grader writes each array argument of such a call (``call_full``, and
the calls of a batch that ask for "after") into an ``Arena``: a memfd it shares
with the worker process, sealed so that neither side can shrink or grow it (a
read by the grader never faults). The worker hands the function views of that
memory (``{"__arena__": ...}`` in place of the array's bytes), and when the
answer comes the grader reads the arguments back itself, in place of any
"after" the worker sent (``read``). What the function wrote into its
arguments is there, whatever the rest of its process says.

What stays out of reach (SECURITY.md): the student's process can write that
memory too, so a submission that saves its arguments and writes them back
before it answers passes, as a function that copies its input would. Whether a
returned array shares memory with an argument, or with an earlier answer, is a
fact of the worker's own memory: the worker still reports those. Where memfd
cannot be had (macOS), or a call's arrays do not fit, the worker's report
stands, as before.
"""

from __future__ import annotations

import base64
import fcntl
import mmap
import os

import numpy as np

SIZE = 8 << 20  # bytes: every array argument of one request (a call, or a batch); the probes are small
ALIGN = 64
F_SEAL_SEAL, F_SEAL_SHRINK, F_SEAL_GROW = 0x0001, 0x0002, 0x0004


class Arena:
    """A shared mapping of ``SIZE`` bytes: the grader writes arguments in, the worker maps it (its fd)."""

    def __init__(self):
        self.fd = os.memfd_create("attn-arguments", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        try:
            os.ftruncate(self.fd, SIZE)
            fcntl.fcntl(self.fd, fcntl.F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)
            self.map = mmap.mmap(self.fd, SIZE)  # shared, read and write
        except BaseException:
            os.close(self.fd)
            raise
        self.used = 0

    @classmethod
    def make(cls):
        """An Arena, or None where the system gives no sealed memfd (the worker's report stands)."""
        try:
            return cls()
        except (AttributeError, OSError):
            return None

    def close(self):
        if self.fd >= 0:
            self.map.close()
            os.close(self.fd)
            self.fd = -1

    def start(self):
        """A new request: its calls' arguments are laid out from the start again."""
        self.used = 0

    def place(self, req: dict):
        """(the request to send, its layout): ``req`` (wire.request's, left as it is) with each array argument
        written here and sent as its place, and [(key, offset, dtype, shape)]; (req, None) where an argument
        is not an array of numbers or they do not fit."""
        sent = list(enumerate(req.get("args", []))) + list(req.get("kwargs", {}).items())
        arrays = []
        for key, a in sent:
            if isinstance(a, dict) and "__nd__" in a:
                meta = a["__nd__"]
                arrays.append((key, np.dtype(meta["dtype"]), list(meta["shape"]), base64.b64decode(meta["b64"])))
        if not arrays or any(dtype.kind not in "biuf" for _, dtype, _, _ in arrays):
            return req, None
        offsets, at = [], self.used
        for *_, data in arrays:
            at = -(-at // ALIGN) * ALIGN
            offsets.append(at)
            at += len(data)
        if at > SIZE:
            return req, None
        self.used = at
        out = dict(req, args=list(req.get("args", [])), kwargs=dict(req.get("kwargs", {})))
        layout = []
        for (key, dtype, shape, data), off in zip(arrays, offsets):
            self.map[off:off + len(data)] = data
            place = {"__arena__": {"dtype": dtype.str, "shape": shape, "offset": off}}
            if isinstance(key, int):
                out["args"][key] = place
            else:
                out["kwargs"][key] = place
            layout.append((key, off, dtype.str, shape))
        return out, layout

    def read(self, msg, layout) -> None:
        """Put in ``msg`` (the worker's answer, a dict) the arguments of ``layout`` as they are here now,
        encoded as the worker would have sent them; whatever "after" the worker sent is dropped."""
        if not isinstance(msg, dict) or layout is None:
            return
        after = {"args": [], "kwargs": {}}
        for key, off, dtype, shape in layout:
            size = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
            now = {"__nd__": {"dtype": dtype, "kind": np.dtype(dtype).kind, "shape": shape, "class": "numpy.ndarray",
                              "b64": base64.b64encode(self.map[off:off + size]).decode("ascii")}}
            if isinstance(key, int):
                after["args"] += [None] * (key + 1 - len(after["args"]))
                after["args"][key] = now
            else:
                after["kwargs"][key] = now
        msg["after"] = after
