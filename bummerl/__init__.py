"""Bummerl: score keeping and Preisschnapsen for Schnapsen clubs."""

__version__ = "0.4.0"
"""The release (CHANGELOG.md); ``make upgrade`` prints it before and after."""
