"""conformance: the scenario corpus, the adapter protocol and the runner that judges
implementations."""
