from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """``?page=N&page_size=M`` (at most 100); answers ``{count, next, previous, results}``."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
