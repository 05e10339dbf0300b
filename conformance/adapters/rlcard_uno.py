"""rlcard-uno 2.0.2 (PyPI), a fork of RLCard's UNO, behind `uno-conformance/2`.

The fork keeps RLCard's game objects (`rlcard.games.uno`: `UnoGame`, `UnoRound`, `UnoDealer`,
`UnoPlayer`, the same action strings) and installs under the same import name `rlcard`, so it
cannot share an environment with RLCard 1.2: it is verified from its own virtual environment,
over stdio (`.ci/setup-implementations` creates `.venv-rlcard-uno`):

    uno-fsm conformance run --adapter \\
        stdio:'.venv-rlcard-uno/bin/uno-fsm conformance serve --adapter rlcard-uno'

Everything but the two API differences is RLCard's adapter (conformance/adapters/rlcard.py):

- `UnoGame()` takes no player count: the fork reads it from `configure({'game_num_players':
  n})` (its environment's `game_num_players`, default 2); its round code plays any count.
- hello names the fork and its distribution's version.

Its behaviour differs from RLCard 1.2 where its code does (`round.py UnoRound.proceed_round`
does not write a Wild's chosen colour on the card): the scenarios show it, the adapter does not
compensate.
"""

from __future__ import annotations

from typing import Any

from conformance.adapters.rlcard import RLCardAdapter


class RLCardUnoAdapter(RLCardAdapter):
    NAME = "rlcard-uno"
    DISTRIBUTION = "rlcard-uno"

    def new_game(self, n: int) -> Any:
        from rlcard.games.uno.game import UnoGame

        game = UnoGame()
        game.configure({"game_num_players": n})
        return game
