"""The table service (the only code that changes a table), its pure decisions, bots, hints,
presence, fairness and the lobby."""
