"""HTTP and WebSocket endpoints: validate a request, call the service, reply (no decisions here)."""
