"""The phone page: one player's hand as a small self-contained HTML page.

Everything is inline (style and one short script); the page loads nothing from
anywhere, so it works at a table without internet. Without JavaScript the page is
complete and refreshes itself every 15 seconds; with it, an EventSource on
``<page>/events`` swaps the hand in place when the tracker changes it and asks the
phone to vibrate when a card newly asks for attention (met, or its reminder due).
"""

from __future__ import annotations

import base64
import hashlib
import json
from html import escape

from munda_tui.rules.battle.hand_view import CardView, HandView

STYLE = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;padding:12px;font:18px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
background:#15171a;color:#f1f1ee;overflow-wrap:anywhere;word-break:normal}
header h1{font-size:1.35em;line-height:1.2;margin:0 0 4px}
header p{margin:0 0 2px;color:#c9c9c2}
.private{font-size:.85em;color:#f0c36b}
.card{border:2px solid #3b3f45;border-radius:12px;padding:12px 14px;margin:14px 0;background:#1f2226}
.card h2{font-size:1.3em;line-height:1.2;margin:0 0 6px}
.card .status{font-weight:700;margin:0 0 8px}
.card.alert{border-color:#f0c36b;background:#2b2614}
.card.alert .status{color:#f0c36b}
.card.revealed{opacity:.78}
.card.revealed .status{color:#9fd39f}
.card.done .status{color:#b7b7b0}
.why,.choice,.reminder{margin:0 0 8px;padding:6px 10px;border-radius:8px;background:#2a2e33}
.choice{background:#1d2b3a}
.reminder{background:#3a2a12}
.text{white-space:pre-line;margin:0 0 8px}
.meta{font-size:.85em;color:#b7b7b0;margin:0}
ul{margin:4px 0 0;padding-left:1.1em}
.empty{font-size:1.1em}
#live{font-size:.8em;color:#9a9a93;margin:16px 0 0}
@media (prefers-color-scheme:light){
body{background:#fbfaf6;color:#16181b}header p{color:#44474c}.private{color:#8a5a00}
.card{background:#fff;border-color:#c9c6bd}.card.alert{background:#fff4d6;border-color:#b07800}
.card.alert .status{color:#8a5a00}.card.revealed .status{color:#2c6b2c}
.why,.choice,.reminder{background:#efede6}.choice{background:#e3eef9}.reminder{background:#fbe6c4}
.meta,.card.done .status{color:#55585d}#live{color:#66686c}}
"""

SCRIPT = """(function(){
var live=document.getElementById("live");
if(!window.EventSource||!window.JSON){return;}
var es=new EventSource(location.pathname.replace(/\\/+$/,"")+"/events");
es.addEventListener("hand",function(e){
var d=JSON.parse(e.data);
document.getElementById("hand").innerHTML=d.html;
document.title=d.title;
if(d.alert&&navigator.vibrate){try{navigator.vibrate([200,100,200]);}catch(x){}}
});
es.onopen=function(){live.textContent="Live: this page follows the battle.";};
es.onerror=function(){live.textContent="Connection lost, trying again\\u2026";};
})();"""


def _csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


#: Only the page's own inline style and script may run; it connects only to itself.
CSP = (
    "default-src 'none'; "
    f"style-src {_csp_hash(STYLE)}; "
    f"script-src {_csp_hash(SCRIPT)}; "
    "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)


def _card(c: CardView) -> str:
    classes = ["card"]
    if c.alert:
        classes.append("alert")
    if c.revealed:
        classes.append("revealed")
    elif c.status in ("discarded", "missed"):
        classes.append("done")
    parts = [f'<section class="{" ".join(classes)}" data-card="{escape(c.card)}">',
             f"<h2>{escape(c.name)}</h2>",
             f'<p class="status">{escape(c.status_text)}</p>']
    if c.reminder:
        parts.append(f'<p class="reminder">Reminder: {escape(c.reminder)}</p>')
    if c.why:
        parts.append(f'<p class="why">{escape(c.why)}</p>')
    if c.choice:
        parts.append(f'<p class="choice">{escape(c.choice)}</p>')
    parts.append(f'<p class="text">{escape(c.text)}</p>')
    if c.rewards:
        parts.append("<ul>" + "".join(f"<li>{escape(r)}</li>" for r in c.rewards if r) + "</ul>")
    parts.append(f'<p class="meta">{escape(c.deck)} · revealed: {escape(c.reveal)}</p>')
    parts.append("</section>")
    return "".join(parts)


def title(view: HandView) -> str:
    mark = "● " if view.alerts else ""
    return f"{mark}Hand of {view.gang_name}"


def hand_fragment(view: HandView) -> str:
    """The part of the page the live feed replaces."""
    who = f"{escape(view.player)} · " if view.player else ""
    head = (
        f"<header><h1>Hand of {escape(view.gang_name)}</h1>"
        f'<p class="private">{who}only you should see this page</p>'
        f"<p>Battle {view.battle} · {escape(view.title)} · {escape(view.where)}</p></header>"
    )
    if not view.cards:
        return head + '<p class="empty">No Sub-plots in this hand.</p>'
    return head + "".join(_card(c) for c in view.cards)


def page(view: HandView) -> str:
    """The whole page, complete without JavaScript."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="robots" content="noindex">'
        '<link rel="icon" href="data:,">'
        '<noscript><meta http-equiv="refresh" content="15"></noscript>'
        f"<title>{escape(title(view))}</title><style>{STYLE}</style></head>"
        f'<body><main id="hand">{hand_fragment(view)}</main>'
        '<p id="live">Reload the page to see the battle&#39;s latest.</p>'
        f"<script>{SCRIPT}</script></body></html>"
    )


def event(view: HandView, alert: bool) -> bytes:
    """One server-sent event carrying the new hand."""
    data = json.dumps({"html": hand_fragment(view), "title": title(view), "alert": alert},
                      ensure_ascii=True, separators=(",", ":"))
    return f"event: hand\ndata: {data}\n\n".encode("ascii")
