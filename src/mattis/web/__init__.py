"""``mattis serve``: play in the browser with friends and bots.

The server holds each table's :class:`~mattis.core.State` (the referee) and
sends every seat only its own view (:func:`mattis.web.view.frame`).
"""
