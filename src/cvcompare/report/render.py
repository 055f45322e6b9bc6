"""Write the results of :func:`~cvcompare.report.analysis.compare_learners` as a report:
:func:`build_report`, the two renderers it uses and the :class:`Report` they make.

The report is built once as a list of blocks (headings, paragraphs, lists, tables, figures;
:mod:`cvcompare.report.blocks`) and rendered twice: as one self-contained HTML page (figures
embedded as base64 PNG, no script, no network resource) and as a Markdown twin whose figures
are PNG files beside it. Both say the same things in the same order.
"""

from __future__ import annotations

import base64
import html
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .analysis import ComparisonResults
from .blocks import page_blocks

__all__ = ["Report", "build_report"]


@dataclass(frozen=True)
class Report:
    """The report's two renderings and its figures.

    Attributes
    ----------
    markdown : str
        The Markdown page; figures are referenced as ``figures/<name>.png``.
    html : str
        The self-contained HTML page (figures embedded).
    figures : dict of str to bytes
        PNG images by file name (``<name>.png``).
    results : ComparisonResults
        The results the report was written from.
    """

    markdown: str
    html: str
    figures: dict[str, bytes] = field(repr=False)
    results: ComparisonResults = field(repr=False)

    def write(self, directory) -> None:
        """Write ``report.html``, ``report.md`` and ``figures/*.png`` into ``directory``.

        The directory is created if needed. An earlier report there is replaced, its
        ``figures`` directory with it, so that no figure of another comparison is left
        beside the new ones; a ``report.html``, ``report.md`` or ``figures`` that is not an
        earlier report's (a page without the command that reruns it, a ``figures`` without
        such a ``report.html`` beside it or with files other than PNG images) is refused,
        never overwritten. The new files are written to a temporary directory inside
        ``directory`` first; the earlier report is moved aside, the new one moved in, and
        the earlier one put back if that fails, so a failure leaves the earlier report as it
        was and no partial one.

        Parameters
        ----------
        directory : str or path-like
            Where to write the report.

        Raises
        ------
        ValueError
            If ``directory`` is a file, or holds a ``report.html``, ``report.md`` or
            ``figures`` entry that is not an earlier report's.
        """
        out = Path(directory)
        if out.exists() and not out.is_dir():
            raise ValueError(f"directory: {out} is a file; expected a directory for the report")
        out.mkdir(parents=True, exist_ok=True)
        previous = [name for name in _REPORT_FILES if (out / name).exists()]
        figures = out / "figures"
        foreign = [
            name
            for name in previous
            if not _is_report(out / ("report.html" if name == "figures" else name))
        ]
        if foreign:
            raise ValueError(
                f"directory: {out / foreign[-1]} is not part of an earlier report of cvcompare "
                "(expected a directory without one, or with an earlier report); it is left as "
                "it is"
            )
        if figures.exists() and (
            not figures.is_dir()
            or any(f.suffix != ".png" or not f.is_file() for f in figures.iterdir())
        ):
            raise ValueError(
                f"directory: {figures} is not an earlier report's figures (expected a "
                "directory without one, or with an earlier report); it is left as it is"
            )
        with tempfile.TemporaryDirectory(dir=out, prefix=".report-") as tmp:
            staged, aside = Path(tmp) / "new", Path(tmp) / "old"
            (staged / "figures").mkdir(parents=True)
            aside.mkdir()
            for name, png in self.figures.items():
                (staged / "figures" / name).write_bytes(png)
            (staged / "report.html").write_text(self.html, encoding="utf-8")
            (staged / "report.md").write_text(self.markdown, encoding="utf-8")
            moved_aside, moved_in = [], []
            try:
                for name in previous:
                    os.replace(out / name, aside / name)
                    moved_aside.append(name)
                for name in _REPORT_FILES:
                    os.replace(staged / name, out / name)
                    moved_in.append(name)
            except BaseException:
                for name in moved_in:
                    os.replace(out / name, staged / name)
                for name in moved_aside:
                    os.replace(aside / name, out / name)
                raise


#: What :meth:`Report.write` puts in its directory.
_REPORT_FILES = ("figures", "report.html", "report.md")


#: What every page of a report holds, by its file: the command that reruns it.
_MARKERS = {
    "report.html": "Rerun: <code>cvcompare report ",
    "report.md": "Rerun: `cvcompare report ",
}


def _is_report(path: Path) -> bool:
    """Whether ``path`` (a ``report.html`` or ``report.md``) is a page this module wrote."""
    return path.is_file() and _MARKERS[path.name] in path.read_text(
        encoding="utf-8", errors="replace"
    )


# ------------------------------------------------------------------------------------------
# renderers
# ------------------------------------------------------------------------------------------


def _md_cell(text: str) -> str:
    """Text for a Markdown table cell (``|`` escaped)."""
    return str(text).replace("|", "\\|")


def _markdown(blocks) -> str:
    """The blocks as a Markdown page; figures are linked as ``figures/<name>``."""
    out = []
    for block in blocks:
        kind = block[0]
        if kind == "h":
            out.append("#" * block[1] + " " + block[2])
        elif kind == "p":
            out.append(block[1])
        elif kind == "list":
            out.append("\n".join(f"- {item}" for item in block[1]))
        elif kind == "fig":
            out.append(f"![{block[2]}](figures/{block[1]})")
        elif kind in ("table", "details"):
            header, rows = block[-2], block[-1]
            table = ["| " + " | ".join(map(_md_cell, header)) + " |", "|" + "---|" * len(header)]
            table += ["| " + " | ".join(map(_md_cell, r)) + " |" for r in rows]
            text = "\n".join(table)
            if kind == "details":
                text = f"<details><summary>{block[1]}</summary>\n\n{text}\n\n</details>"
            out.append(text)
    return "\n\n".join(out) + "\n"


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
table{border-collapse:collapse;font-size:.9em;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left}
th{background:#f2f2f2}
figure{margin:1em 0}
figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{font-size:.9em;color:#555}
code{background:#f5f5f5;padding:0 .2em}
"""


def _html_table(header, rows) -> str:
    """An HTML table, its cells escaped."""
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _inline(text: str) -> str:
    """Escape text; backquoted spans become <code>."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def _html(blocks, figures: dict[str, bytes], title: str) -> str:
    """The blocks as one self-contained HTML page, its figures embedded as base64 PNG."""
    out = []
    for block in blocks:
        kind = block[0]
        if kind == "h":
            out.append(f"<h{block[1]}>{html.escape(block[2])}</h{block[1]}>")
        elif kind == "p":
            out.append(f"<p>{_inline(block[1])}</p>")
        elif kind == "list":
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in block[1]) + "</ul>")
        elif kind == "fig":
            data = base64.b64encode(figures[block[1]]).decode("ascii")
            out.append(
                f'<figure><img alt="{html.escape(block[2])}" src="data:image/png;base64,{data}">'
                f"<figcaption>{html.escape(block[2])}</figcaption></figure>"
            )
        elif kind == "table":
            out.append(_html_table(block[1], block[2]))
        elif kind == "details":
            out.append(
                f"<details><summary>{html.escape(block[1])}</summary>"
                f"{_html_table(block[2], block[3])}</details>"
            )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head>\n<body>\n"
        + "\n".join(out)
        + "\n</body></html>\n"
    )


def build_report(results: ComparisonResults) -> Report:
    """Render the results as a self-contained HTML page and its Markdown twin.

    Parameters
    ----------
    results : ComparisonResults
        From :func:`cvcompare.report.compare_learners`.

    Returns
    -------
    Report
        ``.html``, ``.markdown``, ``.figures``; ``.write(directory)`` saves them.

    Raises
    ------
    TypeError
        If ``results`` is not a :class:`~cvcompare.report.analysis.ComparisonResults`.
    """
    if not isinstance(results, ComparisonResults):
        raise TypeError(
            "results: expected the ComparisonResults of compare_learners, got "
            f"{type(results).__name__}"
        )
    blocks, figures = page_blocks(results)
    title = blocks[0][2]
    return Report(
        markdown=_markdown(blocks),
        html=_html(blocks, figures, title),
        figures=figures,
        results=results,
    )
