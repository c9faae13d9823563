"""Games the arena can referee. Each game is a pure rules engine with no I/O."""
