"""The command's name as the learner types it, for every message that tells them what to run.

This package installs the ``attn-grade`` command. The student bundle (classroom/release/release.py)
installs its public copy as the package ``attn_checks`` with the command ``attn-learn``, so
that the two distributions never install the same names side by side.
"""

COMMAND = "attn-grade" if __name__.split(".")[0] == "graders" else "attn-learn"
