"""Admin registrations for players, clubs, tournaments and brackets."""
