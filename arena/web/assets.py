"""The JavaScript and CSS the pages use, all shipped inside Python packages (no CDN:
the arena's machines are offline): the chart library is plotly.js as the ``plotly``
package ships it; the rest is ours, in ``arena/web/static``."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from typing import Final

STATIC: Final = Path(__file__).with_name("static")
"""Our own scripts and styles."""


class MissingAssetError(RuntimeError):
    """A package the web app needs is not installed; the message says which."""


@cache
def chart_library() -> Path:
    """plotly.js (minified) from the installed ``plotly`` package."""
    spec = importlib.util.find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        raise MissingAssetError(
            "the chart library (the plotly package) is not installed; "
            "pip install -e '.[web]' in the arena's checkout"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "package_data" / "plotly.min.js"
    if not path.is_file():
        raise MissingAssetError(f"the plotly package has no {path.name}; reinstall plotly")
    return path


def inline(name: str) -> str:
    """The text of one of our static files, or of ``plotly.min.js``, to inline in a
    self-contained page."""
    if name == "plotly.min.js":
        return chart_library().read_text(encoding="utf-8")
    return (STATIC / name).read_text(encoding="utf-8")
