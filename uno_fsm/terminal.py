"""`uno-fsm play`: one person against bots in the terminal.

The game is the engine's: the moves offered are `Game.legal_actions`, a refused move is the
engine's typed error (with the rule it enforces), every event printed carries its rule ID and
`why` quotes that rule and its clauses (uno_spec.lookup). This module only presents them:
coloured cards (rich; plain text when NO_COLOR is set or the output is not a terminal), seat
names that are not card codes ("You", "Bot 1"...), a Wild chosen in two steps (the card, then
the colour), and the help, legend, scores and names a player wants.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from rich.console import Console
from rich.text import Text

from uno_fsm.actions import Action, Event
from uno_fsm.bots import BOTS, Bot, bot_actions, decides
from uno_fsm.cards import (
    COLOR_NAMES,
    Card,
    Face,
    color_letter,
    full_name,
    parse,
    parse_face,
)
from uno_fsm.errors import CardNotationError, IllegalAction
from uno_fsm.rules.wild_draw import LEGAL_RULES
from uno_fsm.view import face_key
from uno_spec import notation as N

if TYPE_CHECKING:
    from uno_fsm.game import Game

STYLES: dict[str | None, str] = {
    "R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue",
    "P": "bold magenta", "T": "bold cyan", "O": "bold dark_orange", "V": "bold purple",
    None: "bold reverse",  # a Wild
}
# a seat in an engine message (`P2 holds no R5`), never a card code (a pink 2 is also P2)
SEAT_IN_MESSAGE = re.compile(r"(?<![/\w])P(\d+) (may|chooses|owes|cannot|is|holds)\b")
YOU_VERBS = {"chooses": "choose", "owes": "owe", "is": "are", "holds": "hold"}
QUIT = ("q", "quit", "exit")
INTRO = ("Type the number of a move, or a card code (R5 is a red 5, W4 a Wild Draw Four); "
         "`help` explains the codes and commands, `why` the last rule applied, q quits.")
HINT = "type a number from the list, a card code (R5, W4 green, R7 uno), `draw`, or `help`"
NUMBER = re.compile(r"[+-]?[0-9]{1,9}")  # a number typed (ASCII digits: `²` is not one)


def number(text: str) -> int | None:
    """The number typed, or None when the text is not one (`²`, `1.5`, a 5000-digit one is
    said to be out of range: `huge`)."""
    if NUMBER.fullmatch(text):
        return int(text)
    return HUGE if re.fullmatch(r"[+-]?[0-9]+", text) else None


HUGE = 10 ** 9  # any number of more digits than NUMBER takes: out of every range


def clip(text: str, limit: int = 12) -> str:
    """What the player typed, as the answer repeats it: at most `limit` characters."""
    return text if len(text) <= limit else text[:limit] + "..."


def out_of_range(text: str, low: int, high: int) -> str:
    """`9 is not in the list: type a number from 1 to 5`."""
    return f"{clip(text)} is not in the list: type a number from {low} to {high}"


class Mistyped(Exception):  # noqa: N818 - a message to the player, not a failure
    """A move typed in a form the game does not read: what to type instead."""


def legend() -> str:
    """The card codes, explained (built from the notation: uno_spec.notation, the variants'
    cards included)."""
    colours = ", ".join(f"{k} {v}" for k, v in COLOR_NAMES.items())
    every = N.kinds()
    ranks = ", ".join(f"{k.rank} {k.name}" for k in every if not k.wild)
    wilds = ", ".join(f"{k.rank} {k.name}" for k in every if k.wild)
    return (f"Card codes: a colour letter then a rank: R5 is a red 5, GS a green Skip.\n"
            f"  colours: {colours} (the last four on the dark side of UNO Flip)\n"
            f"  ranks: 0-9 numbers, {ranks}\n"
            f"  Wilds have no colour letter: {wilds}")


HELP = """Commands:
  a number        the move of that number in the list
  R5, W4 green    a card by its code (a Wild's colour may follow; add `uno` to call UNO)
  draw            draw a card
  why             the rule behind the last thing that happened, with the rulebook's words
  names           full card names on or off (red 5 instead of R5)
  scores          the scores so far
  legend          the card codes
  help            this text
  q               quit"""


@dataclass
class Choice:
    """One entry of the move list: the legal actions it stands for (a Wild's colours, with or
    without calling UNO), chosen further in steps."""

    actions: list[Action]

    @property
    def first(self) -> Action:
        return self.actions[0]


@dataclass
class Table:
    """The game as one person at it sees and plays it."""

    game: Game
    me: int
    bot: Bot
    rng: random.Random
    inp: TextIO
    out: TextIO
    console: Console = field(init=False)
    long_names: bool = False
    last: tuple[str, str] | None = None  # (what happened, rule ID) for `why`
    colour_before: str | None = None  # the colour in force before the last Wild Draw card
    _index: Any = None

    names: dict[int, str] | None = None  # the bots' names by seat (default Bot 1, Bot 2...)
    heading: str | None = None  # what the table line calls the deal (default Round N)
    # a hand of a match (uno_fsm.terminal_match): `scores` shows these lines (the match's
    # tally) instead of the game's scores, and the game's end is not told (the schedule ends
    # the match, PARTNERS.ROTATION.HAND)
    match_lines: Callable[[], list[str]] | None = None

    def __post_init__(self) -> None:
        self.console = make_console(self.out)

    # ---- names -----------------------------------------------------------------------
    def name(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        if seat == self.me:
            return "You"
        if self.names is not None and seat in self.names:
            return self.names[seat]
        return f"Bot {seat + 1 if seat < self.me else seat}"  # the bots in seat order

    def whose(self, seat: int | None) -> str:
        return "your" if seat == self.me else f"{self.name(seat)}'s"

    @property
    def flip(self) -> bool:
        return self.game.params.game == "flip"

    def face(self, card: Card, side: str | None = None) -> Face:
        """The face of `card` a player sees: the side in play (FL.INFO.NO-PEEK)."""
        return card.face(side or self.game.state.side)

    def card(self, f: Face) -> Text:
        return Text(full_name(f) if self.long_names else f.text, style=STYLES.get(f.color, ""))

    def cards(self, faces: Iterable[Face]) -> Text:
        return Text(" ").join(self.card(f) for f in faces)

    def colour(self, letter: str | None) -> Text:
        if letter is None:
            return Text("-")
        return Text(COLOR_NAMES[letter], style=STYLES[letter])

    def say(self, *parts: str | Text, rule: str = "") -> None:
        line = Text("  ").append_text(Text.assemble(*parts))
        if rule:
            line.append(f"  [{rule}]", style="dim")
        self.console.print(line)

    # ---- the table -------------------------------------------------------------------
    def show(self) -> None:
        """The table as `me` sees it (the player's view: FL.INFO.* for UNO Flip)."""
        g, st = self.game, self.game.state
        view = g.view(self.me)
        top = parse_face(view["top"]) if view["top"] else None
        self.console.print()
        head = Text.assemble(f"{self.heading or f'Round {st.round}'} ", ("| top: ", "dim"),
                             self.card(top) if top else "-", ("  colour: ", "dim"),
                             self.colour(st.active_color), ("  direction: ", "dim"),
                             view["direction"], ("  draw pile: ", "dim"), str(len(st.draw)))
        if self.flip:
            head.append_text(Text.assemble(("  side: ", "dim"), st.side))
        self.console.print(head)
        out = st.eliminated  # DESAFIO.ELIMINATED-OUT: no cards, no turns
        sizes = Text("  ").join(Text(f"{self.name(s)}: {'out' if s in out else n}")
                                for s, n in view["hand_sizes"].items())
        self.console.print(Text.assemble(("cards held: ", "dim"), sizes))
        if "backs" in view:  # FL.INFO.OPPONENT-BACKS: the other hands' inactive faces
            backs = Text("  ").join(
                Text.assemble(f"{self.name(s)}: ", self.cards(parse_face(t) for t in b))
                for s, b in view["backs"].items())
            back = view["draw_back"]
            self.console.print(Text.assemble(
                ("their backs: ", "dim"), backs, ("  draw pile back: ", "dim"),
                self.card(parse_face(back)) if back else "-"))
        side = f" ({st.side} side)" if self.flip else ""
        self.console.print(Text.assemble(f"your hand{side}: ",
                                         self.cards(parse_face(t) for t in view["hand"])))

    def scoreboard(self, title: str) -> None:
        g = self.game
        target = g.params.target
        goal = f" (first to {target} wins)" if target else ""
        # DESAFIO.ELIMINATE: what a player holds counts against them
        if g.params.method == "elimination":
            goal = f" (a player reaching {target} is eliminated; the last one left wins)"
        self.console.print(Text(f"{title}{goal}:", style="bold"))
        # FLALT.OWN-HAND, DESAFIO.SCORE: the lowest total is the best
        low = g.params.method in ("own-hand-lowest-wins", "elimination")
        for seat, score in sorted(enumerate(g.scores), key=lambda s: s[1] if low else -s[1]):
            out = "  eliminated" if seat in g.state.eliminated else ""
            self.console.print(f"  {self.name(seat):7} {score:4}{out}")

    # ---- events ----------------------------------------------------------------------
    def tell(self, events: list[Event], side: str, before: Game | None = None) -> None:
        """Narrate `events`; `side` is the side in play before them (a played card shows the
        face it was played by; a Flip turns the side for what follows)."""
        for ev in events:
            if ev.kind == "flipped":
                side = "dark" if side == "light" else "light"
            if ev.kind == "game-over" and self.match_lines is not None:
                continue
            parts = self.words(ev, side)
            if parts is None:
                continue
            self.say(*parts, rule=ev.rule)
            if ev.rule:
                self.last = (Text.assemble(*parts).plain, ev.rule)

    def words(self, ev: Event, side: str) -> tuple[str | Text, ...] | None:
        n = self.name(ev.player)
        me = ev.player == self.me
        card = self.card(self.face(ev.card, side)) if ev.card is not None else Text("")
        k = ev.kind
        if k == "played":
            wild = ev.card is not None and self.face(ev.card, side).is_wild
            named = (" and name", "s" if not me else "", " ", self.colour(ev.color)) \
                if wild and ev.color else ()
            return (f"{n} play{'' if me else 's'} ", card, *named)
        if k == "drew":
            if me:  # one's own drawn cards, by the face in play, in classic and Flip alike
                return ("You draw ", self.cards(self.face(c, side) for c in ev.cards))
            return (f"{n} draws {ev.count} card{'s' if ev.count != 1 else ''}",)
        if k == "shown":
            if ev.count == self.me:  # CL.WD4.CHALLENGE.SHOW: to the challenger only
                return (f"{n} shows you their hand: ",
                        self.cards(self.face(c, side) for c in ev.cards))
            return (f"{n} show{'' if me else 's'} {'your' if me else 'their'} hand to "
                    f"{self.name(ev.count)}",)
        simple = {
            "skipped": f"{n} {'are' if me else 'is'} skipped",
            "reversed": "The direction of play is reversed",
            "passed": f"{n} keep{'' if me else 's'} the drawn card",
            "uno": f"{n} call{'' if me else 's'} UNO!",
            "caught": f"{self.name(ev.count)} catch{'' if ev.count == self.me else 'es'} "
                      f"{'you' if me else n} without UNO",
            "went-out": f"{n} go{'' if me else 'es'} out and score{'' if me else 's'} "
                        f"{ev.count} points",
            "game-over": f"{n} win{'' if me else 's'} the game",
            "hands-shuffled": "All hands are shuffled together and dealt again",
            "hands-rotated": "Every hand passes on in the direction of play",
            "hands-swapped": f"{n} swap{'' if me else 's'} hands with "
                             f"{'you' if ev.count == self.me else self.name(ev.count)}",
            "reshuffled": f"The discard pile ({ev.count} cards) is shuffled into a new draw pile",
            "exhausted": "No card is left to draw (the draw pile and the discards are empty)",
            "skipped-everyone": f"{n} skip{'' if me else 's'} everyone and play"
                                f"{'' if me else 's'} again",
            "dealt": f"{n} deal{'' if me else 's'} {ev.count} cards each",
            "dealer": f"{n} {'are' if me else 'is'} the dealer",
            "jumped-in": f"{n} jump{'' if me else 's'} in",
        }
        # DESAFIO.SCORE: nothing to score
        if k == "went-out" and self.game.params.method == "elimination":
            return (f"{n} go{'' if me else 'es'} out",)
        if k == "eliminated":  # DESAFIO.ELIMINATE
            return (f"{n} {'are' if me else 'is'} eliminated with {ev.count} points",)
        if k in simple:
            return (simple[k],)
        if k == "color":
            return (f"{n} name{'' if me else 's'} ", self.colour(ev.color))
        if k == "flipped":
            return ("The deck flips to its ", side, " side: the top is now ", card)
        if k == "first-card":
            return ("First card: ", card)
        if k == "stacked":
            return (f"{n} stack{'' if me else 's'} ", card,
                    f": the next player owes {ev.count} cards")
        return (f"{k} {n}",)

    def why(self) -> None:
        """The rule behind the last event (or refusal), with its quoted clauses."""
        if self.last is None:
            self.console.print("  Nothing has happened yet.")
            return
        from uno_spec import sitelinks
        from uno_spec.lookup import Index, UnknownRule, find_rule

        what, rule_id = self.last
        if self._index is None:
            self._index = Index.load()
        self.console.print(Text(f"  {what}", style="bold"))
        try:
            rule = find_rule(self._index, rule_id)
        except UnknownRule:
            self.console.print(f"  rule {rule_id} (no text in the specification)")
            return
        site = sitelinks.base()  # each rule and clause's place in the rulebook site
        self.console.print(f"  {rule.id}: {' '.join(rule.statement.split())}")
        self.console.print(f"    site: {site}{sitelinks.rule_path(rule.id, rule.area)}",
                           markup=False, soft_wrap=True)
        for cid in rule.cites:  # the rulebooks' words (`uno-fsm rules show` adds the files)
            clause = self._index.clauses.get(cid)
            if clause is None:
                continue
            src = self._index.sources.get(clause.source)
            self.console.print(f"  {cid}, {src.title if src else clause.source}:")
            self.console.print(f"    > {' '.join(clause.text.split())}")
            if clause.en:
                self.console.print(f"    en: {' '.join(clause.en.split())}")
            self.console.print(f"    site: {site}{sitelinks.clause_path(cid)}", markup=False,
                               soft_wrap=True)

    # ---- the human's moves -----------------------------------------------------------
    def choices(self) -> list[Choice]:
        """The legal actions of `me`, one entry per card (and colour step) or move."""
        side = self.game.state.side
        groups: dict[tuple[Any, ...], Choice] = {}
        for a in self.game.legal_actions(self.me):
            # in Flip, cards alike on the side in play are one move to their holder
            key = (a.kind, None if a.card is None else self.face(a.card, side).text, a.target)
            got = groups.get(key)
            if got is None:
                groups[key] = Choice([a])
            elif self.flip and a.card is not got.first.card:
                continue
            else:
                got.actions.append(a)
        # the cards in the order of the hand (by colour, Wilds last), the other moves after
        return sorted(groups.values(), key=self._order)

    def _order(self, c: Choice) -> tuple[int, tuple[int, str]]:
        card = c.first.card
        return (1, (0, "")) if card is None else (0, face_key(self.face(card).text))

    def label(self, c: Choice) -> Text:
        a = c.first
        k = a.kind
        if k == "play":
            assert a.card is not None
            f = self.face(a.card)
            extra = " (then choose a colour)" if any(x.color for x in c.actions) and \
                not any(x.color is None for x in c.actions) else ""
            return Text.assemble("play ", self.card(f), extra)
        return Text({
            "draw": "draw a card",
            "pass": "keep the drawn card",
            "color": f"name the colour {COLOR_NAMES.get(a.color or '', '')}",
            "challenge": f"challenge {self.whose(self.game.state.challenge_by)} Wild Draw card",
            "accept": "accept it and draw",
            "swap": f"swap your hand with {self.name(a.target)}",
            "uno": "call UNO now",
            "catch": f"catch {self.name(a.target)} (they did not call UNO)",
        }.get(k, str(a)))

    def explain(self) -> None:
        """A line on the decision before the list, when it needs one."""
        g, st = self.game, self.game.state
        pending = g.pending
        mine = pending is not None and pending.player == self.me
        kinds = {a.kind for a in g.legal_actions(self.me)}
        if "uno" in kinds:
            self.say("You have one card left and did not call UNO with your play. Call it now, "
                     "before anyone catches you, or let it go.", rule="CL.UNO.CALL-LATE")
        if "catch" in kinds:
            w = st.uno_window
            self.say(f"{self.name(w)} has one card left and did not call UNO: catch them and "
                     f"they draw {g.params.uno_penalty}.", rule="CL.UNO.CATCH")
        if mine and pending is not None and pending.decision == "challenge":
            self.say(*self.challenge_hint(), rule=LEGAL_RULES.get(
                self.face(st.discard[-1]).kind, "CL.WD4.CHALLENGE.DECISION"))
        elif mine and pending is not None and pending.decision == "play-drawn":
            self.say("You may play the card you drew, or keep it.", rule="CL.DRAW.PLAY-DRAWN")

    def challenge_hint(self) -> tuple[str | Text, ...]:
        """The challenge decision in the rulebooks' words (CL.WD4.LEGAL, CL.WD4.LEGAL-OTHER-
        MATCHES; FL.LIGHT.W2.LEGAL, FL.DARK.WDC.LEGAL): the card may be played only by a player
        holding no card of the colour on the pile before it; other colours matching its number
        or symbol, and Wilds, do not count."""
        st = self.game.state
        top = self.face(st.discard[-1])
        who = self.name(st.challenge_by)
        colour = self.colour_before
        if colour is None:
            pile = "the colour on the pile"
            held = "a card of that colour"
        else:
            pile = f"the colour on the pile ({COLOR_NAMES[colour]})"
            held = f"a {COLOR_NAMES[colour]} card"
        return (f"{who} played ", self.card(top),
                f" on you. A {full_name(top)} may be played only by a player holding no card "
                f"of {pile}; cards of other colours matching its number or symbol, and Wilds, "
                f"do not count. Challenge it if you think {who} held {held}: if so they draw, "
                "if not you draw more.")

    def ask(self, prompt: str = "> ") -> str | None:
        """One line typed, stripped; None at the end of input."""
        self.console.print(prompt, end="")
        self.out.flush()
        line = self.inp.readline()
        return None if not line else line.strip()

    def pick(self, title: str, options: list[tuple[Text | str, Any]],
             words: dict[str, Any] | None = None) -> Any:
        """A numbered follow-up question; the chosen value, or QUIT, or None (end of input)."""
        while True:
            self.console.print(f"  {title}")
            for i, (label, _) in enumerate(options, 1):
                self.console.print(Text.assemble(f"  {i:2}. ", label))
            text = self.ask("  > ")
            if text is None:
                return None
            if text.lower() in QUIT:
                return QUIT
            n = number(text)
            if n is not None and 1 <= n <= len(options):
                return options[n - 1][1]
            if words and text.lower() in words:
                return words[text.lower()]
            if n is not None:
                self.console.print(f"  ? {out_of_range(text, 1, len(options))}")
            else:
                self.console.print(f"  ? {text!r} is not one of these: type its number, from 1 "
                                   f"to {len(options)}")

    def settle(self, c: Choice, colour: str | None = None, uno: bool | None = None) -> Any:
        """The one action of `c`: ask for the colour of a Wild, then whether to call UNO."""
        acts = c.actions
        if any(a.color is None for a in acts):  # no colour to name (a last card, not a Wild)
            acts = [a for a in acts if a.color is None]
        colours = list(dict.fromkeys(a.color for a in acts if a.color))
        if colour is not None and colours and colour not in colours:
            # a colour this Wild may not name now (CL.WILD.MUST-CHANGE: the colour in force):
            # the move as typed, for the engine to refuse in words with its rule
            card = acts[0].card
            assert card is not None  # a Wild's play
            return Action.play(self.me, card, colour, bool(uno))
        if len(colours) > 1:
            if colour is None:
                colour = self.pick("Which colour?", [(self.colour(x), x) for x in colours],
                                   {COLOR_NAMES[x]: x for x in colours}
                                   | {x.lower(): x for x in colours})
                if colour is None or colour == QUIT:
                    return colour
            acts = [a for a in acts if a.color == colour]
        if len({a.uno for a in acts}) > 1:
            if uno is None:
                uno = self.pick("You will hold one card: call UNO as you play it?",
                                [("call UNO", True), ("do not call UNO", False)],
                                {"y": True, "yes": True, "uno": True, "n": False, "no": False})
                if uno is None or uno == QUIT:
                    return uno
            acts = [a for a in acts if a.uno == uno]
        return acts[0]

    def typed(self, text: str, options: list[Choice]) -> Any:
        """A move typed as a card (`R5`, `W4 green`, `R7 uno`) or `draw`: the matching entry
        of the list, completed in steps; else the action as typed, for the engine to judge
        (it refuses an illegal one and names the rule). None: not a move."""
        words = text.split()
        if words[0].lower() == "draw":
            if len(words) > 1:  # `draw 2`: the number of cards is the rules', not the player's
                raise Mistyped(f"`draw` takes nothing after it ({clip(' '.join(words[1:]))!r}"
                               "): type draw")
            return Action.draw(self.me)
        try:
            face = parse_face(words[0].upper())
        except CardNotationError:
            return None
        colours = []
        for w in words[1:]:
            if w.lower() == "uno":
                continue
            try:
                colours.append(color_letter(w.lower()))
            except CardNotationError:
                raise Mistyped(f"{clip(w)!r} is neither a colour nor `uno`: type "
                               f"{self.form(face)}") from None
        if len(colours) > 1:
            raise Mistyped(f"name one colour, not {len(colours)}: type {self.form(face)}")
        if colours and not face.is_wild:  # `Y3 green`: a colour the card does not take
            raise Mistyped(f"{face.text} is not a Wild and takes no colour: type "
                           f"{self.form(face)}")
        if sum(w.lower() == "uno" for w in words[1:]) > 1:
            raise Mistyped(f"say `uno` once: type {self.form(face)}")
        colour = colours[0] if colours else None
        uno = True if "uno" in (w.lower() for w in words[1:]) else None
        for c in options:
            a = c.first
            if a.kind == "play" and a.card is not None and self.face(a.card) is face:
                return self.settle(c, colour, uno)
        st = self.game.state
        held = [c for c in st.hands[self.me] if self.face(c) is face]
        if held:
            card: Card | None = held[0]
        elif not self.flip:
            card = parse(face.text)
        else:  # a Flip face the player does not hold: a card showing it, for the engine
            pool = (*st.draw, *st.discard, *(c for h in st.hands for c in h))
            card = next((c for c in pool if self.face(c) is face), None)
        if card is None:
            return None
        return Action.play(self.me, card, colour, bool(uno))

    def form(self, f: Face) -> str:
        """How a card is typed: `Y3, or Y3 uno to call UNO with it`; `W4 and a colour (red,
        yellow, green or blue), and uno to call UNO with it`."""
        if f.is_wild:
            names = [COLOR_NAMES[c] for c in self.game.wild_colors()]
            listed = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else \
                "".join(names)
            return f"{f.text} and a colour ({listed}), and uno to call UNO with it"
        return f"{f.text}, or {f.text} uno to call UNO with it"

    def decide(self) -> Any:
        """The human's next action, QUIT, None (end of input) or "let-go" (a window left)."""
        g = self.game
        pending = g.pending
        my_turn = pending is not None and pending.player == self.me
        self.show()
        self.explain()
        options = self.choices()
        while True:
            for i, c in enumerate(options, 1):
                self.console.print(Text.assemble(f"  {i:2}. ", self.label(c)))
            if not my_turn:
                self.console.print("   0. let it go")
            text = self.ask()
            if text is None:
                return None
            low = text.lower()
            if low in QUIT:
                return QUIT
            if low in ("help", "?", "h"):
                self.console.print(HELP)
                self.console.print(legend())
                continue
            if low == "legend":
                self.console.print(legend())
                continue
            if low == "why":
                self.why()
                continue
            if low == "scores":
                if self.match_lines is not None:
                    for line in self.match_lines():
                        self.console.print(line)
                else:
                    self.scoreboard("Scores")
                continue
            if low == "names":
                self.long_names = not self.long_names
                self.console.print(f"  full card names {'on' if self.long_names else 'off'}")
                self.show()
                continue
            n = number(text)
            if n == 0 and not my_turn:
                return "let-go"
            if n is not None and 1 <= n <= len(options):
                return self.settle(options[n - 1])
            if n is not None:
                low_n = 0 if not my_turn else 1
                self.console.print(f"  ? {out_of_range(text, low_n, len(options))}")
                continue
            try:
                got = self.typed(text, options) if text else None
            except Mistyped as exc:
                self.console.print(f"  ? {exc}")
                continue
            if got is not None:
                return got
            self.console.print(f"  ? {text!r} is not a move here: {HINT}")

    # ---- one step of the game --------------------------------------------------------
    def apply(self, action: Action) -> bool:
        """Apply `action` and narrate it; False (and the engine's reason) if it is refused."""
        g, st = self.game, self.game.state
        side = st.side
        challenged = st.challenge_by
        colour = st.active_color
        try:
            events = g.apply(action)
        except IllegalAction as exc:  # the engine's typed error, with the rule it enforces
            why = SEAT_IN_MESSAGE.sub(self._seat_words, exc.message)
            self.say(f"Refused: {why}", rule=exc.rule)
            self.last = (f"Refused: {why}", exc.rule)
            return False
        if g.pending is not None and g.pending.decision == "challenge":
            self.colour_before = colour  # what the challenge judges the Wild Draw card by
        if action.kind == "challenge":  # who challenged whom
            verb = "challenge" if action.player == self.me else "challenges"
            self.say(f"{self.name(action.player)} {verb} {self.whose(challenged)} Wild Draw card",
                     rule="CL.WD4.CHALLENGE.DECISION")
        self.tell(events, side)
        return True

    def _seat_words(self, m: re.Match[str]) -> str:
        seat, verb = int(m[1]), m[2]
        if seat == self.me:
            return f"You {YOU_VERBS.get(verb, verb)}"
        return f"{self.name(seat)} {verb}"

    def bot_step(self) -> None:
        """Let one bot move (never on the human's behalf)."""
        actions = bot_actions(self.game, (self.me,))
        if actions:
            self.apply(self.bot(self.game, actions, self.rng))

    def next_round(self) -> bool:
        """The scores, then the next deal; False if the engine refuses it (a set-up whose
        cards cannot be dealt again: RUL.SETUP.UNRESOLVABLE)."""
        g = self.game
        self.scoreboard(f"Scores after round {g.state.round}")
        self.console.print(Text(f"\nRound {g.state.round + 1}", style="bold"))
        return self.apply(next(a for a in g.legal_actions() if a.kind == "next-round"))


def make_console(out: TextIO) -> Console:
    """The console every line of `play` goes through: NO_COLOR (no-color.org) set and not
    empty, or an output that is not a terminal, is plain text."""
    plain = bool(os.environ.get("NO_COLOR"))
    return Console(file=out, highlight=False, markup=False, emoji=False, soft_wrap=True,
                   color_system=None if plain else "auto")


def run(t: Table, max_bot_moves: int, what: str = "game") -> int | None:
    """The interactive loop: the person decides whenever they may (`decides`), the bots move
    otherwise, until the game is over, or with `what="match"` until the hand is over (a hand
    of a match: uno_fsm.match). None when it got there; else the exit status: 0 the person
    quit, 1 the bots never handed over or the next round could not be dealt, 2 end of input
    (one line on stderr)."""
    import sys

    game, me, c = t.game, t.me, t.console
    bot_moves = 0  # the bots' moves since the human's last decision
    while not (game.round_over if what == "match" else game.is_over):
        if bot_moves >= max_bot_moves:
            # bounded (docs/robustness.md, "Engine"): random bots could in principle pass the
            # turn among themselves for ever; a game is not worth more moves than this
            c.print(f"\nThe bots made {max_bot_moves} moves without you; the {what} is stopped.")
            return 1
        if game.round_over:
            if not t.next_round():
                c.print("The next round cannot be dealt; the game is stopped.")
                return 1
            continue
        if decides(game, me):
            bot_moves = 0
            got = t.decide()
            if got is None:  # end of input before the game ended
                print(f"uno-fsm play: end of input before the {what} ended (type q to quit)",
                      file=sys.stderr)
                return 2
            if got == QUIT:
                c.print("\nbye")
                return 0
            if got == "let-go":
                t.bot_step()
            else:
                t.apply(got)
            continue
        t.bot_step()
        bot_moves += 1
    return None


def play(game: Game, me: int, bots: str, seed: int, inp: TextIO, out: TextIO,
         max_bot_moves: int) -> int:
    """Run the game; the exit status (0 the game ended or the player quit, 1 the bots never
    handed over or the next round could not be dealt, 2 end of input)."""
    t = Table(game, me, BOTS[bots], random.Random(seed + 1), inp, out)
    c = t.console
    c.print(Text(f"UNO ({game.params.ruleset}), {game.state.players} players, {bots} bots, "
                 f"seed {seed}. You are seat {me}.", style="bold"))
    c.print(INTRO)
    t.tell(game.setup_events, game.state.side)
    code = run(t, max_bot_moves)
    if code is not None:
        return code
    winners: list[int | None] = list(game.winners) or [game.winner]
    c.print()
    t.scoreboard("Final scores")
    c.print(Text(f"Game over: {' and '.join(t.name(w) for w in winners)} "
                 f"win{'' if winners == [me] or len(winners) > 1 else 's'}.", style="bold"))
    return 0
