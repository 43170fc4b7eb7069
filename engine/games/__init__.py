"""Game definitions, one package each (``rules``, ``views``, ``words``, ``locale/``; the generic counters
in one module); every one exposes its class as GAME."""
