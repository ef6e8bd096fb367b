# Replace the worker's send() so that its answer to the import is JSON nested far
# deeper than any parser allows.
import os
import struct
import sys

# the worker's own module, found as any code in the process can find it
worker = next(m for m in list(sys.modules.values())
              if callable(getattr(m, "serve", None)) and callable(getattr(m, "send", None)))


def deep(fd, obj):
    data = ("[" * 50_000 + "]" * 50_000).encode()  # under the size limits, too deep to parse
    os.write(fd, struct.pack(">I", len(data)) + data)


worker.send = deep


def scaled_scores():
    return 0
