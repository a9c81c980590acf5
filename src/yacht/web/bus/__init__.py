"""Live fan-out: to the sockets of this process, and to other server processes through Redis."""
