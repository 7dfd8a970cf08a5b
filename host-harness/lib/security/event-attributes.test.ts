import fc from 'fast-check'
import { renameEventHandlerAttributes } from './event-attributes.ts'
import { XSS_CORPUS } from '../../../shared/testing/xss-corpus.ts'

/** Attributes named on… that an HTML parser puts on elements of this markup. */
function handlerAttributes(html: string): string[] {
  const doc = new DOMParser().parseFromString(html, 'text/html')
  const found: string[] = []
  // Every element, as querySelectorAll('*') would list them; jsdom's selector engine costs a fresh
  // document far more than the parse itself.
  for (const el of doc.getElementsByTagName('*')) {
    for (const attr of el.attributes) if (attr.name.toLowerCase().startsWith('on')) found.push(`${el.localName}[${attr.name}]`)
  }
  return found
}

test('renames event handler attributes of start tags, in every attribute syntax', () => {
  expect(renameEventHandlerAttributes('<img src=x onerror=alert(1)>')).toBe('<img src=x x-blocked-onerror=alert(1)>')
  expect(renameEventHandlerAttributes('<div\nONCLICK = "a>b" onmouseover=\'x\'>t</div>')).toBe('<div\nx-blocked-ONCLICK = "a>b" x-blocked-onmouseover=\'x\'>t</div>')
  expect(renameEventHandlerAttributes('<i/onload=y><b title="x"onfocus=z>')).toBe('<i/x-blocked-onload=y><b title="x"x-blocked-onfocus=z>')
  expect(renameEventHandlerAttributes('<details open ontoggle>')).toBe('<details open x-blocked-ontoggle>')
})

test('leaves text, comments, quoted values and raw-text content alone', () => {
  const unchanged = [
    '<a title="x onclick=y > z" href="https://e.com">on=1</a>',
    '1 < 2 onclick=3, <!-- <b onclick=x> --> once = only',
    '<textarea><b onclick=x></textarea>',
    '<script>var s = "<img onerror=1>"</script>',
    '<!-- a --!> tail',
  ]
  for (const html of unchanged) expect(renameEventHandlerAttributes(html)).toBe(html)
})

test('follows comment endings and bogus comments as the parser does', () => {
  expect(renameEventHandlerAttributes('<!--><img onerror=a>')).toBe('<!--><img x-blocked-onerror=a>')
  expect(renameEventHandlerAttributes('<!---><img onerror=a>')).toBe('<!---><img x-blocked-onerror=a>')
  expect(renameEventHandlerAttributes('<!-- x --!><img onerror=a>')).toBe('<!-- x --!><img x-blocked-onerror=a>')
  expect(renameEventHandlerAttributes('<![CDATA[<textarea><img onclick=a>')).toBe('<![CDATA[<textarea><img x-blocked-onclick=a>')
  expect(renameEventHandlerAttributes('</x title=">"><img onclick=a>')).toBe('</x title=">"><img x-blocked-onclick=a>')
})

test('inside SVG and MathML, title and style hold tags', () => {
  expect(renameEventHandlerAttributes('<svg><title><img onload=a></title></svg>')).toBe('<svg><title><img x-blocked-onload=a></title></svg>')
  expect(renameEventHandlerAttributes('<svg></svg><title><img onload=a></title>')).toBe('<svg></svg><title><img onload=a></title>')
})

test.each(XSS_CORPUS.map((item) => [item]))('no event handler attribute reaches the parser from %s', (item) => {
  expect(handlerAttributes(renameEventHandlerAttributes(item))).toEqual([])
})

test('the corpus does put event handlers on elements when not renamed (so the checks above can fail)', () => {
  expect(handlerAttributes(XSS_CORPUS.join('\n')).length).toBeGreaterThan(5)
})

test('no event handler attribute reaches the parser from the whole corpus at once', () => {
  expect(handlerAttributes(renameEventHandlerAttributes(XSS_CORPUS.join('\n')))).toEqual([])
})

test('no event handler attribute reaches the parser, in HTML, SVG or MathML content (fuzzed)', () => {
  const pieces = [
    '<img', '<a', '<div', '<x-y', '</a', '>', '/>', '/', ' ', '\t', '\n', '=', '"', "'", '`', '!', '-', '?',
    ' onerror=x', ' ONclick="y"', " onload='z'", '/onfocus=1', ' on=2', ' title="a>b onclick=c"', " alt='q onmouseover=r'", ' src=x',
    '<!--', '-->', '--!>', '<!', '<?', '<script>', '</script>', '<textarea>', '</textarea>', '<title>', '</title>', '<style>', '</style>', 'text', '<svg', '<math', '</svg>', '<mtext>', '<foreignObject>', '<![CDATA[', ']]>',
  ]
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
      expect(handlerAttributes(renameEventHandlerAttributes(parts.join('')))).toEqual([])
    }),
    { numRuns: 1500 },
  )
  // jsdom's parser is slow; the bound is for a loaded machine, not a speed check.
}, 120_000)
