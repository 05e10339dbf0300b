"""The model checker leaves no reference cycle per refused illegal candidate (a cycle each
would be left to the garbage collector: about a sixth of a run's CPU time before it was
broken, docs/performance.md "Model checking")."""

from __future__ import annotations

import gc

from uno_fsm.configs import CheckConfig
from uno_fsm.modelcheck.run import explore

CONFIG = CheckConfig("classic-official", 2, "colors=red;numbers=1;actions=skip,reverse,draw2;"
                     "wilds=wild,wd4", hand=2, target=100, depth=3)


def test_refused_candidates_leave_no_cycles() -> None:
    gc.collect()
    gc.disable()
    try:
        result = explore(CONFIG)
        garbage = gc.collect()
    finally:
        gc.enable()
    assert result.violation_count == 0
    refused = result.checks["CL.PLAY.ILLEGAL-REJECTED"] // 3  # three such checks per refusal
    assert refused > 1000
    # what is left is the deals' games (each Game and its rules hold each other): about 32
    # objects per deal; a cycle per refusal (its frame, traceback, error...) left about 26 more
    # per refusal, 53,644 objects here in all
    assert garbage < 60 * result.deals_explored, (garbage, result.deals_explored, refused)
