"""Test-wide settings: recorded plans go to a private folder of this run, not the user's cache."""

import os
import tempfile

os.environ.setdefault("ATTN_GRADE_CACHE", tempfile.mkdtemp(prefix="attn-grade-test-cache-"))
