"""The staff web page's HTML: one layout, small pieces, every value escaped.

Pages are plain strings built here: a value goes in through :func:`esc` (``html.escape``), so what parents
and staff typed is shown as text, never read as markup; :class:`Markup` marks a piece already built from
escaped parts, which is not escaped again. No template engine, no CDN, no build step; one stylesheet
(`/style.css`) that reads well on a phone.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape


class Markup(str):
    """HTML built from escaped parts: put in a page as it is. Adding text to it escapes the text."""

    def __add__(self, other: object) -> Markup:
        return Markup(str.__add__(self, esc(other)))

    def __radd__(self, other: object) -> Markup:
        return Markup(str.__add__(esc(other), self))


def esc(value: object) -> Markup:
    """`value` as text in HTML (markup already built is kept)."""
    if isinstance(value, Markup):
        return value
    return Markup(escape("" if value is None else str(value), quote=True))


def join(parts: Iterable[object], sep: str = "") -> Markup:
    return Markup(sep.join(esc(p) for p in parts))


def tag(name: str, content: object = "", **attributes: object) -> Markup:
    """<name attr="value">content</name>; `class_` is written class; an attribute of None or False is left out."""
    attrs = "".join(f' {key.rstrip("_").replace("_", "-")}="{esc(value)}"' if value is not True
                    else f' {key.rstrip("_").replace("_", "-")}'
                    for key, value in attributes.items() if value is not None and value is not False)
    return Markup(f"<{name}{attrs}>{esc(content)}</{name}>")


def link(href: str, text: object) -> Markup:
    return tag("a", text, href=href)


def table(headers: Iterable[object], rows: Iterable[Iterable[object]], *, class_: str = "") -> Markup:
    """A table; on a phone each row becomes a block whose cells are labelled with their column's header."""
    headers = list(headers)
    head = join(tag("th", h, scope="col") for h in headers)
    body = join(tag("tr", join(tag("td", cell, data_label=h) for h, cell in zip(headers, row, strict=True)))
                for row in rows)
    return Markup(f'<div class="scroll"><table class="{esc(class_)}"><thead><tr>{head}</tr></thead>'
                  f"<tbody>{body}</tbody></table></div>")


def hidden(name: str, value: object) -> Markup:
    return Markup(f'<input type="hidden" name="{esc(name)}" value="{esc(value)}">')


def form(action: str, csrf: str, content: object, button: str, *, method: str = "post",
         class_: str = "") -> Markup:
    """A form posting to `action` with the session's CSRF token (every POST carries it)."""
    return Markup(f'<form method="{esc(method)}" action="{esc(action)}" class="{esc(class_)}">'
                  f'{hidden("csrf", csrf)}{esc(content)}<button type="submit">{esc(button)}</button></form>')


def field(label: str, control: Markup) -> Markup:
    return Markup(f"<label>{esc(label)} {control}</label>")


def text_input(name: str, value: object = "", *, required: bool = False, kind: str = "text",
               placeholder: str = "") -> Markup:
    return Markup(f'<input type="{esc(kind)}" name="{esc(name)}" value="{esc(value)}"'
                  + (f' placeholder="{esc(placeholder)}"' if placeholder else "")
                  + (" required" if required else "") + ">")


def textarea(name: str, value: object = "", *, required: bool = False, rows: int = 3) -> Markup:
    return Markup(f'<textarea name="{esc(name)}" rows="{rows}"' + (" required" if required else "")
                  + f">{esc(value)}</textarea>")


def select(name: str, options: Iterable[tuple[str, str]], chosen: str = "") -> Markup:
    items = join(Markup(f'<option value="{esc(value)}"' + (" selected" if value == chosen else "")
                        + f">{esc(text)}</option>") for value, text in options)
    return Markup(f'<select name="{esc(name)}">{items}</select>')


def said(text: str) -> Markup:
    """Text the bot would say in chat (a preview, an outcome), its lines kept."""
    return tag("div", text, class_="said")


NAV = (("/", "Boards"), ("/asking", "What parents ask"), ("/broadcast", "Broadcast"), ("/audit", "Audit and undo"))


def page(title: str, body: object, *, who: str = "", csrf: str = "", status_line: str = "") -> str:
    """A whole page: the navigation and sign-out for a signed-in person (`who`), then `body`."""
    nav = ""
    if who:
        items = join(tag("li", link(href, text)) for href, text in NAV)
        signout = form("/signout", csrf, "", "Sign out", class_="inline")
        nav = Markup(f'<nav><ul>{items}</ul><span class="who">{esc(who)}</span>{signout}</nav>')
    note = tag("p", status_line, class_="note") if status_line else ""
    return ("<!doctype html>\n"
            f'<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, '
            f'initial-scale=1"><title>{esc(title)} · schoolbot staff</title>'
            '<link rel="stylesheet" href="/style.css"></head>'
            f"<body>{nav}<main><h1>{esc(title)}</h1>{note}{esc(body)}</main></body></html>\n")


STYLE = """
:root { color-scheme: light dark; --line: #8884; --mark: #b00020; --ok: #1b5e20; }
body { font: 16px/1.45 system-ui, sans-serif; margin: 0; }
main { padding: 0 1rem 2rem; max-width: 72rem; margin: auto; }
nav { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .5rem 1rem;
      border-bottom: 1px solid var(--line); }
nav ul { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; margin: 0; padding: 0; }
nav .who { margin-left: auto; font-size: .9rem; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 1.6rem; }
.scroll { overflow-x: auto; }
td { overflow-wrap: anywhere; }
@media (max-width: 40rem) {
  .scroll thead { display: none; }
  .scroll tr { display: block; border-bottom: 1px solid var(--line); padding: .4rem 0; }
  .scroll td { display: block; border: 0; padding: .1rem .25rem; }
  .scroll td[data-label]:not([data-label=""])::before { content: attr(data-label) ": "; font-weight: 600; }
}
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
.said { white-space: pre-wrap; border-left: 3px solid var(--line); padding: .5rem .75rem; margin: 1rem 0; }
.stale { color: var(--mark); font-weight: 600; }
.note { font-size: .9rem; }
.problem { color: var(--mark); }
.done { color: var(--ok); }
form { margin: .5rem 0; } form.inline { display: inline; margin: 0; }
label { display: block; margin: .4rem 0; }
input[type=text], input[type=date], textarea, select { display: block; width: 100%; max-width: 40rem;
      box-sizing: border-box; font: inherit; padding: .35rem; }
button { font: inherit; padding: .35rem .9rem; }
details { margin: .25rem 0 .75rem; }
.count { font-weight: 600; white-space: nowrap; }
progress { width: 100%; max-width: 40rem; height: 1.6rem; }
table.counts { width: auto; }
"""
