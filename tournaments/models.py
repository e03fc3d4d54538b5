"""Models for players, clubs, tournaments and brackets."""
