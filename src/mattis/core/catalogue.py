"""The one string catalogue: every word the project shows people, in Norwegian
(bokmål) and English, keyed by a dotted name.

``TEXT[key] == (nb, en)``.  Parameters are named ``str.format`` fields
(``{name}``), the same in both languages.  Pure data: the terminal UI
(:mod:`mattis.tui.i18n`), the web page (``web/static/i18n.json`` is generated
from this table by ``python -m mattis.web.i18n``) and the engine's messages
(:func:`mattis.core.text.reason_text`) all read it.

The sections: the game's own words (``term.*`` short, ``gloss.*`` explained),
suits, phases and the table, standings, rule options (``opt.*``) and their
values (``val.<option>.<value>``), presets (``rules.preset.*``), how a game
ended (``end.reason.*``), why a move is illegal (``reason.<code>``, one per
:class:`~mattis.core.vocabulary.Reason`); then the terminal UI's own chrome and
the web page's (``web.*``).  The Norwegian is written as card players speak it
and as the rule texts say it: the stock is *bunken*, cards lie *med baksiden
opp*, a player *tar opp* a card, *legger* a card, *sjanser*.

>>> TEXT["term.krig"]
('krig', 'krig (war)')
"""

from __future__ import annotations

from typing import Final

#: The game's own words, in the order of the rules screen's glossary; each has a
#: ``term.<key>`` (the word, English with a short gloss) and a ``gloss.<key>``.
TERM_KEYS: Final[tuple[str, ...]] = (
    "stikk", "avstikk", "krig", "stoting", "stunsa", "sjanse", "trumf", "undertrekk", "serie",
    "bordmattis", "blamattis", "blodmattis", "mattis",
)

TEXT: Final[dict[str, tuple[str, str]]] = {
    # ------------------------------------------------------------------ shared
    # -- the game's own words: the Norwegian word; in English with a gloss
    "term.stikk": ("stikk", "stikk (trick)"),
    "term.avstikk": ("avstikk", "avstikk (completed trick)"),
    "term.krig": ("krig", "krig (war)"),
    "term.stoting": ("støting", "støting (clash)"),
    "term.stunsa": ("stunsa", "stunsa (war)"),
    "term.sjanse": ("sjanse", "sjanse (chance)"),
    "term.trumf": ("trumf", "trumf (trump)"),
    "term.undertrekk": ("undertrekk", "undertrekk (pick up the first card)"),
    "term.serie": ("serie/rad", "serie/rad (sequence)"),
    "term.bordmattis": ("bordmattis", "bordmattis (table Mattis)"),
    "term.blamattis": ("blåmattis", "blåmattis (blue Mattis)"),
    "term.blodmattis": ("Blodmattis", "Blodmattis (blood Mattis)"),
    "term.mattis": ("Mattis", "Mattis (the loser)"),
    "gloss.stikk": ("stikk: kortene som legges i én runde i fase 1",
                    "stikk (trick: the cards laid in one round of phase 1)"),
    "gloss.avstikk": ("avstikk: et ferdig stikk i fase 2; kortene går ut av spillet",
                      "avstikk (a completed phase 2 trick; its cards leave the game)"),
    "gloss.krig": ("krig: like høye kort; de som la dem, legger et nytt kort hver",
                   "krig (war: equal cards; the players who laid them lay one more card each)"),
    "gloss.stoting": ("støting: samme valør som et kort på bordet; de som har lagt den valøren, "
                      "legger ett kampkort hver",
                      "støting (a rank already on the table is laid again; the players who laid it "
                      "lay one more card each)"),
    "gloss.stunsa": ("stunsa: like høye kort; kortene blir liggende, og de samme to legger på nytt",
                     "stunsa (war: equal cards; the cards stay, and the same two lay again)"),
    "gloss.sjanse": ("sjanse: legg det øverste kortet i bunken i stedet for et kort fra hånden",
                     "sjanse (chance: lay the top card of the stock instead of one from your hand)"),
    "gloss.trumf": ("trumf: fargen som slår alle de andre i fase 2",
                    "trumf (trump: the suit that beats the others in phase 2)"),
    "gloss.undertrekk": ("undertrekk: den som ikke kan stikke, tar opp det første kortet i stikket",
                         "undertrekk (who cannot beat picks up the first card of the trick)"),
    "gloss.serie": ("serie/rad: kort på rad i samme farge, lagt ut som ett",
                    "serie/rad (sequence: consecutive cards of one suit, laid as one)"),
    "gloss.bordmattis": ("bordmattis: vant ingenting i fase 1 og må ta opp fra bordet",
                         "bordmattis (won nothing in phase 1, must pick up from the table)"),
    "gloss.blamattis": ("blåmattis: vant ingenting i fase 1 og går tomhendt inn i fase 2",
                        "blåmattis (blue Mattis: won nothing in phase 1, enters phase 2 empty-handed)"),
    "gloss.blodmattis": ("Blodmattis: vant ikke et eneste stikk i fase 1 og taper med en gang",
                         "Blodmattis (blood Mattis: won no trick in phase 1 and loses at once)"),
    "gloss.mattis": ("Mattis: den som sitter igjen med kort, og taper",
                     "Mattis (the loser, left holding cards)"),
    # -- suits (the names as in core.cards.SUIT_NAMES, with the symbol)
    "suit.0": ("kløver ♣", "clubs ♣"),
    "suit.1": ("ruter ♦", "diamonds ♦"),
    "suit.2": ("hjerter ♥", "hearts ♥"),
    "suit.3": ("spar ♠", "spades ♠"),
    # -- where the game is
    "phase.1": ("Fase 1: stikk", "Phase 1: stikk (tricks)"),
    "phase.2": ("Fase 2: bli kvitt kortene", "Phase 2: shed your cards"),
    "phase.over": ("Spillet er over", "Game over"),
    "turn.you": ("Din tur", "Your turn"),
    "turn.other": ("{name} er i tur", "{name}'s turn"),
    "turn.over": ("Spillet er over", "The game is over"),
    "label.trump": ("Trumf", "Trump"),
    "label.table": ("Bordet", "Table"),
    "label.players": ("Spillere", "Players"),
    "label.hand": ("Hånden din", "Your hand"),
    "label.log": ("Siste trekk", "Last moves"),
    "label.rules": ("Regler", "Rules"),
    "trump.face_down": ("ukjent, ligger med baksiden opp hos {name}", "unknown, lies face down with {name}"),
    "trump.in_stock": ("ukjent (det siste kortet i bunken)", "unknown (the last card of the stock)"),
    "info.stock": ("Bunken: {n}", "Bunke (stock): {n}"),
    "info.aside": ("Lagt bort: {n}", "Set aside: {n}"),
    "info.out": ("Ute av spillet: {n}", "Out of play: {n}"),
    "table.empty": ("tomt", "empty"),
    "table.goes_to": ("{leader} spiller ut til {name}.", "{leader} leads to {name}."),
    "table.fight": ("Det er {fight} mellom {names}!", "There is a {fight} between {names}!"),
    # the rule text's words ("like mange oppføringer på bordet som det er aktive spillere"): the trick
    # being played lies on the table; it is an avstikk once it is complete
    "table.need": ("{have} av {need} oppføringer på bordet (et kort eller en rad teller som én)",
                   "{have} of {need} entries on the table (a card or a run counts as one)"),
    # -- a seat's standing
    "status.finished": ("ferdig, {place}. plass", "out, place {place}"),
    "status.ranked": ("rangert som nr. {place} da spillet ble stoppet (ikke ute)",
                      "ranked {place} when the game was stopped (not out)"),
    "status.loser.mattis": ("Mattis", "Mattis"),
    "status.loser.skitgubbe": ("Skitgubben", "The skitgubbe"),
    "status.blodmattis": ("Blodmattis (vant ingen stikk)", "Blodmattis (won no trick)"),
    "status.waiting": ("venter på å gå ut (tom, ute når stikket går)",
                       "waiting to go out (no cards, out when the trick is cleared)"),
    "status.to_act": ("i tur", "to act"),
    "status.known": ("kjent: {cards}", "known: {cards}"),
    "status.fighting": ("i {fight}", "in a {fight}"),
    "btn.chance": ("Sjanse", "Chance"),
    "btn.pickup": ("Ta opp", "Pick up"),
    "btn.last": ("Siste stikk", "Last trick"),
    # -- the loser's name per variant (core.text.loser_word): the word, then the sentences
    "loser.mattis": ("Mattis", "Mattis"),
    "loser.skitgubbe": ("skitgubben", "the skitgubbe"),
    "loser.blodmattis": ("Blodmattis", "Blodmattis"),
    "end.loser.mattis": ("{name} er Mattis!", "{name} is Mattis!"),
    "end.loser.skitgubbe": ("{name} er skitgubben!", "{name} is the skitgubbe!"),
    "end.loser_you.mattis": ("{name} er Mattis!", "{name} are Mattis!"),
    "end.loser_you.skitgubbe": ("{name} er skitgubben!", "{name} are the skitgubbe!"),
    # -- a move as a log line (core.text.describe_move); English verbs agree with "You"
    "moved.play": ("{name} legger {card}", "{name} plays {card}"),
    "moved.play_you": ("{name} legger {card}", "{name} play {card}"),
    "moved.pickup": ("{name} tar opp {cards}", "{name} picks up {cards}"),
    "moved.pickup_you": ("{name} tar opp {cards}", "{name} pick up {cards}"),
    "moved.chance": ("{name} sjanser", "{name} takes a chance"),
    "moved.chance_you": ("{name} sjanser", "{name} take a chance"),
    "moved.chance_turns": ("{name} sjanser og snur {card}", "{name} takes a chance and turns up {card}"),
    "moved.chance_turns_you": ("{name} sjanser og snur {card}", "{name} take a chance and turn up {card}"),
    # -- the person at the screen, and joining a list ("Cato og deg")
    "word.you": ("Du", "You"),
    "word.you_object": ("deg", "you"),
    "word.you_inside": ("du", "you"),
    "word.and": (" og ", " and "),
    # a serie (run) as a player says it, the suit once: "ruter 2, 3 og 4" (core.text.run_words)
    "word.run": ("{suit} {ranks}", "{ranks} of {suit}"),
    # -- how a game ended (core.vocabulary.Termination, when not normal)
    "end.reason.repetition": ("Spillet ble stoppet fordi stillingen gjentok seg; rangert etter kort på hånden.",
                              "The game was stopped because the position repeated; ranked by cards held."),
    "end.reason.cap": ("Spillet ble stoppet etter for mange trekk; rangert etter kort på hånden.",
                       "The game was stopped after too many moves; ranked by cards held."),
    "end.reason.stuck": ("Spillet kunne ikke fortsette; rangert etter kort på hånden.",
                         "The game could not go on; ranked by cards held."),
    # -- bot levels
    "level.easy": ("lett", "easy"),
    "level.medium": ("middels", "medium"),
    "level.hard": ("vanskelig", "hard"),
    "level.expert": ("ekspert", "expert"),
    # -- presets
    "rules.preset.mattis": ("Mattis, tradisjonell: stikk på to kort til sidemannen til venstre, krig, sjanse, "
                            "undertrekk.",
                            "Mattis, traditional: two-card stikk to the left neighbour, krig, sjanse, undertrekk."),
    "rules.preset.hund": ("Hund: alle legger et kort i hvert stikk; fase 2 som i Mattis.",
                          "Hund (Dog): everyone lays a card to each stikk; phase 2 as in Mattis."),
    "rules.preset.blodmattis": ("Reglene i Mattis-appen: støting, trumf fra nederste kort, Blodmattis.",
                                "The Mattis app's rules: støting, trump from the bottom card, Blodmattis."),
    "rules.preset.skitgubbe": ("Svensk Skitgubbe: stunsa, sjanse så lenge det er mer enn ett kort i bunken, ta opp "
                               "det siste kortet.",
                               "Swedish Skitgubbe: stunsa, sjanse while more than one card is left in the stock, "
                               "pick up the last card."),
    # -- rule options (core.rules.Rules) and their values (core.rules.CHOICES)
    "opt.min_players": ("Færrest spillere", "Fewest players"),
    "opt.max_players": ("Flest spillere", "Most players"),
    "opt.max_pair_players": ("Flest spillere med stikk på to kort", "Most players with two-card tricks"),
    "opt.two_player_discard": ("Kort lagt bort når dere er to", "Cards set aside with two players"),
    "opt.tricks": ("Stikk i fase 1", "Phase 1 tricks"),
    "opt.ties": ("Like høye kort", "Equal cards"),
    "opt.draw": ("Trekk fra bunken", "Drawing from the stock"),
    "opt.chance": ("Sjanse", "Sjanse (chance)"),
    "opt.trump": ("Trumf", "Trumf (trump)"),
    "opt.phase1_end": ("Fase 1 slutter", "Phase 1 ends"),
    "opt.empty_hand": ("Uten kort når fase 2 begynner", "No cards when phase 2 begins"),
    "opt.leader2": ("Spiller ut først i fase 2", "Leads phase 2"),
    "opt.follow": ("Følge farge", "Following suit"),
    "opt.pickup": ("Det du tar opp", "Picking up"),
    "opt.pickup_optional": ("Kan ta opp selv om du kan stikke", "May pick up although able to beat"),
    "opt.pickup_run": ("Tar opp hele serien øverst (med serier og siste kort)",
                       "Picks up the whole run on top (with sequences and the last card)"),
    "opt.going_out": ("Når en spiller med tom hånd er ute", "When a player with an empty hand is out"),
    "opt.trick_size": ("Utspill i et avstikk", "Entries in an avstikk"),
    "opt.sequences": ("Serie/rad (minste lengde)", "Serie/rad (sequence), shortest length"),
    "opt.empty_fighter": ("Tom hånd midt i en kamp om like kort mens bunken har kort",
                          "Empty hand in the middle of a fight over equal cards while the stock has cards"),
    "opt.leftovers_shown": ("Kort igjen på hånden etter fase 1 vises fram",
                            "Cards left in hand after phase 1 are shown"),
    "opt.next_leader": ("Hvem spiller ut første stikk i neste spill", "Who leads the first trick of the next game"),
    "opt.phase2_cap": ("Flest trekk i fase 2", "Most moves in phase 2"),
    "opt.deck_ranks": ("Valører i kortstokken, talt ned fra esset (forskning)",
                       "Ranks in the deck, counted down from the ace (research)"),
    "opt.deck_suits": ("Farger i kortstokken, talt ned fra spar (forskning)",
                       "Suits in the deck, counted down from spades (research)"),
    "opt.hand_size": ("Kort på hånden", "Cards in hand"),
    "val.tricks.pair": ("to kort, til sidemannen til venstre", "two cards, to the left neighbour"),
    "val.tricks.all": ("alle legger et kort (Hund)", "everyone lays a card (Hund)"),
    "val.ties.war": ("krig", "krig (war)"),
    "val.ties.stoting": ("støting", "støting (a rank laid again starts a fight)"),
    "val.draw.after_card": ("etter hvert kort", "after each card"),
    "val.draw.after_trick": ("etter hvert stikk", "after each trick"),
    "val.chance.off": ("ikke lov", "not allowed"),
    "val.chance.lead": ("når du spiller ut", "when you lead"),
    "val.chance.any": ("når som helst", "at any time"),
    "val.trump.last_card": ("siste kort i bunken, med baksiden opp", "last card of the stock, face down"),
    "val.trump.bottom_up": ("nederste kort i bunken, snudd med en gang", "bottom card, turned up at the start"),
    "val.trump.shown_when_drawn": ("nederste kort i bunken, vist når det trekkes",
                                   "bottom card, shown when it is drawn"),
    "val.phase1_end.one_holder": ("når bare én har kort igjen", "when only one player holds cards"),
    "val.phase1_end.first_empty": ("når den som står for tur, ikke har kort", "when the player to act has no card"),
    "val.phase1_end.stock_empty": ("når bunken er tom (stikket spilles ferdig)",
                                   "when the stock is empty (the trick is finished)"),
    "val.empty_hand.pick_up": ("må ta opp (bordmattis/blåmattis)", "must pick up (bordmattis/blåmattis)"),
    "val.empty_hand.loses": ("taper med en gang (Blodmattis)", "loses at once (Blodmattis)"),
    "val.empty_hand.safe": ("er ferdig", "is out"),
    "val.leader2.trump_holder": ("den som har trumfkortet", "the holder of the trump card"),
    "lead2.last_drawer": ("den som fikk det siste kortet i bunken (trumfkortet)",
                                "whoever got the last card of the stock (the trump card)"),
    "val.leader2.last_trick": ("den som vant siste stikk", "the last trick's winner"),
    "val.follow.free": ("stikk med høyere kort i fargen eller med trumf", "beat in the suit or trump"),
    "val.follow.void": ("følg farge hvis du kan; trumf bare når du ikke har fargen",
                        "follow suit if you can; trump only when you have none of the suit"),
    "val.going_out.laid": ("når spilleren legger sitt siste kort", "when the player lays the last card"),
    "val.going_out.cleared": ("når avstikket med spillerens siste kort er ferdig (og ikke tatt opp igjen)",
                              "when the avstikk holding the player's last card is done (not picked up again)"),
    "val.going_out.holders": ("når avstikket med spillerens siste kort er ferdig; spillet slutter når bare "
                              "én spiller har kort igjen",
                              "when the avstikk holding the player's last card is done; the game ends when "
                              "only one player has cards left"),
    "val.pickup.first": ("det første kortet (undertrekk)", "the first card (undertrekk)"),
    "val.pickup.last": ("det siste kortet (eller hele serien øverst)", "the last card (or the whole top run)"),
    "val.pickup.lowest": ("det laveste kortet", "the lowest card"),
    "val.trick_size.start": ("ett kort per spiller som var igjen da stikket begynte",
                             "one card per player still in when the trick began"),
    "val.trick_size.active": ("ett kort per spiller som fortsatt er med", "one card per player still in"),
    "val.trick_size.seated": ("ett kort per spiller ved bordet", "one card per player at the table"),
    "val.empty_fighter.chance": ("legger det øverste kortet i bunken (tvungen sjanse)",
                                 "lays the top card of the stock (forced sjanse)"),
    "val.empty_fighter.drop": ("går ut av kampen", "drops out of the fight"),
    "val.next_leader.left_of_dealer": ("spilleren til venstre for giveren", "the player left of the dealer"),
    "val.next_leader.loser": ("taperen fra forrige spill", "the loser of the last game"),
    "val.yes": ("ja", "yes"),
    "val.no": ("nei", "no"),
    "val.sequences.0": ("ikke lov", "not allowed"),
    # -- why a move is illegal (core.vocabulary.Reason); the English is also the engine's message
    "reason.game_over": ("spillet er over", "the game is over"),
    "reason.not_your_turn": ("plass {number} er i tur", "it is seat {number}'s turn"),
    "reason.not_legal": ("det trekket er ikke lov", "illegal move"),
    "reason.no_pickup_in_phase1": ("det er ingenting å ta opp i fase 1", "there is nothing to pick up in phase 1"),
    "reason.chance_off": ("sjanse er ikke lov med disse reglene", "chance (sjanse) is not allowed in these rules"),
    "reason.chance_stock": ("du kan bare sjanse når det er minst to kort i bunken",
                            "chance needs at least two cards in the stock"),
    "reason.chance_no_stock": ("du kan ikke sjanse når bunken er tom", "chance needs a card in the stock"),
    "reason.chance_not_leading": ("du kan bare sjanse når du spiller ut", "chance is only allowed when you lead"),
    "reason.one_card_in_phase1": ("i fase 1 legger du ett kort om gangen", "in phase 1 you lay one card at a time"),
    "reason.not_held": ("du har ikke {cards}", "you do not hold {cards}"),
    "reason.no_chance_in_phase2": ("du kan ikke sjanse i fase 2", "there is no chance (sjanse) in phase 2"),
    "reason.nothing_to_pick_up": ("det ligger ingenting på bordet å ta opp",
                                  "there is nothing on the table to pick up"),
    "reason.must_beat_not_pick_up": ("du kan stikke, og med disse reglene kan du ikke ta opp i stedet",
                                     "you can beat the top entry, and these rules do not let you pick up instead"),
    "reason.no_sequences": ("serier er ikke lov med disse reglene",
                            "sequences (serie) are not allowed in these rules"),
    "reason.not_a_sequence": ("en serie må være kort på rad i samme farge",
                              "a sequence must be consecutive cards of one suit"),
    "reason.sequence_too_short": ("en serie må ha minst {number} kort",
                                  "a sequence must be at least {number} cards long"),
    "reason.cannot_lead": ("det kan du ikke spille ut", "that entry cannot be led"),
    "reason.must_follow_suit": ("følg farge med {cards}, ellers ta opp (trumf bare når du ikke har fargen)",
                                "follow suit with {cards}, or pick up (trump only when you have none of the suit)"),
    "reason.must_follow_suit_pick_up": ("du har fargen, men ikke noe høyere: ta opp (trumf bare når du ikke har "
                                        "fargen)", "you hold the suit but nothing higher: pick up (trump only when "
                                        "you have none of the suit)"),
    "reason.must_pick_up": ("du har ikke noe som kan stikke {cards}: du må ta opp",
                            "nothing you hold may beat {cards}: you must pick up"),
    "reason.must_beat": ("det må være høyere enn {cards}", "it must be higher than {cards}"),
    "reason.must_follow_or_trump": ("du må følge farge med et høyere kort, eller trumfe",
                                    "you must follow suit with a higher card, or trump"),
    # ------------------------------------------------------------ terminal UI
    "label.choices": ("Valg", "Choices"),
    "hand.legend": ("lyse kort kan legges · ▲ valgt · ✓ merket", "bright cards may be played · ▲ chosen · ✓ marked"),
    "col.player": ("Spiller", "Player"),
    "col.hand": ("Hånd", "Hand"),
    "col.pile": ("Vunnet", "Won"),
    "col.tricks": ("Stikk", "Stikk (tricks)"),
    "col.status": ("Status", "Status"),
    "turn.also": ("(du kan også: {move})", "(you may also: {move})"),
    "trump.known": ("{suit}", "{suit}"),
    "trump.known_card": ("{suit} (trumfkortet: {sym})", "{suit} (trump card: {sym})"),
    "rules.short": ("Regler: {name}", "Rules: {name}"),
    "status.trump_holder": ("(har trumfkortet)", "(holds the trump card)"),
    "move.play": ("legg {cards}", "play {cards}"),
    "move.chance": ("sjanse", "sjanse (chance)"),
    "move.pickup": ("ta opp", "pick up"),
    "log.new_game": ("Nytt spill: {dealer} gir.", "A new game: {dealer} deals."),
    "log.new_game_you": ("Nytt spill: du gir.", "A new game: you deal."),
    "log.welcome": ("Velkommen til {rules}! Giver: {dealer}. Du spiller mot {bots}. {how}",
                    "Welcome to {rules}! Dealer: {dealer}. You play against {bots}. {how}"),
    "log.welcome.bot": ("én bot på nivå {level}", "one bot of level {level}"),
    "log.welcome.bots": ("{n} boter på nivå {level}", "{n} bots of level {level}"),
    "log.welcome.bots_mixed": ("boter på nivå {levels}", "bots of levels {levels}"),
    "log.welcome.tui": ("Trykk ? for å lære spillet, h for et hint.", "Press ? to learn the game, h for a hint."),
    "log.welcome.plain": ("Skriv «lær» for å lære spillet, «hint» for et hint.",
                          "Type \"learn\" to learn the game, \"hint\" for a hint."),
    "log.last_card.last_card": ("Det siste kortet i bunken går til {name}, med baksiden opp: fargen blir trumf "
                                "i fase 2.",
                                "The last card of the stock goes to {name}, face down: its suit is trump in "
                                "phase 2."),
    "log.last_card.drawn": ("Det siste kortet i bunken, trumfkortet {card}, går til {name}.",
                            "The last card of the stock, the trump card {card}, goes to {name}."),
    "log.leads_phase2": ("{name} spiller ut først i fase 2.", "{name} leads first in phase 2."),
    "log.bordmattis": ("{name} vant ingen kort i fase 1: bordmattis, tar opp først.",
                       "{name} won no card in phase 1: bordmattis (table Mattis), to pick up first."),
    "log.wins_trick": ("{name} tar stikket.", "{name} wins the stikk (trick)."),
    "log.phase2": ("Fase 2 begynner. Trumf er {trump}.", "Phase 2 begins. Trump is {trump}."),
    "log.phase2_notrump": ("Fase 2 begynner.", "Phase 2 begins."),
    "log.avstikk": ("{name} tar avstikket.", "{name} takes the avstikk (trick)."),
    "log.out": ("{name} er ferdig ({place}. plass).", "{name} is out (place {place})."),
    "log.waiting": ("{name} er tom – ute når stikket går.",
                    "{name} has no cards left – out when the trick is cleared."),
    "log.blodmattis": ("{name} vant ingen stikk og er Blodmattis!",
                       "{name}: no stikk won, Blodmattis (loses at once)!"),
    "last.none": ("Ingen stikk er ferdige ennå.", "No trick has been completed yet."),
    "last.phase1": ("Siste stikk: {name} tok {cards}.", "Last stikk (trick): {name} took {cards}."),
    "last.phase2": ("Siste avstikk ({name} la det siste kortet): {cards}.",
                    "Last avstikk ({name} laid the last card): {cards}."),
    "hint": ("Hint: {move}.", "Hint: {move}."),
    "hint.none": ("Ingen hint nå: det er ikke din tur.", "No hint now: it is not your turn."),
    "hint.keys": ("(Enter legger det som er merket)", "(Enter plays what is marked)"),
    "hint.key_chance": ("(trykk c)", "(press c)"),
    "hint.key_pickup": ("(trykk p)", "(press p)"),
    "err.over": ("Spillet er over.", "The game is over."),
    "err.not_your_turn": ("Vent, {name} er i tur.", "Wait, it is {name}'s turn."),
    "err.no_cards": ("Du har ingen kort: ta opp (p) eller sjanse (c).",
                     "You hold no cards: pick up (p) or take a sjanse (c)."),
    "err.no_cards_pickup": ("Du har ingen kort: ta opp (p).", "You hold no cards: pick up (p)."),
    "err.no_cards_now": ("Du har ingen kort nå.", "You hold no cards now."),
    "err.no_cards_chance": ("Du har ingen kort: sjanse (c).", "You hold no cards: take a sjanse (c)."),
    "end.title": ("Spillet er over", "Game over"),
    "end.order": ("Rekkefølge:", "Finishing order:"),
    "end.loser_line": ("{place}. {name} ({loser})", "{place}. {name} ({loser})"),
    "end.ranked_line": ("{place}. {name} (rangert da spillet ble stoppet, ikke ute)",
                        "{place}. {name} (ranked when the game was stopped, not out)"),
    "end.blodmattis_line": ("{name} (Blodmattis)", "{name} (Blodmattis)"),
    "end.no_loser.mattis": ("Ingen Mattis denne gangen.", "No Mattis this time."),
    "end.no_loser.skitgubbe": ("Ingen skitgubbe denne gangen.", "No skitgubbe this time."),
    "end.tally.mattis": ("Ganger Mattis denne økten:", "Times Mattis this session:"),
    "end.tally.blodmattis": ("Ganger Mattis denne økten (Blodmattis teller med):",
                             "Times Mattis this session (Blodmattis counts too):"),
    "end.held": ("{name} satt igjen med {cards}.", "{name} ended with {cards} in hand."),
    "end.held_count": ("{name} satt igjen med {n} kort.", "{name} ended with {n} cards in hand."),
    "rules.last_drawer": ("Det siste kortet i bunken gikk til {name}.", "The last card of the stock went to {name}."),
    "end.tally.skitgubbe": ("Ganger skitgubben denne økten:", "Times the skitgubbe this session:"),
    "btn.lay": ("Legg", "Play"),
    "btn.rules": ("Regler", "Rules"),
    "btn.hint": ("Hint", "Hint"),
    "btn.quit": ("Lagre og avslutt", "Save and quit"),
    "btn.again": ("Spill igjen (n)", "Play again (n)"),
    "keys": ("←/→ velg kort · Enter legg · Mellomrom merk en serie · c sjanse · p ta opp · l siste stikk · "
             "r regler · h hint · q lagre og avslutt",
             "←/→ choose a card · Enter play · Space mark a sequence · c sjanse (chance) · p pick up · "
             "l last trick · r rules · h hint · q save and quit"),
    "info.close": ("Piltastene blar; trykk en annen tast for å lukke.", "Arrows scroll; press any other key to close."),
    "saved": ("Spillet er lagret i {path}.", "The game is saved in {path}."),
    "saved_resume": ("Spillet er lagret i {path}. Fortsett med: {command}",
                     "The game is saved in {path}. Continue with: {command}"),
    "kept_previous": ("Et uferdig spill ble tatt vare på i {path}.", "An unfinished game was kept in {path}."),
    "plain.welcome": ("mattis: {rules}, {players} spillere. Skriv hjelp for å få hjelp.",
                      "mattis: {rules}, {players} players. Type help for help."),
    "plain.player": ("{name}: hånd {hand}, vunnet {pile}, stikk {tricks}",
                     "{name}: hand {hand}, won {pile}, stikk {tricks}"),
    "plain.house": ("Husregler: {rules}", "House rules: {rules}"),
    "plain.again": ("Spille igjen? (ja/nei)", "Play again? (yes/no)"),
    "plain.again_help": ("Svar ja eller nei.", "Answer yes or no."),
    "plain.illegal": ("Ikke lov: {reason}.", "Not allowed: {reason}."),
    "plain.bad_input": ("Forstod ikke «{text}». Skriv et kort (4♣, 4C eller kløver 4), en serie (5♥ 6♥ 7♥), sjanse, "
                        "ta opp, et tall fra listen eller hjelp.",
                        "Did not understand \"{text}\". Type a card (4♣, 4C or four of clubs), "
                        "a sequence (5♥ 6♥ 7♥), chance, "
                        "pickup, a number from the list, or help."),
    "plain.bad_number": ("Velg et tall fra 1 til {n}.", "Choose a number from 1 to {n}."),
    "plain.help": ("Svar med et kort (4♣ eller 4C, 10♠ eller TS, ruter 3, kløver dame), "
                   "en serie (5♥ 6♥ 7♥), «sjanse», «ta opp» "
                   "eller tallet foran et valg.\nKommandoer: hint, angre (ta tilbake trekket ditt), siste "
                   "(siste stikk), regler, lær (slik spiller du), statistikk, status, avslutt (lagrer). "
                   "Kort skrives med valør (2-10, J, Q, K, A) og farge (♣ eller C kløver, ♦ eller D ruter, "
                   "♥ eller H hjerter, ♠ eller S spar).",
                   "Answer with a card (4♣ or 4C, 10♠ or TS, three of diamonds, queen of clubs), "
                   "a sequence (5♥ 6♥ 7♥), \"chance\", \"pickup\" "
                   "or the number in front of a choice.\nCommands: hint, back (take back your move), last (last "
                   "trick), rules, learn (how to play), stats, status, quit (saves). Cards are rank (2-10, J, Q, "
                   "K, A) then suit (♣ or C clubs, ♦ or D diamonds, ♥ or H hearts, ♠ or S spades)."),
    "rules.title": ("Regler i bruk: {name}", "Rules in force: {name}"),
    "rules.glossary": ("Ord i spillet:", "Words of the game:"),
    # ------------------------------------------------------ how to play (core.text.how_to_play)
    "howto.h.goal": ("Målet", "The aim"),
    "howto.goal.mattis": ("Spillet går i to faser med motsatte mål. I fase 1 spiller du om stikk og samler kort; "
                          "i fase 2 skal du bli kvitt de samme kortene fortest mulig. Den som til slutt sitter "
                          "alene med kort på hånden, er Mattis og har tapt.",
                          "The game has two phases with opposite aims. In phase 1 you play for stikk (tricks) and "
                          "collect cards; in phase 2 you must get rid of those same cards as fast as you can. Whoever "
                          "is left alone holding cards is Mattis and has lost."),
    "howto.goal.skitgubbe": ("Spillet går i to faser med motsatte mål. I fase 1 spiller du om stikk og samler "
                             "kort; i fase 2 skal du bli kvitt dem igjen. Den som sitter igjen med kort til "
                             "slutt, har tapt og er skitgubben.",
                             "The game has two phases with opposite aims. In phase 1 you play for stikk (tricks) "
                             "and collect cards; in phase 2 you must get rid of them again. Whoever is left "
                             "holding cards has lost and is the skitgubbe."),
    "howto.h.deal": ("Utdelingen", "The deal"),
    "howto.deal": ("Giveren deler tre kort til hver, og resten av kortene legges med baksiden opp midt på "
                   "bordet: det er bunken. Ess er høyest, toeren lavest.",
                   "The dealer gives everyone three cards and puts the rest face down in the middle: that is "
                   "the bunke (stock). Ace is high, two is low."),
    "howto.deal_two": ("Er dere bare to, legges ti kort vekk før utdelingen, uten at noen ser dem.",
                       "With only two players, ten cards are set aside unseen before the deal."),
    "howto.h.trick": ("Stikk", "Stikk (tricks)"),
    "howto.trick.pair": ("Spilleren til venstre for giveren begynner og legger ett kort foran sidemannen til "
                         "venstre, som svarer med et kort fra hånden. I fase 1 teller bare valøren, ikke fargen. "
                         "Høyeste kort tar stikket, og vinneren legger ut neste kort til sin sidemann. Du er ikke "
                         "nødt til å prøve å ta stikket: kortene du vinner, må du bli kvitt i fase 2.",
                         "The player left of the dealer leads one card to the left neighbour, who answers with "
                         "any card from hand. In phase 1 only the rank counts, not the suit. The higher card takes "
                         "the stikk (trick), and the winner leads the next one to their own left neighbour. You "
                         "need not try to win: the cards you win are the ones you must shed in phase 2."),
    "howto.trick.all": ("Alle legger ett kort i hvert stikk, med klokka fra den som spiller ut. I fase 1 teller "
                        "bare valøren, ikke fargen. Høyeste kort tar stikket, og vinneren spiller ut neste. Du "
                        "er ikke nødt til å prøve å ta stikket: kortene du vinner, må du bli kvitt i fase 2.",
                        "Everyone lays one card to each stikk (trick), clockwise from the leader. In phase 1 only "
                        "the rank counts, not the suit. The highest card takes the trick, and the winner leads the "
                        "next. You need not try to win: the cards you win are the ones you must shed in phase 2."),
    "howto.h.draw": ("Når du trekker", "When you draw"),
    "howto.draw.after_card": ("Så lenge det er kort i bunken, trekker du rett etter at du har lagt, så du alltid "
                              "har tre kort på hånden.",
                              "While the stock has cards, you draw right after you lay, so that you always "
                              "hold three cards."),
    "howto.draw.after_trick": ("Etter hvert stikk trekker alle opp til tre kort, vinneren først og så med "
                               "klokka.",
                               "After each stikk (trick) everyone draws up to three cards, the winner first, then "
                               "clockwise."),
    "howto.h.fight": ("Like høye kort", "Equal cards"),
    "howto.fight.krig": ("Er de høyeste kortene like høye, blir det krig: de som la dem, legger et nytt kort "
                         "hver, og den som nå har høyest, tar alle kortene i stikket. Blir de like igjen, "
                         "fortsetter krigen.",
                         "When the highest cards are equal, it is krig (war): the players who laid them lay one "
                         "more card each, and the higher card now takes every card in the trick. If they are equal "
                         "again, the krig goes on."),
    "howto.fight.stoting": ("Legges en valør som allerede ligger på bordet, blir det støting, selv om et høyere "
                            "kort ligger der: de som har lagt den høyeste valøren som ligger dobbelt, legger ett "
                            "kampkort hver, og høyeste kampkort tar alt. Er kampkortene like, blir det ny støting "
                            "mellom dem.",
                            "When a rank already on the table is laid again, it is støting (clash), even if a "
                            "higher card lies there: the players who laid the highest doubled rank lay one fight "
                            "card each, and the highest fight card takes all. If the fight cards are equal, they "
                            "clash again."),
    "howto.fight.stunsa": ("Er kortene like høye, blir det stunsa: kortene blir liggende, og de samme to legger "
                           "et nytt kort hver. Høyeste kort tar hele stikket.",
                           "When the cards are equal, it is stunsa (war): the cards stay, and the same two lay one "
                           "more card each. The higher card takes the whole trick."),
    "howto.h.sjanse": ("Sjanse", "Sjanse (chance)"),
    "howto.sjanse.lead": ("Når det er du som legger ut, kan du sjanse i stedet: du snur det øverste kortet i "
                          "bunken og legger det ut med en gang, uansett hva det er. Reglene sier ikke rett ut om "
                          "det nye kortet i en {fight} regnes som å spille ut; her gjør det det, så da kan du "
                          "også sjanse.",
                          "When you lead, you may take a sjanse (chance) instead: turn the top card of the stock "
                          "and lay it at once, whatever it is. The rules do not say outright whether the new card "
                          "in a {fight} counts as leading; here it does, so you may take a sjanse then too."),
    "howto.sjanse.any": ("Hver gang du skal legge i fase 1, kan du sjanse i stedet: du snur det øverste kortet i "
                         "bunken og legger det, uansett hva det er.",
                         "Whenever you lay in phase 1, you may take a sjanse (chance) instead: turn the top card of "
                         "the stock and lay it, whatever it is."),
    "howto.sjanse.floor.1": ("Det er lov så lenge det ligger kort i bunken.",
                             "You may while the stock has cards."),
    "howto.sjanse.floor.2": ("Det er bare lov så lenge det ligger mer enn ett kort i bunken: det siste er trumfkortet.",
                             "Only while more than one card is left in the stock: the last one is the trump card."),
    "chance.floor.1": ("så lenge det ligger kort i bunken", "while the stock has cards"),
    "chance.floor.2": ("så lenge det ligger mer enn ett kort i bunken",
                       "while more than one card is left in the stock"),
    "howto.empty_fighter.chance": ("Har du ingen kort på hånden når du skal legge i en {fight}, legger du det "
                                   "øverste kortet i bunken (tvungen sjanse).",
                                   "If you hold no card when you must lay in a {fight}, you lay the top card of the "
                                   "stock (a forced sjanse)."),
    "howto.empty_fighter.drop": ("Har du ingen kort på hånden når du skal legge i en {fight}, går du ut av kampen.",
                                 "If you hold no card when you must lay in a {fight}, you drop out of the fight."),
    "howto.h.trumf": ("Trumf", "Trumf (trump)"),
    "howto.trumf.last_card": ("Den som skulle ha trukket det siste kortet i bunken, legger det til side med "
                              "baksiden opp. Fargen på det kortet blir trumf i fase 2, og det vises når fase 2 "
                              "begynner.",
                              "Whoever would draw the last card of the stock sets it aside face down. Its "
                              "suit is trumf (trump) in phase 2; it is shown when phase 2 begins."),
    "howto.trumf.bottom_up": ("Det nederste kortet i bunken snus med forsiden opp ved utdelingen: fargen blir "
                              "trumf i fase 2, og kortet trekkes sist som et vanlig kort.",
                              "The bottom card of the stock is turned face up at the deal: its suit is "
                              "trumf (trump) in phase 2, and the card is drawn last like any other."),
    "howto.trumf.shown_when_drawn": ("Det siste kortet i bunken trekkes som et vanlig kort og vises når det "
                                     "trekkes: fargen blir trumf i fase 2.",
                                     "The last card of the stock is drawn like any card and shown when "
                                     "drawn: its suit is trumf (trump) in phase 2."),
    "howto.h.end1": ("Slutten på fase 1", "The end of phase 1"),
    "howto.end1.one_holder": ("Fase 1 går så lenge minst to spillere har kort på hånden; et stikk som er i "
                              "gang, spilles ferdig. Kortene som er igjen på hånden, blir med inn i fase 2.",
                              "Phase 1 goes on while at least two players hold cards; a trick under way is played "
                              "out. Cards still in hand go with you into phase 2."),
    "howto.end1.first_empty": ("Fase 1 er over når den som står for tur, ikke har noe kort å legge. Kortene som "
                               "er igjen på hånden, blir med inn i fase 2.",
                               "Phase 1 is over when the player to lay has no card. Cards still in hand go with "
                               "you into phase 2."),
    "howto.end1.stock_empty": ("Fase 1 er over når bunken er tom og stikket som spilles, er ferdig. Kortene som "
                               "er igjen på hånden, blir med inn i fase 2.",
                               "Phase 1 is over once the stock is empty and the trick being played is "
                               "done. Cards still in hand go with you into phase 2."),
    "howto.end1.shown": ("De som har kort igjen på hånden, viser dem fram før fase 2.",
                         "Whoever still holds cards shows them to everyone before phase 2."),
    "howto.h.phase2": ("Fase 2", "Phase 2"),
    "howto.phase2": ("Kortene du vant, er nå hånden din. {leader} Neste må legge et høyere kort i samme farge, "
                     "eller trumf; ligger det trumf, må neste trumf være høyere. Stikket er ferdig når det "
                     "ligger {size}: det er et avstikk, og kortene går ut av spillet. Den som la det "
                     "høyeste kortet, spiller ut i neste.",
                     "The cards you won are now your hand. {leader} The next player must lay a higher card of the "
                     "same suit, or a trump; on a trump only a higher trump. The trick is done when it holds "
                     "{size}: that is an avstikk, and its cards leave the game. Whoever laid the highest "
                     "card leads the next."),
    "howto.phase2.void": ("Du må følge farge hvis du kan; trumf bare når du ikke har fargen.",
                          "You must follow suit if you can; trump only when you hold none of the suit."),
    "howto.leader2.trump_holder": ("Den som har trumfkortet, spiller ut først.",
                                   "Whoever holds the trump card leads first."),
    "howto.leader2.last_drawer": ("Den som fikk det siste kortet i bunken (trumfkortet), spiller ut først, "
                                  "også om kortet alt er spilt.",
                                  "Whoever got the last card of the stock (the trump card) leads first, even if "
                                  "that card has been played since."),
    "howto.leader2.passed": ("Er den spilleren Blodmattis, spiller neste til venstre ut.",
                             "If that player is Blodmattis, the next player on the left leads."),
    "howto.leader2.last_trick": ("Den som vant siste stikk i fase 1, spiller ut først.",
                                 "Whoever won the last stikk of phase 1 leads first."),
    "howto.size.start": ("like mange kort som det var spillere igjen da stikket begynte",
                         "as many cards as there were players still in when the trick began"),
    "howto.size.runs": ("(en rad teller som ett kort)", "(a run counts as one card)"),
    "howto.size.active": ("like mange kort som det er spillere igjen", "as many cards as there are players still in"),
    "howto.size.seated": ("like mange kort som det er spillere ved bordet",
                          "as many cards as there are players at the table"),
    "howto.h.pickup": ("Ta opp", "Picking up"),
    "howto.pickup.first": ("Kan du ikke legge noe høyere, tar du opp det første kortet som ble lagt i stikket, "
                           "ikke det siste.",
                           "If you cannot lay anything higher, you pick up the first card laid in the trick, not "
                           "the last."),
    "howto.pickup.last": ("Kan du ikke legge noe høyere, tar du opp det øverste kortet i stikket.",
                          "If you cannot lay anything higher, you pick up the top card of the trick."),
    "howto.pickup.last_run": ("Kan du ikke legge noe høyere, tar du opp det øverste kortet i stikket, og med "
                              "serier hele raden av sammenhengende kort i samme farge øverst.",
                              "If you cannot lay anything higher, you pick up the top card of the trick, and with "
                              "sequences the whole run of consecutive cards of one suit on top."),
    "howto.pickup.lowest": ("Kan du ikke legge noe høyere, tar du opp det laveste kortet i stikket.",
                            "If you cannot lay anything higher, you pick up the lowest card in the trick."),
    "howto.pickup.optional": ("Du kan alltid ta opp, også når du kunne ha lagt.",
                              "You may always pick up, even when you could lay."),
    "howto.h.serie": ("Serier", "Serie/rad (sequences)"),
    "howto.serie": ("I fase 2 kan du legge {n} eller flere kort på rad i samme farge som ett, for eksempel "
                    "hjerter 5, 6 og 7. Serien må slå det som ligger, med sitt høyeste kort.",
                    "In phase 2 you may lay {n} or more consecutive cards of one suit as one, for example the 5, "
                    "6 and 7 of hearts. The sequence must beat what lies there with its highest card."),
    "howto.h.empty": ("Tom hånd", "An empty hand"),
    "howto.empty.pick_up": ("Vant du ikke et eneste kort i fase 1, er du bordmattis: du starter fase 2 med tom "
                            "hånd og må ta opp først. Alle må legge minst ett kort før de kan bli ferdige.",
                            "If you won no card in phase 1, you are bordmattis (table Mattis): you start phase 2 "
                            "empty-handed and must pick up first. Everyone must lay at least one card before they "
                            "can be out."),
    "howto.empty.loses": ("Vant du ikke et eneste stikk i fase 1, er du Blodmattis og har tapt med en gang.",
                          "If you won no stikk in phase 1, you are Blodmattis and have lost at once."),
    "howto.empty.safe": ("Har du ingen kort når fase 2 begynner, er du ferdig og slipper fase 2.",
                         "If you hold no cards when phase 2 begins, you are out and skip phase 2."),
    "howto.h.loser": ("Hvem som taper", "Who loses"),
    "howto.out.laid": ("Blir du kvitt alle kortene, er du ferdig.", "Once you shed all your cards, you are out."),
    "howto.out.cleared": ("Er hånden tom, er du ferdig når avstikket med det siste kortet ditt er ferdig; blir "
                          "kortet tatt opp igjen, er du med videre og må ta opp når det er din tur.",
                          "With an empty hand you are out once the avstikk holding your last card is done; if that "
                          "card is picked up again, you play on and must pick up on your turn."),
    "howto.out.holders": ("Er hånden tom, er du ferdig når avstikket med det siste kortet ditt er ferdig; blir "
                          "kortet tatt opp igjen, er du med videre og må ta opp når det er din tur. Spillet "
                          "slutter så snart bare én spiller har kort igjen.",
                          "With an empty hand you are out once the avstikk holding your last card is done; if that "
                          "card is picked up again, you play on and must pick up on your turn. The game ends as "
                          "soon as only one player holds cards."),
    "howto.loser.mattis": ("De andre spiller videre, og den siste som har kort igjen, er Mattis.",
                           "The others play on, and the last one holding cards is Mattis."),
    "howto.loser.skitgubbe": ("De andre spiller videre, og den siste som har kort igjen, er skitgubben.",
                              "The others play on, and the last one holding cards is the skitgubbe."),
    "howto.h.next": ("Neste spill", "The next game"),
    "howto.next.left_of_dealer": ("Taperen gir neste spill{why}, og spilleren til venstre for giveren begynner.",
                                  "The loser deals the next game{why}, and the player left of the dealer begins."),
    "howto.next.loser": ("Taperen gir neste spill{why} og spiller også ut første stikk (mange lar taperen spille ut "
                         "første stikk neste gang).",
                         "The loser deals the next game{why} and also leads the first stikk (many let the loser "
                         "lead the first trick next time)."),
    "howto.next.why.mattis": (" («Mattis stokker og gir til neste spill»)",
                              " (the traditional rules: Mattis shuffles and deals the next game)"),
    "howto.next.why.skitgubbe": (" (reglene sier ikke hvem som gir neste spill)",
                                 " (the rules do not say who deals the next game)"),
    # ------------------------------------------------------- hints: why (lab.hint)
    "why.only": ("Det er det eneste du kan gjøre.", "It is the only thing you can do."),
    "hint.why": ("Hint: {move}. {why}", "Hint: {move}. {why}"),
    "why.search": ("{n} simuleringer: {p} sjanse til å slippe unna; nest best er {other} med {q}.",
                   "{n} playouts: a {p} chance to get away; the next best, {other}, {q}."),
    "why.p1.chance_keepers": ("Sjanse: alle kortene dine er verdt å spare til fase 2.",
                              "Sjanse: every card you hold is worth keeping for phase 2."),
    "why.p1.chance": ("Sjanse: du lar bunken legge for deg og sparer kortene på hånden.",
                      "Sjanse: the stock plays for you and your hand keeps its cards."),
    "why.p1.lead": ("Spill ut {card}: søket fant det bedre enn {least}, kortet du har minst bruk for.",
                    "Lead {card}: the search found it better than {least}, the card you have least use for."),
    "why.p1.lead_least": ("Spill ut {card}, det kortet du har minst bruk for.",
                          "Lead {card}, the card you have least use for."),
    "why.p1.lead_least_keep": ("Spill ut {card}, det kortet du har minst bruk for, og spar {keep} til fase 2.",
                               "Lead {card}, the card you have least use for, and keep {keep} for phase 2."),
    "why.p1.lead_high": ("Spill ut {card}: et høyt kort som kan ta stikket.",
                         "Lead {card}: a high card that can take the trick."),
    "why.p1.give": ("Gi bort stikket med {card}.", "Give the trick away with {card}."),
    "why.p1.give_low": ("Gi bort stikket med {card}, som du har lite bruk for.",
                        "Give the trick away with {card}, which you have little use for."),
    "why.p1.give_keep": ("Gi bort stikket med {card} og spar {keep} til fase 2.",
                         "Give the trick away with {card} and keep {keep} for phase 2."),
    "why.p1.take_low": ("Ta stikket billig, med et lavt kort ({card}).",
                        "Take the trick cheaply, with a low card ({card})."),
    "why.p1.take_low_keep": ("Ta stikket billig med {card} og spar {keep} til fase 2.",
                             "Take the trick cheaply with {card} and keep {keep} for phase 2."),
    "why.p1.take_worth": ("Ta stikket med {card}: det er verdt å vinne, med {worth} i.",
                          "Take the trick with {card}: it is worth winning, with {worth} in it."),
    "why.p1.take": ("Ta stikket med {card}.", "Take the trick with {card}."),
    "why.p1.fight": ("Legg likt med {card}, så blir det {fight}.", "Match it with {card}: it comes to {fight}."),
    "why.p1.other": ("Søket velger dette.", "The search picks this."),
    "why.no_sample": ("Ingen sjanser å regne på i et spill som begynte fra en stilling.",
                      "No chances to work out in a game that began from a position."),
    # ------------------------------------------------------- sessions, take-backs, statistics
    "log.take_back": ("{name} tar tilbake trekket.", "{name} takes back the move."),
    "log.resumed": ("Spillet fortsetter der det slapp.", "The game goes on where it stopped."),
    "takeback.none": ("Det er ikke noe trekk å ta tilbake.", "There is no move to take back."),
    # ------------------------------------------------------- files: saving, statistics (never a lost file)
    "takeback.redealt": ("Kortene du ikke har sett (bunken og de andres skjulte kort), er stokket på nytt.",
                         "The cards you have not seen (the stock and the others' hidden cards) are shuffled anew."),
    "takeback.cannot": ("Trekket kan ikke tas tilbake her: spillet begynte fra en stilling, og de skjulte kortene "
                        "kan ikke stokkes på nytt.",
                        "The move cannot be taken back here: the game began from a position, and the hidden cards "
                        "cannot be shuffled anew."),
    "save.failed": ("Spillet kunne ikke lagres i {path} ({why}). Det er i minnet og lagres igjen etter neste trekk.",
                    "The game could not be saved to {path} ({why}). It is kept in memory and saved again after the "
                    "next move."),
    "save.failed_quit": ("Spillet kunne ikke lagres i {path} ({why}). Neste q prøver igjen og avslutter, lagret "
                         "eller ikke.",
                         "The game could not be saved to {path} ({why}). The next q tries again and leaves, saved "
                         "or not."),
    "save.lost": ("Spillet kunne ikke lagres i {path} ({why}); filen som lå der fra før, er urørt.",
                  "The game could not be saved to {path} ({why}); the file that was there is untouched."),
    "save.lost_none": ("Spillet kunne ikke lagres i {path} ({why}); ingen fil ble skrevet.",
                       "The game could not be saved to {path} ({why}); no file was written."),
    "oserr.nospace": ("disken er full", "the disk is full"),
    "oserr.readonly": ("disken er skrivebeskyttet", "the disk is read-only"),
    "oserr.access": ("ingen tilgang", "permission denied"),
    "oserr.notfile": ("det er ikke en vanlig fil", "it is not a regular file"),
    "oserr.missing": ("mappen eller filen finnes ikke", "the folder or file does not exist"),
    "oserr.io": ("en lese- eller skrivefeil på disken", "an input/output error on the disk"),
    "oserr.too_long": ("navnet er for langt", "the name is too long"),
    "oserr.loop": ("for mange symbolske lenker", "too many symbolic links"),
    "oserr.other": ("feil {code}", "error {code}"),
    "stats.moved_aside": ("Statistikkfilen kunne ikke leses; den er flyttet til {path}, og en ny er startet.",
                          "The statistics file could not be read; it was moved to {path}, and a new one was started."),
    "stats.not_saved": ("Spillet kom ikke med i statistikken ({why}).",
                        "The game was not added to the statistics ({why})."),
    "stats.err.not_file": ("det er ikke en vanlig fil", "not a regular file"),
    "stats.err.too_large": ("den er for stor", "too large"),
    "stats.err.not_json": ("den er ikke gyldig JSON", "not JSON"),
    "stats.err.not_stats": ("det er ikke en statistikkfil", "not a statistics file"),
    "stats.err.entry": ("en av oppføringene er ikke et spill", "an entry is not a game"),
    "stats.unreadable": ("Statistikkfilen {path} kan ikke leses ({why}); den er ikke endret, og den flyttes til "
                         "side når neste spill er ferdig.",
                         "The statistics file {path} cannot be read ({why}); it is left as it is, and is moved "
                         "aside when the next game ends."),
    "end.take_backs": ("Trekk du tok tilbake i dette spillet: {n}.", "Moves you took back in this game: {n}."),
    "end.you_lost.mattis": ("Du tapte: du er Mattis.", "You lost: you are Mattis."),
    "end.you_lost.skitgubbe": ("Du tapte: du er skitgubben.", "You lost: you are the skitgubbe."),
    "end.you_lost.blodmattis": ("Du tapte: du er Blodmattis.", "You lost: you are Blodmattis."),
    "stats.none": ("Ingen spill er ferdige ennå.", "No games finished yet."),
    "stats.total": ("Ferdige spill: {games}. Tapt: {lost}.", "Games played: {games}. Lost: {lost}."),
    "stats.blodmattis": ("Av dem som Blodmattis: {n}.", "Of those as Blodmattis: {n}."),
    "stats.by_rules": ("Etter regler:", "By rules:"),
    "stats.by_bots": ("Etter botnivå:", "By bot level:"),
    "stats.house": ("(med husregler)", "(with house rules)"),
    "stats.row": ("  {label}: {games} spilt, {lost} som {loser}", "  {label}: {games} played, {lost} as {loser}"),
    "stats.row_bots": ("  {label}: {games} spilt, {lost} tapt", "  {label}: {games} played, {lost} lost"),
    "stats.title": ("Statistikk", "Statistics"),
    "resume.offer": ("Du har et uferdig spill ({what}). Fortsette det? (ja/nei) ",
                     "You have an unfinished game ({what}). Continue it? (yes/no) "),
    "resume.what": ("{rules}, {moves} trekk, lagret {when}", "{rules}, {moves} moves, saved {when}"),
    # mattis play --list / --discard
    "games.none": ("ingen uferdige spill", "no unfinished games"),
    "games.how": ("fortsett et av dem med: {play} --resume NUMMER; kast et med: {play} --discard NUMMER",
                  "continue one with: {play} --resume NUMBER; throw one away with: {play} --discard NUMBER"),
    "games.discarded": ("kastet {name}: {what}", "discarded {name}: {what}"),
    "resume.kept": ("Uferdige spill: {n}. Fortsett med: {play} --resume 1 (se {play} --list)",
                    "Unfinished games: {n}. Continue with: {play} --resume 1 (see {play} --list)"),
    "settings.err.object": ("innstillingene må være et JSON-objekt", "the settings must be a JSON object"),
    "settings.err.lang": ("språket må være nb eller en, ikke {value}", "lang must be nb or en, not {value}"),
    "settings.err.rules": ("ukjente regler {rules}", "unknown rules {rules}"),
    "settings.err.overrides": ("husreglene må være et JSON-objekt med regel: verdi",
                               "overrides must be an object of option: value"),
    "settings.err.players_number": ("antall spillere må være et helt tall", "players must be a whole number"),
    "settings.err.bots": ("botene må være ett nivå eller en liste med nivåer skilt med komma",
                          "bots must be a level or a comma list of levels"),
    "settings.err.delay": ("tempoet må være et antall sekunder (0 eller mer) eller null",
                           "delay must be a number of seconds (0 or more) or null"),
    "settings.err.name": ("navnet må være en tekst", "name must be a string"),
    "settings.err.players": ("{rules} spilles av {low}–{high} spillere, ikke {players}",
                             "{rules} is played by {low}-{high} players, not {players}"),
    "settings.err.house": ("husreglene går ikke sammen med hverandre eller med {players} spillere",
                           "the house rules do not go together, or not with {players} players"),
    "settings.err.level_count": ("{levels} bot-nivåer for {bots} boter", "{levels} bot levels for {bots} bots"),
    "settings.err.level": ("ukjent bot-nivå {level!r}; velg blant {levels}",
                           "unknown bot level {level!r}; choose from {levels}"),
    "settings.err.not_file": ("{path} er ikke en vanlig fil", "{path} is not a regular file"),
    "settings.err.not_text": ("{path} er ikke tekst (UTF-8)", "{path} is not text (UTF-8)"),
    "settings.err.cannot_read": ("{path} kan ikke leses: {why}", "cannot read {path}: {why}"),
    "settings.err.not_json": ("{path} er ikke gyldig JSON", "{path} is not valid JSON"),
    "settings.err.deep": ("{path} har for mange nivåer inni hverandre", "{path}: nested too deep"),
    "settings.broken": ("Innstillingene kunne ikke leses ({why}); standardvalgene brukes, og filen er ikke endret.",
                        "The settings could not be read ({why}); the defaults are used and the file is left as it is."),
    # ------------------------------------------- the terminal table's own chrome (tui.*, mattis.tui.app)
    "tui.too_small": ("Gjør vinduet større: minst {w}×{h} tegn (q lagrer og avslutter).",
                      "Make the window bigger: at least {w}×{h} characters (q saves and quits)."),
    "tui.house": ("Husregler: {rules}", "House rules: {rules}"),
    "tui.btn.history": ("Historikk", "History"),
    "tui.hand.legend_compact": ("lyse kort kan legges · ▸ valgt · ✓ merket",
                                "bright cards may be played · ▸ chosen · ✓ marked"),
    "tui.keys.choose": ("←/→ velg kort", "←/→ choose a card"),
    "tui.keys.lay": ("Enter legg", "Enter play"),
    "tui.keys.mark": ("Mellomrom merk en serie", "Space mark a sequence"),
    "tui.keys.chance": ("c sjanse", "c sjanse (chance)"),
    "tui.keys.pickup": ("p ta opp", "p pick up"),
    "tui.keys.take_back": ("u ta tilbake", "u take back"),
    "tui.keys.hint": ("h hint", "h hint"),
    "tui.keys.history": ("l historikk", "l history"),
    "tui.keys.rules": ("r regler", "r rules"),
    "tui.keys.howto": ("? slik spiller du", "? how to play"),
    "tui.keys.settings": ("s innstillinger", "s settings"),
    "tui.keys.stats": ("i statistikk", "i statistics"),
    "tui.keys.quit": ("q lagre og avslutt", "q save and quit"),
    "tui.table.took1": ("{name} tok stikket:", "{name} took the stikk (trick):"),
    "tui.table.took2": ("Avstikk, {name} la det siste kortet:", "Avstikk, {name} laid the last card:"),
    "tui.history.trick1": ("{n} av {total}: et stikk i fase 1", "{n} of {total}: a stikk (trick) in phase 1"),
    "tui.history.trick2": ("{n} av {total}: et avstikk i fase 2", "{n} of {total}: an avstikk in phase 2"),
    "tui.history.open": ("(ikke ferdig)", "(not finished)"),
    "tui.history.took1": ("{name} tok stikket: {cards}", "{name} took the stikk (trick): {cards}"),
    "tui.history.took2": ("{name} la det siste kortet i avstikket: {cards}",
                          "{name} laid the last card of the avstikk: {cards}"),
    "tui.history.known": ("Kjente kort hos {name}: {cards}", "Cards known to be in {name}'s hand: {cards}"),
    "tui.history.log": ("Alle trekk", "Every move"),
    "tui.history.close": ("←/→ blar i stikkene · ↑/↓ blar i loggen · en annen tast lukker",
                          "←/→ browse the tricks · ↑/↓ scroll the log · any other key closes"),
    "tui.info.pages": ("Side {n} av {total} (←/→ eller PgUp/PgDn blar)",
                       "Page {n} of {total} (←/→ or PgUp/PgDn turns the page)"),
    "tui.info.close_pages": ("←/→ og PgUp/PgDn blar om · ↑/↓ ruller · en annen tast lukker",
                             "←/→ and PgUp/PgDn turn the page · ↑/↓ scroll · any other key closes"),
    "tui.howto.title": ("Slik spiller du {name}", "How to play {name}"),
    "tui.hint.enter": ("(Enter legger det)", "(Enter plays it)"),
    "tui.known_count": ("{n} kjente kort", "{n} cards known"),
    "tui.known_count_one": ("ett kjent kort", "one card known"),
    "tui.settings.title": ("Innstillinger", "Settings"),
    "tui.settings.help": ("↑/↓ velg · ←/→ endre · skriv navnet ditt · Enter lagre · Esc avbryt. "
                          "Språk, navn, tempo og botenes nivå gjelder med en gang; regler og antall spillere "
                          "fra neste spill.",
                          "↑/↓ choose · ←/→ change · type your name · Enter save · Esc cancel. "
                          "Language, name, pace and the bots' level apply at once; rules and the number of "
                          "players from the next game."),
    "tui.settings.lang": ("Språk", "Language"),
    "tui.settings.rules": ("Regler", "Rules"),
    "tui.settings.players": ("Spillere", "Players"),
    "tui.settings.bots": ("Botene", "Bots"),
    "tui.settings.delay": ("Tempo", "Pace"),
    "tui.settings.name": ("Navnet ditt", "Your name"),
    "tui.settings.no_name": ("(ingen: {you})", "(none: {you})"),
    "tui.settings.nb": ("norsk (bokmål)", "Norwegian (bokmål)"),
    "tui.settings.en": ("engelsk", "English"),
    "tui.settings.pace.0": ("vanlig (0,8 s per trekk)", "usual (0.8 s a move)"),
    "tui.settings.pace.1": ("uten pause", "no pause"),
    "tui.settings.pace.2": ("raskt (0,4 s per trekk)", "quick (0.4 s a move)"),
    "tui.settings.pace.3": ("rolig (1,5 s per trekk)", "slow (1.5 s a move)"),
    "tui.settings.house": ("Husregler (* = endret fra reglene):", "House rules (* = changed from the rules):"),
    "tui.settings.bad": ("Det går ikke sammen: {why}", "That does not go together: {why}"),
    "tui.settings.cannot_save": ("Kunne ikke lagre innstillingene: {why}", "Could not save the settings: {why}"),
    "tui.settings.applied": ("Innstillingene er lagret og gjelder med en gang.",
                             "The settings are saved and apply at once."),
    "tui.settings.applied_next": ("Innstillingene er lagret. De nye reglene (eller antall spillere) gjelder fra "
                                  "neste spill; resten gjelder med en gang.",
                                  "The settings are saved. The new rules (or number of players) apply from the "
                                  "next game; the rest applies at once."),
    # ----------------------------------------------------------- command line
    "cli.rules": ("Regler: {rules}, {players} spillere", "Rules: {rules}, {players} players"),
    "cli.dealer": ("Giver: {name}", "Dealer: {name}"),
    # --save: a file that is there already, or that cannot be one (cli.common.check_save_target)
    "cli.save.overwrite": ("{path} finnes allerede. Skrive over den? (ja/nei) ",
                           "{path} exists. Overwrite it? (yes/no) "),
    "cli.save.left": ("{flag} {path}: filen er ikke rørt", "{flag} {path}: left as it is"),
    "cli.save.exists": ("{flag} {path} finnes allerede; legg til --force for å skrive over den",
                        "{flag} {path} exists; add --force to overwrite it"),
    "cli.save.folder": ("{flag} {path} er en mappe; gi et filnavn", "{flag} {path} is a folder; give a file name"),
    "cli.save.not_regular": ("{flag} {path} er ikke en vanlig fil (men en enhet eller en socket); gi et filnavn",
                             "{flag} {path} is not a regular file (a device or a socket); give a file name"),
    "trump.known_holder": ("{suit} ({name} har trumfkortet {sym})", "{suit} ({name} holds the trump card {sym})"),
    # ------------------------------------------- game review (mattis analyze, mattis.lab.review)
    "review.title": ("Gjennomgang av spillet for {name} ({rules}, {players} spillere)",
                     "Review of the game for {name} ({rules}, {players} players)"),
    "review.budget": ("{samples} simulerte spill per lovlige trekk, trekning nr. {seed}",
                      "{samples} playouts per legal move, seed {seed}"),
    "review.what": ("Tallene er sjansen for å slippe å bli {loser}, anslått bare fra det {name} visste: "
                    "først med det beste trekket, så med trekket som ble gjort.",
                    "The figures are the chance to avoid being {loser}, judged only from what {name} knew: "
                    "first with the best move, then with the move made."),
    "review.what_you": ("Tallene er sjansen for å slippe å bli {loser}, anslått bare fra det du visste: "
                        "først med det beste trekket, så med trekket som ble gjort.",
                        "The figures are the chance to avoid being {loser}, judged only from what you knew: "
                        "first with the best move, then with the move made."),
    "review.phase": ("fase {n}", "phase {n}"),
    "review.pct": ("{p} %", "{p}%"),
    "review.best": ("beste: {move} ({chance})", "best: {move} ({chance})"),
    "review.verdict.wins": ("vinner med beste spill", "wins with best play"),
    "review.verdict.loses": ("taper med beste spill", "loses with best play"),
    "review.verdict.can_be_forced": ("de andre kan sammen tvinge fram at du blir {loser}",
                                     "the others together can make you {loser}"),
    "review.mark.blunder": ("tabbe", "blunder"),
    "review.mark.mistake": ("feil", "mistake"),
    "review.mark.dubious": ("tvilsomt", "dubious"),
    "review.marks": ("Merker: ?? tabbe, ? feil, ?! tvilsomt: valget kostet minst {blunder}, {mistake} eller "
                     "{dubious} prosentpoeng. "
                     "Et merke gis bare der en ny runde med opptil åtte ganger så mange simulerte spill "
                     "bekrefter kostnaden, eller der det er regnet ut nøyaktig at det beste trekket vinner med "
                     "beste spill og trekket som ble gjort ikke gjør det; bare da nevnes et bedre trekk.  Tallene "
                     "ellers er "
                     "anslag fra simulerte spill (± to standardfeil).",
                     "Marks: ?? blunder, ? mistake, ?! dubious: the choice cost at least {blunder}, {mistake} or "
                     "{dubious} points.  A "
                     "mark is given only where a check with up to eight times the playouts confirms the cost, or "
                     "where it is worked out exactly that the best move wins with best play and the move made "
                     "does not; only then is a better move named.  The other figures are estimates from playouts "
                     "(± two standard errors)."),
    "review.better": ("bedre: {move} ({chance})", "better: {move} ({chance})"),
    "review.line_playouts": ("videre slik de simulerte spillene spiller (de andres trekk i parentes): {moves}",
                             "then as the playouts play on (the others' moves in brackets): {moves}"),
    "review.not_judged": ("ikke vurdert", "not judged"),
    "review.phase1": ("Valgene i fase 1 ({n}) er ikke vurdert: der spår anslaget utfallet ikke bedre enn "
                      "gjennomsnittet (se docs/analyze.md). Tallene vises bare der trekkene skiller seg med mer "
                      "enn to standardfeil.",
                      "The phase 1 decisions ({n}) are not judged: there the estimate predicts the outcome no "
                      "better than the average does (see docs/analyze.md). Their figures are shown only where "
                      "the moves differ by more than two standard errors."),
    "review.line": ("videre med beste spill (de andres trekk i parentes): {moves}",
                    "then with best play (the others' moves in brackets): {moves}"),
    "review.unresolved": ("flere trekk kan være like gode", "several moves may be as good"),
    "review.accuracy": ("Treffsikkerhet i fase 2: {acc} ± {se} (av 100, over {n} valg, anslått); merkede valg: "
                        "{b}.",
                        "Accuracy in phase 2: {acc} ± {se} (of 100, over {n} decisions, estimated); marked choices: "
                        "{b}."),
    "review.within": ("Innenfor støyen fra det beste trekket: {k} av {n} valg; i snitt kostet et valg {cost} ± {se} "
                      "prosentpoeng (to standardfeil).",
                      "Within the noise of the best move: {k} of {n} decisions; a decision cost {cost} ± {se} "
                      "points on average (two standard errors)."),
    "review.seats.title": ("Treffsikkerhet per spiller i fase 2 (anslått; ± to standardfeil):",
                           "Accuracy per player in phase 2 (estimated; ± two standard errors):"),
    "review.seats.row": ("{name}: {acc} ± {se} av 100; {k} av {n} valg innenfor støyen fra det beste; i snitt "
                         "{cost} ± {cost_se} prosentpoeng per valg; merkede valg: {b}",
                         "{name}: {acc} ± {se} of 100; {k} of {n} decisions within the noise of the best; "
                         "{cost} ± {cost_se} points per decision on average; marked choices: {b}"),
    "review.seats.none": ("{name}: ingen vurderte valg", "{name}: no judged decisions"),
    "review.luck": ("Kortene: {name} hadde {p} ± {se} sjanse da fase 2 begynte (gjennomsnittet er {base}).",
        "The cards: {name} had a {p} ± {se} chance when phase 2 began (the average is {base})."),
    "review.forced": ("Tvungne trekk (bare ett lovlig valg), telt, men ikke vurdert: {n}.",
                      "Forced moves (one legal choice), counted but not judged: {n}."),
    "review.costliest": ("De dyreste merkede valgene:", "The costliest marked choices:"),
    "review.cost": ("koster {cost}", "costs {cost}"),
    "review.cost_checked": ("koster {cost} ± {se}, sjekket med {n} simulerte spill per trekk",
                            "costs {cost} ± {se}, checked on {n} playouts a move"),
    "review.none_marked": ("Ingen valg fikk merke.", "No choice was marked."),
    "review.safe": ("{name} slapp unna.", "{name} got away."),
    "review.unfinished": ("Spillet er ikke ferdig.", "The game is not finished."),
    "review.chart.title": ("Sjansen for å slippe å bli {loser}: {name}", "The chance to avoid being {loser}: {name}"),
    "review.chart.x": ("trekk nummer", "move number"),
    "review.chart.y": ("sjanse", "chance"),
    "review.chart.best": ("med det beste trekket", "with the best move"),
    "review.chart.played": ("med trekket som ble gjort", "with the move made"),
    "review.chart.legend": ("● trekket som ble gjort  · beste trekk  ? merket valg  (trekk {first}–{last})",
                            "● the move made  · the best move  ? marked choice  (moves {first}–{last})"),
    "review.words.top": ("De {n} dyreste valgene:", "The {n} costliest choices:"),
    "review.words.top_one": ("Det dyreste valget:", "The costliest choice:"),
    "review.words.choice": ("Trekk {n} (fase {phase}): {name} valgte «{played}», men «{best}» var bedre. "
                            "Sjansen for å slippe unna falt fra {before} % til {after} % {sure}.",
                            "Move {n} (phase {phase}): {name} chose \"{played}\", but \"{best}\" was better. "
                            "The chance to get away fell from {before}% to {after}% {sure}."),
    "review.words.margin": ("(± {n} prosentpoeng)", "(± {n} points)"),
    "review.words.exact": ("(regnet ut nøyaktig)", "(worked out exactly)"),
    "review.words.detail": ("Alle valgene, ett for ett:", "Every choice, one by one:"),
    "review.chart.whisker": ("usikkerheten i anslaget (± to standardfeil)",
                             "the estimate's uncertainty (± two standard errors)"),
    "review.words.choice_open": ("Trekk {n} (fase {phase}): {name} valgte «{played}», men et annet trekk var bedre "
                                 "(flere kan være like gode). Sjansen for å slippe unna falt fra {before} % til "
                                 "{after} % {sure}.",
                                 "Move {n} (phase {phase}): {name} chose \"{played}\", but another move was better "
                                 "(several may be as good). The chance to get away fell from {before}% to {after}% "
                                 "{sure}."),
    "review.luck_model": ("Kortene: etter modellen hadde {name} {p} ± {se} sjanse da fase 2 begynte, med "
                          "hånden og stillingen da (± to ganger modellens målte kalibreringsfeil; "
                          "gjennomsnittet er {base}); rett etter given spår "
                          "modellen ennå ikke bedre enn gjennomsnittet, så selve given blir ikke "
                          "vurdert.",
        "The cards: by the model {name} had a {p} ± {se} chance when phase 2 began, with the hand and "
        "position then (± twice the model's measured calibration error; the average is {base}); right after "
        "the deal the model does not yet predict "
        "better than the average, so the deal itself is not rated."),
    "review.luck_not_shown": ("Kortene: ved et bord som dette skiller ikke modellen hendene fra hverandre bedre enn "
                              "gjennomsnittet da fase 2 begynner, så flaksen blir ikke vist.",
        "The cards: at a table like this the model does not tell hands apart better than the average when "
        "phase 2 begins, so the luck is not shown."),
    "review.words.luck_model": ("Fase 2: etter modellen ga hånden og stillingen {name} hadde da fase "
                                "2 begynte, {p} ± {se} sjanse til å slippe unna (en gjennomsnittlig hånd gir"
                                " {base}). Ta det som en pekepinn.",
        "Phase 2: by the model, the hand and position {name} had when phase 2 began gave a {p} ± {se} chance"
        " to get away (an average hand gives {base}). Take it as a rough guide."),
    "review.words.within": ("{k} av {n} valg var like gode som det beste så langt anslaget kan skille dem, og i snitt "
                            "kostet et valg {cost} ± {se} prosentpoeng.",
                            "{k} of {n} choices were as good as the best as far as the estimate can tell, and a "
                            "choice cost {cost} ± {se} points on average."),
    "review.words.luck": ("Fase 2: hånden og stillingen {name} hadde da fase 2 begynte, ga {p} ± {se}"
                          " sjanse til å slippe unna (en gjennomsnittlig hånd gir {base}): {verdict}.",
        "Phase 2: the hand and position {name} had when phase 2 began gave a {p} ± {se} chance to get"
        " away (an average hand gives {base}): {verdict}."),
    "review.words.luck_good": ("bedre enn snittet", "better than average"),
    "review.words.luck_poor": ("dårligere enn snittet", "worse than average"),
    "review.words.luck_even": ("omtrent som snittet", "about average"),
    "review.words.accuracy": ("Spillet i fase 2: {acc} av 100 ± {se} for {name} (100 er alltid det beste trekket; "
                              "over {n} vurderte valg).",
                              "Play in phase 2: {acc} of 100 ± {se} for {name} (100 is always the best move; over "
                              "{n} judged choices)."),
    "plain.again_analyse": ("Spille igjen? (ja/nei, eller «analyser» for å se spillet ditt gjennomgått)",
                            "Play again? (yes/no, or \"analyse\" to have your game reviewed)"),
    "review.progress": ("Vurderer trekk {done} av {total}", "Judging decision {done} of {total}"),
    "review.no_decisions": ("{name} hadde ingen valg å vurdere.", "{name} had no decisions to judge."),
    # terminal end screen and web page: analyse the finished game
    "analyse.button": ("Analyser spillet", "Analyse the game"),
    "analyse.key": ("Analyser (a)", "Analyse (a)"),
    "analyse.running": ("Analyserer spillet … (Esc avbryter)", "Analysing the game … (Esc cancels)"),
    "analyse.working": ("Analyserer spillet …", "Analysing the game …"),
    "analyse.close": ("Piltastene blar; Esc lukker.", "Arrows scroll; Esc closes."),
    "analyse.deeper": ("Se dypere", "Look deeper"),
    "analyse.deeper_waiting": ("Ser dypere på trekk {n} …", "Looking deeper at move {n} …"),
    "analyse.keys": ("↑↓ blar, ←→ velger trekk, d ser dypere på det, Esc lukker.",
                     "↑↓ scroll, ←→ choose a move, d looks deeper at it, Esc closes."),
    "analyse.deeper_running": ("Ser dypere på trekk {n} ({samples} simulerte spill per lovlige trekk) …",
                               "Looking deeper at move {n} ({samples} playouts per legal move) …"),
    "analyse.deeper_done": ("Sett dypere på: {samples} simulerte spill per lovlige trekk (før: {before}).",
                            "Looked at deeper: {samples} playouts per legal move (before: {before})."),
    "analyse.deeper_failed": ("Kunne ikke se dypere på trekk {n} (en feil i programmet: {kind}: {detail}).",
                              "Could not look deeper at move {n} (a fault in the program: {kind}: {detail})."),
    "analyse.deeper_busy": ("Ser allerede dypere på trekk {n}; vent litt.",
                            "Already looking deeper at move {n}; a moment."),
    "analyse.cancelled": ("Analysen ble avbrutt.", "The analysis was cancelled."),
    "analyse.failed": ("Spillet kunne ikke analyseres (en feil i programmet: {kind}).",
                       "The game could not be analysed (an error in the program: {kind})."),
    "web.refused.no_such_seat": ("det finnes ingen slik plass ved bordet", "there is no such seat at this table"),
    "web.refused.no_such_decision": ("det trekket var ikke et valg for den plassen (bare ett lovlig trekk, eller en "
                                     "annens trekk)",
                                     "that move was not a choice of that seat (one legal move, or another "
                                     "seat's move)"),
    "web.refused.busy": ("for mange analyser venter nå; prøv igjen om litt",
                         "too many reviews are waiting now; try again in a moment"),
    "analyse.queued": ("I kø for analyse: nummer {n}", "Waiting for the analysis: number {n} in the queue"),
    # ---------------------------------------------------------------- web page
    "web.title": ("Mattis", "Mattis"),
    "web.switch_lang": ("Bytt språk", "Switch language"),
    "web.bad_reply": ("Tjeneren sendte et svar som ikke kunne leses", "The server sent an unreadable reply"),
    "web.connecting": ("kobler til…", "connecting…"),
    "web.reconnecting": ("forbindelsen brøt, kobler til igjen…", "connection lost, reconnecting…"),
    "web.not_sent": ("ikke sendt: forbindelsen er borte, kobler til igjen…",
                     "not sent: the connection is down, reconnecting…"),
    "web.not_sent_move": ("ikke sendt: forbindelsen er borte. Trekket sendes når den er tilbake, hvis det fortsatt "
                          "er din tur.", "not sent: the connection is down. Your move is sent when it is back, "
                          "if it is still your turn."),
    "web.resent": ("forbindelsen er tilbake: trekket ditt er sendt", "connection back: your move has been sent"),
    "web.not_sent_released": ("forbindelsen er tilbake, men bordet har gått videre: trekket ble ikke sendt",
                              "connection back, but the table has moved on: your move was not sent"),
    "web.level": ("Botnivå", "Bot level"),
    "web.seat_n": ("Plass {n}", "Seat {n}"),
    "web.seat_friend": ("en venn (invitasjon)", "a friend (invite)"),
    "web.seat_bot": ("en bot", "a bot"),
    "web.bad_override": ("Ikke valg=verdi: {text}", "Not option=value: {text}"),
    "web.new_table": ("Nytt bord", "New table"),
    "web.your_name": ("Navnet ditt", "Your name"),
    "web.overrides": ("Husregler", "House rules"),
    "web.create": ("Lag bordet", "Create table"),
    "web.about_title": ("Slik virker det", "How it works"),
    "web.about": ("Lag et bord, send invitasjonslenken til vennene dine, og start når alle har satt seg. "
                  "Tomme plasser kan fylles med boter. Fase 1: spill om stikk og samle kort. Fase 2: bli kvitt "
                  "kortene du vant. Den som sitter igjen med kort til slutt, er Mattis.",
                  "Create a table, send the invite link to your friends, and start when everyone is seated. "
                  "Empty seats can be filled by bots. Phase 1: fight for cards in tricks. Phase 2: get rid of "
                  "the cards you won. The last one holding cards is Mattis."),
    "web.join_title": ("Bli med ved bordet", "Join the table"),
    "web.join": ("Sett deg", "Take a seat"),
    "web.watch_instead": ("Bare se på", "Just watch"),
    "web.home": ("Tilbake til forsiden", "Back to the start page"),
    "web.bot_tag": ("bot, {level}", "bot, {level}"),
    "web.open_seat": ("ledig plass", "free seat"),
    "web.offline": ("frakoblet", "offline"),
    "web.dealer": ("Giver", "Dealer"),
    "web.dealer_short": ("G", "D"),
    "web.won_cards": ("vunnet {cards} kort i {tricks} stikk", "won {cards} cards in {tricks} tricks"),
    "web.won_cards_one": ("vunnet {cards} kort i ett stikk", "won {cards} cards in one trick"),
    "web.place_n": ("{place}. plass", "place {place}"),
    "web.last_trick_by": ("Siste stikk ({name})", "Last trick ({name})"),
    "web.no_cards": ("Ingen kort på hånden", "No cards in hand"),
    "web.playable": ("kan legges", "playable"),
    "web.play_selected": ("Legg valgte kort", "Play the chosen cards"),
    "web.rematch": ("Omkamp (taperen gir)", "Rematch (the loser deals)"),
    "web.download": ("Last ned partiet", "Download the game record"),
    "web.tally": ("Spill så langt: {games}. Ganger tapt:", "Games so far: {games}. Times lost:"),
    "web.waiting_room": ("Venter på spillere", "Waiting for players"),
    "web.invite_link": ("Invitasjonslenke til venner", "Invite link for friends"),
    "web.watch_link": ("Lenke for tilskuere", "Link for spectators"),
    "web.invite_hint": ("Send invitasjonslenken til vennene som skal spille. Alle som har den, kan ta en ledig "
                        "plass.",
                        "Send the invite link to the friends who should play. Anyone with it can take a free seat."),
    "web.fill_level": ("Fyll ledige plasser med boter på nivå", "Fill free seats with bots of level"),
    "web.start": ("Start spillet", "Start the game"),
    "web.wait_host": ("Venter på at verten starter spillet.", "Waiting for the host to start the game."),
    "web.game_n": ("spill {n}", "game {n}"),
    "web.spectator": ("tilskuer", "spectator"),
    "web.keys_hint": ("Taster: 1-9 velger kort (eller ←/→ og mellomrom), Enter legger de valgte kortene, c sjanse, "
                      "p ta opp, l siste stikk, h hint, Esc fjerner valget.",
                      "Keys: 1-9 pick a card (or ←/→ and Space), Enter plays the chosen cards, c chance, p pick up, "
                      "l last trick, h hint, Esc clears."),
    # -- the hint on the page (mattis.lab.hint, from the seat's own view; the button is btn.hint)
    "web.hint_working": ("Finner et hint …", "Working out a hint…"),
    "web.refused.no_hint": ("ingen hint nå: det er ikke din tur", "no hint now: it is not your turn"),
    "web.refused.hint_busy": ("hintet er på vei; vent på det", "a hint is on its way; wait for it"),
    "web.refused.hint_failed": ("hintet kunne ikke finnes; prøv igjen", "the hint could not be worked out; try again"),
    # -- the web page on a phone: an opponent's known cards behind a tap
    "web.known_n": ("Kjente kort ({n})", "Known cards ({n})"),
    # -- the server's refusals (web.refusal.Refusal), in the language of whoever is refused
    # Absent players, seats across devices, seeing the game, rules at the table, host and lobby.
    "web.grace": ("Når den som står for tur, er borte", "When a player is away on their turn"),
    "web.grace_n": ("en bot spiller etter {n} sekunder", "a bot plays after {n} seconds"),
    "web.grace_never": ("vent på spilleren", "wait for the player"),
    "web.standin": ("borte – en bot spiller for {name}", "away – a bot plays for {name}"),
    "web.offline_grace": ("frakoblet – en bot spiller etter {n} s", "offline – a bot plays after {n} s"),
    "web.takes_trick": ("{name} tar stikket", "{name} takes the trick"),
    "web.takes_trick_you": ("Du tar stikket", "You take the trick"),
    "web.avstikk_by": ("Avstikk: {name} la det siste kortet", "Avstikk (completed trick): {name} laid the last card"),
    "web.avstikk_you": ("Avstikk: du la det siste kortet", "Avstikk (completed trick): you laid the last card"),
    "web.pace": ("Pause etter stikk", "Pause after a trick"),
    "web.pace_s": ("{n} sek", "{n} s"),
    "web.last_action": ("Sist: {text}", "Last: {text}"),
    "web.title_turn": ("Din tur – Mattis", "Your turn – Mattis"),
    "web.my_tables": ("Bordene dine", "Your tables"),
    "web.my_table": ("{rules}, plass {seat}, {when}", "{rules}, seat {seat}, {when}"),
    "web.forget": ("Glem", "Forget"),
    "web.resume_link": ("Din egen lenke til plassen (åpne den på en annen enhet)",
                        "Your own link to this seat (open it on another device)"),
    "web.resume_hint": ("Ikke del den: den som har lenken, spiller for deg.",
                        "Do not share it: whoever has it plays for you."),
    "web.have_seat_hint": ("Har du alt en plass ved bordet? Åpne din egen lenke til plassen (den står nederst på "
                           "siden der du spilte), eller be verten om en ny lenke.",
                           "Already have a seat at this table? Open your own link to it (at the bottom of the page "
                           "where you played), or ask the host for a new link."),
    "web.seat_choice": ("Denne nettleseren sitter alt ved bordet (plass {n}). Lenken er til en plass ved samme bord.",
                        "This browser already sits at this table (seat {n}). "
                        "The link is for a seat at the same table."),
    "web.take_link_seat": ("Ta plassen fra lenken", "Take the link's seat"),
    "web.keep_my_seat": ("Behold plassen min", "Keep my seat"),
    "web.show_qr": ("QR-kode", "QR code"),
    "web.copy": ("Kopier", "Copy"),
    "web.copied": ("Kopiert", "Copied"),
    "web.share": ("Del", "Share"),
    "web.no_table_kept": ("Tjeneren på {host} (database {db}) kjenner ikke dette bordet. Plassnøkkelen din er tatt "
                          "vare på: kanskje tjeneren ble startet med en annen --db (start den med riktig database og "
                          "last inn siden igjen), eller bordet ble ryddet bort etter lang tid uten spill.",
                          "The server at {host} (database {db}) does not know this table. Your seat key is kept: "
                          "perhaps the server was started with another --db (start it with the right database and "
                          "reload the page), or the table was cleared away after a long time unused."),
    "web.rules_page": ("Reglene", "The rules"),
    "web.rules_title": ("Reglene ved dette bordet ({name})", "The rules at this table ({name})"),
    "web.house_rules": ("Husregler", "House rules"),
    "web.house_rules_none": ("ingen – reglene som i {name}", "none – the rules as in {name}"),
    "web.house_rules_hint": ("La stå som det er for å spille etter reglene i {name}.",
                             "Leave as it is to play by the rules of {name}."),
    "web.usual": ("{value} (vanlig i {name})", "{value} (usual in {name})"),
    "web.back_to_table": ("Tilbake til bordet", "Back to the table"),
    "web.host_tools": ("Plassene", "The seats"),
    "web.make_bot": ("La en bot sitte her", "Put a bot here"),
    "web.make_friend": ("Gjør den til en venns plass", "Make it a friend's seat"),
    "web.remove": ("Fjern {name}", "Remove {name}"),
    "web.replace_bot": ("La en bot spille for {name}", "Let a bot play for {name}"),
    "web.reinvite": ("Ny lenke til {name}", "New link for {name}"),
    "web.reinvite_done": ("Ny lenke til {name} (den gamle virker ikke lenger):",
                          "New link for {name} (the old one no longer works):"),
    "web.end_game": ("Avslutt spillet", "End the game"),
    "web.confirm_end": ("Avslutte spillet? Ingen taper det.", "End the game? Nobody loses it."),
    "web.confirm_rematch": ("Et spill til? Taperen gir.", "Another game? The loser deals."),
    "web.confirm_new_game": ("Et nytt spill med samme giver?", "A new game with the same dealer?"),
    "web.you_lose.mattis": ("Du er Mattis!", "You are Mattis!"),
    "web.you_lose.skitgubbe": ("Du er skitgubben!", "You are the skitgubbe!"),
    "web.confirm": ("Ja", "Yes"),
    "web.cancel": ("Avbryt", "Cancel"),
    "web.ended": ("Verten avsluttet spillet. Ingen tapte det.", "The host ended the game. Nobody lost it."),
    "web.new_game": ("Nytt spill", "New game"),
    "web.replay": ("Se spillet igjen", "Replay the game"),
    "web.replay_title": ("Spill {n}, trekk for trekk", "Game {n}, move by move"),
    "web.replay_step": ("Trekk {n} av {total}", "Move {n} of {total}"),
    "web.replay_deal": ("Utdelingen", "The deal"),
    "web.prev": ("Forrige", "Back"),
    "web.replay_prev_trick": ("Ett stikk tilbake", "Previous trick"),
    "web.replay_next_trick": ("Ett stikk fram", "Next trick"),
    "web.replay_play": ("Spill av", "Play"),
    "web.replay_pause": ("Stopp", "Pause"),
    "web.replay_slider": ("Trekk i spillet", "Move in the game"),
    "web.replay_tricks": ("Stikk ferdig: {n}", "Tricks done: {n}"),
    "web.howto": ("Slik spiller du", "How to play"),
    "web.next": ("Neste", "Next"),
    "web.host_away": ("{name} er borte: du kan starte spillet selv.", "{name} is away: you may start the game."),
    "web.refused.bad_grace": ("ventetiden må være fra 1 til {most} sekunder, eller vent alltid",
                              "the wait must be 1 to {most} seconds, or wait always"),
    "web.refused.bad_seat": ("det finnes ingen slik plass som verten kan endre", "no such seat the host can change"),
    "web.refused.no_person": ("det sitter ingen person på den plassen", "no person sits in that seat"),
    "web.refused.bad_qr": ("teksten til QR-koden må være 1 til {most} tegn", "the QR code's text must be 1 to {most} "
                           "characters"),
    "web.refused.name_not_text": ("navnet må være tekst", "the name must be text"),
    "web.refused.no_name": ("skriv inn et navn", "please give a display name"),
    "web.refused.no_preset": ("velg en regelvariant", "choose a preset"),
    "web.refused.bad_overrides": ("husregler må skrives som valg=verdi", "rule overrides must be option=value pairs"),
    "web.refused.bad_rules": ("regler: {detail}", "rules: {detail}"),
    "web.refused.players": ("{rules} er for {lo}-{hi} spillere", "{rules} allows {lo}-{hi} players"),
    "web.refused.seat_count": ("oppgi ett valg for hver plass", "give one seat setting per player"),
    "web.refused.seat_kind": ("plass {n} må være en person eller en bot", "seat {n} must be a person or a bot"),
    "web.refused.bad_level": ("botnivået må være ett av {levels}", "bot level must be one of {levels}"),
    "web.refused.bad_invite": ("denne invitasjonslenken gjelder ikke for dette bordet",
                               "this invite link is not valid for this table"),
    "web.refused.started": ("spillet har allerede startet", "the game has already started"),
    "web.refused.full": ("bordet er fullt", "the table is full"),
    "web.refused.not_host": ("bare verten kan starte spillet", "only the host can start the game"),
    "web.refused.not_host_seat": ("bare verten kan endre plassene", "only the host can change the seats"),
    "web.refused.not_host_end": ("bare verten kan avslutte spillet", "only the host can end the game"),
    "web.refused.still_going": ("spillet er ikke ferdig", "the game is still going"),
    "web.refused.no_rematch": ("det er ikke noe spill å ta omkamp på ennå", "no game to rematch yet"),
    "web.refused.not_started": ("spillet har ikke startet", "the game has not started"),
    "web.refused.move_not_text": ("trekket må sendes som tekst", "the move must be sent as text"),
    "web.refused.stale": ("trekket gjaldt en stilling som allerede er endret (gammelt eller dobbelt)",
                          "that move was sent for a position that has already changed (stale or doubled)"),
    "web.refused.over": ("spillet er over", "the game is over"),
    "web.refused.not_your_turn": ("det er ikke din tur", "it is not your turn"),
    "web.refused.unreadable_move": ("kan ikke lese trekket: {detail}", "cannot read the move: {detail}"),
    "web.refused.too_long": ("meldingen er for lang", "message too long"),
    "web.refused.not_json_message": ("ikke en JSON-melding", "not a JSON message"),
    "web.refused.not_json_object": ("ikke et JSON-objekt", "not a JSON object"),
    "web.refused.send_json": ("send forespørselen som JSON", "send JSON"),
    "web.refused.bad_json": ("ugyldig JSON", "not valid JSON"),
    "web.refused.spectator": ("tilskuere kan ikke spille", "spectators cannot play"),
    "web.refused.other_seat": ("du kan bare spille for din egen plass", "you can only act for your own seat"),
    "web.refused.unknown_request": ("ukjent forespørsel", "unknown request"),
    # the guard (web.guard): limits on hosts, sizes and rates
    "web.refused.bad_host": ("denne tjeneren svarer ikke på det navnet (start den med --allowed-host NAVN)",
                             "this server does not answer to that name (start it with --allowed-host NAME)"),
    "web.refused.slow_down": ("for mange forespørsler; vent litt og prøv igjen",
                              "too many requests; wait a moment and try again"),
    "web.refused.too_many_tables": ("for mange nye bord herfra; vent en stund og prøv igjen",
                                    "too many new tables from your address; wait a while and try again"),
    "web.refused.server_full": ("tjeneren har for mange bord nå; prøv igjen senere",
                                "the server holds too many tables now; try again later"),
    "web.refused.too_big": ("forespørselen er for stor", "the request is too large"),
    "web.refused.too_slow": ("forespørselen kom for langsomt", "the request arrived too slowly"),
    "web.refused.not_saved": ("tjeneren klarte ikke å lagre det; prøv igjen",
                              "the server could not save that; try again"),
    "web.refused.seed_not_allowed": ("faste stokkinger er bare for testtjenere",
                                     "seeded deals are only for test servers"),
    "web.refused.no_table": ("det finnes ikke noe slikt bord", "there is no such table"),
    "web.refused.bad_token": ("denne plassnøkkelen gjelder ikke ved dette bordet",
                              "this seat token is not valid at this table"),
    "web.refused.no_record": ("det finnes ikke noe ferdig spill med det nummeret ved dette bordet",
                              "no finished game with that number at this table"),
    # a terminal seat at a web table (mattis join, tui.remote)
    "join.welcome": ("mattis join: {rules}, {players} spillere; du sitter på plass {seat}. Kom tilbake til "
                     "plassen med: mattis join '{link}'",
                     "mattis join: {rules}, {players} players; you sit in seat {seat}. Come back to the seat "
                     "with: mattis join '{link}'"),
    "join.lost_seat": ("verten har gitt plassen din til en annen eller en bot; du er ikke lenger ved bordet",
                       "the host gave your seat to someone else or a bot; you are no longer at the table"),
    "join.given_away": ("Verten har gitt plassen din ({name}) til en bot, som spiller for deg nå. Vil du spille "
                        "selv igjen, be verten trykke «Gi plassen tilbake til {name}» i nettleseren, og bli med "
                        "igjen med den samme lenken (mattis join).",
                        "The host has given your seat ({name}) to a bot, which plays for you now. To play yourself "
                        "again, ask the host to press \u201cGive the seat back to {name}\u201d in the browser, and "
                        "join again with the same link (mattis join)."),
    "join.help": ("Skriv hjelp for å få hjelp.", "Type help for help."),
    "join.lobby": ("Du har fått plass ved bordet. Verten starter spillet.",
                   "You have a seat at the table. The host starts the game."),
    "join.dropped": ("Forbindelsen til bordet brøt; kobler til igjen …",
                     "The connection to the table dropped; connecting again …"),
    "join.back": ("Tilbake ved bordet.", "Back at the table."),
    "join.played_for_you": ("Mens du var borte, spilte en bot {n} trekk for deg. Nå spiller du selv igjen.",
                            "While you were away, a bot played {n} moves for you. Now you play again."),
    "join.again": ("Spille igjen ved bordet? (j/n)", "Play again at the table? (y/n)"),
    "join.bye": ("Du har forlatt bordet; når du er i tur, spiller en bot for deg etter bordets ventetid. "
                 "Kom tilbake med: mattis join '{link}'",
                 "You left the table; on your turns a bot plays for you after the table's waiting time. "
                 "Come back with: mattis join '{link}'"),
    "join.no_take_back": ("Ved et nettbord kan ingen trekk tas tilbake: de andre har sett det.",
                          "At a web table no move can be taken back: the others have seen it."),
    "join.no_stats": ("Spill ved et nettbord telles ikke i statistikken din.",
                      "Games at a web table are not counted in your statistics."),
    "join.no_analyse": ("Gjennomgangen av et spill ved et nettbord finner du på bordets side i nettleseren.",
                        "The review of a game at a web table is on the table's page in the browser."),
    "join.no_settings": ("Innstillingene gjelder spill mot botene på denne maskinen; bordet har sine egne regler.",
                         "The settings are for games against the bots on this machine; the table has its own rules."),
    "join.keys.quit": ("q forlat bordet", "q leave the table"),
    "join.bad_link": ("ikke en lenke til et bord: {url} (bruk invitasjonslenken …/t/BORD?invite=… eller "
                      "lenken til plassen din …/t/BORD#seat=…)",
                      "not a link to a table: {url} (use the invite link …/t/TABLE?invite=… or your seat's "
                      "link …/t/TABLE#seat=…)"),
    "join.unreachable": ("får ikke kontakt med {url}: {why}", "cannot reach {url}: {why}"),
    "join.refused": ("bordet tar deg ikke inn: {why}", "the table does not let you in: {why}"),
    "join.gone": ("{url} har ikke svart på {n} forsøk på rad ({why}); når serveren er oppe igjen, kommer du "
                  "tilbake til plassen din med {link}",
                  "{url} has not answered {n} tries in a row ({why}); when the server is up again, come back to "
                  "your seat with {link}"),
    # -- the web table's turn clock, heartbeat and host controls (nudge, skip, pause, give back)
    "web.clock": ("Tenketid", "Turn clock"),
    "web.clock_off": ("av", "off"),
    "web.clock_s": ("{n} sek", "{n} s"),
    "web.clock_min": ("{n} min", "{n} min"),
    "web.clock_hint": ("Renner tiden ut, tar en bot det ene trekket; plassen er fortsatt din.",
                       "If the time runs out, a bot plays that one turn; the seat stays yours."),
    "web.timer.clock": ("{name} har {s} sek igjen", "{name} has {s} s left"),
    "web.timer.clock_you": ("Du har {s} sek igjen", "You have {s} s left"),
    "web.timer.grace": ("{name} er borte – en bot spiller om {s} sek", "{name} is away – a bot plays in {s} s"),
    "web.timer.host": ("Verten er borte – alle kan starte om {s} sek", "The host is away – anyone may start in {s} s"),
    "web.timer.paused": ("(står stille)", "(stopped)"),
    "web.paused": ("Spillet står på pause", "The game is paused"),
    "web.paused_hint": ("Ingen trekk, ingen klokke og ingen bot før verten fortsetter.",
                        "No moves, no clock and no bots until the host resumes."),
    "web.pause": ("Sett på pause", "Pause"),
    "web.resume": ("Fortsett", "Resume"),
    "web.nudge": ("Puff {name}", "Nudge {name}"),
    "web.nudged": ("{name} har fått et puff.", "{name} has been nudged."),
    "web.nudge_got": ("{by} minner deg på at det er din tur!", "{by} reminds you it is your turn!"),
    "web.skip": ("La en bot ta dette trekket for {name}", "Let a bot play this turn for {name}"),
    "web.covered": ("tiden rant ut – en bot tar dette trekket", "time ran out – a bot plays this turn"),
    "web.give_back": ("Gi plassen tilbake til {name}", "Give the seat back to {name}"),
    # -- who played a move: a bot for a person (her clock ran out, the host skipped her turn, she
    # was away, or the host gave her seat to a bot); the move without the name, then the reason
    "moved.bot": ("Bot for {name}: {move} ({why})", "Bot for {name}: {move} ({why})"),
    "moved.bot_you": ("Bot for deg: {move} ({why})", "Bot for you: {move} ({why})"),
    "botmove.play": ("{card}", "{card}"),
    "botmove.pickup": ("tar opp {cards}", "picks up {cards}"),
    "botmove.chance": ("sjanser", "takes a chance"),
    "botmove.chance_turns": ("sjanser og snur {card}", "takes a chance and turns up {card}"),
    "botwhy.clock": ("tiden gikk ut", "time ran out"),
    "botwhy.host": ("verten hoppet over turen", "the host skipped the turn"),
    "botwhy.away": ("borte", "away"),
    "botwhy.given": ("verten ga plassen til en bot", "the host gave the seat to a bot"),
    "web.covered_host": ("verten hoppet over turen – en bot tar dette trekket",
                         "the host skipped the turn – a bot plays this turn"),
    "web.bot_last": ("forrige trekk: bot ({why})", "last move: bot ({why})"),
    "web.given_away": ("Verten har gitt plassen din ({name}) til en bot, som spiller for deg nå. Du ser spillet "
                       "som tilskuer. Vil du spille selv igjen, be verten trykke «Gi plassen tilbake til {name}» – "
                       "da er plassen din her igjen, uten å laste siden på nytt.",
                       "The host has given your seat ({name}) to a bot, which plays for you now. You are watching "
                       "as a spectator. To play yourself again, ask the host to press \u201cGive the seat back to "
                       "{name}\u201d – your seat is then yours again here, without reloading the page."),
    "review.bot_moves": ("{n} av trekkene ble spilt av en bot for {name}: {list}.",
                         "{n} of the moves were played by a bot for {name}: {list}."),
    "review.bot_move": ("trekk {n} ({why})", "move {n} ({why})"),
    "review.bot_line": ("(spilt av en bot: {why})", "(played by a bot: {why})"),
    "web.sound": ("Lyd", "Sound"),
    "web.sound_hint": ("en tone når det er din tur og når et stikk tas",
                       "a tone on your turn and when a trick is taken"),
    "web.react": ("Reaksjon", "React"),
    "web.reacted": ("{name}: {emote}", "{name}: {emote}"),
    "web.refused.bad_reaction": ("ukjent reaksjon", "unknown reaction"),
    "web.refused.react_slow": ("vent litt før du sender en ny reaksjon",
                               "wait a moment before sending another reaction"),
    "web.refused.chat_empty": ("skriv noe før du sender", "write something before sending"),
    "web.refused.chat_long": ("meldingen er for lang: høyst {most} tegn",
                              "that line is too long: at most {most} characters"),
    "web.refused.chat_slow": ("du skriver fort – vent {s} sek før neste melding",
                              "you are writing fast – wait {s} s before the next line"),
    "web.refused.chat_muted": ("verten har slått av praten din ved dette bordet",
                               "the host has muted your chat at this table"),
    "web.refused.chat_spectator": ("tilskuere kan lese praten, men ikke skrive",
                                   "spectators can read the chat but not write"),
    "web.refused.chat_offline": ("det er ingen prat i appen uten nett: her er det bare du og botene",
                                 "there is no chat in the offline app: it is just you and the bots"),
    "web.refused.not_host_mute": ("bare verten kan slå av praten til en spiller", "only the host can mute a player"),
    "web.refused.muted_already": ("praten til den spilleren er allerede slått av", "that player is already muted"),
    "web.refused.not_muted": ("praten til den spilleren er ikke slått av", "that player is not muted"),
    "web.refused.bad_bank": ("tidsbanken må være ingen, 30 sek eller 60 sek, og bare med tenketid",
                             "the time bank must be none, 30 s or 60 s, and only with a turn clock"),
    "web.chat": ("Prat", "Chat"),
    "web.chat_open": ("Prat ({n} nye)", "Chat ({n} new)"),
    "web.chat_open_one": ("Prat (1 ny)", "Chat (1 new)"),
    "web.chat_send": ("Send", "Send"),
    "web.chat_placeholder": ("Skriv en melding …", "Write a message …"),
    "web.chat_nothing": ("Ingen har sagt noe ennå.", "Nobody has said anything yet."),
    "web.chat_close": ("Lukk praten", "Close the chat"),
    "web.chat_muted": ("Verten har slått av praten for {name}.", "The host has muted {name}."),
    "web.chat_unmuted": ("Verten har slått på praten for {name} igjen.", "The host has unmuted {name}."),
    "web.chat_muted_you": ("Verten har slått av praten din ved dette bordet: du kan lese, men ikke skrive.",
                           "The host has muted you at this table: you can read the chat but not write."),
    "web.chat_spectator": ("Du ser på: du kan lese praten, men ikke skrive.",
                           "You are watching: you can read the chat but not write."),
    "web.chat_mute": ("Slå av praten", "Mute chat"),
    "web.chat_unmute": ("Slå på praten", "Unmute chat"),
    "web.bank": ("Tidsbank", "Time bank"),
    "web.bank_none": ("ingen", "none"),
    "web.bank_s": ("+{n} sek per spill", "+{n} s a game"),
    "web.bank_hint": ("Når tenketiden renner ut, brukes tidsbanken først; den er full igjen hvert spill.",
                      "When the turn clock runs out the time bank is spent first; it is full again each game."),
    "web.bank_left": ("tidsbank {s} sek", "time bank {s} s"),
    "web.timer.bank_you": ("Du bruker tidsbanken: {s} sek igjen", "You are using your time bank: {s} s left"),
    "web.timer.bank": ("{name} bruker tidsbanken: {s} sek igjen", "{name} is using the time bank: {s} s left"),
    "web.timer.bank_after": ("(+{s} sek i tidsbanken)", "(+{s} s in the time bank)"),
    "web.refused.bad_clock": ("tenketiden må være av, 30 sek, 60 sek eller 2 min",
                              "the turn clock must be off, 30 s, 60 s or 2 min"),
    "web.refused.bad_pause": ("si om spillet skal stå på pause eller fortsette", "say whether to pause or resume"),
    "web.refused.paused": ("spillet står på pause; verten kan la det fortsette",
                           "the game is paused; the host can resume it"),
    "web.refused.paused_already": ("spillet står allerede på pause", "the game is already paused"),
    "web.refused.not_paused": ("spillet står ikke på pause", "the game is not paused"),
    "web.refused.not_host_pause": ("bare verten kan sette spillet på pause", "only the host can pause the game"),
    "web.refused.not_host_skip": ("bare verten kan la en bot ta et trekk for en annen",
                                  "only the host can let a bot play someone's turn"),
    "web.refused.not_host_nudge": ("bare verten kan puffe en spiller", "only the host can nudge a player"),
    "web.refused.no_one_to_skip": ("det er ingen person i tur nå, så det er ikke noe trekk å hoppe over",
                                   "no person is to act now, so there is no turn to skip"),
    "web.refused.no_one_to_nudge": ("det er ingen annen person i tur nå å puffe",
                                    "no other person is to act now to nudge"),
    "web.refused.nudged_already": ("spilleren har allerede fått et puff for dette trekket",
                                   "that player has already been nudged this turn"),
    "web.refused.no_one_to_give_back": ("det er ingen person å gi den plassen tilbake til",
                                        "there is no person to give that seat back to"),
    # A message field of the wrong type (mattis.web.messages): the field, then the message's type.
    "web.refused.not_int": ("«{field}» i en «{message}»-melding må være et heltall",
                            "\"{field}\" in a \"{message}\" message must be a whole number"),
    "web.refused.not_text": ("«{field}» i en «{message}»-melding må være tekst",
                             "\"{field}\" in a \"{message}\" message must be text"),
    "web.refused.not_flag": ("«{field}» i en «{message}»-melding må være true eller false",
                             "\"{field}\" in a \"{message}\" message must be true or false"),
    "web.refused.not_texts": ("«{field}» i en «{message}»-melding må være en liste med tekster",
                              "\"{field}\" in a \"{message}\" message must be a list of texts"),
    # The offline app (mattis build-web: the table in the browser, engine and bots in a Web Worker).
    "solo.loading": ("Laster inn spillet (Python i nettleseren, omtrent 15 MB første gang; deretter fra enheten)…",
                     "Loading the game (Python in the browser, about 15 MB the first time; then from this device)…"),
    "solo.load_failed": ("Spillet kunne ikke lastes: {detail}. Last inn siden på nytt med nett tilkoblet; "
                         "virker det fortsatt ikke, bruk en nyere nettleser (Chrome, Firefox eller Safari).",
                         "The game could not be loaded: {detail}. Reload the page while online; if it still "
                         "fails, use a recent browser (Chrome, Firefox or Safari)."),
    "solo.ready_offline": ("Klar: spillet virker nå uten nett.", "Ready: the game now works offline."),
    "solo.damaged": ("Dette lagrede spillet er skadet og kan ikke åpnes. De andre spillene dine er i behold.",
                     "This saved game is damaged and cannot be opened. Your other games are kept."),
    "solo.no_review": ("Analysen er ikke med i frakoblet modus ennå: last ned partiet og kjør mattis analyze.",
                       "The review is not in the offline app yet: download the record and run mattis analyze."),
    "solo.no_such": ("Det finnes ikke i frakoblet modus.", "That is not in the offline app."),
    "solo.takeback": ("Angre trekk", "Take back"),
    "solo.bots_only": ("Frakoblet spiller du mot boter: de andre plassene er boter.",
                       "Offline you play against bots: the other seats are bots."),
}
