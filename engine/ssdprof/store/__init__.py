"""Results kept and exchanged: SQLite with named migrations, import of fio output and tables, CSV/JSON/fio-job export."""
