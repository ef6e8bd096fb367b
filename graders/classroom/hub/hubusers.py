"""The hub's Unix accounts (hubsetup.py's HubLayout): made fresh for a run, removed after it.

    make_users / remove_users     throwaway accounts with random passwords; only accounts this module
                                  made (marked in their GECOS field) are ever removed
    end_processes                 every process of those accounts ended, TERM then KILL
"""

from __future__ import annotations

import os
import pwd
import secrets
import signal
import time
from pathlib import Path

from .hubsetup import HubError, HubLayout, run

MARK = "attn-grade hub try-out"  # the GECOS field of every account made here


def _ours(user: str) -> bool | None:
    """True: an account made here; False: someone else's; None: no such account."""
    try:
        return pwd.getpwnam(user).pw_gecos == MARK
    except KeyError:
        return None


def _pids_of(uids: set[int]) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                uid = next(int(line.split()[1]) for line in (entry / "status").read_text().splitlines()
                           if line.startswith("Uid:"))
            except (OSError, StopIteration, ValueError):
                continue
            if uid in uids:
                pids.append(int(entry.name))
    return pids


def end_processes(users: list[str]) -> None:
    """Ends every process of these accounts (all made here): TERM, then KILL after 10 s."""
    uids = {pwd.getpwnam(u).pw_uid for u in users if _ours(u)}
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        for pid in _pids_of(uids):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait
        while _pids_of(uids) and time.monotonic() < deadline:
            time.sleep(0.2)


def remove_users(layout: HubLayout) -> None:
    """Removes the accounts made here, their processes and homes; leaves anyone else's alone."""
    mine = [u for u in layout.accounts if _ours(u)]
    end_processes(mine)
    for user in mine:
        run(["userdel", "--remove", user], f"removing the account {user}")


def make_users(layout: HubLayout) -> dict[str, str]:
    """Fresh accounts (an earlier run's are removed first); their random hub passwords, by name."""
    taken = [u for u in layout.accounts if _ours(u) is False]
    if taken:
        raise HubError(f"the account(s) {', '.join(taken)} already exist and were not made by this command: "
                       f"choose another --name")
    remove_users(layout)
    passwords = {}
    for user in layout.accounts:
        run(["useradd", "--create-home", "--shell", "/bin/bash", "--comment", MARK, user], f"creating the account {user}")
        os.chmod(f"/home/{user}", 0o700)  # a student's work is theirs alone
        if user != layout.grader:  # the grader account never logs in: the hub starts its service
            passwords[user] = secrets.token_urlsafe(9)
    lines = "".join(f"{u}:{p}\n" for u, p in passwords.items())
    run(["chpasswd"], "setting the passwords", input=lines)
    return passwords
