"""Code that is the same up to names, comments and layout: the ``similar code`` flags of copying.py.

The code is tokenised and fingerprinted by winnowing, as MOSS does, with
copydetect (pygments' tokens, names replaced by one letter). copydetect hashes
its k-grams with Python's ``hash()``, which differs from run to run unless
PYTHONHASHSEED is fixed; so the comparison runs in a child process of its own
(``compare``: ``python -m graders.classroom.integrity.codematch``, the seed fixed, its
time and memory bounded), and the same files give the same flags every time.
A file is compared on its first MAX_CODE characters (far more than an answer
needs: a longer one is said to be cut).

Only fingerprints that few files of the class share count (a share COMMON of
them, at least two and at most MOST, as MOSS ignores what more than ten
programs share), so a line every solution needs is no signal. A pair is flagged
when, with the stub's and the common fingerprints left out, the code they share
covers SIMILAR of each file (copydetect's similarity) and at least MIN_TOKENS
characters of filtered code. Identical answers are not flagged again (identical.py
says which of them are a sign). copydetect's spans are of its filtered code,
whose names are one letter, so they may begin or end inside a token of the
file; the evidence marks whole tokens (``_spans``): a span that cuts a token
takes all of it.
"""

from __future__ import annotations

import bisect
import copy
import io
import json
import math
import os
import re
import subprocess
import sys
import tokenize
from collections import defaultdict
from itertools import combinations

SIMILAR, MIN_TOKENS, COMMON, MOST = 0.7, 60, 0.05, 10
K, WINDOW = 25, 6  # copydetect's noise and guarantee thresholds of 25 and 30 characters
MAX_CODE = 30_000  # characters of a file compared
SECONDS, PER_FILE, MEMORY = 120.0, 0.1, 2 << 30


def compare(codes: dict, stubs: dict) -> tuple[list, list]:
    """([(student, where, detail)], evidence) for ``codes``: slug -> {student: (where, text)};
    ``stubs``: slug -> [stub texts]. Runs in a child process; a failure is said in the evidence."""
    files = sum(len(v) for v in codes.values())
    seconds = SECONDS + PER_FILE * files
    env = dict(os.environ, PYTHONHASHSEED="0")
    try:
        done = subprocess.run([sys.executable, "-m", __name__], input=json.dumps([codes, stubs]), text=True,
                              capture_output=True, env=env, timeout=seconds, preexec_fn=_bounded)
        if done.returncode == 0:
            found = json.loads(done.stdout)
            return [tuple(f) for f in found["flags"]], found["evidence"]
        why = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"it ended with {done.returncode}"
    except subprocess.TimeoutExpired:
        why = f"the comparison took more than {seconds:.0f} s"
    except (OSError, ValueError) as exc:
        why = str(exc)
    return [], [{"kind": "similar code", "skipped": f"not compared: {why[:300]}"}]


def _bounded():
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _main() -> int:
    codes, stubs = json.loads(sys.stdin.read())
    try:
        flags, evidence = _compare(codes, stubs)
    except ImportError:
        flags, evidence = [], [{"kind": "similar code", "skipped": "copydetect is not installed (pip install "
                                                                   "copydetect, or the project's 'course' extra)"}]
    json.dump({"flags": flags, "evidence": evidence}, sys.stdout, sort_keys=True)
    return 0


def _compare(codes, stubs):
    from copydetect import CodeFingerprint, compare_files
    from copydetect.utils import get_token_coverage

    from .codescan import normalised

    def fingerprint(text, boiler=None):
        return CodeFingerprint("answer.py", K, WINDOW, boilerplate=boiler, fp=io.StringIO(text[:MAX_CODE]))

    def without(fp, common):
        """``fp`` with the ``common`` fingerprints left out, as copydetect leaves out boilerplate."""
        kept = copy.copy(fp)
        kept.hash_idx = {h: i for h, i in fp.hash_idx.items() if h not in common}
        kept.hashes = set(kept.hash_idx)
        kept.token_coverage = get_token_coverage(kept.hash_idx, K, len(fp.filtered_code))
        return kept

    flags, evidence = [], []
    for slug, files in sorted(codes.items()):
        boiler = sorted({h for text in stubs.get(slug, []) for h in fingerprint(text).hashes})
        prints = {}
        for who, (where, text) in sorted(files.items()):
            try:
                prints[who] = fingerprint(text, boiler)
            except Exception:  # noqa: BLE001 - a file the tokeniser cannot take is simply not compared
                continue
        owners = defaultdict(set)
        for who, fp in prints.items():
            for h in fp.hashes:
                owners[h].add(who)
        few = max(2, min(MOST, math.ceil(COMMON * len(prints))))
        common = {h for h, o in owners.items() if len(o) > few}
        shared = defaultdict(int)
        for o in owners.values():
            if 2 <= len(o) <= few:
                for pair in combinations(sorted(o), 2):
                    shared[pair] += 1
        for (a, b), n in sorted(shared.items()):
            if n < 0.3 * min(len(prints[a].hashes), len(prints[b].hashes)):
                continue  # not worth comparing: less than 30% of the smaller's fingerprints
            tokens, (sa, sb), (slices_a, slices_b) = compare_files(without(prints[a], common),
                                                                   without(prints[b], common))
            if min(sa, sb) < SIMILAR or tokens < MIN_TOKENS:
                continue
            key_a, key_b = normalised(files[a][1]), normalised(files[b][1])
            if key_a is not None and key_a == key_b:
                continue  # identical answers: identical.py decides whether they are a sign
            detail = "{slug}: {share:.0f}% of the code matches {other}'s, up to names, comments and layout"
            for me, other in ((a, b), (b, a)):
                flags.append((me, files[me][0], detail.format(slug=slug, share=100 * min(sa, sb), other=other)))
            evidence.append({"kind": "similar code", "exercise": slug, "students": [a, b],
                             "similarity": round(float(min(sa, sb)), 3),
                             "cut": [len(files[w][1]) > MAX_CODE for w in (a, b)],
                             "code": [_spans(prints[a].raw_code, slices_a), _spans(prints[b].raw_code, slices_b)]})
    return flags, evidence


def _spans(code: str, slices) -> list:
    """``code`` cut into [text, matched] pieces by copydetect's slices (starts, ends), each matched piece
    widened to the whole tokens it cuts and narrowed to leave out the blanks at its ends."""
    edges = _tokens(code)
    starts = [start for start, _ in edges]
    pieces, at = [], 0
    for start, end in sorted(zip(map(int, slices[0]), map(int, slices[1]))):
        start, end = _whole(edges, starts, max(start, 0), min(end, len(code)))
        start = max(start, at)
        if end <= start:
            continue
        if start > at:
            pieces.append([code[at:start], False])
        pieces.append([code[start:end], True])
        at = end
    if at < len(code):
        pieces.append([code[at:], False])
    return pieces


def _whole(edges: list, starts: list, start: int, end: int) -> tuple[int, int]:
    """(start, end) moved to the edges of tokens: the start of the token it begins in (or of the next one,
    after blanks), the end of the last token it reaches into."""
    i = bisect.bisect_right(starts, start) - 1
    if i >= 0 and edges[i][1] > start:
        start = edges[i][0]
    else:
        start = starts[i + 1] if i + 1 < len(starts) else end
    j = bisect.bisect_left(starts, end) - 1
    return start, (edges[j][1] if j >= 0 else start)


def _tokens(code: str) -> list:
    """(start, end) of each token of ``code`` (Python's, comments included), in order; where the tokenizer
    stops, the rest as words and single characters."""
    lines = io.StringIO(code).readlines()
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    found = []
    try:
        for t in tokenize.generate_tokens(io.StringIO(code).readline):
            if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
                found.append((offsets[t.start[0] - 1] + t.start[1], offsets[t.end[0] - 1] + t.end[1]))
    except (tokenize.TokenError, SyntaxError):
        rest = found[-1][1] if found else 0
        found += [(rest + m.start(), rest + m.end()) for m in re.finditer(r"\w+|\S", code[rest:])]
    return found


if __name__ == "__main__":
    sys.exit(_main())
