"""Widgets of the terminal game: the dice, the sheet, the hint panel, the key bar."""
