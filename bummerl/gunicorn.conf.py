"""gunicorn's settings for ``make serve``: its log lines in the site's one format, the
private links' tokens redacted and the live pages' polls left out (``bummerl.logs``)."""

logger_class = "bummerl.logs.GunicornLogger"
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
