"""``mattis play --plain``: the game as lines of text, for screen readers and scripts.

Prompts go to stdout, answers come from stdin, so a game can be played by piping
moves in.  Cards are written as on the cards (4♣).  An answer is a move (``4♣``, ``4C``,
``play 4C``, ``5H 6H 7H``, ``chance``, ``pickup``, or the number of a listed choice)
or a command (``help``, ``hint``, ``back`` (take back your last move), ``last``,
``rules``, ``learn`` (how to play), ``stats``, ``status``, ``quit``); Norwegian
words work too.  End of input saves the game and exits cleanly, also at "Play
again?"; so does a third answer there that is neither yes nor no.
"""

from __future__ import annotations

import logging
import time
from typing import TextIO

from ..core import CHANCE, PICKUP, Move, Observation, parse_card, play
from ..core.cards import RANK, RANK_NAMES, SUIT_NAMES, Card, CardError
from ..core.text import how_to_play, rules_in_words
from .i18n import Lang, t
from .render import (
    cards_label,
    end_lines,
    hand_order,
    last_trick_text,
    move_label,
    ordered_moves,
    phase_text,
    player_rows,
    rules_lines,
    stock_text,
    table_lines,
    trump_text,
    turn_text,
)
from .review_words import BUDGET, player_review_lines
from .session import HUMAN, TAKE_BACK_LINES, Session, resume_command
from .stats import stats_lines

RESUMED_LOG = 12
"""Log lines of a resumed game shown again when it goes on."""

BAD_AGAIN = 3
"""Answers at "Play again?" that are neither yes nor no before the game ends anyway
(piped moves left over after a game must not loop)."""

COMMANDS: dict[str, str] = {
    "help": "help", "hjelp": "help", "?": "help",
    "hint": "hint", "tips": "hint",
    "last": "last", "siste": "last",
    "rules": "rules", "regler": "rules",
    "back": "back", "undo": "back", "angre": "back", "tilbake": "back",
    "learn": "learn", "how": "learn", "lær": "learn", "slik": "learn", "spilleregler": "learn",
    "stats": "stats", "statistikk": "stats",
    "status": "status", "vis": "status", "look": "status",
    "quit": "quit", "avslutt": "quit", "exit": "quit", "q": "quit",
}
MOVE_WORDS: dict[str, Move] = {
    "chance": CHANCE, "sjanse": CHANCE,
    "pickup": PICKUP, "ta opp": PICKUP, "taopp": PICKUP, "pick up": PICKUP,
}
ANALYSE = {"a", "analyse", "analyser", "analyze", "analysere", "gjennomgang", "review"}
YES = {"y", "yes", "j", "ja", "new", "ny", "again", "igjen"}
NO = {"n", "no", "nei", "quit", "avslutt", "q", "exit"}


def parse_answer(text: str, obs: Observation) -> Move | str:
    """A move, a command name (``"help"`` ...), or ``"?bad"`` for input that means nothing."""
    low = " ".join(text.lower().split())
    if not low:
        return "status"
    if low in COMMANDS:
        return COMMANDS[low]
    if low in MOVE_WORDS:
        return MOVE_WORDS[low]
    if low.isdigit():
        i = int(low)
        choices = ordered_moves(obs)
        if 1 <= i <= len(choices):
            return choices[i - 1]
        return "?number"
    words = low.split()
    if words and words[0] in ("play", "legg", "spill"):
        words = words[1:]
    if not words:
        return "?bad"
    named = card_in_words(words, obs)
    if named is not None:
        return play(named)
    spoken = cards_in_words(words)
    try:
        cards = spoken if spoken is not None else [parse_card(w) for w in words]
    except CardError:
        return "?bad"
    if len(set(cards)) != len(cards):
        return "?bad"
    return play(*cards)


SUIT_WORDS: dict[str, int] = {
    **{w: i for names in SUIT_NAMES.values() for i, w in enumerate(names)},
    **{w: i for i, w in enumerate(("kløver", "ruter", "hjerter", "spar"))},
    **{w.rstrip("s"): i for i, w in enumerate(SUIT_NAMES["en"])},
    "klover": 0, "kløveren": 0, "ruteren": 1, "hjerteren": 2, "sparen": 3,
}
"""Suits in words, Norwegian and English ("ruter", "diamonds", "diamond")."""
RANK_WORDS: dict[str, int] = {
    **{w: i for names in RANK_NAMES.values() for i, w in enumerate(names)},
    **{str(i + 2): i for i in range(9)},
    "j": 9, "q": 10, "k": 11, "a": 12, "kn": 9, "d": 10, "e": 12, "knekten": 9, "damen": 10, "kongen": 11,
    "esset": 12, "t": 8,
    **{w: i for i, w in enumerate(("to", "tre", "fire", "fem", "seks", "sju", "åtte", "ni", "ti"))},
    "syv": 5, "atte": 6, "toer": 0, "treer": 1, "firer": 2, "femmer": 3, "sekser": 4, "sjuer": 5, "syver": 5,
    "åtter": 6, "nier": 7, "tier": 8,
}
"""Ranks as a card player says or writes them, Norwegian and English ("seks", "6",
"Kn", "D", "K", "E" or "A" for ess; "queen", "ten")."""
SYMBOL_SUITS: dict[str, int] = {sym: i for i, sym in enumerate("♣♦♥♠")}


def _spoken_card(word: str) -> Card | None:
    """One word holding a whole card as written by hand: a rank and a suit symbol
    ("Kn♠", "♠Kn", "D♥", "E♣", "seks♠")."""
    for sym, suit in SYMBOL_SUITS.items():
        for rank in (word.removesuffix(sym), word.removeprefix(sym)):
            if rank != word and rank in RANK_WORDS:
                return suit * 13 + RANK_WORDS[rank]
    return None


def cards_in_words(words: list[str]) -> list[Card] | None:
    """Cards as a Norwegian (or English) card player writes them: "spar seks", "seks
    spar", "spar kn", "kn♠", "d♥ e♣", a run in one suit "spar 5 6 7"; ``None`` when the
    words are not all cards so written (then they may be codes: 4C, 10S)."""
    words = [w for w in words if w not in ("of", "i", "the", "og", "and")]
    cards: list[Card] = []
    i = 0
    while i < len(words):
        w = words[i]
        one = _spoken_card(w)
        if one is not None:
            cards.append(one)
            i += 1
        elif w in SUIT_WORDS and i + 1 < len(words) and words[i + 1] in RANK_WORDS:
            suit = SUIT_WORDS[w]
            cards.append(suit * 13 + RANK_WORDS[words[i + 1]])
            i += 2
            # more ranks of the same suit, unless a rank belongs to the suit after it ("5 spar")
            while i < len(words) and words[i] in RANK_WORDS and not (
                    i + 1 < len(words) and words[i + 1] in SUIT_WORDS):
                cards.append(suit * 13 + RANK_WORDS[words[i]])
                i += 1
        elif w in RANK_WORDS and i + 1 < len(words) and words[i + 1] in SUIT_WORDS:
            cards.append(SUIT_WORDS[words[i + 1]] * 13 + RANK_WORDS[w])
            i += 2
        else:
            return None
    return cards or None


def card_in_words(words: list[str], obs: Observation) -> Card | None:
    """A card named in words, as the game names it ("ruter 3", "kløver dame", "queen of
    clubs", "3 ruter"), or a rank alone ("dame") when exactly one card of that rank may be
    laid now; ``None`` when the words name no card."""
    words = [w for w in words if w not in ("of", "i", "the")]
    suits = [SUIT_WORDS[w] for w in words if w in SUIT_WORDS]
    ranks = [RANK_WORDS[w] for w in words if w in RANK_WORDS]
    if len(suits) + len(ranks) != len(words) or len(ranks) != 1 or len(suits) > 1:
        return None
    if suits:
        return suits[0] * 13 + ranks[0]
    playable = {c for m in obs.legal if m.is_play and len(m.cards) == 1 for c in m.cards}
    matches = [c for c in playable if RANK[c] == ranks[0]]
    return matches[0] if len(matches) == 1 else None


def status_lines(obs: Observation, names: list[str], lang: Lang) -> list[str]:
    """The table in lines (``status``): phase, trump and stock; the table; the players;
    your hand; whose turn; your choices, numbered (also for a terminal seat at a web
    table, :mod:`mattis.tui.remote`)."""
    out = [f"{phase_text(obs, lang)} · {t(lang, 'label.trump')}: {trump_text(obs, names, lang)} · "
           f"{stock_text(obs, lang)}",
           f"{t(lang, 'label.table')}: " + "; ".join(table_lines(obs, names, lang, codes=False))]
    players = []
    for name, hand, pile, tricks, standing in player_rows(obs, names, lang, codes=False):
        text = t(lang, "plain.player", name=name, hand=hand, pile=pile, tricks=tricks)
        players.append(f"{text} {standing}".strip())
    out.append(f"{t(lang, 'label.players')}: " + "; ".join(players))
    out.append(f"{t(lang, 'label.hand')}: {cards_label(hand_order(obs), codes=False) or '-'}")
    out.append(turn_text(obs, names, lang))
    if obs.legal:
        choices = "  ".join(f"{i}) {move_label(m, lang, codes=False)}" for i, m in enumerate(ordered_moves(obs), 1))
        out.append(f"{t(lang, 'label.choices')}: {choices}")
    return out


class PlainGame:
    """The line-mode loop around a :class:`Session`."""

    def __init__(self, session: Session, inp: TextIO, out: TextIO, delay: float = 0.0) -> None:
        self.session = session
        self.inp = inp
        self.out = out
        self.delay = delay
        self.shown = max(0, len(session.log) - RESUMED_LOG)
        """How many log lines have been printed (a resumed game shows its last few)."""

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str | None:
        """One line of input, or ``None`` at end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    def flush_log(self) -> None:
        log = self.session.log
        for line in log[self.shown:]:
            self.say(line)
        self.shown = len(log)

    def status(self, obs: Observation) -> None:
        for line in status_lines(obs, self.session.names, self.session.lang):
            self.say(line)

    def save(self) -> None:
        """Save after a move; when that fails, one line says so and the game goes on
        in memory (the next save tries again)."""
        error = self.session.try_save()
        if error is not None:
            self.say(error)

    def leave(self) -> int:
        """Save and end: 0 when saved, else one line (the file that was there is
        untouched) and 2."""
        s = self.session
        if s.try_save("save.lost") is not None:
            self.say(s.save_error or "")
            return 2
        self.say(t(s.lang, "saved_resume", path=str(s.path), command=resume_command(s.path)))
        return 0

    def analyse(self) -> None:
        """The finished game reviewed for the player (the chart, the costliest choices in
        words, then every choice), with its progress on one line."""
        from ..lab.review import ReviewError, review

        s = self.session
        lang = s.lang

        def progress(done: int, total: int) -> None:
            self.out.write("\r" + t(lang, "review.progress", done=done, total=total))
            self.out.flush()

        try:
            rv = review(s.referee.record(), HUMAN, BUDGET, seed=0, names=list(s.names), lang=lang,
                        progress=progress)
        except ReviewError as e:
            logging.getLogger(__name__).warning("the analysis failed: %s", e)
            self.say()
            self.say(t(lang, "analyse.failed", kind=type(e).__name__, detail=str(e)))
            return
        self.say()
        for line in player_review_lines(rv, lang):
            self.say(line)

    def run(self) -> int:
        """Play until the user quits or input ends; the record is saved either way
        (when the disk refuses, one line says so and the exit status is 2)."""
        s = self.session
        lang = s.lang
        quit_refused = False
        self.say(t(lang, "plain.welcome", rules=s.rules.name, players=s.players))
        house = rules_in_words(s.rules, lang, changed_only=True)
        if house:
            self.say(t(lang, "plain.house", rules="; ".join(f"{label}: {value}" for label, value in house)))
        while True:
            while s.bot_to_act:
                s.bot_step()
                self.flush_log()
                if self.delay > 0:
                    time.sleep(self.delay)
            self.flush_log()
            if s.over:
                error = s.try_save()
                obs = s.observation()
                just_said = set(s.log[-RESUMED_LOG:])  # "Bjørn er Mattis!" is in the log already: once is enough
                for line in end_lines(obs, s.names, s.tally, lang, take_backs=s.take_backs):
                    if not line or line not in just_said:
                        self.say(line)
                self.say(error or t(lang, "saved", path=str(s.save_path)))
                for _ in range(BAD_AGAIN):
                    answer = self.ask(t(lang, "plain.again_analyse") + " ")
                    if answer is None or answer.lower() in NO:
                        return 0
                    if answer.lower() in YES:
                        s.next_game()
                        break
                    if answer.lower() in ANALYSE:
                        self.analyse()
                        continue
                    self.say(t(lang, "plain.again_help"))
                else:
                    return 0
                continue
            obs = s.observation()
            self.status(obs)
            while True:
                answer = self.ask("> ")
                if answer is None:
                    return self.leave()
                result = parse_answer(answer, obs)
                if isinstance(result, Move):
                    reason = s.try_move(result)
                    if reason is None:
                        self.save()
                        break
                    self.say(t(lang, "plain.illegal", reason=reason))
                    continue
                if result == "quit":
                    error = s.try_save("save.failed_quit")
                    if error is not None and not quit_refused:
                        quit_refused = True  # the next quit leaves, saved or not
                        self.say(error)
                        continue
                    return self.leave()
                if result == "help":
                    self.say(t(lang, "plain.help"))
                elif result == "hint":
                    self.say(s.hint_text(lang) or t(lang, "hint.none"))
                elif result == "back":
                    if s.take_back():
                        self.save()
                        self.shown = len(s.log) - TAKE_BACK_LINES  # the log was cut back to before your move
                        self.flush_log()
                        break
                    self.say(s.why_no_take_back(lang))
                elif result == "learn":
                    for heading, text in how_to_play(s.rules, lang):
                        self.say(f"{heading}: {text}")
                elif result == "stats":
                    for line in stats_lines(lang, s.stats_path):
                        self.say(line)
                elif result == "last":
                    self.say(last_trick_text(obs, s.names, lang, codes=False))
                elif result == "rules":
                    for line in rules_lines(s.rules, lang, obs, s.names):
                        self.say(line)
                elif result == "status":
                    self.status(obs)
                elif result == "?number":
                    self.say(t(lang, "plain.bad_number", n=len(obs.legal)))
                else:
                    self.say(t(lang, "plain.bad_input", text=answer))
            self.flush_log()
