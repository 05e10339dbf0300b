#!/usr/bin/env node
// uno-conformance/2 over stdio for the npm package `uno-engine` (the implementation under test).
//
//   npm ci --prefix conformance/adapters/uno-engine
//   uno-fsm conformance run --adapter stdio:'node conformance/adapters/uno-engine/adapter.mjs' \
//       --implementation uno-engine
//
// The adapter only translates: every legality decision is uno-engine's own (`Game.play`,
// `Game.pass`, `Card.matches`, the `Card.color` setter), whose thrown messages are mapped to the
// protocol's error codes. The bridging decisions are described, with uno-engine's deviations, in
// conformance/implementations/uno-engine.yaml (`decisions`); each place in the code that makes
// one names it: `// decision: <key>`.
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
// The CommonJS build (package.json "main"): the same one `require('uno-engine')` gives a user.
const uno = require("uno-engine");
const ENGINE_VERSION = require("uno-engine/package.json").version;
const { Game, Card, Color, Value } = uno;

const PROTOCOL = "uno-conformance/2";
const ACCEPTED = [PROTOCOL, "uno-conformance/1"];
const RULESETS = ["classic-official"];
// Only what uno-engine's code implements (dist/uno-engine.cjs.js, class Game):
// play/draw/pass, Skip, Reverse (a Skip with two players), Draw Two, Wild, Wild Draw Four,
// Game.uno() for a call and a catch, Deck.draw's answer to an exhausted pile, the hand's score
// in the `end` event. Not declared: wd4-challenge (no challenge: Game.play draws four at once;
// the victim's acceptance is answered as done, see wd4-accept-is-done),
// first-card and deal (no dealer: Game.newGame deals seven random cards and picks a random first
// player, so no dealt position can be given to it), game-start, views, referee-penalties,
// cards-2018, Flip, every variant (house rules: the bundle ships none).
const FEATURES = ["basic-play", "draw-then-play", "action-cards", "wild", "wd4", "uno-call",
  "uno-catch", "reshuffle", "scoring", "two-player"];
// Not declared: discard_size and total_cards (uno-engine keeps the top card only, no discard
// pile), side, dealer, views, card_counts.
// legal_actions: uno-engine has no list of legal moves; the adapter lists what `act` takes, each
// judged by the engine's own checks (`legalActions`).
const OBSERVATIONS = ["hands", "hand_sizes", "top", "active_color", "current", "pending",
  "direction", "draw_size", "scores", "round_over", "game_over", "winner", "legal_actions"];

const COLOR_OF_LETTER = { R: Color.RED, Y: Color.YELLOW, G: Color.GREEN, B: Color.BLUE };
const LETTER_OF_COLOR = { [Color.RED]: "R", [Color.YELLOW]: "Y", [Color.GREEN]: "G",
  [Color.BLUE]: "B" };
const COLOR_OF_NAME = { red: Color.RED, yellow: Color.YELLOW, green: Color.GREEN,
  blue: Color.BLUE };
const NAME_OF_COLOR = { [Color.RED]: "red", [Color.YELLOW]: "yellow", [Color.GREEN]: "green",
  [Color.BLUE]: "blue" };
const SYMBOL_VALUE = { S: Value.SKIP, R: Value.REVERSE, D2: Value.DRAW_TWO };
const VALUE_SYMBOL = { [Value.SKIP]: "S", [Value.REVERSE]: "R", [Value.DRAW_TWO]: "D2" };
const CLOCKWISE = 1; // uno-engine's GameDirection.CLOCKWISE (the enum is not exported)
const COUNTER_CLOCKWISE = 2;

class AdapterError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}
const unsupported = (message) => new AdapterError("unsupported", message);
const badRequest = (message) => new AdapterError("bad-request", message);

/** Our notation -> {value, color} of uno-engine (color undefined for Wilds); null if not a
 * classic card uno-engine has. */
function parseCard(text) {
  const t = String(text).trim().toUpperCase();
  if (t === "W") return { value: Value.WILD, color: undefined };
  if (t === "W4") return { value: Value.WILD_DRAW_FOUR, color: undefined };
  const m = /^([RYGB])([0-9]|S|R|D2)$/.exec(t);
  if (!m) return null;
  const value = /^[0-9]$/.test(m[2]) ? Number(m[2]) : SYMBOL_VALUE[m[2]];
  return { value, color: COLOR_OF_LETTER[m[1]] };
}

/** A uno-engine Card -> our notation (a Wild's colour is not part of it). */
function cardText(card) {
  if (card === undefined || card === null) return null; // the engine can hand out `undefined`
  if (card.value === Value.WILD) return "W";
  if (card.value === Value.WILD_DRAW_FOUR) return "W4";
  const letter = LETTER_OF_COLOR[card.color] ?? "?";
  return letter + (card.value <= 9 ? String(card.value) : VALUE_SYMBOL[card.value]);
}

function makeCard(text) {
  const parsed = parseCard(text);
  if (parsed === null) throw unsupported(`card ${JSON.stringify(text)}: uno-engine has no such card`);
  return new Card(parsed.value, parsed.color);
}

/** mulberry32: a small seeded generator standing in for the global Math.random. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return function random() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ERROR_MESSAGES = [ // decision: engine-messages
  [/does not have card/, "card-not-in-hand", "CL.PLAY.TURN-OPTIONS"],
  [/does not match/, "card-does-not-match", "CL.PLAY.MATCH"],
  [/must have its color set/, "color-required", "CL.WILD.COLOUR"],
  [/must be a value from Color enum/, "invalid-color", "CL.WILD.FOUR-COLOURS"],
  [/must draw at least one card before passing/, "wrong-decision", "CL.PLAY.TURN-OPTIONS"],
];

function engineRejection(exc) {
  const message = exc && exc.message ? exc.message : String(exc);
  for (const [pattern, code, rule] of ERROR_MESSAGES) {
    if (pattern.test(message)) return { code, rule, message: `uno-engine: ${message}` };
  }
  throw new AdapterError("internal-error", `uno-engine threw: ${message}`);
}

export class UnoEngineAdapter {
  constructor() {
    this.game = null;
    this.n = 0;
    this.ended = null; // {winner: seat, score} once the engine's `end` event fired
    this.wd4Victim = null; // the seat a Wild Draw Four hit with the last accepted action
    this.hit = null; // the seat the action being handled hit with a Wild Draw Four
    this.placeholder = null; // a last Wild the adapter gave the placeholder colour
  }

  hello() {
    return {
      protocol: PROTOCOL, name: "uno-engine", version: ENGINE_VERSION, pipelining: true,
      rulesets: [...RULESETS], features: [...FEATURES], observations: [...OBSERVATIONS],
      players: { min: 2, max: 10 }, // Game(players) takes any list; this adapter builds 2 to 10
    };
  }

  player(seat) {
    return this.game.getPlayer(String(seat)); // decision: seats-as-names
  }

  seatOf(player) {
    return Number(player.name);
  }

  setup(params) {
    const { ruleset, setup } = params ?? {};
    if (typeof ruleset !== "string" || setup === null || typeof setup !== "object") {
      throw badRequest("setup needs a ruleset name and a setup object");
    }
    if (!RULESETS.includes(ruleset)) {
      throw unsupported(`ruleset ${ruleset}: uno-engine plays one classic rule set`);
    }
    const start = setup.start ?? "turn";
    if (start !== "turn") {
      // decision: no-dealer
      throw unsupported(`start: ${start}: uno-engine has no dealer; Game.newGame picks the first `
        + "player at random, so a first player following from the dealer cannot be set up");
    }
    if (setup.side !== undefined && setup.side !== "light") throw unsupported("no Flip side");
    const scores = setup.scores ?? {};
    if (Object.values(scores).some((v) => Number(v) !== 0)) { // decision: scores-one-hand
      throw unsupported("uno-engine keeps no running scores");
    }
    const n = Number(setup.players);
    if (!Number.isInteger(n) || n < 2 || n > 10) throw badRequest(`players: ${setup.players}`);
    const draw = setup.draw ?? [];
    if (draw.length === 0) { // decision: empty-draw-pile
      throw unsupported("an empty draw pile: uno-engine's Deck regenerates itself when its last "
        + "card is drawn, so it never holds zero cards");
    }
    const discard = setup.discard ?? [];
    if (discard.length === 0) throw badRequest("start: turn needs a discard pile");
    // Build every card before touching the engine, so that an unknown card changes nothing.
    const hands = [];
    for (let s = 0; s < n; s++) hands.push((setup.hands?.[String(s)] ?? []).map(makeCard));
    const drawCards = draw.map(makeCard);
    const top = makeCard(discard[discard.length - 1]); // decision: discard-top-only
    const active = setup.active_color;
    if (top.isWildCard()) {
      if (!(active in COLOR_OF_NAME)) throw badRequest("a Wild on top needs active_color");
      top.color = COLOR_OF_NAME[active];
    } else if (active !== undefined && COLOR_OF_NAME[active] !== top.color) {
      // decision: active-colour-is-card-colour
      throw unsupported(`active_color ${active} on ${discard[discard.length - 1]}: the colour in `
        + "force is the top card's colour in uno-engine");
    }
    const direction = setup.direction ?? "clockwise";
    if (direction !== "clockwise" && direction !== "counterclockwise") {
      throw badRequest(`direction: ${direction}`);
    }
    const current = Number(setup.current);
    if (!Number.isInteger(current) || current < 0 || current >= n) {
      throw badRequest(`current: ${setup.current}`);
    }
    const seed = Number(params.seed ?? 0);
    Math.random = mulberry32(Number.isFinite(seed) ? seed : 0); // decision: seeded-math-random

    const names = Array.from({ length: n }, (_, s) => String(s));
    const game = new Game(names); // deals a random game: overwritten below
    this.game = game;
    this.n = n;
    this.ended = null;
    this.wd4Victim = null;
    this.placeholder = null;
    game.on("end", (event) => { // decision: end-event
      if (this.ended === null) this.ended = { winner: this.seatOf(event.winner), score: event.score };
    });
    // decision: position-injection
    for (let s = 0; s < n; s++) this.player(s).hand = hands[s];
    game.discardedCard = top;
    const pile = game.drawPile.shuffle; // shuffle's Deck: draw() pops from the end
    pile.cards = drawCards.slice().reverse();
    pile.length = pile.cards.length;
    if (direction === "counterclockwise") game.playingDirection = COUNTER_CLOCKWISE;
    game.currentPlayer = this.player(current);
    game.drawn = false;
    // decision: setup-no-open-window
    game.yellers = Object.fromEntries(names.filter((_, s) => hands[s].length === 1)
      .map((name) => [name, true]));
    return {};
  }

  act(action) {
    if (this.game === null) throw badRequest("act before setup");
    if (action === null || typeof action !== "object") {
      return { code: "malformed-action", message: `not an action: ${JSON.stringify(action)}` };
    }
    if (action.challenge === false && Object.keys(action).length === 2
        && this.wd4Victim !== null && action.player === this.wd4Victim) {
      this.wd4Victim = null; // decision: wd4-accept-is-done
      return null;
    }
    this.hit = null;
    const rejection = this.dispatch(action);
    if (rejection === null) this.wd4Victim = this.hit;
    return rejection;
  }

  dispatch(action) {
    for (const key of ["challenge", "swap", "referee", "next_round"]) { // decision: unsupported-actions
      if (key in action) throw unsupported(`${key}: uno-engine has no such action`);
    }
    const seat = action.player;
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.n) {
      return { code: "malformed-action", message: `bad player ${JSON.stringify(seat)}` };
    }
    const player = this.player(seat);
    if ("play" in action) return this.play(player, action);
    if (action.draw === true) return this.draw(player);
    if (action.pass === true) return this.pass(player);
    if ("catch" in action) return this.catch(player, action.catch);
    if (action.uno === true) {
      this.game.uno(player);
      return null;
    }
    if ("color" in action) throw unsupported("a colour answered alone: uno-engine has no colour decision");
    return { code: "malformed-action", message: `no action in ${JSON.stringify(action)}` };
  }

  notYourTurn(player) { // decision: turn-by-api
    const current = this.seatOf(this.game.currentPlayer);
    return { code: "not-your-turn", rule: "CL.PLAY.OUT-OF-TURN",
      message: `uno-engine acts for game.currentPlayer (seat ${current}), not seat ${player.name}` };
  }

  play(player, action) {
    const game = this.game;
    if (player !== game.currentPlayer) return this.notYourTurn(player);
    const parsed = parseCard(action.play);
    if (parsed === null) {
      return { code: "malformed-action", message: `not a uno-engine card: ${JSON.stringify(action.play)}` };
    }
    let card;
    let coloured = null; // the Wild in the hand whose colour the adapter set
    let placeholder = false;
    if (parsed.color === undefined) {
      // decision: wild-colour
      card = player.hand.find((c) => c.value === parsed.value) ?? new Card(parsed.value);
      if ("color" in action) {
        const name = action.color;
        const color = typeof name === "string" && name.toLowerCase() in COLOR_OF_NAME
          ? COLOR_OF_NAME[name.toLowerCase()] : name;
        try {
          card.color = color;
        } catch (exc) {
          return engineRejection(exc);
        }
        coloured = card;
      } else if (player.hand.length === 1 && player.hand[0] === card) {
        card.color = Color.RED; // decision: last-wild-placeholder
        coloured = card;
        placeholder = true;
      }
    } else {
      card = new Card(parsed.value, parsed.color);
    }
    const next = game.nextPlayer; // the player a Wild Draw Four makes draw
    try {
      game.play(card);
    } catch (exc) {
      if (coloured !== null) coloured.color = undefined;
      return engineRejection(exc);
    }
    if (placeholder) this.placeholder = card;
    if (card.value === Value.WILD_DRAW_FOUR && this.ended === null) this.hit = this.seatOf(next);
    if (action.uno === true) game.uno(player); // decision: uno-with-play
    return null;
  }

  draw(player) {
    const game = this.game;
    if (player !== game.currentPlayer) return this.notYourTurn(player);
    const before = player.hand.length;
    game.draw();
    const drawn = player.hand.slice(before);
    const card = drawn[drawn.length - 1];
    // decision: automatic-pass
    if (card !== undefined && card !== null && !card.matches(game.discardedCard)) game.pass();
    return null;
  }

  pass(player) {
    if (player !== this.game.currentPlayer) return this.notYourTurn(player);
    try {
      this.game.pass();
    } catch (exc) {
      return engineRejection(exc);
    }
    return null;
  }

  catch(player, target) {
    if (!Number.isInteger(target) || target < 0 || target >= this.n) {
      return { code: "malformed-action", message: `bad catch target ${JSON.stringify(target)}` };
    }
    this.game.uno(player); // decision: catch-without-target
    return null;
  }

  /** What `act` takes now, judged by uno-engine's own checks: for `game.currentPlayer`, every
   * card of the hand `Card.matches` lets be played on `game.discardedCard` (`Game.play`; after
   * a draw too: the engine does not restrict the turn to the drawn card), a Wild once per colour
   * and, as the last card, without one (decision: last-wild-placeholder); `draw`, which
   * `Game.draw` always takes (again after a draw too); `pass` once the player drew (`Game.pass`:
   * "must draw at least one card before passing"); from every seat a UNO call, and a catch of
   * every seat (`Game.uno`, decision: catch-without-target); the Wild Draw Four victim's
   * `challenge: false` while it is open (decision: wd4-accept-is-done). A hand entry that our
   * notation does not name (`cardText`: the `undefined` that `Deck.draw` hands out from an
   * empty pile, decision empty-draw-pile) is the adapter error `uno-engine-bad-card`: no action
   * plays it, and `act` cannot search such a hand (a listing without it would hide it). A
   * colour given with a coloured card and a play's `uno: true` are accepted too: the same play,
   * not listed again. Once the engine's `end` event fired nothing is listed, although the
   * engine keeps taking actions (decision: end-event): the hand it played is over. */
  legalActions() {
    if (this.ended !== null) return []; // decision: end-event
    const game = this.game;
    const player = game.currentPlayer;
    const seat = this.seatOf(player);
    const out = [];
    if (this.wd4Victim !== null) out.push({ player: this.wd4Victim, challenge: false });
    const texts = new Set();
    for (const card of player.hand) {
      const text = cardText(card);
      const parsed = text === null ? null : parseCard(text);
      if (parsed === null) { // no action can play it: a listing without it would hide it
        throw new AdapterError("uno-engine-bad-card", `seat ${seat}'s hand holds `
          + `${String(card).slice(0, 80)}, no card of ours`);
      }
      if (texts.has(text)) continue;
      texts.add(text);
      if (parsed.color === undefined) { // a Wild matches anything (Card.matches)
        // decision: wild-colour (a colour with the play), last-wild-placeholder (none needed)
        if (player.hand.length === 1) out.push({ player: seat, play: text });
        for (const color of Object.keys(COLOR_OF_NAME)) {
          out.push({ player: seat, play: text, color });
        }
      } else if (new Card(parsed.value, parsed.color).matches(game.discardedCard)) {
        out.push({ player: seat, play: text }); // the card `play` builds and plays
      }
    }
    out.push({ player: seat, draw: true });
    if (game.drawn) out.push({ player: seat, pass: true });
    for (let s = 0; s < this.n; s++) {
      out.push({ player: s, uno: true });
      for (let t = 0; t < this.n; t++) out.push({ player: s, catch: t });
    }
    return out;
  }

  observe(keys) {
    if (this.game === null) throw badRequest("observe before setup");
    const game = this.game;
    const over = this.ended !== null;
    const seats = Array.from({ length: this.n }, (_, s) => s);
    const out = {};
    for (const key of keys) {
      switch (key) {
        case "hands":
          out[key] = Object.fromEntries(seats.map((s) => [String(s), this.player(s).hand.map(cardText)]));
          break;
        case "hand_sizes":
          out[key] = Object.fromEntries(seats.map((s) => [String(s), this.player(s).hand.length]));
          break;
        case "top":
          out[key] = cardText(game.discardedCard);
          break;
        case "active_color":
          out[key] = game.discardedCard === this.placeholder ? null // decision: last-wild-placeholder
            : NAME_OF_COLOR[game.discardedCard?.color] ?? null;
          break;
        case "current":
          out[key] = over ? null : this.seatOf(game.currentPlayer);
          break;
        case "pending":
          out[key] = over ? { player: null, decision: "none" }
            : { player: this.seatOf(game.currentPlayer), decision: game.drawn ? "play-drawn" : "play" };
          break;
        case "direction":
          out[key] = game.playingDirection === CLOCKWISE ? "clockwise" : "counterclockwise";
          break;
        case "draw_size":
          out[key] = game.drawPile.length;
          break;
        case "scores":
          out[key] = Object.fromEntries(seats.map((s) => [String(s),
            over && this.ended.winner === s ? this.ended.score : 0]));
          break;
        case "round_over":
        case "game_over":
          out[key] = over;
          break;
        case "winner":
          out[key] = over ? this.ended.winner : null;
          break;
        case "legal_actions":
          out[key] = this.legalActions();
          break;
        default:
          throw unsupported(`observation ${key}: not declared`);
      }
    }
    return out;
  }
}

function respond(id, body) {
  process.stdout.write(`${JSON.stringify({ id, ...body })}\n`);
}

function handle(adapter, request) {
  const { id, method, params } = request;
  try {
    switch (method) {
      case "hello":
        // a runner of uno-conformance/1 is answered too: the hello is /2, which adds `players`
        if (!ACCEPTED.includes(params?.protocol)) throw badRequest(`protocol ${params?.protocol}`);
        return { result: adapter.hello() };
      case "setup":
        return { result: adapter.setup(params) };
      case "act": {
        const rejection = adapter.act(params?.action);
        return rejection === null ? { result: {} } : { error: rejection };
      }
      case "observe":
        if (!Array.isArray(params?.keys)) throw badRequest("observe needs keys");
        return { result: adapter.observe(params.keys) };
      case "bye":
        return { result: {} };
      default:
        throw badRequest(`unknown method ${JSON.stringify(method)}`);
    }
  } catch (exc) {
    if (exc instanceof AdapterError) return { error: { code: exc.code, message: exc.message } };
    return { error: { code: "internal-error", message: `${exc?.stack ?? exc}` } };
  }
}

function main() {
  const adapter = new UnoEngineAdapter();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  // Each line is handled synchronously as it arrives, so answers leave in request order even
  // when several requests are waiting (pipelining).
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      respond(null, { error: { code: "bad-request", message: "request is not JSON" } });
      return;
    }
    respond(request?.id ?? null, handle(adapter, request ?? {}));
    if (request?.method === "bye") {
      lines.close();
      process.stdin.destroy();
    }
  });
}

// Run as a program (`node adapter.mjs`); imported (the tests of one method), it only exports.
const invoked = process.argv[1] ? realpathSync(process.argv[1]) : null;
if (invoked === realpathSync(fileURLToPath(import.meta.url))) main();
