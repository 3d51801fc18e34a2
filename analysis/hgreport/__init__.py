"""hgreport: the analysis stage of hgrun (reads result directories, never YAML)."""

__version__ = "0.1.0"
