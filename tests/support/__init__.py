"""What the tests share with the benchmarks in bench/: importable as ``support`` (tests/ is on the
tests' sys.path; bench/ scripts put it there).

    make_class.py    a made-up class of submissions: solutions, alternatives, mutants, stubs, gaps
    nbclass.py       the same mix as nbgrader notebooks: a course copy, submissions, both graders' scores
    outputs.py       what a change meant as no behaviour change must leave byte-identical, to diff
    dask_cluster.py  a real Dask scheduler and workers as processes, and the ``scheduler`` fixture; tests only
    browser.py       headless Chromium, or a skip (a failure when ATTN_REQUIRE_CHROMIUM=1); tests only
"""
