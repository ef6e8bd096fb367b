"""Hidden checks, one module per exercise slug.

They compare with the reference solution, so they run only where solutions/
is, and are never shipped to students (graders/classroom/release/public.py leaves
this folder out). Each imports kit/ and its public twin, graders/<slug>.py, by public
names only (no name starting with "_": tests/test_layout.py).
"""
