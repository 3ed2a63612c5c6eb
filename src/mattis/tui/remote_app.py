"""The terminal table (:class:`~mattis.tui.app.MattisApp`) for a seat at a web table.

The same screens as ``mattis play``, drawn from the seat's observation as the server
sends it (:class:`~mattis.tui.remote.RemoteSession`): the table's frames arrive on a
thread and are applied on the app's loop; a move, a rematch go to the server, and the
screen changes when its frame comes back.  What belongs to a game against bots on this
machine (take-backs, saving, the settings) says in one line why it does not apply here.
"""

from __future__ import annotations

import threading
from typing import cast

from ..core import Move, Observation
from .app import HistoryScreen, MattisApp
from .i18n import t
from .remote import Frame, JoinError, Note, Seat, resume_link
from .render import cards_label, last_trick_text
from .session import Session


class RemoteApp(MattisApp):
    """One seat of a web table in the terminal table."""

    def __init__(self, seat: Seat) -> None:
        # the screens read the seat's side of the table as they read a local session
        super().__init__(cast(Session, seat.session), delay=0)
        self.seat = seat
        self.remote = seat.session
        self.farewell: list[str] = []
        """What ``mattis join`` prints after the app has closed (how to come back, or why it ended)."""
        self.failed = False
        """The table ended the seat (a token it no longer knows, a seat given away): ``farewell`` says why."""
        self._game = seat.session.game
        self._wait_at = (0, 0)
        """The game and move number when "Vent, ... er i tur." was said (``_wait_said``)."""

    def on_mount(self) -> None:
        super().on_mount()
        threading.Thread(target=self._listen, name="mattis-join-frames", daemon=True).start()

    def _listen(self) -> None:
        """Hand each frame (and note) to the app's loop, until the connection ends."""
        while True:
            item = self.seat.conn.inbox.get()
            if isinstance(item, Note) and item.kind == "closed":  # the app has closed (:meth:`leave`)
                return
            try:
                self.call_from_thread(self.take, item)
            except RuntimeError:  # the app has closed
                return
            if isinstance(item, Note) and item.kind == "failed":
                return

    def take(self, item: Frame | Note) -> None:
        """One frame (or note) from the table, on the app's loop."""
        try:
            error = self.seat.take(item)
        except JoinError as e:
            self.farewell = [str(e)]
            self.failed = True
            self.leave()
            return
        if isinstance(item, Note):
            self.say(t(self.lang, f"join.{item.kind}"))
            return
        if self.remote.status == "lobby" or not self.remote.playing:
            return
        if self.remote.game != self._game:  # the next game of the sitting
            self._game = self.remote.game
            self._end_shown = False
            self._seen_trick = self.remote.observation().last_trick
            self._linger = False
            self.message = ""
            self.hand.selected.clear()
            if len(self.screen_stack) > 1 and self.screen.__class__.__name__ == "EndScreen":
                self.pop_screen()
        if self._wait_said is not None and (self.remote.game, self.remote.seq) != self._wait_at:
            if self.message == self._wait_said:
                self.message = ""  # the wait is over: no "Vent, Bjørn er i tur." under "Din tur"
            self._wait_said = None
        if error is not None:
            self.say(error)
        self.refresh_view()
        self.schedule_bots()

    # ------------------------------------------------------------ the game goes to the server
    def schedule_bots(self) -> None:
        """No bots here: the server plays them; the end screen once the game is over."""
        if self.remote.over:
            self.show_end()

    def submit(self, move: Move) -> None:
        if not self.remote.human_to_act:
            if self.remote.over:
                self.say(t(self.lang, "err.over"))
                return
            self.say(t(self.lang, "err.not_your_turn", name=self.remote.names[self.remote.observation().to_act or 0]))
            # "Vent, Bjørn er i tur." holds only until the table has moved on (the frame of Bjørn's move)
            self._wait_said, self._wait_at = self.message, (self.remote.game, self.remote.seq)
            return
        if not self.seat.conn.send(self.remote.move_request(move)):
            self.say(t(self.lang, "join.dropped"))
            return
        self.message = ""
        self._linger = False
        self.hand.selected.clear()

    def _keys_text(self, obs: Observation) -> str:
        """The table's key help without what does not apply at a web table (statistics,
        settings), and ``q`` leaves the table (the server keeps the game)."""
        lang = self.lang
        parts = super()._keys_text(obs).split(" · ")
        gone = {t(lang, "tui.keys.stats"), t(lang, "tui.keys.settings")}
        return " · ".join(t(lang, "join.keys.quit") if p == t(lang, "tui.keys.quit") else p
                          for p in parts if p not in gone)

    def _save(self) -> bool:
        return True  # the table's server keeps the game

    def _after_end(self, choice: str | None) -> None:
        if choice == "analyse":
            self.say(t(self.lang, "join.no_analyse"))
            self.call_later(self._push_end)
            return
        if choice == "again":
            if self.remote.game != self._game or self.remote.status == "playing":
                self.take({**self.remote.frame})  # someone else's rematch came first
            elif not self.seat.conn.send({"type": "rematch", "game": self.remote.game}):
                self.say(t(self.lang, "join.dropped"))
            return
        self.action_save_quit()

    def action_take_back(self) -> None:
        self.say(self.remote.why_no_take_back(self.lang))

    def action_settings(self) -> None:
        self.say(t(self.lang, "join.no_settings"))

    def action_last(self) -> None:
        """The history: the last trick and the whole log, with the cards known to be in the other hands."""
        s = self.remote
        lang = self.lang
        obs = s.observation()
        known = [t(lang, "tui.history.known", name=s.names[seat], cards=cards_label(obs.known[seat]))
                 for seat in range(obs.players) if seat != obs.seat and obs.known[seat]]
        pages = [[last_trick_text(obs, s.names, lang)]] if obs.last_trick is not None else []
        self.push_screen(HistoryScreen(known, pages, s.log, t(lang, "tui.history.close"),
                                       t(lang, "last.none"), t(lang, "tui.history.log"),
                                       start=0 if pages else None))

    def action_save_quit(self) -> None:
        if self._exiting:
            return
        self._exiting = True
        self.farewell = [t(self.lang, "join.bye", link=resume_link(self.seat))]
        self.leave()

    def leave(self) -> None:
        """Close the app; the thread that hands it the frames ends."""
        self.seat.conn.inbox.put(Note("closed"))
        self.exit()

