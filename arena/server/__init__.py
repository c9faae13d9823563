"""The Arena gRPC service and the continuous ladder behind ``arena serve``.

``app.start_arena`` starts both in one event loop; ``servicer`` is the thin gRPC adapter;
``ladder`` verifies submitted bots and keeps playing rated matches among active ones.
"""
