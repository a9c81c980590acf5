"""The web game: a FastAPI server and a browser UI (``yacht serve``).

The package is laid out along the path of a move, from the top down; a module imports only from
the rooms below it (checked by import-linter):

- :mod:`~yacht.web.app`: wiring only (``create_app``, the lifespan);
  :mod:`~yacht.web.settings`: every option of a server.
- :mod:`yacht.web.api`: HTTP and WebSocket endpoints: validate, call the service, reply.
- :mod:`yacht.web.service`: the table service (the only code that changes a table), bots,
  hints, presence, fairness, the lobby, the state message.
- :mod:`yacht.web.storage`: database models, the store (SQLite and PostgreSQL), snapshots,
  migrations. :mod:`yacht.web.bus`: live fan-out to sockets and between processes.
  :mod:`yacht.web.edge`: serving limits, size and rate limits, logs, metrics.
- :mod:`yacht.web.protocol`: messages, views, names, texts and error codes: plain data.

Importing this package stays light: FastAPI and SQLAlchemy are imported by the modules that
need them.
"""
