"""uno_spec: access to the specification data in spec/.

Sources, rules, rulings and rulesets; their schemas, their lint, rule look-up and docs.
"""
