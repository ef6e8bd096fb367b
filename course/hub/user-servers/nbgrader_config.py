"""nbgrader's settings in the hub's users' servers (students and the instructor): the shared exchange
where the course releases its assignments and collects them (ATTN_HUB_EXCHANGE, set by the hub)."""

import os

c = get_config()  # noqa: F821 - nbgrader provides get_config
c.Exchange.root = os.environ["ATTN_HUB_EXCHANGE"]
