"""The bots and the timers: bots act from their seat's observation only (through the play
layer's :func:`~mattis.play.next_move`), after a delay people can follow (much shorter once
no person is left to act).

A person who is not connected when it is their turn gets the table's grace period; then a
bot plays their seat (:meth:`Table.stand_in`) until they connect again, which hands the seat
straight back.  A connected person gets the table's turn clock, if it has one; then a bot
plays that one turn (a ``cover`` event).  Every bot and timer task runs under a supervisor
(:meth:`Scheduler.supervise`) and every wait goes through :class:`~mattis.web.waits.Waits`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import BrokenExecutor, Executor
from typing import Final

from ..core import Move, Observation
from ..play import Agent, Referee, make_bot, next_move
from .refusal import Refusal
from .seats import Timer
from .service import TableService
from .store import StoreConflict
from .table import Table

log = logging.getLogger("mattis.web")

FAST_DELAY: Final = 0.05
"""The bots' pause when no person is left to act (fast-forward)."""
RESTART_PAUSE: Final = 1.0
"""Seconds before a bot or timer task that failed runs again; doubled for each failure in a row
at the same move, up to :data:`RESTART_PAUSE_MAX` (a failing database is not hammered, a bug
in the scheduler does not flood the log)."""
RESTART_PAUSE_MAX: Final = 60.0


def think(agent: Agent, obs: Observation) -> tuple[Move, Agent]:
    """A bot's move from its seat's view, in a worker process: the move and the bot as it is
    after choosing (its generator advanced), so the server goes on with the same bot."""
    return agent.act(obs), agent


class BotFailed(Exception):
    """A bot chose an illegal move (a bug in the bot): its task fails and is restarted."""


class Scheduler(TableService):
    """The tables' bots and clocks (on the tables this worker owns)."""

    # ----------------------------------------------------------------- bots
    def kick_bots(self, table: Table) -> None:
        """Start the bots if one is to act, else the clock of the person to act (if any)."""
        if not self.owns(table):
            return
        if table.bot_to_act() is None:
            self.watch_absent(table)
            return
        self._stop_timer(table)
        table.timer = None
        task = self.bot_tasks.get(table.id)
        if task is None or task.done():
            self.bot_tasks[table.id] = self.supervise(table, "bots", lambda: self._bots(table))

    def _wanted_timer(self, table: Table) -> tuple[int, str, float] | None:
        """The clock the table needs now: (seat, kind, seconds), or ``None``."""
        on = self.connected(table)
        seat = table.absent_to_act(on)
        if seat is not None:
            return None if table.grace is None else (seat, "grace", table.grace)
        seat = table.clocked_to_act(on)
        if seat is not None and table.clock is not None:
            return seat, "clock", table.clock
        if table.host_absent_in_lobby(on) and table.grace is not None:
            return 0, "host", table.grace
        return None

    def _stop_timer(self, table: Table) -> None:
        entry = self.grace_tasks.pop(table.id, None)
        if entry is not None:
            entry[1].cancel()

    def watch_absent(self, table: Table) -> bool:
        """Run the clock of the person to act: her turn clock if she is connected (then a bot
        plays that one turn), the grace period if she is away (then a bot plays her seat until
        she is back); a host away from the lobby gets the grace too (then anyone seated may
        start).  Paused: the clock stops where it is.  Returns whether the clock changed."""
        if not self.owns(table):
            return False
        now, old = self.waits.now(), table.timer
        if table.paused:
            self._stop_timer(table)
            if old is not None and old.left is None:
                old.left = old.left_at(now)
                return True
            return False
        want = self._wanted_timer(table)
        if want is None:
            self._stop_timer(table)
            table.timer = None
            return old is not None
        seat, kind, seconds = want
        running = self.grace_tasks.get(table.id)
        if old is not None and old.key() == (table.game, table.seq, seat, kind):
            if old.left is None and running is not None and not running[1].done():
                return False  # already running
            if old.left is not None:  # resumed after a pause: what was left
                old.ends, old.left = now + old.left, None
            timer = old
        else:
            bank = table.banks[seat] if kind == "clock" and seat < len(table.banks) else 0.0  # spent after the clock
            timer = Timer(seat, table.game, table.seq, kind, now + seconds + bank, seconds, bank=bank)
        self._stop_timer(table)
        table.timer = timer
        task = self.supervise(table, "timer", lambda: self._timer(table, timer))
        self.grace_tasks[table.id] = ((table.game, table.seq, seat), task)
        return True

    def supervise(self, table: Table, kind: str, body: Callable[[], Awaitable[None]]) -> asyncio.Task[None]:
        """Run a table's bot or timer task under a supervisor: if it fails it is logged, counted
        (:attr:`restarts`) and run again after :data:`RESTART_PAUSE`; a task never ends silently."""
        async def run() -> None:
            where, streak = (-1, -1), 0
            while True:
                try:
                    await body()
                    return
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    self.restarts[kind] += 1
                    streak = streak + 1 if (table.game, table.seq) == where else 1
                    where = (table.game, table.seq)
                    if kind == "bots":
                        self._note_failure(table)
                    log.error("%s task at table %s failed (%s: %s); restarted (%d %s restarts so far)",
                              kind, table.id, type(e).__name__, e, self.restarts[kind], kind)
                    await self.waits.sleep(min(RESTART_PAUSE * 2 ** (streak - 1), RESTART_PAUSE_MAX), "restart")

        task = asyncio.get_running_loop().create_task(run())
        task.add_done_callback(lambda t: self._ended(table, kind, t))
        return task

    def _ended(self, table: Table, kind: str, task: asyncio.Task[None]) -> None:
        """A supervised task ended: said in the log if by anything but finishing or being cancelled."""
        if task.cancelled():
            return
        e = task.exception()
        if e is not None:  # the supervisor itself failed: said, and the table is looked at again
            log.error("%s task at table %s ended (%s: %s); the table is woken again", kind, table.id,
                      type(e).__name__, e)
            self.restarts[kind] += 1
            asyncio.get_running_loop().call_soon(self.kick_bots, table)

    def _note_failure(self, table: Table) -> None:
        game, seq, times = self.failed_at.get(table.id, (-1, -1, 0))
        times = times + 1 if (game, seq) == (table.game, table.seq) else 1
        self.failed_at[table.id] = (table.game, table.seq, times)
        table.bots = {}  # the bots are built afresh from the position (a bot's state may be what failed)

    def bot_pause(self, table: Table) -> float:
        """The pause before a bot's move: one people can follow while a person is still in the
        game (playing her own seat), the fast-forward once none is."""
        return self.bot_delay if table.humans_to_play() else min(self.bot_delay, FAST_DELAY)

    async def _timer(self, table: Table, timer: Timer) -> None:
        """Wait out a clock, then: the grace period, a bot for the absent person's seat; the turn
        clock, a bot for this one turn (logged: a ``cover`` event); the host's, anyone may start."""
        await self.waits.sleep(timer.ends - self.waits.now(), timer.kind)
        entry = self.grace_tasks.get(table.id)
        if entry is not None and entry[1] is asyncio.current_task():
            del self.grace_tasks[table.id]  # done waiting: nothing to cancel any more
        if table.timer is not timer or timer.left is not None or table.paused:
            return
        if (table.game, table.seq) != (timer.game, timer.seq):
            return
        on = self.connected(table)
        if timer.kind == "host":
            if table.host_absent_in_lobby(on):
                table.host_away = True
                table.timer = None
                self.broadcast(table)
            return
        if timer.kind == "grace":
            if table.absent_to_act(on) != timer.seat:
                return
            table.stand_in(timer.seat)
            self.kick_bots(table)
            self.broadcast(table)
            return
        for again in (False, True):  # the clock ran out: a bot plays this one turn
            try:
                async with self.lock(table.id):
                    if table.timer is not timer or table.clocked_to_act(self.connected(table)) != timer.seat \
                            or (table.game, table.seq) != (timer.game, timer.seq):
                        return
                    log.info("table %s: seat %d's turn clock ran out at move %d; a bot plays the turn",
                             table.id, timer.seat, table.seq)
                    await self.commit(table, table.cover_event(timer.seat, "clock"))
                return
            except StoreConflict:
                if again:
                    raise

    async def _bots(self, table: Table) -> None:
        """Play the bots' turns at this table until a person is to act."""
        while True:
            await self.waits.sleep(self.bot_pause(table), "bot")
            ref = table.referee
            if ref is None or table.bot_to_act() is None:
                if self.watch_absent(table):
                    self.broadcast(table)
                return
            game, seq, agents = table.game, table.seq, table.agents()
            failed = self.failed_at.get(table.id)
            if failed is not None and failed[:2] == (game, seq) and failed[2] >= 2 and ref.to_act is not None:
                # the seat's bot failed here twice in a row: a random legal move, so the game goes on
                log.error("bot at table %s seat %d failed twice at move %d; a random legal move is played",
                          table.id, ref.to_act, seq)
                agents = {ref.to_act: make_bot("random", seq)}
            # Only the seat's own player coming back can change this game while a bot is to act,
            # so the bot may think off the loop; its move is dropped if the game moved meanwhile.
            chosen = await self._think(ref, agents)
            if chosen is None:
                return
            seat, move = chosen
            try:
                async with self.lock(table.id):
                    if table.bot_to_act() != seat or (table.game, table.seq) != (game, seq) or table.referee is not ref:
                        continue
                    ev = table.bot_move_event(seat, game, seq, str(move))  # says why, if for a person
                    await self.commit_quiet(table, ev)
            except Refusal as r:  # a bot returning an illegal move is a bug in the bot: the task fails
                raise BotFailed(f"seat {seat}: {r.en}") from None
            except StoreConflict:  # another worker's client moved first: look again
                continue

    async def _think(self, ref: Referee, agents: dict[int, Agent]) -> tuple[int, Move] | None:
        """The bot to act chooses its move from its seat's observation: in the process pool
        (``bot_processes``), else in a thread (inline when bots have no delay: the tests)."""
        if self.pool is None:
            return next_move(ref, agents) if self.bot_delay == 0 else await asyncio.to_thread(next_move, ref, agents)
        seat = ref.to_act
        if seat is None or seat not in agents:
            return None
        obs = ref.observation(seat)
        try:
            move, agent = await asyncio.get_running_loop().run_in_executor(self.pool, think, agents[seat], obs)
        except BrokenExecutor:  # the bots' process died (killed, out of memory): a new one, once
            log.error("the bots' process stopped; starting a new one")
            self.pool = self._new_pool()
            move, agent = await asyncio.get_running_loop().run_in_executor(self.pool, think, agents[seat], obs)
        agents[seat] = agent  # its generator goes on where the process left it: the same moves as in-process
        return seat, move

    def _new_pool(self) -> Executor:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from ..lab.pool import follow_parent

        return ProcessPoolExecutor(self.bot_processes, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=follow_parent)

