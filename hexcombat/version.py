"""The engine's version, in a module of its own: engine modules read it without importing
the package."""

__version__ = "0.1.0"
