from rest_framework.pagination import PageNumberPagination


class MovePagination(PageNumberPagination):
    """History pages are long: a client catching up takes up to 500 moves a request."""

    page_size = 200
    page_size_query_param = "page_size"
    max_page_size = 500
