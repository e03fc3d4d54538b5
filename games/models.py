"""Models for matches, games and moves."""
