/**
 * Rename every `on…` attribute of every start tag (`onerror` becomes
 * `x-blocked-onerror`) before untrusted markup is parsed.
 *
 * Why: parsing markup in the page, even into an inert document as
 * DOMPurify does, makes Chromium check each inline event handler against
 * the page's Content-Security-Policy and report a `securitypolicyviolation`
 * for it, although nothing would run. Renamed, they are unknown attributes,
 * which DOMPurify drops. This is noise reduction, not a security boundary:
 * whatever this scanner misreads, DOMPurify still sees and cleans the
 * result, so the worst a misreading can do is let a report through, or
 * rename an attribute-like piece of text.
 *
 * The scanner follows the HTML tokenizer where it matters: comments (with
 * their abrupt and `--!>` endings), bogus comments (`<!…>`, `<?…>`, `</…>`),
 * quoted and unquoted attribute values, end tags, and the raw-text elements
 * whose content holds no tags (script, style, textarea, title, …). Inside
 * SVG and MathML those elements are not raw text; the scanner tracks when
 * it is inside `<svg>`/`<math>` (until their end tag, or an HTML element
 * that breaks out of foreign content) and then reads their content as tags,
 * which at worst renames more than needed.
 */

/** Elements whose content the HTML tokenizer reads as text, not tags (outside SVG/MathML). */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript'])

/** HTML start tags that end foreign content (HTML standard, "parsing main inforeign"). */
const BREAKOUT_ELEMENTS = new Set(
  'b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var'.split(
    ' ',
  ),
)

const TAG_NAME = /[a-zA-Z][^\t\n\f\r />]*/y
const WHITESPACE = /[\t\n\f\r ]/
const BEFORE_ATTRIBUTE = /[\t\n\f\r /]/

/** Where a comment that starts at `start` (`<!--`) ends (index after it). */
function commentEnd(html: string, start: number): number {
  const body = start + 4
  if (html.startsWith('>', body)) return body + 1
  if (html.startsWith('->', body)) return body + 2
  const dashes = html.indexOf('--', body)
  for (let at = dashes; at >= 0; at = html.indexOf('--', at + 1)) {
    if (html.startsWith('-->', at)) return at + 3
    if (html.startsWith('--!>', at)) return at + 4
  }
  return html.length
}

export function renameEventHandlerAttributes(html: string): string {
  const n = html.length
  const out: string[] = []
  let i = 0
  /** Open <svg>/<math> elements. */
  let foreign = 0

  while (i < n) {
    const lt = html.indexOf('<', i)
    if (lt < 0) {
      out.push(html.slice(i))
      break
    }
    out.push(html.slice(i, lt))
    const next = html[lt + 1] ?? ''
    if (html.startsWith('<!--', lt)) {
      const stop = commentEnd(html, lt)
      out.push(html.slice(lt, stop))
      i = stop
      continue
    }
    const isEndTag = next === '/' && /[a-zA-Z]/.test(html[lt + 2] ?? '')
    if (next === '!' || next === '?' || (next === '/' && !isEndTag)) {
      // A bogus comment (or `</>`), up to the first '>'.
      const end = html.indexOf('>', lt + 1)
      const stop = end < 0 ? n : end + 1
      out.push(html.slice(lt, stop))
      i = stop
      continue
    }
    TAG_NAME.lastIndex = isEndTag ? lt + 2 : lt + 1
    const name = TAG_NAME.exec(html)
    if (!name) {
      out.push('<')
      i = lt + 1
      continue
    }
    const tag = name[0].toLowerCase()
    let j = TAG_NAME.lastIndex
    out.push(html.slice(lt, j))

    // Attributes, up to the tag's closing '>'.
    let selfClosing = false
    while (j < n) {
      while (j < n && BEFORE_ATTRIBUTE.test(html[j] as string)) {
        selfClosing = html[j] === '/'
        out.push(html[j++] as string)
      }
      if (j >= n) break
      if (html[j] === '>') {
        out.push('>')
        j++
        break
      }
      selfClosing = false
      const nameStart = j
      j++ // the first character belongs to the name, even '='
      while (j < n && !BEFORE_ATTRIBUTE.test(html[j] as string) && html[j] !== '>' && html[j] !== '=') j++
      const attribute = html.slice(nameStart, j)
      out.push(!isEndTag && attribute.toLowerCase().startsWith('on') ? `x-blocked-${attribute}` : attribute)
      let k = j
      while (k < n && WHITESPACE.test(html[k] as string)) k++
      if (html[k] !== '=') continue
      out.push(html.slice(j, k + 1))
      j = k + 1
      while (j < n && WHITESPACE.test(html[j] as string)) out.push(html[j++] as string)
      const quote = html[j]
      const valueStart = j
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, j + 1)
        j = close < 0 ? n : close + 1
      } else {
        while (j < n && !WHITESPACE.test(html[j] as string) && html[j] !== '>') j++
      }
      out.push(html.slice(valueStart, j))
    }
    i = j

    if (isEndTag) {
      if ((tag === 'svg' || tag === 'math') && foreign > 0) foreign--
      continue
    }
    if (foreign > 0 && BREAKOUT_ELEMENTS.has(tag)) foreign = 0
    if ((tag === 'svg' || tag === 'math') && !selfClosing) {
      foreign++
      continue
    }
    if (foreign === 0 && RAW_TEXT_ELEMENTS.has(tag)) {
      const closing = new RegExp(`</${tag}`, 'ig')
      closing.lastIndex = i
      const stop = closing.exec(html)?.index ?? n
      out.push(html.slice(i, stop))
      i = stop
    } else if (foreign === 0 && tag === 'plaintext') {
      out.push(html.slice(i))
      i = n
    }
  }
  return out.join('')
}
