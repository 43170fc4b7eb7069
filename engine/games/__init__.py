"""Game definitions, one module each; every module exposes its class as GAME."""
