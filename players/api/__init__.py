"""HTTP API for players: the list, entering players without accounts, and claiming them."""
