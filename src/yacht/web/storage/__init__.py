"""What lasts: database models, the one store API (SQLite and PostgreSQL), changes, snapshots,
peer notes, migrations."""
