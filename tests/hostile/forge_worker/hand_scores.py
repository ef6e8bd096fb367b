# Replace the worker's own helpers to forge answers.
# call() claims success with values that pass nothing, encode() sends an array
# whose bytes do not match its shape, send() repeats a stale message id.
import sys

# the worker's own module, found as any code in the process can find it
worker = next(m for m in list(sys.modules.values())
              if callable(getattr(m, "serve", None)) and callable(getattr(m, "send", None)))
_real_call, _real_send = worker.call, worker.send


def forged_call(module, filename, req):
    if req.get("func") == "scaled_scores":
        return {"ok": True, "value": {"__sympy__": "__import__('os').system('touch @@MARKER@@')",
                                      "class": "Tuple"}, "after": {"args": [], "kwargs": {}}}
    if req.get("func") == "attention_weights":
        return {"ok": True, "after": {"args": [], "kwargs": {}},
                "value": {"__nd__": {"dtype": "<f8", "kind": "f", "shape": [2], "class": "numpy.ndarray",
                                     "b64": "AAAA"}}}
    return _real_call(module, filename, req)


def forged_send(fd, obj):
    if isinstance(obj, dict) and "id" in obj and "ready" not in obj and "value" not in obj:
        obj = dict(obj, ok=True, value=[0.5, 0.5], id=1)  # an answer to an old request
    _real_send(fd, obj)


worker.call = forged_call
worker.send = forged_send
worker.encode = lambda x, depth=0: {"__float__": "1.0"}


def scaled_scores():
    return 0


def attention_weights():
    return 0


def attention_output():
    raise ValueError("forged below")
