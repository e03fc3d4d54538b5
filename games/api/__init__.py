"""HTTP API for matches, games and moves."""
