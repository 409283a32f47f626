"""The article page (`org.wikipedia.page.PageActivity`): an article of our own, its text
at the size `textSizeMultiplier` sets (100 % + 10 % a step)."""

from __future__ import annotations

from bmoca.sim.apps.base import Activity, Context
from bmoca.sim.apps.contacts.ui import icon_button
from bmoca.sim.apps.wikipedia import model
from bmoca.sim.apps.wikipedia.model import PACKAGE, colors, wid
from bmoca.sim.system import perturbations
from bmoca.sim.system.intent import Intent
from bmoca.sim.ui.view import MATCH, View, column, row, scroller, text

PAGE = f"{PACKAGE}.page.PageActivity"


def open_article(ctx: Context, title: str) -> None:
    ctx.start_activity(Intent(action="org.wikipedia.page_load", component=(PACKAGE, PAGE),
                              extras={"title": title}))


class PageActivity(Activity):
    def build(self, ctx: Context) -> View:
        c = colors(ctx)
        title = self.intent.extras.get("title", "")
        article = next((a for a in model.ARTICLES if a.title == title), model.ARTICLES[0])
        scale = 1.0 + 0.1 * ctx.data.text_size()
        body = [text(article.title, id=wid("view_page_title_text"), text_size=28 * scale,
                     text_color=c.text, max_lines=3, width=MATCH, text_direction="ltr"),
                text(article.description, id=wid("view_page_subtitle_text"),
                     text_size=14 * scale, text_color=c.secondary, max_lines=2, width=MATCH,
                     text_direction="ltr", margin=(0, 4, 0, 16))]
        paragraphs = list(article.text)
        injected = perturbations.content_injection(ctx.system, "wikipedia")
        if injected is not None:  # a perturbation: the article carries text aimed at the agent
            paragraphs.insert(min(1, len(paragraphs)), injected)
        body += [text(p, text_size=16 * scale, text_color=c.text, max_lines=40, width=MATCH,
                      cls="android.view.View", text_direction="ltr", margin=(0, 0, 0, 12))
                 for p in paragraphs]
        bar = row(icon_button(ctx, "arrow_back", ctx.t("wiki.navigate_up"), ctx.finish,
                              c.text),
                  text("", width=0, weight=1),
                  cls="android.view.ViewGroup", id=wid("page_toolbar"), width=MATCH,
                  height=56, bg=c.background, gravity="center_vertical")
        return column(bar, scroller(*body, key=f"wiki:page:{article.title}",
                                    cls="android.webkit.WebView", id=wid("page_web_view"),
                                    width=MATCH, height=0, weight=1, padding=(16, 8, 16, 8)),
                      width=MATCH, height=MATCH, bg=c.background)
