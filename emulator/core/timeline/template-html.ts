/**
 * Safe HTML out of rendered template text: the escapes Handlebars uses for
 * values, and the Markdown renderer (markdown-it, raw HTML off) whose link
 * and image rules keep a URL only when shared/url/safe-url.ts accepts it.
 */
import MarkdownIt from 'markdown-it'
import { safeUrl } from '../../../shared/url/safe-url.ts'

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
  '`': '&#x60;',
  '=': '&#x3D;',
}

/** Handlebars' escaping (the same seven characters). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`=]/g, (c) => ESCAPES[c] ?? c)
}

/** Escaping for a double-quoted attribute value (keeps URLs readable: `=` stays). */
export function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/** Decode the HTML character references a URL or code span may carry (ours come from escapeHtml). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (match, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? match
  })
}

/** A Markdown link's or image's URL as written: entities decoded (markdown-it leaves them); spaces at the ends are not part of a CommonMark link destination. */
const markdownUrl = (raw: string): string => decodeEntities(raw).trim()

/**
 * The Markdown renderer: raw HTML off (HTML in the text is escaped, with
 * Handlebars' seven characters, like the template's values); links and
 * images are checked when they are rendered, so a refused URL keeps its text.
 * `maxNesting` stops block and inline nesting (at depth 100, the renderer's
 * default), so deeply nested text from tokens cannot recurse further.
 */
export const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false, maxNesting: 100 })
// URLs are checked by the link and image rules below (a refused one keeps its text instead of staying Markdown source).
markdown.validateLink = () => true
markdown.normalizeLink = (url) => url
const rules = markdown.renderer.rules
rules.text = (tokens, idx) => escapeHtml(tokens[idx]?.content ?? '')
rules.code_inline = (tokens, idx) => `<code>${escapeHtml(decodeEntities(tokens[idx]?.content ?? ''))}</code>`
rules.code_block = (tokens, idx) => `<pre><code>${escapeHtml(decodeEntities(tokens[idx]?.content ?? ''))}</code></pre>\n`
rules.fence = rules.code_block
/** Per render: whether each open link was kept, so its close tag matches. */
interface MarkdownEnv {
  links?: boolean[]
}
/** An attribute of a Markdown token as text. */
const attr = (token: { attrGet(name: string): string | number | null } | undefined, name: string) => String(token?.attrGet(name) ?? '')
rules.link_open = (tokens, idx, _options, renderEnv) => {
  const env = renderEnv as MarkdownEnv | undefined
  const token = tokens[idx]
  const href = safeUrl(markdownUrl(attr(token, 'href')))
  if (env) (env.links ??= []).push(href !== undefined)
  if (href === undefined) return ''
  const rawTitle = attr(token, 'title')
  const title = rawTitle ? ` title="${escapeAttribute(decodeEntities(rawTitle))}"` : ''
  return `<a href="${escapeAttribute(href)}"${title} rel="noopener noreferrer nofollow" target="_blank">`
}
rules.link_close = (_tokens, _idx, _options, env) => ((env as MarkdownEnv | undefined)?.links?.pop() ? '</a>' : '')
rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]
  const alt = escapeAttribute(decodeEntities(self.renderInlineAsText(token?.children ?? [], options, env)))
  const src = safeUrl(markdownUrl(attr(token, 'src')))
  if (src === undefined) return alt
  const rawTitle = attr(token, 'title')
  const title = rawTitle ? ` title="${escapeAttribute(decodeEntities(rawTitle))}"` : ''
  return `<img src="${escapeAttribute(src)}" alt="${alt}"${title}>`
}

/**
 * How deep the Markdown blocks of a text nest (block quotes, lists and their
 * items, each a level), from markdown-it's block parser alone (line by line,
 * no inline parsing): linear in the text, and capped by its `maxNesting`, so
 * a text of 2,000 nested quotes reads as 100.
 */
export function markdownNesting(source: string): number {
  let deepest = 0
  const tokens: ReturnType<typeof markdown.parse> = []
  markdown.block.parse(source, markdown, {}, tokens)
  for (const token of tokens) {
    if (token.nesting === 1 && token.level + 1 > deepest) deepest = token.level + 1
  }
  return deepest
}
