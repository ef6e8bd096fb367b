"""Math in the pages nbgrader makes of a notebook (formgrader's, generate_feedback's), offline.

nbconvert leaves ``$…$`` in the HTML for MathJax, which nbgrader's templates load from a CDN:
offline, a proof reads as raw TeX, and formgrader's own script, which waits for MathJax, stops.
This course's nbgrader_config.py (``attn-grade course build``) sets two things from here:

* ``markdown2html``: each formula of a Markdown cell becomes MathML (latex2mathml) as the page is
  written, so it renders with no script at all, in formgrader and in the feedback files a student
  opens from disk. A formula is the student's text: it is converted only when short, and its
  MathML is kept only when every element and attribute is on an allow-list (``\\href`` and
  ``\\style`` would carry a link or CSS, ``\\text{<…>}`` raw HTML); otherwise it stays TeX.
* ``TEMPLATES``: nbconvert's ``mathjax`` macro, replaced. In formgrader, MathJax 2 comes from the
  Jupyter server itself (the jupyter_server_mathjax extension, installed with the course's
  dependencies); in a feedback file no script is loaded.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from pathlib import Path

from jinja2 import pass_context

TEMPLATES = Path(__file__).parent / "templates"
MATHML = "{http://www.w3.org/1998/Math/MathML}"
MAX_TEX = 1_000  # characters of one formula; a longer one stays TeX
MAX_FORMULAS = 200  # per Markdown cell; the rest stay TeX
ELEMENTS = frozenset("math mrow mi mn mo ms mtext mspace msub msup msubsup mfrac msqrt mroot mstyle mover munder "
                     "munderover mtable mtr mtd mpadded mphantom menclose merror semantics annotation".split())
ATTRIBUTES = frozenset("display stretchy mathvariant fence separator lspace rspace accent accentunder movablelimits "
                       "columnalign columnlines columnspacing rowspacing rowlines frame framespacing linethickness "
                       "width height depth minsize maxsize symmetric form largeop notation displaystyle scriptlevel "
                       "linebreak mathsize align encoding".split())


def template_basedirs() -> list[str]:
    """Where nbconvert looks for templates: ours first (the ``mathjax`` macro), then nbgrader's."""
    import nbgrader

    return [str(TEMPLATES), str(Path(nbgrader.__file__).parent / "server_extensions" / "formgrader" / "templates")]


def to_mathml(tex: str, display: bool) -> str | None:
    """``tex`` as MathML, or None when it is too long, does not convert, or holds anything not allowed."""
    if len(tex) > MAX_TEX:
        return None
    from latex2mathml.converter import convert

    try:
        out = convert(tex, display="block" if display else "inline")
        root = ET.fromstring(out)
    except Exception:  # noqa: BLE001 - any TeX latex2mathml cannot read (RecursionError included) stays TeX
        return None
    for node in root.iter():
        if not node.tag.startswith(MATHML) or node.tag[len(MATHML):] not in ELEMENTS:
            return None
        if any(name not in ATTRIBUTES for name in node.attrib):
            return None
    return out


@functools.cache
def _renderer_class():
    """The renderer class, made once per process (nbconvert is imported only when a page is made);
    each instance counts its own formulas (``self.formulas += 1`` sets the instance's)."""
    from nbconvert.filters.markdown_mistune import IPythonRenderer

    class MathMLRenderer(IPythonRenderer):
        """nbconvert's renderer, with formulas as MathML where they convert."""

        formulas = 0

        def _math(self, body: str, display: bool, fallback: str) -> str:
            self.formulas += 1
            mathml = to_mathml(body, display) if self.formulas <= MAX_FORMULAS else None
            return fallback if mathml is None else mathml

        def inline_math(self, body: str) -> str:
            return self._math(body, False, super().inline_math(body))

        def block_math(self, body: str) -> str:
            return self._math(body, True, super().block_math(body))

        def latex_environment(self, name: str, body: str) -> str:
            tex = f"\\begin{{{name}}}{body}\\end{{{name}}}"
            return self._math(tex, True, super().latex_environment(name, body))

    return MathMLRenderer


@pass_context
def markdown2html(context, source: str) -> str:
    """nbconvert's HTMLExporter.markdown2html, with the formulas as MathML (``HTMLExporter.filters``)."""
    from nbconvert.filters.markdown_mistune import MarkdownWithMath

    cell = context.get("cell", {})
    renderer = _renderer_class()(escape=False, attachments=cell.get("attachments", {}),
                                 path=context.get("resources", {}).get("metadata", {}).get("path", ""))
    return MarkdownWithMath(renderer=renderer).render(source)
