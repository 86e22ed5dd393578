from django.apps import AppConfig
from django.urls import register_converter

from base.converters import IdConverter, PublicConverter


class BummerlConfig(AppConfig):
    """The project's own app (its commands, the path converters ``id`` and ``public``, the push
    channel's announcements of accounts: ``base.push.account_topic``)."""

    name = "bummerl"

    def ready(self) -> None:
        """Register the converters ``id`` and ``public`` (``base.converters``) before
        any URL pattern is read."""
        register_converter(IdConverter, "id")
        register_converter(PublicConverter, "public")
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_save

        from base import push

        # A sign-out, or a change of the account, wakes the requests held for it.
        user_logged_out.connect(push.signed_out, dispatch_uid="push-signed-out")
        post_save.connect(
            push.account_saved, sender=get_user_model(), dispatch_uid="push-account-saved"
        )
