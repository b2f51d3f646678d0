"""The WSGI application (served by granian or gunicorn; see docs/configuration.md)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nard_site.settings")
application = get_wsgi_application()

# What is loaded by now (Django, the apps, the URLconf: ~90,000 objects) lives as long
# as the process. Moving it out of the collector's reach keeps full collections short:
# one over everything stops a worker for ~40 ms (docs/benchmarks.md).
gc.freeze()
