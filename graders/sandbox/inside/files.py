"""A student's files as the sandbox takes them: read before confinement, bounded, exercise files first.

Loaded by factory.py by path; standard library only. ``read_folder`` runs in
the sandbox's first process while it still has the grader's rights, so it
takes only regular files (a symbolic link to /etc/shadow or to a solution is
skipped) and only so much: at most MAX_FILES .py files of at most
MAX_FILE_BYTES each, MAX_TOTAL_BYTES in all. The files the grader asks for
(``first``, the exercise files) are opened by name before anything else, so
no number of other files can crowd them out; the rest of the folder is
listed only as far as MAX_ENTRIES entries, and only its .py files count. Each
limit that is hit becomes a note, in words, for the feedback.
"""

import os
import stat

MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES = 64, 1 << 20, 16 << 20
MAX_ENTRIES = 10_000  # of the folder looked at for helper modules


def read_folder(folder, scratch, first=()):
    """(files by path relative to ``scratch``, the folder relative to it, notes on what was left out)."""
    rel = os.path.relpath(folder, scratch)
    files, notes = {}, []
    if os.path.islink(folder):
        return files, rel, notes
    wanted = [n for n in first if _plain_name(n)]
    listed, more = python_files(folder)
    if more:
        notes.append(f"your folder holds more than {MAX_ENTRIES} entries; only the first {MAX_ENTRIES} were "
                     f"looked at for modules your files import")
    names = list(dict.fromkeys([*wanted, *sorted(listed)]))
    total = 0
    for i, name in enumerate(names):
        if len(files) >= MAX_FILES:
            notes.append(f"only {MAX_FILES} .py files are copied into the sandbox (the exercise files first); "
                         f"{len(names) - i} more were left out, among them {', '.join(names[i:i + 3])}")
            break
        data, why = _read_one(os.path.join(folder, name), MAX_TOTAL_BYTES - total)
        if why:
            notes.append(f"{name} {why}, so it was not copied into the sandbox")
        elif data is not None:
            files[os.path.normpath(os.path.join(rel, name))] = data
            total += len(data)
    return files, rel, notes


def _plain_name(name):
    return isinstance(name, str) and name.endswith(".py") and name == os.path.basename(name) \
        and name not in (".py", "..py")


def python_files(folder):
    """(the .py names among the folder's first MAX_ENTRIES entries, whether there were more)."""
    found, seen = [], 0
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                seen += 1
                if seen > MAX_ENTRIES:
                    return found, True
                if entry.name.endswith(".py"):
                    found.append(entry.name)
    except OSError:
        pass
    return found, False


def _read_one(path, room):
    """(bytes, "") of a regular file; (None, why) when it is too large; (None, "") if it is no file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None, ""
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, ""
        if info.st_size > MAX_FILE_BYTES:
            return None, f"is larger than {MAX_FILE_BYTES >> 20} MB"
        if info.st_size > room:
            return None, f"would take the files past {MAX_TOTAL_BYTES >> 20} MB in all"
        return os.read(fd, MAX_FILE_BYTES), ""
    finally:
        os.close(fd)
