"""``python -m graders.cli``: the attn-grade command without its console script."""

from . import run

run()
