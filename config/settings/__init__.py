"""Settings: base.py holds everything shared; local, test and production override a little."""
