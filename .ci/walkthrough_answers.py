"""A student's answers to part1_scores, for .ci/walkthrough: fills the fetched notebooks' cells.

    python - MODE DIR < .ci/walkthrough_answers.py     (run by the student, with their own Python)

MODE: right    every function right, and the model proof;
      mistake  right but for one function (hand_scores' attention_output), the exact answers in
               their shortest form, and a short proof;
      stub     hand_scores right (written another way), variance_proof left as it was fetched.
DIR is the student's fetched part1_scores/. Only the json module is needed. The answers are
written here (not read from solutions/) so that a student, who cannot read the instructor's
files, can run this from stdin.
"""

import json
import sys
from pathlib import Path

HAND_SCORES = '''import sympy


def scaled_scores() -> tuple:
    d_k = 2
    q = (1, 0)
    k = ((1, 0), (0, 1))
    return tuple(sum(qi * ki for qi, ki in zip(q, kj)) / sympy.sqrt(d_k) for kj in k)


def attention_weights() -> tuple:
    e = [sympy.exp(s) for s in scaled_scores()]
    return tuple(ej / sum(e) for ej in e)


def attention_output() -> tuple:
    v = ((4, 0), (0, 4))
    att = attention_weights()
    return tuple(sum(att[j] * v[j][c] for j in range(2)) for c in range(2))
'''

# walk-s2's own hand_scores, with one mistake: the output is the values added up, not weighted by
# the attention weights.
MISTAKE = '''import sympy


def scaled_scores() -> tuple:
    root = sympy.sqrt(2)
    return (sympy.Integer(1) / root, sympy.Integer(0))


def attention_weights() -> tuple:
    s1, s2 = scaled_scores()
    denominator = sympy.exp(s1) + sympy.exp(s2)
    return (sympy.exp(s1) / denominator, sympy.exp(s2) / denominator)


def attention_output() -> tuple:
    v1, v2 = (4, 0), (0, 4)
    return (v1[0] + v2[0], v1[1] + v2[1])
'''

VARIANCE = '''import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    E_q, E_k = sympy.Integer(0), sympy.Integer(0)
    return E_q * E_k


def product_variance():
    E_q2, E_k2 = sympy.Integer(1), sympy.Integer(1)
    return E_q2 * E_k2 - product_mean() ** 2


def dot_variance():
    return d_k * product_variance()


def scaled_dot_variance():
    return dot_variance() / sympy.sqrt(d_k) ** 2
'''

# Honest students write their own code: walk-s3's hand_scores by matrices, walk-s2's its own and exact answers
# in the fewest words (the short forms every right answer shares, which the integrity scan passes over).
HAND_SCORES_BY_MATRICES = '''import sympy


def scaled_scores() -> tuple:
    q = sympy.Matrix([1, 0])
    keys = sympy.Matrix([[1, 0], [0, 1]])
    return tuple(keys * q / sympy.sqrt(2))


def attention_weights() -> tuple:
    w = [sympy.exp(x) for x in scaled_scores()]
    total = w[0] + w[1]
    return (w[0] / total, w[1] / total)


def attention_output() -> tuple:
    a1, a2 = attention_weights()
    return (4 * a1, 4 * a2)
'''

VARIANCE_SHORT = '''import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return 0


def product_variance():
    return 1


def dot_variance():
    return d_k


def scaled_dot_variance():
    return 1
'''

PROOF = r'''*One term.* q_i and k_i are independent, so the expectation of their product
factors: $E[q_i k_i] = E[q_i]\,E[k_i] = 0$. Their squares are independent too, so
$\operatorname{Var}(q_i k_i) = E[q_i^2]\,E[k_i^2] - 0^2 = 1$.

*The sum.* Different terms use different entries, so the $d_k$ terms are independent
and their variances add: $\operatorname{Var}(q \cdot k) = d_k$.

*The scaling.* $\operatorname{Var}(X/c) = \operatorname{Var}(X)/c^2$; with $c = \sqrt{d_k}$
the scaled score has variance $d_k / (\sqrt{d_k})^2 = 1$.

*What it means.* The spread of the scaled scores does not grow with $d_k$, so the softmax
does not saturate for large heads.
'''

SHORT_PROOF = "The variances add up, so Var(q.k) = d_k, and dividing by sqrt(d_k) gives 1.\n"


def fill(path: Path, cells: dict) -> None:
    """Set the source of the cells whose nbgrader grade_id is a key of ``cells``."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    found = set()
    for cell in nb["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id in cells:
            cell["source"] = cells[grade_id].splitlines(keepends=True)
            found.add(grade_id)
    missing = set(cells) - found
    if missing:
        sys.exit(f"walkthrough_answers: {path} has no cell {', '.join(sorted(missing))}")
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(mode: str, folder: str) -> None:
    root = Path(folder)
    if mode == "right":
        fill(root / "hand_scores.ipynb", {"hand_scores-answer": HAND_SCORES})
        fill(root / "variance_proof.ipynb", {"variance_proof-answer": VARIANCE, "variance_proof-proof": PROOF})
    elif mode == "mistake":
        fill(root / "hand_scores.ipynb", {"hand_scores-answer": MISTAKE})
        fill(root / "variance_proof.ipynb", {"variance_proof-answer": VARIANCE_SHORT,
                                             "variance_proof-proof": SHORT_PROOF})
    elif mode == "stub":
        fill(root / "hand_scores.ipynb", {"hand_scores-answer": HAND_SCORES_BY_MATRICES})
    else:
        sys.exit(f"walkthrough_answers: unknown mode {mode!r} (right, mistake, stub)")
    print(f"walkthrough_answers: {mode} answers written in {root}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
