"""The full-screen terminal game (Textual): setup, table, hints, review, history, replay.

Only :mod:`yacht.tui.app` and the screens import Textual; :mod:`yacht.tui.records`,
:mod:`yacht.tui.saves` and :mod:`yacht.tui.seats` are standard library only, so
``yacht history`` and ``yacht replay --plain`` work without the ``tui`` extra.
"""
