"""HTTP API for players, clubs, tournaments and brackets."""
