"""Issue 24, Done when: every situation the issue lists as inexpressible is a scenario of the
bundled corpus that passes on the reference engine. Each situation names its scenario ids here,
so that none can silently disappear or start failing."""

from __future__ import annotations

from conformance.adapters.reference import ReferenceAdapter
from conformance.runner import Runner
from conformance.scenario import load_corpus

SITUATIONS: dict[str, tuple[str, ...]] = {
    # Table options
    "Desafio played to 250": ("variant.desafio.eliminate.table-amount-250",),
    "a house rule where a Wild must change the colour": (
        "classic.wild.must-change-table.same-colour-refused",
        "classic.wild.must-change-off.same-colour-accepted",
        "flip.light.wild.must-change-table",
        "flip.wdc.must-change-table",
    ),
    "a two-player Reverse played as a plain Reverse": (
        "classic.two-player.reverse.plain-reverse-table",),
    # Outcomes that are one of several
    "draws 3 to 6 cards, the last one purple": ("flip.wdc.after-reshuffle.three-to-six",),
    "the next card turned is a number card": ("classic.first-card.wd4.next-is-a-number",),
    # Later hands
    "the deal after next_round fixed": ("classic.deal.next-hand.fixed-deal.draw-two-first",
                                        "variant.desafio.eliminated.next-hand-dealt-as-given"),
    # Some refusals
    "an UNO call on another player's behalf": ("classic.uno.catch.call-on-anothers-behalf",),
    "a catch on another's behalf": ("classic.uno.catch.naming-oneself-caught",
                                    "classic.uno.catch.by-a-seat-not-at-the-table"),
    "a swap naming a seat that does not exist": (
        "variant.seven-o.seven.swap-seat-not-at-table",),
    "a Flip card named by one face only": ("flip.error.card-by-one-face",),
}


def test_every_situation_is_a_passing_corpus_scenario() -> None:
    wanted = {sid for ids in SITUATIONS.values() for sid in ids}
    corpus = {sc.id: sc for sc in load_corpus().scenarios}
    assert sorted(wanted - set(corpus)) == []
    report = Runner(ReferenceAdapter).run([corpus[sid] for sid in sorted(wanted)])
    assert {r.id: r.status for r in report.results} == dict.fromkeys(sorted(wanted), "passed")
