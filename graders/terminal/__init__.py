"""Text for people to read: how wide a line may be and where it may break, and --help.

    wrap.py   the terminal's width (PAGE_WIDTH on a page), lines wrapped at spaces and never
              inside a number, a short array row or a "name = value" (fit_lines, wrap)
    help.py   HelpFormatter: how every command, the learner's and the instructor's, prints --help

The check's report (grading/report.py), the batch's summary, the instructor's commands and the
learner's all write through here, so a line breaks the same way wherever it is printed.
Students get this folder (classroom/release/public.py): ``attn-grade check`` needs it.

May import: terminal/ only.
"""
