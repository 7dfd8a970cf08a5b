import { sanitizeHtml } from './sanitize.ts'
import { XSS_CORPUS } from '../../../shared/testing/xss-corpus.ts'

function render(html: string): HTMLElement {
  const box = document.createElement('div')
  box.innerHTML = sanitizeHtml(html)
  return box
}

function dangerousBits(box: HTMLElement): string[] {
  const found: string[] = []
  for (const el of box.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase()
    if (['script', 'iframe', 'object', 'embed', 'style', 'form', 'input', 'button', 'svg', 'math', 'meta', 'base', 'link'].includes(tag)) {
      found.push(`<${tag}>`)
    }
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase()
      if (name.startsWith('on')) found.push(`${tag}[${name}]`)
      if (name === 'style' || name === 'srcdoc' || name === 'formaction' || name === 'id' || name === 'name') found.push(`${tag}[${name}]`)
      if (['href', 'src', 'action', 'data'].includes(name)) {
        const value = attr.value.trim().toLowerCase()
        const okImage = tag === 'img' && name === 'src' && /^data:image\/(png|jpeg|gif|webp);base64,/.test(value)
        if (!okImage && !/^https?:\/\//.test(value)) found.push(`${tag}[${name}=${attr.value}]`)
      }
    }
  }
  return found
}

test.each(XSS_CORPUS.map((input) => [input]))('leaves nothing executable in %s', (input) => {
  const box = render(input)
  expect(dangerousBits(box)).toEqual([])
})

test('the whole corpus in one document leaves nothing executable', () => {
  const box = render(XSS_CORPUS.join('\n'))
  expect(dangerousBits(box)).toEqual([])
})

test('keeps ordinary formatting and text', () => {
  const box = render('<p>Call with <strong>Ada</strong> <em>went well</em></p><ul><li>one</li></ul>')
  expect(box.querySelector('strong')?.textContent).toBe('Ada')
  expect(box.querySelector('em')).not.toBeNull()
  expect(box.querySelectorAll('li')).toHaveLength(1)
})

test('links keep http(s) targets and open in a new tab with rel=noopener', () => {
  const box = render('<a href="https://example.com/rec.mp3" target="_self">recording</a>')
  const link = box.querySelector('a')
  expect(link?.getAttribute('href')).toBe('https://example.com/rec.mp3')
  expect(link?.getAttribute('target')).toBe('_blank')
  expect(link?.getAttribute('rel')).toContain('noopener')
})

test('a javascript: link keeps its text but loses its href', () => {
  const box = render('<a href="javascript:alert(1)">click me</a>')
  const link = box.querySelector('a')
  expect(link?.textContent).toBe('click me')
  expect(link?.hasAttribute('href')).toBe(false)
  expect(link?.hasAttribute('target')).toBe(false)
})

test('images keep inline raster data but lose remote and SVG sources', () => {
  const png = 'data:image/png;base64,iVBORw0KGgo='
  const box = render(`<img alt="a" src="${png}"><img alt="b" src="https://tracker.example/p.gif"><img alt="c" src="data:image/svg+xml;base64,PHN2Zz4=">`)
  const [a, b, c] = [...box.querySelectorAll('img')]
  expect(a?.getAttribute('src')).toBe(png)
  expect(b?.hasAttribute('src')).toBe(false)
  expect(c?.hasAttribute('src')).toBe(false)
})

test('the checker used above does spot the corpus when it is not sanitized', () => {
  const box = document.createElement('div')
  box.innerHTML = XSS_CORPUS.join('\n')
  expect(dangerousBits(box).length).toBeGreaterThan(20)
})

