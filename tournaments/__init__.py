"""Tournaments app: players, clubs, tournaments, brackets, standings and ratings."""
