"""The lab: answers with data.  Game reviews (``mattis analyze``), studies
(``mattis lab``) and the one job pool that tournaments and studies run on.

Everything here plays through the referee and the bots' public API; a seat is
judged only on what its observation showed.
"""
