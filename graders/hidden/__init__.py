"""Hidden checks, one module per exercise slug: they compare with the reference
solution, so they run only where solutions/ is, and are never shipped to students
(graders/release.py leaves this folder out)."""
