"""What the results over items share: the table-shaped base and its text."""

from __future__ import annotations

import pandas as pd

from mcda._core.results import Result

__all__ = ["ItemTable", "show_table"]


def show_table(frame: pd.DataFrame, columns, limit: int = 20) -> str:
    """The first ``limit`` rows of ``columns`` (those present) for a summary, numbers to 4 digits."""
    columns = [c for c in columns if c in frame.columns]
    if "reason" in columns and (frame["reason"] == "").all():
        columns.remove("reason")
    text = frame[columns].head(limit).to_string(index=False, float_format=lambda v: f"{v:.4g}")
    if len(frame) > limit:
        text += f"\n… ({len(frame) - limit} more rows; see .to_frame())"
    return text


class ItemTable(Result):
    """A result over items built on one tidy ``table`` (``to_frame`` is a copy) with ``notes``."""

    def _text(self, head: str, columns) -> str:
        return head + "\n" + show_table(self.table, columns) + "".join(f"\nnote: {n}" for n in self.notes)
