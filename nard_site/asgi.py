"""The ASGI application: the REST API and the live streams in one server (docs/configuration.md).

    granian --interface asgi nard_site.asgi:application --workers 2

Requests run through Django's WSGI handler in a pool of ``ASGI_THREADS`` threads per
process (persistent database connections, as under granian's WSGI interface); the bodies
of streams and long-polls are async and sent from the event loop, one coroutine per
open stream (nard_site/serving.py).
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nard_site.settings")

from nard_site.serving import Server

application = Server(get_wsgi_application(), threads=int(os.environ.get("ASGI_THREADS", "2")))

# As in wsgi.py: what is loaded by now lives as long as the process; keeping it out of
# the collector's reach keeps full collections short (docs/benchmarks.md).
gc.freeze()
