"""Draw every figure of the gallery pages from the bundled data, into docs/figures/ (or ``--out DIR``).

The pages ``docs/gallery.md`` and ``docs/gallery-sizes.md`` are the source: each python code block is run in order (in one
namespace, as a reader would), and the figure ``fig`` it leaves behind is saved to the PNG the
page shows right after the block (``![...](figures/NAME.png)``). So the code on the page is
exactly the code that drew the picture.

    python docs/scripts/make_gallery.py          # all figures
    python docs/scripts/make_gallery.py cd_       # only figures whose name starts so
    python docs/scripts/make_gallery.py --out DIR   # elsewhere (the tests do)
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
PAGES = (DOCS / "gallery.md", DOCS / "gallery-sizes.md")
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


def main(prefix: str = "", out: Path = FIGURES) -> int:
    from mcda.plots import savefig

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for page in PAGES:
        namespace: dict = {"__name__": "__gallery__"}
        for i, (code, image) in enumerate(blocks_and_images(page.read_text(encoding="utf-8"))):
            start = time.perf_counter()
            exec(compile(code, f"{page.name}[block {i}]", "exec"), namespace)
            if image is not None and image.startswith(prefix):
                fig = namespace.get("fig")
                if fig is None:
                    raise RuntimeError(f"block {i} of {page.name} shows {image} but leaves no `fig`")
                savefig(fig, out / image, dpi=DPI, metadata={"Software": None})
                written += 1
                print(f"{image:<40} {time.perf_counter() - start:6.2f} s")
            plt.close("all")
    print(f"{written} figures written to {out}")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    target = FIGURES
    if "--out" in args:
        at = args.index("--out")
        target = Path(args[at + 1])
        del args[at:at + 2]
    sys.exit(main(args[0] if args else "", target))
