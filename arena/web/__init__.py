"""The web app: leaderboards, charts, match lists and replays in a browser.

One Starlette app (``app.create_app``) serves ``arena web --db FILE`` (a finished or
running league's database) and ``arena serve --web-port P`` (the live competition).
Every page reads the store through a ``ReadPool`` (``arena/server/reads.py``: worker
threads with read-only connections), and renders there too, so nothing a page does runs
on the event loop the referee shares. Templates are Jinja2 with autoescaping: every
string a bot or an owner supplied shows as text. No module here names a game: a game's
board comes from its package through the Game interface.
"""
