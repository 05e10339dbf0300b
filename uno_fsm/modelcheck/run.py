"""A run: a configuration checked, its search given an executor (`explore`). Above both
`search` (the visited set, the levels) and `executors` (where the chunks run), which do not
know each other's choices."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uno_fsm.configs import CheckConfig
from uno_fsm.deck import build_deck
from uno_fsm.modelcheck import executors
from uno_fsm.modelcheck.deals import ConfigError, count_deals, reduced_params
from uno_fsm.modelcheck.search import Result, Search


def _auto(config: CheckConfig, cores: int) -> Callable[[int], Any]:
    """The default of --jobs: every core, from the first level of `AUTO_LEVEL` states on."""
    done = [cores < 2]

    def switch(size: int) -> Any:
        if done[0] or size < executors.AUTO_LEVEL:
            return None
        done[0] = True
        return executors.Processes(config, cores)

    return switch


def explore(config: CheckConfig, jobs: int | None = 1, cluster: str | None = None,
            fingerprints: bool = False) -> Result:
    """Explore `config`: in this process (`jobs` 1), in `jobs` local worker processes, or on
    a Dask cluster (`cluster`: an address, or `local:N` for a local cluster of N workers);
    `jobs` None: in this process, then every core once a level holds `AUTO_LEVEL` states."""
    params = reduced_params(config.ruleset, config.deck, config.hand, config.target)
    cards = build_deck(params)
    if params.hand_size * config.players >= len(cards):
        raise ConfigError(f"{len(cards)} cards cannot deal {config.players} hands of "
                          f"{params.hand_size} and turn a first card")
    total = count_deals(cards, config.players, params.hand_size, config.max_states)
    if total > config.max_states:
        raise ConfigError(f"the deck has more distinct deals than --max-states "
                          f"{config.max_states}: use a smaller deck or hand")
    search = Search(config, fingerprints)
    switch: Callable[[int], Any] | None = None
    try:
        if cluster is not None:
            executor: Any = executors.DaskExecutor(config, cluster)
        elif jobs is None:
            executor = executors.InProcess(search.ex)
            switch = _auto(config, executors.cores())
        elif jobs <= 1:
            executor = executors.InProcess(search.ex)
        else:
            executor = executors.Processes(config, jobs)
    except BaseException:
        search.ex.close()  # the engine's dispatch table unwrapped (the coverage recording)
        raise
    return search.run(executor, executors.chunk_size_for, switch)
