"""What a grader is written with: the vocabulary of graders/<slug>.py.

    checks.py      @check, Fail, the expect_* helpers, and the names a check meets
                   (Raised, StudentError, Rng, SympyText, call_text, show); Mistake and
                   Catalogue, which give a hint only where discriminating probes confirm it
                   (Catalogue.call adds it to what the student's code raised); advice, a
                   cause a check states on its own observation; aside, for calls that gather
                   that evidence without replacing what the failing call printed
    raises.py      expect_raises: a required exception, from the student's raise or a library's,
                   read from what the worker reported (the grader decides, never the worker)
    props.py       for_all: a property checked with Hypothesis under fixed settings
    lazy.py        st and hnp: Hypothesis's strategies, imported only when drawn live
    strategies.py  named Hypothesis strategies: small shapes, bounded finite floats
    exact.py       comparing an exact SymPy answer with the reference, in bounded time
    equality.py    equal by numbers at probe points, then exactly, each within a time bound
    remember.py    settled verdicts on exact answers, kept across runs in a store the engine lends
    parse.py       the whitelisting parser that rebuilds exact answers from text
    text.py        short renderings of calls, arrays and answers for feedback
    mode.py        whether for_all draws, records or replays (set by grading/plans.py)
    models.py      models of known mistakes of attention, for the graders' hints

May import: kit/ and sandbox/ (for the errors, the wire's value types and the installed versions), nothing
else.
"""
