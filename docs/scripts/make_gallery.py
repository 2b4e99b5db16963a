"""Draw every figure of the gallery page from the bundled data, into docs/figures/.

The page ``docs/gallery.md`` is the source: each python code block is run in order (in one
namespace, as a reader would), and the figure ``fig`` it leaves behind is saved to the PNG the
page shows right after the block (``![...](figures/NAME.png)``). So the code on the page is
exactly the code that drew the picture.

    /work/venv/bin/python docs/scripts/make_gallery.py          # all figures
    /work/venv/bin/python docs/scripts/make_gallery.py cd_       # only figures whose name starts so
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

DOCS = Path(__file__).resolve().parents[1]
PAGE = DOCS / "gallery.md"
FIGURES = DOCS / "figures"
BLOCK = re.compile(r"^```python\n(.*?)^```\n", re.S | re.M)
IMAGE = re.compile(r"!\[[^\]]*\]\(figures/([A-Za-z0-9_.-]+\.png)\)")
DPI = 200


def blocks_and_images(text: str) -> list[tuple[str, str | None]]:
    """Each code block with the PNG the page shows after it (before the next block), or None."""
    found = list(BLOCK.finditer(text))
    out = []
    for i, match in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        image = IMAGE.search(text, match.end(), end)
        out.append((match.group(1), image.group(1) if image else None))
    return out


def main(prefix: str = "") -> int:
    from mcda.plots import savefig

    FIGURES.mkdir(exist_ok=True)
    namespace: dict = {"__name__": "__gallery__"}
    written = 0
    for i, (code, image) in enumerate(blocks_and_images(PAGE.read_text(encoding="utf-8"))):
        start = time.perf_counter()
        exec(compile(code, f"gallery.md[block {i}]", "exec"), namespace)
        if image is not None and image.startswith(prefix):
            fig = namespace.get("fig")
            if fig is None:
                raise RuntimeError(f"block {i} of {PAGE.name} shows {image} but leaves no `fig`")
            savefig(fig, FIGURES / image, dpi=DPI, metadata={"Software": None})
            written += 1
            print(f"{image:<40} {time.perf_counter() - start:6.2f} s")
        plt.close("all")
    print(f"{written} figures written to {FIGURES}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ""))
