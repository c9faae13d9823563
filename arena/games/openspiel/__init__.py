"""Every OpenSpiel game as a game of the arena: ``openspiel:NAME[(params)]``.

The registry hands a name of this family to ``family.resolve``, which loads the game
with ``pyspiel`` (the ``[openspiel]`` extra), refuses what the arena cannot referee and
wraps the rest in one ``Game`` (``game.OpenSpielGame``). The referee owns chance
(``match``), a seat sees only OpenSpiel's observer for its player (``observation``),
and one message set carries every such game (``wire``, proto/arena/v1/openspiel.proto).
"""
