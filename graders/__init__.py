"""Grading engine and one grader per exercise slug; the attn-grade command."""
