"""Bot Arena: a referee, league and rating server for bots playing hidden-information
games."""

__version__ = "0.1.0"

DISTRIBUTION = "bot-arena"
"""The name the package is installed under: ``pip install 'bot-arena[EXTRA]'`` (formerly
``abluxxen-arena``: docs/install.md says how to move)."""
