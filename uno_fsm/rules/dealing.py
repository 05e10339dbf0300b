"""Dealing a hand: the dealer, the shuffle, the deal and the first card turned.

Rules: CL.DEALER.* (choosing the dealer), CL.DEAL.* (the deal), CL.FIRST.* / CL22.FIRST.* /
CL18.FIRST-CARD / FL.FIRST.* (the ruleset's `first_card` policy), FL.SETUP.* (every hand
starts light), CL.END.NEW-HAND (the next hand); a variant's card turned first follows the
policy key its declaration names (CL18.FIRST-CARD, V.SWAP.FIRST-CARD).
"""

from __future__ import annotations

from mypy_extensions import trait

from uno_fsm import errors as E
from uno_fsm.actions import Action, Event
from uno_fsm.cards import Card, first_card_key
from uno_fsm.deck import build_deck
from uno_fsm.phase_table import DEALING
from uno_fsm.rules.core import Core
from uno_fsm.state import CLOCKWISE, COUNTERCLOCKWISE, State

# CL.FIRST.WD4, CL22.FIRST.IGNORE, FL.FIRST.WILD-DRAW-TWO: policies after which another card is
# turned; CL.FIRST.UNRESOLVABLE: a first card needs a card of another policy in the draw pile
RETURN = "return-shuffle-and-turn-again"
TURN_AGAIN = frozenset({RETURN, "ignore-and-turn-again"})
FIRST_CARD_TURNS = 64  # turns per card in the draw pile before the first-card loop gives up
DEALER_DRAWS = 10_000  # rounds of the dealer draw before it gives up (CL.DEALER.UNRESOLVABLE)


@trait
class DealingRules(Core):

    def deal_round(self, action: Action | None = None) -> None:
        """CL.END.NEW-HAND: gather every card, choose a dealer, shuffle, deal, turn a card."""
        st = self.st
        # CL.FIRST.UNRESOLVABLE, CL.DEALER.UNRESOLVABLE: a refused deal leaves the state
        # unchanged; the snapshot is only taken when the deck might not start a hand
        saved = None if self.surely_starts(st.all_cards()) else st.to_dict()
        st.round += 1
        try:
            self.start_round(None)
        except E.UnresolvableSetup:
            if saved is not None:
                st.assign(State.from_dict(saved))
            raise

    def surely_starts(self, cards: list[Card]) -> bool:
        """Whether a hand dealt from `cards` starts whatever the shuffle: the dealer draw can
        choose (CL.DEALER.UNRESOLVABLE) and more cards than the deal takes can stand as the
        first card, so one is left in the draw pile (CL.FIRST.UNRESOLVABLE). A real deck
        always does (108 cards, 4 returned); a toy deck may not."""
        p, n = self.p, self.seated()
        if not cards:
            return False  # the ruleset's deck is built: decided when it is dealt
        if p.dealer == "high-card":
            if len(cards) < n or len({dealer_value(c) for c in cards}) < 2:
                return False
        dealt = min(len(cards), max(p.hand_size, 0) * n)
        # the light faces: the next hand starts light (FL.SETUP.START-LIGHT)
        stand = sum(1 for c in cards if self.policy_of(c.light.kind) not in TURN_AGAIN)
        return stand > dealt

    def start_round(self, dealer: int | None, ordered: bool = False) -> None:
        """Deal a hand: dealer (unless given), shuffle, deal, first card. Ends in `dealing`.

        `ordered`: the draw pile is the deck in a given order (a scenario's `start: game`), and
        the dealer draw takes its cards from the top of it, in seat order."""
        self.deal(dealer, ordered)
        self.turn_first_card()  # CL22.FIRST.EVERY-HAND: every hand, not only the first

    def deal(self, dealer: int | None, ordered: bool = False) -> None:
        """The first part of `start_round`: the dealer chosen, the cards shuffled and dealt,
        the first card not turned yet."""
        st, p = self.st, self.p
        n = st.players
        cards = (list(st.draw) if ordered else st.all_cards()) or build_deck(p)
        st.hands = [[] for _ in range(n)]
        st.discard = []
        st.draw = cards
        st.direction = CLOCKWISE  # CL.PLAY.DIRECTION-START
        # FL.SETUP.START-LIGHT, FL.SETUP.ORIENT (RUL.FLIP.NEXT-ROUND): every hand starts light;
        # faces follow the side, so the gathered cards are all turned the same way
        st.side = "light"
        st.winners = []
        st.drawn = None
        st.uno_window = None
        st.challenge_by = None
        st.challenge_legal = True
        st.stack = 0
        st.first_color = False
        st.round_winner = None
        st.active_color = None
        st.shown = {}
        if dealer is None:  # CL.DEALER.EACH-HAND
            dealer = self.choose_dealer(cards, ordered)
        st.dealer = dealer
        st.rng.shuffle(st.draw)  # CL.DEALER.RETURN: the whole deck is shuffled before dealing
        # CL.DEAL.SEVEN, one at a time from the dealer's left. Bounded by the cards: a toy deck
        # from a scenario may run out (the deal stops there, whatever `hand_size` says).
        # DESAFIO.ELIMINATED-OUT: the eliminated are dealt nothing
        order = [s for s in ((dealer + i) % n for i in range(1, n + 1)) if s in self.seats()]
        for _ in range(p.hand_size):
            if not st.draw:
                break
            for seat in order:
                if st.draw:
                    st.hands[seat].append(st.draw.pop())
        # CL.DEAL.DRAW-PILE: the rest is the draw pile
        self.events.append(Event("dealt", dealer, count=p.hand_size, rule="CL.DEAL.SEVEN"))

    def choose_dealer(self, cards: list[Card], ordered: bool = False) -> int:
        """The dealer by the ruleset's method. `ordered`: `cards` is the deck top last, and the
        players draw from its top (docs/contracts.md, `start: game`); otherwise from a
        shuffled copy. Only the tied players draw again, in seat order, from the next cards."""
        st, p = self.st, self.p
        seats = self.seats()  # DESAFIO.ELIMINATED-OUT, RUL.DESAFIO.DEALER: those in play
        n = len(seats)
        if p.dealer != "high-card":
            # CL22.DEALER.RANDOM
            dealer = seats[st.rng.randrange(n)]
            self.events.append(Event("dealer", dealer, rule="CL22.DEALER.RANDOM"))
            return dealer
        # CL.DEALER.HIGHEST, CL.DEALER.ACTION-ZERO, CL18.DEALER-ZERO, CL.DEALER.TIES;
        # FL.SETUP.DEALER, FL.SETUP.DEALER-TIE: light faces (a round starts on the light side)
        # CL.DEALER.UNRESOLVABLE (RUL.SETUP.UNRESOLVABLE): each player draws a card, and a tie
        # breaks only if two cards count differently; otherwise refused before any draw.
        # Bounded: with two values each round of k >= 2 tied players leaves fewer with a
        # probability > 0 (a fresh pile is the whole deck, shuffled), so DEALER_DRAWS rounds
        # bound the loop; reaching them raises the same error.
        value = dealer_value
        if len(cards) < n or len({value(c) for c in cards}) < 2:
            why = (f"{len(cards)} cards for {n} players" if len(cards) < n
                   else "every card of the deck counts the same")
            raise E.UnresolvableSetup(f"dealer draw: {why}: no highest card",
                                      "CL.DEALER.UNRESOLVABLE")
        pile = list(cards)
        if not ordered:
            st.rng.shuffle(pile)
        contenders = list(seats)
        for _ in range(DEALER_DRAWS):
            if len(pile) < len(contenders):
                pile = list(cards)
                st.rng.shuffle(pile)
            values = {seat: value(pile.pop()) for seat in contenders}
            best = max(values.values())
            contenders = [s for s in contenders if values[s] == best]
            if len(contenders) == 1:
                self.events.append(Event("dealer", contenders[0], rule="CL.DEALER.HIGHEST"))
                return contenders[0]
        raise E.UnresolvableSetup(f"dealer draw: still tied after {DEALER_DRAWS} rounds",
                                  "CL.DEALER.UNRESOLVABLE")

    def first_policy(self, card: Card) -> str:
        """The ruleset's first-card policy for `card` turned first (its face in play: light, as
        a hand starts light, FL.SETUP.FIRST-DISCARD)."""
        return self.policy_of(self.face(card).kind)

    def policy_of(self, kind: str) -> str:
        """The first-card policy of a face `kind`; a variant's card follows the policy key its
        declaration names (`cards` in spec/rulesets: CL18.FIRST-CARD, V.SWAP.FIRST-CARD,
        RUL.SWAP.FIRST-CARD, `special_wild`, as a plain Wild: the card's own effect is not
        played); a kind the ruleset does not name has no effect (`none`)."""
        first = self.p.first_card
        policy = first.get(kind)
        if policy is None:
            key = first_card_key(kind)
            if key is not None:
                policy = first.get(key)
        return policy or "none"

    def turn_first_card(self) -> None:
        """CL.DEAL.FIRST-DISCARD and the ruleset's first-card policy; ends in `dealing`.

        Bounded (docs/robustness.md, "Engine"), CL.FIRST.UNRESOLVABLE (RUL.SETUP.UNRESOLVABLE):
        before anything is turned, a draw pile that is empty, or that holds no card that can
        start the hand but some card the policy returns, is refused (`unresolvable-setup`).
        Otherwise either a stopping card is in the draw pile and stays there until turned
        (ignored cards leave the pile, returned ones go back: a "return" turn draws a stopping
        card with probability >= 1 / len(draw)), or every card is ignored and the pile runs
        out after len(draw) turns (CL22.FIRST.IGNORE: the last one stays on top, the turning
        stops short as any draw does, RUL.RESHUFFLE.BOTH-EMPTY). The loop is cut at
        FIRST_CARD_TURNS turns per card (chance of reaching it with a startable pile below
        e^-64) with the same error."""
        st, p = self.st, self.p
        policies = {self.first_policy(c) for c in st.draw}
        if not st.draw or (policies <= TURN_AGAIN and RETURN in policies):
            rule = "CL.DEAL.FIRST-DISCARD" if not st.draw else "CL.FIRST.UNRESOLVABLE"
            what = "no card" if not st.draw else (
                "only cards the first-card rule turns again (" +
                " ".join(sorted({c.text for c in st.draw})) + ")")
            raise E.UnresolvableSetup(f"the draw pile holds {what}: no first card can be "
                                      "turned", rule)
        left = self.left(st.dealer)  # CL.SEAT.LEFT, CL.DEAL.FIRST-PLAYER
        st.current = left
        st.phase = DEALING
        for _ in range(FIRST_CARD_TURNS * len(st.draw)):
            if not st.draw:
                return  # CL22.FIRST.IGNORE: every card was ignored; the last one stays on top
            card = st.draw.pop()
            st.discard.append(card)
            f = self.face(card)
            st.active_color = f.color
            policy = self.first_policy(card)
            self.events.append(Event("first-card", None, card, rule="CL.DEAL.FIRST-DISCARD"))
            # FL.SETUP.FIRST-DISCARD: turned light face up (the side is light); FL.FIRST.*
            # per the ruleset's first_card (FL.FIRST.ACTION-SEE-CARD)
            # CL.FIRST.NUMBER, CL22.FIRST.LEFT-PLAYS; FL.FIRST.NUMBER, FL.FIRST.FLIP
            # (RUL.FLIP.FIRST-CARD.FLIP: a Flip card turned first has no effect);
            # GUIDE.FIRST.COLOUR-ONLY (RUL.FIRST-CARD.GUIDE-ACTION: classic-guide's Skip,
            # Reverse and Draw Two turned first only set the colour)
            if policy == "none":
                return
            if policy == "skip-first-player":  # CL.FIRST.SKIP, FL.FIRST.SKIP
                st.current = self.left(left)
                return
            if policy == "dealer-starts-reversed":  # CL.FIRST.REVERSE, FL.FIRST.REVERSE
                st.direction = COUNTERCLOCKWISE
                st.current = st.dealer
                return
            if policy == "first-player-draws-and-is-skipped":  # CL.FIRST.D2, FL.FIRST.DRAW-ONE
                self.give(left, p.draws.get(f.kind, 0),
                          "FL.FIRST.DRAW-ONE" if f.kind == "draw1" else "CL.FIRST.D2")
                st.current = self.left(left)
                return
            # CL.FIRST.WILD, CL18.FIRST-CARD, FL.FIRST.WILD (RUL.FLIP.FIRST-CARD.WILD)
            if policy == "first-player-chooses-color":
                st.first_color = True
                return
            # CL.FIRST.WD4, CL.FIRST.REPEAT; FL.FIRST.WILD-DRAW-TWO (RUL.FLIP.FIRST-CARD.W2);
            # GUIDE.FIRST.WILD-BACK (RUL.FIRST-CARD.WILD: classic-guide returns every Wild)
            if policy == RETURN:
                st.discard.pop()
                st.draw.append(card)
                st.rng.shuffle(st.draw)
                continue
            if policy == "ignore-and-turn-again":  # CL22.FIRST.IGNORE, CL22.FIRST.STAYS
                continue
            raise NotImplementedError(f"first-card policy {policy!r}")
        raise E.UnresolvableSetup(  # CL.FIRST.UNRESOLVABLE: the bound above (never seen)
            f"no first card after {FIRST_CARD_TURNS} turns per card", "CL.FIRST.UNRESOLVABLE")

    # ---- the colour of a Wild turned first ------------------------------------------
    def first_card_color(self, action: Action | None = None) -> bool:
        """CL.FIRST.WILD: a Wild turned first awaits its colour."""
        return self.st.first_color

    def color_first(self, action: Action | None = None) -> None:
        """CL.FIRST.WILD: the player left of the dealer names the colour, then plays."""
        a = action
        assert a is not None
        st = self.st
        st.active_color = a.color
        st.first_color = False
        self.events.append(Event("color", st.current, color=a.color, rule="CL.FIRST.WILD"))


def dealer_value(card: Card) -> int:
    """CL.DEALER.HIGHEST, CL.DEALER.ACTION-ZERO, FL.SETUP.DEALER: what a card counts in the
    dealer draw: the number of its light face (a hand starts light), zero for a symbol."""
    number = card.light.number
    return number if number is not None else 0

