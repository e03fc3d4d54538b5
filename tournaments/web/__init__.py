"""Reads for the tournaments' web pages, built on the app's read API (tournaments/selectors.py):
the public pages and the live version spectators poll (``pages``), the standings tables and the
podium (``standings``), and the organiser's desk: its tabs (``desk``), its Rounds and Results tabs
and printed sheets (``desk_rounds``) and the settings form (``desk_settings``). Read only: pages
change things through the REST API and its services. Views use them as ``web.pages.…``."""

from tournaments.web import desk, desk_rounds, desk_settings, pages, standings

__all__ = ["desk", "desk_rounds", "desk_settings", "pages", "standings"]
