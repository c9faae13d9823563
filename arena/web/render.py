"""Templates: Jinja2 with autoescaping, and every shown string made visible.

Autoescaping makes ``<script>`` and quotes text; ``finalize`` also passes every string
an expression prints through ``arena.text.shown``, so control, bidirectional and
invisible characters (which would reorder or hide what is around them) show as visible
escapes, as in the terminal. Both apply to every ``{{ ... }}``: no template can forget.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from arena.text import shown


def _finalize(value: Any) -> Any:
    if isinstance(value, str) and not isinstance(value, Markup):
        return shown(value)
    return value


def _data(value: Any) -> Markup:
    """``value`` as JSON that may sit inside a ``<script type="application/json">``:
    ``<``, ``>``, ``&`` and quotes as ``\\u`` escapes, so no text in it can close the
    element (Jinja's ``tojson`` does the same; this one keeps non-ASCII as escapes too)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=True)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("'", "\\u0027")):
        text = text.replace(char, escape)
    return Markup(text)


@cache
def environment() -> Environment:
    """The app's template environment (one per process; rendering is thread-safe)."""
    env = Environment(
        loader=PackageLoader("arena.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["data"] = _data
    env.filters["num"] = lambda value, places=2: f"{value:.{places}f}"
    return env


def render(template: str, **context: Any) -> str:
    """``template`` rendered with ``context``."""
    return environment().get_template(template).render(**context)
