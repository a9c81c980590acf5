"""Golden games: seeded games written out as readable JSON and replayed by tests/test_golden.py.

Regenerate them all with ``python -m tests.golden.regenerate`` from the repository root.
"""
