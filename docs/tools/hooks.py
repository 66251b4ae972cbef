"""mkdocs hooks for the documentation site (staged mkdocs.yml, `hooks:`).

Notebook pages: mkdocs-jupyter builds a page's table of contents from its own
Markdown conversion, whose anchors drop inline code from headings
("#plots-with" for "Plots with `viz`"), while nbconvert gives the headings
themselves full ids ("plots-with-viz"). The table of contents and the
headings come from the same Markdown cells in the same order, so each entry
takes the id of its heading.
"""
import re

HEADING_ID = re.compile(r"<h([1-6])[^>]*\bid=\"([^\"]+)\"")


def _flatten(items):
    for item in items:
        yield item
        yield from _flatten(item.children)


def on_page_content(html, page, config, files):
    if not page.file.src_path.endswith(".ipynb"):
        return html
    ids = [m.group(2) for m in HEADING_ID.finditer(html)]
    entries = list(_flatten(page.toc))
    if len(entries) != len(ids):
        return html
    present = set(ids)
    for entry, hid in zip(entries, ids):
        if entry.id not in present:
            entry.id = hid
    return html
