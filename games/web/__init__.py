"""Web pages of the games app beyond the match and player pages (games/views.py)."""
