/**
 * Finds the relative links of the manual (README.md and docs/**.md) that lead nowhere: a file that
 * is not in the repository, or an `#anchor` that no heading of the target page makes. Anchors are
 * the ids GitHub gives headings when it renders Markdown (github-slugger's rule: lower-cased,
 * punctuation dropped, spaces to `-`, a repeated heading suffixed `-1`, `-2`, …), plus any HTML
 * `id`/`name` the page writes itself. Links are read with markdown-it, the parser the API already
 * renders timeline Markdown with, so a link inside a code span or block is not a link here either.
 *
 * tools/docs/docs-links.test.ts runs it over the repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import MarkdownIt from 'markdown-it'

const md = new MarkdownIt({ html: true })

/** What a Markdown file's links and anchors are, as GitHub reads them. */
interface Token {
  type: string
  tag: string
  content: string
  map: [number, number] | null
  children: Token[] | null
  attrGet(name: string): string | null
}

/**
 * GitHub's id for a heading's text: github-slugger lower-cases it, removes every character that is
 * not a letter, a mark, a number, a connector (`_`), a space or `-`, and turns each space into `-`.
 */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** The text of an inline token as GitHub renders it (markup dropped, code spans kept). */
function textOf(inline: Token | undefined): string {
  return (inline?.children ?? []).map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('')
}

const HTML_ATTRIBUTE = /\s(id|name|href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi

function htmlAttributes(html: string, names: readonly string[]): string[] {
  return [...html.matchAll(HTML_ATTRIBUTE)].filter((m) => names.includes((m[1] ?? '').toLowerCase())).map((m) => m[2] ?? m[3] ?? '')
}

/** Every anchor a page offers: its headings' ids (repeats numbered as GitHub numbers them) and its HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const tokens = md.parse(markdown, {}) as Token[]
  const anchors = new Set<string>()
  // github-slugger's numbering: a slug already given gets `-1`, `-2`, … counted per original slug
  const occurrences = new Map<string, number>()
  tokens.forEach((token, i) => {
    if (token.type === 'heading_open') {
      const original = githubSlug(textOf(tokens[i + 1]))
      let slug = original
      while (occurrences.has(slug)) {
        const n = (occurrences.get(original) ?? 0) + 1
        occurrences.set(original, n)
        slug = `${original}-${n}`
      }
      occurrences.set(slug, 0)
      anchors.add(slug)
    }
    const htmls = token.type === 'html_block' ? [token.content] : token.type === 'inline' ? (token.children ?? []).filter((c) => c.type === 'html_inline').map((c) => c.content) : []
    for (const html of htmls) for (const id of htmlAttributes(html, ['id', 'name'])) anchors.add(id)
  })
  return anchors
}

export interface Link {
  target: string
  line: number
}

/** Every link and image target of a page, with the line it starts on (code spans and blocks hold none). */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = []
  let line = 1
  for (const token of md.parse(markdown, {}) as Token[]) {
    // a table cell's inline token has no line of its own: it is on the line of the block before it
    if (token.map) line = token.map[0] + 1
    if (token.type === 'html_block') for (const target of htmlAttributes(token.content, ['href', 'src'])) links.push({ target, line })
    if (token.type !== 'inline') continue
    for (const child of token.children ?? []) {
      const target = child.type === 'link_open' ? child.attrGet('href') : child.type === 'image' ? child.attrGet('src') : null
      if (target !== null) links.push({ target, line })
      if (child.type === 'html_inline') for (const html of htmlAttributes(child.content, ['href', 'src'])) links.push({ target: html, line })
    }
  }
  return links
}

/** A link with a scheme (`https:`, `mailto:`) or protocol-relative leaves the repository: not checked here. */
const isExternal = (target: string) => /^[a-z][a-z\d+.-]*:/i.test(target) || target.startsWith('//')
/** GitHub's line anchors on a file that is not Markdown (`#L10`, `#L10-L20`). */
const LINE_ANCHOR = /^L\d+(-L\d+)?$/

/** Why a relative link of `file` (a path under `root`) is broken, or null when it leads somewhere. */
export function whyBroken(root: string, file: string, target: string, anchorsCache = new Map<string, Set<string>>()): string | null {
  if (isExternal(target)) return null
  const hash = target.indexOf('#')
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1))
  const path = decodeURIComponent((hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, ''))
  const to = path === '' ? resolve(root, file) : path.startsWith('/') ? resolve(root, `.${path}`) : resolve(root, dirname(file), path)
  const inRepo = relative(root, to)
  if (inRepo.startsWith(`..${sep}`) || inRepo === '..') return `${path} leaves the repository`
  if (!existsSync(to)) return `${inRepo} does not exist`
  if (anchor === undefined || anchor === '') return null
  if (statSync(to).isDirectory()) return `#${anchor}: ${inRepo} is a folder, which has no anchors`
  if (!to.endsWith('.md')) return LINE_ANCHOR.test(anchor) ? null : `#${anchor}: ${inRepo} is not Markdown, and only line anchors (#L10) work there`
  let anchors = anchorsCache.get(to)
  if (!anchors) anchorsCache.set(to, (anchors = anchorsOf(readFileSync(to, 'utf8'))))
  return anchors.has(anchor) ? null : `#${anchor}: no heading of ${inRepo} has that anchor`
}

/** The manual's pages under `root`: README.md and every Markdown file under docs/. */
export function manualPages(root: string): string[] {
  const docs = join(root, 'docs')
  const pages = existsSync(docs)
    ? readdirSync(docs, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.md'))
        .map((name) => join('docs', name))
    : []
  return ['README.md', ...pages.sort()]
}

/** Every broken relative link of the manual under `root`, one line each: `file:line: target — why`. */
export function brokenLinks(root: string, pages = manualPages(root)): string[] {
  const cache = new Map<string, Set<string>>()
  return pages.flatMap((file) =>
    linksOf(readFileSync(join(root, file), 'utf8')).flatMap(({ target, line }) => {
      const why = whyBroken(root, file, target, cache)
      return why === null ? [] : [`${file}:${line}: ${target} — ${why}`]
    }),
  )
}

/** The pages under docs/ that no other page of the manual links to: a reader starting at README.md never finds them. */
export function unlinkedPages(root: string, pages = manualPages(root)): string[] {
  const linked = new Set<string>()
  for (const file of pages)
    for (const { target } of linksOf(readFileSync(join(root, file), 'utf8'))) {
      if (isExternal(target)) continue
      const path = decodeURIComponent(target.split('#')[0]?.split('?')[0] ?? '')
      if (path !== '') linked.add(relative(root, resolve(root, dirname(file), path)))
    }
  return pages.filter((page) => page !== 'README.md' && !linked.has(page))
}
