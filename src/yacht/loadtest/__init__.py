"""``yacht loadtest``: many tables of bots playing over WebSockets against running servers.

:func:`~yacht.loadtest.run.run` opens N tables on the given servers, seats client-side bots at
them (each seat a WebSocket of its own; the seats of a table take turns over the servers given,
so with two servers every game has a player on each), and for a fixed time plays: each bot
waits a think time, sends its action, and the time until its own connection receives the
broadcast of that action is one latency sample. The figures (actions per second, latency
percentiles, errors) are a :class:`~yacht.loadtest.stats.Report`.

Traffic goes to loopback addresses only (:func:`~yacht.loadtest.target.loopback_url`), and
both the number of tables and the duration are bounded.
"""

__all__ = ["MAX_DURATION", "MAX_SEATS", "MAX_TABLES"]

MAX_TABLES = 2000
MAX_DURATION = 600.0  # seconds
MAX_SEATS = 6
