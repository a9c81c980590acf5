"""What travels between the server and its clients, as plain data: messages, views, names,
texts and error codes (no I/O)."""
