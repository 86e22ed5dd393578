from django.apps import AppConfig
from django.urls import register_converter

from base.converters import IdConverter


class BummerlConfig(AppConfig):
    """The project's own app (its commands, the path converter ``id``)."""

    name = "bummerl"

    def ready(self) -> None:
        """Register the converter ``id`` (``base.converters``) before any URL
        pattern is read."""
        register_converter(IdConverter, "id")
