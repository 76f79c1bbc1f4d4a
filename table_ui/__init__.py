"""table_ui package."""
