"""Admin registrations for matches, games and moves."""
