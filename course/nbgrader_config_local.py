"""This course's own nbgrader settings: loaded by nbgrader_config.py, never changed by
`attn-grade course build`. Both nbgrader and `attn-grade grade --nbgrader-course` use them."""

c = get_config()  # noqa: F821 - nbgrader provides get_config

# Late submissions (nbgrader's LateSubmissionPlugin): 'none' (the default) or 'zero'. Due dates are
# set per assignment in formgrader's Manage Assignments page, or with `nbgrader db assignment add`.
# c.LateSubmissionPlugin.penalty_method = "zero"

# The exchange, for `nbgrader release_assignment` and `nbgrader collect`:
# c.Exchange.root = "/srv/nbgrader/exchange"
# c.Exchange.timezone = "Europe/Berlin"

# Student ids, if you keep a roster: `nbgrader db student import students.csv`.

# Each student their own numbers in the exercises that vary (hand_scores, worked_example): the
# notebooks show each student theirs (run `attn-grade course build` after changing this) and
# `attn-grade grade --nbgrader-course` grades each on them.
# c.AttnGrade.variants = True
