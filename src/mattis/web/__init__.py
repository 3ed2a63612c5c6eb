"""``mattis serve``: play in the browser with friends and bots.

Each table runs its games on the play layer (a :class:`~mattis.play.Sitting` and
one :class:`~mattis.play.Referee` per game) and sends every seat only its own
view (:func:`mattis.web.view.frame`).
"""
