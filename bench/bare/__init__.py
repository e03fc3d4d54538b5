"""The bare write that bench/api_plays.py measures beside a play (``--bare``)."""
