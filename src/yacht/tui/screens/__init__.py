"""Screens of the terminal game: setup, table, end, help, confirmations, replay."""
