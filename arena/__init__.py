"""Abluxxen Arena: a referee, league and rating server for card-game bots."""

__version__ = "0.1.0"
