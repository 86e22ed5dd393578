from django.apps import AppConfig
from django.urls import register_converter

from bummerl.converters import IdConverter


class BummerlConfig(AppConfig):
    """The project's own app (its commands, the path converter ``id``)."""

    name = "bummerl"

    def ready(self) -> None:
        """Register the converter ``id`` (``bummerl.converters``) before any URL
        pattern is read."""
        register_converter(IdConverter, "id")
