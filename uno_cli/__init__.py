"""The one command-line entry point, `uno-fsm`, composed from each package's own commands."""
