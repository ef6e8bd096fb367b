# A correct softmax whose first call leaves processes behind: a forked child, a
# `sleep 1000` in its own session, and a double-forked daemon that called setsid()
# and ignores the usual signals. Each keeps writing to stdout and tries to write
# files for a while. None of them may outlive the grading of this student.
import os
import signal
import subprocess
import time

import numpy as np

_started = False


def _linger():
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    for _ in range(1000):
        for path in ("@@OUT@@/gradebook.csv", "@@MARKER@@", "pwned.txt"):
            try:
                with open(path, "a") as f:
                    f.write("child was here\n")
            except OSError:
                pass
        try:
            print("still here", flush=True)
        except Exception:
            pass
        time.sleep(1)
    os._exit(0)


def _spawn():
    if os.fork() == 0:  # a plain child
        _linger()
    subprocess.Popen(["sleep", "1000"], start_new_session=True)
    if os.fork() == 0:  # a daemon: fork, setsid, fork again, the middle one exits
        os.setsid()
        if os.fork() == 0:
            _linger()
        os._exit(0)


def softmax(z, axis=-1):
    global _started
    if not _started:
        _started = True
        _spawn()
    z = np.asarray(z, dtype=np.float64)
    m = np.max(z, axis=axis, keepdims=True)
    e = np.exp(z - m)
    return e / np.sum(e, axis=axis, keepdims=True)
