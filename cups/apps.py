from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CupsConfig(AppConfig):
    name = "cups"
    verbose_name = _("Cups")
