"""Every string of the terminal UI in Norwegian (bokmål, ``nb``) and English (``en``).

The game's own terms keep their Norwegian names; in English each comes with a
gloss ("stikk (trick)").

>>> t("nb", "turn.other", name="Bjørn")
'Bjørn sin tur'
"""

from __future__ import annotations

from typing import Final, Literal

Lang = Literal["nb", "en"]
LANGS: Final[tuple[Lang, ...]] = ("nb", "en")

#: The rule terms: Norwegian name, and the English text with its gloss.
TERMS: Final[dict[str, tuple[str, str, str]]] = {
    # key: (Norwegian name, Norwegian explanation, English with gloss)
    "stikk": ("stikk", "kortene som legges i én runde i fase 1", "stikk (trick)"),
    "avstikk": ("avstikk", "et fullført stikk i fase 2; kortene går ut av spillet",
                "avstikk (a completed phase 2 trick; its cards leave the game)"),
    "krig": ("krig", "like høye kort: de som la dem, legger på nytt", "krig (war: a tie fought again)"),
    "stoting": ("støting", "en valør lagt to ganger starter en kamp", "støting (a repeated rank starts a fight)"),
    "stunsa": ("stunsa", "Skitgubbes krig", "stunsa (Skitgubbe's war)"),
    "sjanse": ("sjanse", "legg det øverste kortet i bunken i stedet for et fra hånden",
               "sjanse (chance: lay the top stock card instead of one from your hand)"),
    "trumf": ("trumf", "fargen som slår alle andre i fase 2", "trumf (trump: the suit that beats the others)"),
    "undertrekk": ("undertrekk", "den som ikke kan stikke, tar opp det første kortet i stikket",
                   "undertrekk (who cannot beat picks up the first card of the trick)"),
    "serie": ("serie/rad", "kort på rad i samme farge, lagt som ett",
              "serie/rad (sequence: consecutive cards of one suit laid as one)"),
    "bordmattis": ("bordmattis", "vant ingenting i fase 1 og må ta opp fra bordet",
                   "bordmattis (won nothing in phase 1, must pick up from the table)"),
    "blamattis": ("blåmattis", "vant ingenting i fase 1 og går inn i fase 2 tomhendt",
                  "blåmattis (blue Mattis: won nothing in phase 1, enters phase 2 empty-handed)"),
    "blodmattis": ("Blodmattis", "vant ingen stikk i fase 1 og taper straks",
                   "Blodmattis (blood Mattis: won no trick in phase 1 and loses at once)"),
    "mattis": ("Mattis", "den som sitter igjen med kort og taper",
               "Mattis (the loser, left holding cards)"),
}

_NB: dict[str, str] = {
    # suits
    "suit.0": "kløver ♣", "suit.1": "ruter ♦", "suit.2": "hjerter ♥", "suit.3": "spar ♠",
    # labels
    "label.trump": "Trumf", "label.table": "Bordet", "label.players": "Spillere", "label.hand": "Hånden din",
    "label.choices": "Valg", "label.log": "Siste trekk",
    "hand.legend": "lyse kort kan legges · ▲ valgt · ✓ merket",
    "col.player": "Spiller", "col.hand": "Hånd", "col.pile": "Haug", "col.tricks": "Stikk", "col.status": "Status",
    # phases, turn, info
    "phase.1": "Fase 1: stikk", "phase.2": "Fase 2: avstikk", "phase.over": "Spillet er over",
    "turn.you": "Din tur", "turn.other": "{name} sin tur", "turn.over": "Spillet er over",
    "turn.also": "(du kan også: {move})",
    "trump.known": "{suit}", "trump.known_card": "{suit} (trumfkortet: {sym})",
    "trump.face_down": "ukjent, ligger med bildesiden ned hos {name}",
    "trump.in_stock": "ukjent (det siste kortet i bunken)",
    "info.stock": "Bunken: {n}", "info.aside": "lagt bort: {n}", "info.out": "ute av spill: {n}",
    "rules.short": "Regler: {name}",
    # table
    "table.empty": "(tomt bord)", "table.fight": "{fight} mellom {names}!",
    "table.need": "{have} av {need} for avstikk", "word.and": " og ",
    # standing
    "status.finished": "ferdig, {place}. plass", "status.mattis": "Mattis", "status.to_act": "i tur",
    "status.known": "kjent: {cards}", "status.trump_holder": "(har trumfkortet)",
    # moves
    "move.play": "legg {cards}", "move.chance": "sjanse", "move.pickup": "ta opp",
    # log
    "log.new_game": "{dealer} gir til et nytt spill.", "log.wins_trick": "{name} tar stikket.",
    "log.phase2": "Fase 2 begynner. Trumf er {trump}.", "log.phase2_notrump": "Fase 2 begynner.",
    "log.avstikk": "{name} tar avstikket.", "log.out": "{name} er ferdig ({place}. plass).",
    "log.blodmattis": "{name} vant ingen stikk og er Blodmattis!", "log.mattis": "{name} er Mattis!",
    # last trick, hint
    "last.none": "Ingen stikk er fullført ennå.", "last.phase1": "Siste stikk: {name} tok {cards}.",
    "last.phase2": "Siste avstikk: {name} fullførte {cards}.",
    "hint": "Hint: {move}.", "hint.none": "Ingen hint nå: det er ikke din tur.",
    "hint.keys": "(Enter legger det markerte)", "hint.key_chance": "(trykk c)", "hint.key_pickup": "(trykk p)",
    # errors
    "err.over": "Spillet er over.", "err.not_your_turn": "Vent, det er {name} sin tur.",
    "err.no_cards": "Du har ingen kort: ta opp (p) eller sjanse (c).",
    # end
    "end.title": "Spillet er over", "end.order": "Rekkefølge:",
    "end.mattis_line": "{place}. {name} (Mattis)", "end.blodmattis_line": "{name} (Blodmattis)",
    "end.mattis": "{name} er Mattis!", "end.no_mattis": "Ingen Mattis denne gangen.",
    "end.reason.repetition": "Spillet ble stoppet fordi stillingen gjentok seg; rangert etter kort på hånden.",
    "end.reason.cap": "Spillet ble stoppet etter for mange trekk; rangert etter kort på hånden.",
    "end.reason.stuck": "Spillet kunne ikke fortsette; rangert etter kort på hånden.",
    "end.tally": "Ganger Mattis denne økten (Blodmattis teller med):",
    # buttons and keys
    "btn.lay": "Legg", "btn.chance": "Sjanse", "btn.pickup": "Ta opp", "btn.last": "Siste stikk",
    "btn.rules": "Regler", "btn.hint": "Hint", "btn.quit": "Lagre og avslutt", "btn.again": "Spill igjen (n)",
    "keys": "←/→ velg kort · Enter legg · Mellomrom marker serie · c sjanse · p ta opp · l siste stikk · "
            "r regler · h hint · q lagre og avslutt",
    "info.close": "Piltaster blar; trykk en annen tast for å lukke.",
    "saved": "Spillet er lagret i {path}.",
    "saved_resume": "Spillet er lagret i {path}. Fortsett med: mattis play --resume {path}",
    "kept_previous": "Et uferdig spill ble tatt vare på i {path}.",
    # plain mode
    "plain.welcome": "mattis: {rules}, {players} spillere. Skriv hjelp for hjelp.",
    "plain.player": "{name} hånd {hand}, haug {pile}, stikk {tricks}",
    "plain.again": "Spille igjen? (ja/nei)", "plain.again_help": "Svar ja eller nei.",
    "plain.illegal": "Ikke lov: {reason}.",
    "plain.bad_input": "Forstod ikke «{text}». Skriv et kort (4C), en serie (5H 6H 7H), sjanse, ta opp, "
                       "et tall fra listen eller hjelp.",
    "plain.bad_number": "Velg et tall fra 1 til {n}.",
    "plain.help": "Svar med et kort (4C, TS, 10S), en serie (5H 6H 7H), «sjanse», «ta opp» eller tallet "
                  "foran et valg.\nKommandoer: hint, siste (siste stikk), regler, status, avslutt (lagrer). "
                  "Kort skrives med valør (2-9, T/10, J, Q, K, A) og farge (C kløver, D ruter, H hjerter, "
                  "S spar).",
    # rules screen
    "rules.title": "Regler i bruk: {name}", "rules.glossary": "Ord i spillet:",
    "rules.preset.mattis": "Mattis, tradisjonell: stikk mot venstre nabo, krig, sjanse, undertrekk.",
    "rules.preset.hund": "Hund: alle legger til hvert stikk; fase 2 som i Mattis.",
    "rules.preset.blodmattis": "Mattis-appens regler: støting, trumf fra nederste kort, Blodmattis.",
    "rules.preset.skitgubbe": "Svensk Skitgubbe: stunsa, sjanse når som helst, ta opp det siste kortet.",
    "opt.min_players": "Færrest spillere", "opt.max_players": "Flest spillere",
    "opt.max_pair_players": "Flest spillere med tokortsstikk",
    "opt.two_player_discard": "Kort lagt bort med to spillere",
    "opt.tricks": "Stikk i fase 1", "opt.ties": "Like kort", "opt.draw": "Trekke fra bunken",
    "opt.chance": "Sjanse", "opt.trump": "Trumf", "opt.phase1_end": "Fase 1 slutter",
    "opt.empty_hand": "Tom hånd i fase 2", "opt.leader2": "Spiller ut i fase 2", "opt.follow": "Følge farge",
    "opt.pickup": "Ta opp", "opt.pickup_optional": "Kan ta opp selv om du kan stikke",
    "opt.trick_size": "Kort i et avstikk", "opt.sequences": "Serie/rad (minste lengde)",
    "opt.leftovers_shown": "Kort igjen på hånden etter fase 1 vises fram",
    "opt.empty_fighter": "Tom hånd i krig/støting mens bunken har kort",
    "val.empty_fighter.chance": "legger øverste kort i bunken (tvungen sjanse)",
    "val.empty_fighter.drop": "går ut av kampen",
    "opt.phase2_cap": "Største antall trekk i fase 2",
    "val.tricks.pair": "to kort, mot venstre nabo", "val.tricks.all": "alle legger (Hund)",
    "val.ties.war": "krig (stunsa)", "val.ties.stoting": "støting",
    "val.draw.after_card": "etter hvert kort", "val.draw.after_trick": "etter hvert stikk",
    "val.chance.off": "ikke lov", "val.chance.lead": "når du spiller ut", "val.chance.any": "når som helst",
    "val.trump.last_card": "siste kort i bunken, med bildesiden ned",
    "val.trump.bottom_up": "nederste kort, snudd fra start",
    "val.phase1_end.one_holder": "når bare én har kort igjen",
    "val.phase1_end.first_empty": "når den som står for tur er tom",
    "val.empty_hand.pick_up": "må ta opp (bordmattis/blåmattis)",
    "val.empty_hand.loses": "taper straks (Blodmattis)", "val.empty_hand.safe": "er ferdig",
    "val.leader2.trump_holder": "den som har trumfkortet", "val.leader2.last_trick": "vinneren av siste stikk",
    "val.follow.free": "stikk over i fargen eller trumf", "val.follow.suit_first": "følg farge hvis du kan",
    "val.pickup.first": "første kort (undertrekk)", "val.pickup.last": "siste kort (eller serien øverst)",
    "val.pickup.lowest": "det laveste kortet",
    "val.trick_size.start": "spillerne med da stikket begynte", "val.trick_size.active": "aktive spillere",
    "val.trick_size.seated": "alle ved bordet",
    "val.yes": "ja", "val.no": "nei", "val.sequences.0": "ikke lov",
}

_EN: dict[str, str] = {
    "suit.0": "clubs ♣", "suit.1": "diamonds ♦", "suit.2": "hearts ♥", "suit.3": "spades ♠",
    "label.trump": "Trump", "label.table": "Table", "label.players": "Players", "label.hand": "Your hand",
    "label.choices": "Choices", "label.log": "Last moves",
    "hand.legend": "bright cards may be laid · ▲ chosen · ✓ marked",
    "col.player": "Player", "col.hand": "Hand", "col.pile": "Pile", "col.tricks": "Stikk", "col.status": "Status",
    "phase.1": "Phase 1: stikk (tricks)", "phase.2": "Phase 2: avstikk (shedding)", "phase.over": "Game over",
    "turn.you": "Your turn", "turn.other": "{name}'s turn", "turn.over": "Game over",
    "turn.also": "(you may also: {move})",
    "trump.known": "{suit}", "trump.known_card": "{suit} (trump card: {sym})",
    "trump.face_down": "unknown, lies face down with {name}",
    "trump.in_stock": "unknown (the last card of the stock)",
    "info.stock": "Stock: {n}", "info.aside": "set aside: {n}", "info.out": "out of play: {n}",
    "rules.short": "Rules: {name}",
    "table.empty": "(empty table)", "table.fight": "{fight} between {names}!",
    "table.need": "{have} of {need} for the avstikk", "word.and": " and ",
    "status.finished": "out, place {place}", "status.mattis": "Mattis", "status.to_act": "to act",
    "status.known": "known: {cards}", "status.trump_holder": "(holds the trump card)",
    "move.play": "play {cards}", "move.chance": "sjanse (chance)", "move.pickup": "pick up",
    "log.new_game": "{dealer} deals a new game.", "log.wins_trick": "{name} wins the stikk (trick).",
    "log.phase2": "Phase 2 begins. Trump is {trump}.", "log.phase2_notrump": "Phase 2 begins.",
    "log.avstikk": "{name} takes the avstikk (trick).", "log.out": "{name} is out (place {place}).",
    "log.blodmattis": "{name}: no stikk won, Blodmattis (loses at once)!", "log.mattis": "{name} is Mattis!",
    "last.none": "No trick has been completed yet.", "last.phase1": "Last stikk (trick): {name} took {cards}.",
    "last.phase2": "Last avstikk: {name} completed {cards}.",
    "hint": "Hint: {move}.", "hint.none": "No hint now: it is not your turn.",
    "hint.keys": "(Enter lays what is marked)", "hint.key_chance": "(press c)", "hint.key_pickup": "(press p)",
    "err.over": "The game is over.", "err.not_your_turn": "Wait, it is {name}'s turn.",
    "err.no_cards": "You hold no cards: pick up (p) or take a sjanse (c).",
    "end.title": "Game over", "end.order": "Finishing order:",
    "end.mattis_line": "{place}. {name} (Mattis)", "end.blodmattis_line": "{name} (Blodmattis)",
    "end.mattis": "{name} is Mattis!", "end.no_mattis": "No Mattis this time.",
    "end.reason.repetition": "The game was stopped because the position repeated; ranked by cards held.",
    "end.reason.cap": "The game was stopped after too many moves; ranked by cards held.",
    "end.reason.stuck": "The game could not go on; ranked by cards held.",
    "end.tally": "Times Mattis this session (Blodmattis counts too):",
    "btn.lay": "Lay", "btn.chance": "Sjanse", "btn.pickup": "Pick up", "btn.last": "Last trick",
    "btn.rules": "Rules", "btn.hint": "Hint", "btn.quit": "Save and quit", "btn.again": "Play again (n)",
    "keys": "←/→ choose card · Enter lay · Space mark a sequence · c sjanse (chance) · p pick up · "
            "l last trick · r rules · h hint · q save and quit",
    "info.close": "Arrows scroll; press any other key to close.",
    "saved": "The game is saved in {path}.",
    "saved_resume": "The game is saved in {path}. Continue with: mattis play --resume {path}",
    "kept_previous": "An unfinished game was kept in {path}.",
    "plain.welcome": "mattis: {rules}, {players} players. Type help for help.",
    "plain.player": "{name} hand {hand}, pile {pile}, stikk {tricks}",
    "plain.again": "Play again? (yes/no)", "plain.again_help": "Answer yes or no.",
    "plain.illegal": "Not allowed: {reason}.",
    "plain.bad_input": "Did not understand \"{text}\". Type a card (4C), a sequence (5H 6H 7H), chance, pickup, "
                       "a number from the list, or help.",
    "plain.bad_number": "Choose a number from 1 to {n}.",
    "plain.help": "Answer with a card (4C, TS, 10S), a sequence (5H 6H 7H), \"chance\", \"pickup\" or the "
                  "number in front of a choice.\nCommands: hint, last (last trick), rules, status, quit (saves). "
                  "Cards are rank (2-9, T/10, J, Q, K, A) then suit (C clubs, D diamonds, H hearts, S spades).",
    "rules.title": "Rules in force: {name}", "rules.glossary": "Words of the game:",
    "rules.preset.mattis": "Mattis, traditional: stikk to the left neighbour, krig, sjanse, undertrekk.",
    "rules.preset.hund": "Hund (Dog): everyone lays to each trick; phase 2 as Mattis.",
    "rules.preset.blodmattis": "The Mattis app's rules: støting, trump from the bottom card, Blodmattis.",
    "rules.preset.skitgubbe": "Swedish Skitgubbe: stunsa, sjanse at any time, pick up the last card.",
    "opt.min_players": "Fewest players", "opt.max_players": "Most players",
    "opt.max_pair_players": "Most players with two-card tricks",
    "opt.two_player_discard": "Cards set aside with two players",
    "opt.tricks": "Phase 1 tricks", "opt.ties": "Equal cards", "opt.draw": "Drawing from the stock",
    "opt.chance": "Sjanse (chance)", "opt.trump": "Trumf (trump)", "opt.phase1_end": "Phase 1 ends",
    "opt.empty_hand": "Empty hand in phase 2", "opt.leader2": "Leads phase 2", "opt.follow": "Following suit",
    "opt.pickup": "Picking up", "opt.pickup_optional": "May pick up although able to beat",
    "opt.trick_size": "Cards in an avstikk", "opt.sequences": "Serie/rad (sequence), shortest length",
    "opt.leftovers_shown": "Cards left in hand after phase 1 are shown",
    "opt.empty_fighter": "Empty hand in a krig/støting while the stock has cards",
    "val.empty_fighter.chance": "lays the top stock card (forced sjanse)",
    "val.empty_fighter.drop": "drops out of the fight",
    "opt.phase2_cap": "Most moves in phase 2",
    "val.tricks.pair": "two cards, to the left neighbour", "val.tricks.all": "everyone lays (Hund)",
    "val.ties.war": "krig (war; stunsa)", "val.ties.stoting": "støting",
    "val.draw.after_card": "after each card", "val.draw.after_trick": "after each trick",
    "val.chance.off": "not allowed", "val.chance.lead": "when you lead", "val.chance.any": "at any time",
    "val.trump.last_card": "last card of the stock, face down",
    "val.trump.bottom_up": "bottom card, turned up at the start",
    "val.phase1_end.one_holder": "when only one player holds cards",
    "val.phase1_end.first_empty": "when the player to act has no card",
    "val.empty_hand.pick_up": "must pick up (bordmattis/blåmattis)",
    "val.empty_hand.loses": "loses at once (Blodmattis)", "val.empty_hand.safe": "is out",
    "val.leader2.trump_holder": "the holder of the trump card", "val.leader2.last_trick": "the last trick's winner",
    "val.follow.free": "beat in the suit or trump", "val.follow.suit_first": "follow suit if you can",
    "val.pickup.first": "first card (undertrekk)", "val.pickup.last": "last card (or the top run)",
    "val.pickup.lowest": "the lowest card",
    "val.trick_size.start": "players in when the trick began", "val.trick_size.active": "active players",
    "val.trick_size.seated": "everyone at the table",
    "val.yes": "yes", "val.no": "no", "val.sequences.0": "not allowed",
}

for _key, (_nb, _explain, _en) in TERMS.items():
    _NB[f"term.{_key}"] = _nb
    _EN[f"term.{_key}"] = _en
    _NB[f"gloss.{_key}"] = f"{_nb}: {_explain}"
    _EN[f"gloss.{_key}"] = _en

STRINGS: Final[dict[str, dict[str, str]]] = {"nb": _NB, "en": _EN}


def t(lang: Lang, key: str, **values: object) -> str:
    """The UI string ``key`` in ``lang``, with ``{placeholders}`` filled in."""
    text = STRINGS[lang][key]
    return text.format(**values) if values else text


def has(lang: Lang, key: str) -> bool:
    return key in STRINGS[lang]

