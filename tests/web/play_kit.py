"""Playing a table's page in Chromium as a person does: ticking the cards of a set and
sending them once, or clicking a button (``choose``)."""

from __future__ import annotations

import json
import random
from typing import Any

from playwright.sync_api import expect


def choose(page: Any, rng: random.Random) -> tuple[list[str], int]:
    """Make one of the offered choices at random, as a person would; (every legal
    choice's words, in the canonical order; the one made). A set of cards is ticked and
    sent with one submit; the page's preview names the choice first."""
    picks = page.locator("fieldset.picks")
    if not picks.count():
        buttons = page.locator("button.choice")
        labels = [t.strip() for t in buttons.all_inner_texts()]
        index = rng.randrange(len(labels))
        with page.expect_navigation():
            buttons.nth(index).click()
        return labels, index
    labels = json.loads(picks.get_attribute("data-labels"))
    sets = json.loads(picks.get_attribute("data-sets"))
    repeats = int(picks.get_attribute("data-repeats"))
    if repeats > 1:  # several one-card decisions in one go: the first is this one's
        chosen = rng.sample([i for i, cards in enumerate(sets) if cards], repeats)
        for i in chosen:
            _tick(picks, sets[i][0])
        expect(picks.locator(".pick-preview")).to_have_text("; ".join(labels[i] for i in chosen))
        with page.expect_navigation():
            picks.locator(".pick-submit").click()
        return labels, chosen[0]
    index = rng.randrange(len(labels))
    if not sets[index]:
        with page.expect_navigation():
            page.locator(f'button.choice[value="{index}"]').click()
        return labels, index
    expect(picks.locator(".pick-submit")).to_be_disabled()
    for card in sets[index]:
        _tick(picks, card)
    expect(picks.locator(".pick-preview")).to_have_text(labels[index])
    with page.expect_navigation():
        picks.locator(".pick-submit").click()
    return labels, index


def _tick(picks: Any, card: str) -> None:
    """Tick one more checkbox of ``card``."""
    boxes = picks.locator(f'input[name="card"][value="{card}"]:not(:checked)')
    boxes.first.check()
