"""uno_fsm: the reference UNO engine, an explicit turn-phase state machine over plain game data."""
