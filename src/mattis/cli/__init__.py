"""The ``mattis`` command line."""
