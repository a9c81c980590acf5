"""What wraps the app: serving timeouts and caps (fail closed), size and rate limits, logs,
metrics."""
