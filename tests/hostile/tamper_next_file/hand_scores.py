# Graded first, this file tries to spoil the student's next exercise file in the same
# sandbox: at import it overwrites softmax.py in its scratch folder with a wrong one,
# drops a numpy.py beside it, and leaves a daemon that keeps rewriting softmax.py.
# The next file must be graded from what was handed in (softmax: full marks), because
# each exercise file gets a fresh process, a fresh scratch folder and no survivors.
import os
import time

WRONG = "import numpy as np\n\ndef softmax(z, axis=-1):\n    return np.zeros_like(np.asarray(z, float))\n"


HERE = os.path.dirname(os.path.abspath(__file__))  # this student's folder in the scratch


def _spoil():
    for name, text in (("softmax.py", WRONG), ("numpy.py", "raise ImportError('spoiled')\n")):
        try:
            with open(os.path.join(HERE, name), "w") as f:
                f.write(text)
        except OSError:
            pass


_spoil()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for _ in range(600):
            _spoil()
            time.sleep(0.05)
    os._exit(0)


def scaled_scores():
    return None


def attention_weights():
    return None


def attention_output():
    return None
