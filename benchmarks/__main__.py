"""Run every benchmark module listed in :data:`MODULES` and print its figures."""

import importlib

MODULES: tuple[str, ...] = (
    "benchmarks.browser_outlook",
    "benchmarks.browser_solver",
    "benchmarks.coach",
    "benchmarks.core",
    "benchmarks.duel",
    "benchmarks.openspiel",
    "benchmarks.push",
    "benchmarks.sb3_env",
    "benchmarks.scale",
    "benchmarks.strategy",
    "benchmarks.simulate",
    "benchmarks.tui",
    "benchmarks.vector_env",
    "benchmarks.web",
    "benchmarks.winner",
)

for name in MODULES:
    importlib.import_module(name).main()
