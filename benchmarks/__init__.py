"""Benchmarks: ``make bench`` (``python -m benchmarks``) prints medians of repeated runs."""
