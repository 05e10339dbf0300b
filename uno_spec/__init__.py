"""uno_spec: access to the specification data in spec/ (sources, rules, rulings, rulesets), its schemas and its lint."""
