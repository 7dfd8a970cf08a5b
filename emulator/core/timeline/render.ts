/**
 * Rendering of timeline event templates: Handlebars over the event's data,
 * then Markdown, giving HTML that is safe by construction.
 *
 * Why not `Handlebars.compile`: it builds JavaScript with `new Function`
 * (forbidden by the harness's Content-Security-Policy) and its generated code
 * can reach prototypes (`{{constructor.constructor}}`). Here templates are only
 * parsed (`Handlebars.parse`, a pure parser) and the resulting AST is walked
 * by a small interpreter for the subset timeline templates use:
 *
 * - `{{path.to.value}}`, HTML-escaped. `{{{triple}}}` and `{{&amp}}` are escaped
 *   too: a template cannot emit raw HTML.
 * - `{{#if}}` / `{{else}}` / `{{#unless}}` (hash `includeZero=true` allowed),
 *   `{{#each}}` over arrays and objects (`this`, `@index`, `@key`, `@first`,
 *   `@last`, block params `as |item i|`), `{{#with}}`.
 * - `{{#formatDate value format="…"}}{{/formatDate}}` or `{{formatDate value}}`,
 *   formats in `DATE_FORMATS`; detail template only (empty in the header).
 * - `../` parent contexts and `@root`.
 * - Lookups see own properties only; `__proto__`, `constructor` and
 *   `prototype` never resolve. A token whose name contains dots (`order.id`)
 *   is found by `{{order.id}}` as well as `{{[order.id]}}`.
 *
 * Anything else (partials, sub-expressions, decorators, raw blocks, unknown
 * helpers) is refused when the template is saved, with the position.
 *
 * Markdown: `markdown-it` (raw HTML off, so HTML in the text is shown as
 * text), with rules that keep link and image URLs only when
 * shared/url/safe-url.ts accepts them (absolute http(s)); a dropped link keeps its text, a dropped image its alt
 * text. markdown-it parses in time linear in its input (CommonMark's
 * delimiter algorithm, with its own guard against pathological emphasis and
 * nesting), where the previous renderer took quadratic time on runs such as
 * `_a_a_a…` and overflowed the stack on deeply nested block quotes.
 *
 * Budgets (a template and its data are untrusted input; one render must never
 * hold the event loop):
 * - a template's source is at most MAX_TEMPLATE_BYTES, its blocks nest at most
 *   MAX_TEMPLATE_DEPTH deep and its Markdown at most MAX_MARKDOWN_NESTING deep:
 *   checked before parsing and when the template is saved (400);
 * - rendering counts steps (every statement and every `#each` iteration, at
 *   every depth) up to MAX_STEPS, and output bytes up to MAX_OUTPUT_BYTES;
 * - Markdown is given at most MAX_MARKDOWN_BYTES; a longer text is shown as
 *   plain, escaped text;
 * - parsed templates are cached in an LRU bounded by the bytes of their
 *   sources (COMPILE_CACHE_BYTES), not by their count.
 *
 * This file is the entry (renderTemplate); the language and its budgets are
 * in template-rules.ts, parsing in template-compile.ts, the interpreter in
 * template-interpreter.ts, escaping and Markdown in template-html.ts.
 */
import { utf8Bytes } from '../http/http.ts'
import { compileTemplate } from './template-compile.ts'
import { decodeEntities, escapeHtml, markdown } from './template-html.ts'
import { Interpreter } from './template-interpreter.ts'
import { MAX_MARKDOWN_BYTES, RenderLimitError, TemplateError, type RenderInput, type TemplateKind } from './template-rules.ts'

/** The data a template kind sees: tokens always; extraData and timestamp in the detail only. */
function rootFor(kind: TemplateKind, input: RenderInput): Record<string, unknown> {
  const root: Record<string, unknown> = Object.create(null)
  for (const [name, value] of Object.entries(input.tokens)) root[name] = value
  if (kind === 'detail') {
    if (input.extraData !== undefined) root.extraData = input.extraData
    if (input.timestamp !== undefined) root.timestamp = input.timestamp
  }
  return root
}

/** Handlebars only (no Markdown): the intermediate text, escaped. Exposed for tests. */
export function interpolate(source: string, kind: TemplateKind, input: RenderInput): string {
  return new Interpreter(kind, rootFor(kind, input)).run(compileTemplate(source))
}

/** What a template that cannot be rendered shows in place of the event's header or detail. */
export function renderFailure(reason: string): string {
  return `<p><em>This event could not be rendered: ${escapeHtml(reason)}</em></p>`
}

/**
 * Render a template to safe HTML: Handlebars, then Markdown (inline for the
 * one-line header, block for the detail). An absent template renders as ''.
 * A template that is invalid or over a budget renders a short notice instead
 * of failing. A rendered text over MAX_MARKDOWN_BYTES is shown as plain text.
 */
export function renderTemplate(source: string | undefined, kind: TemplateKind, input: RenderInput): string {
  if (source === undefined || source === '') return ''
  let text: string
  try {
    text = interpolate(source, kind, input)
  } catch (error) {
    if (error instanceof RenderLimitError || error instanceof TemplateError) return renderFailure(error.message)
    throw error
  }
  if (utf8Bytes(text) > MAX_MARKDOWN_BYTES) {
    // Values are escaped already and the template's own text is not: decoding first escapes both once.
    const plain = escapeHtml(decodeEntities(text)).replace(/\n/g, '<br>\n')
    return kind === 'header' ? plain : `<p>${plain}</p>\n`
  }
  return kind === 'header' ? markdown.renderInline(text, {}) : markdown.render(text, {})
}
