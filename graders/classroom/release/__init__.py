"""The release: what students get, and the leak scan that proves nothing more went.

``attn-grade release`` writes the student bundle; the leak scan searches it (and a built course)
for what students are never given.

    public.py         what students get of the package (copy_public)
    release.py        attn-grade release: the student bundle
    withheld.py       what students are never given, as the leak scan searches for it: solutions,
                      exact answers, hidden checks
    leaks.py          the leak scan of a bundle or release

May import: its own folder, classroom/authoring/, grading/ and the registry.
"""
