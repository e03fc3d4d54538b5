"""Players, clubs and ratings: the bottom app (games and tournaments build on it)."""
