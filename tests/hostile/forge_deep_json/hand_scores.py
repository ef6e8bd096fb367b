# Replace the worker's send() so that its answer to the import is JSON nested far
# deeper than any parser allows.
import os
import struct
import sys

worker = sys.modules["__main__"]


def deep(fd, obj):
    data = ("[" * 50_000 + "]" * 50_000).encode()  # under the size limits, too deep to parse
    os.write(fd, struct.pack(">I", len(data)) + data)


worker.send = deep


def scaled_scores():
    return 0
