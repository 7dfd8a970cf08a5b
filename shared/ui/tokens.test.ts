// The design-token rule: shared/ui/tokens.css is the one place a colour is written. Every other stylesheet in
// the repository names colours (and shadows, fonts) through its custom properties.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const REPO = resolve(import.meta.dirname, '../..')
const TOKEN_FILE = 'shared/ui/tokens.css'
/** Build output and tool folders at the top of the repository; node_modules and dot-folders are skipped anywhere. */
const SKIPPED_AT_ROOT = new Set(['dist', 'lib', 'reports', 'test-results', 'playwright-report', 'blob-report'])

/** CSS Color 4 named colours, and the system colours: each is a colour literal too. */
const NAMED_COLOURS = new Set(
  `aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood
  cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray
  darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen
  darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue
  firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew
  hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan
  lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray
  lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue
  mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred
  midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
  palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple
  rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue
  slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow
  yellowgreen accentcolor accentcolortext activetext buttonborder buttonface buttontext canvas canvastext field
  fieldtext graytext highlight highlighttext linktext mark marktext selecteditem selecteditemtext visitedtext`
    .split(/\s+/)
    .filter(Boolean),
)
const HEX = /#[0-9a-f]{3,8}(?![-\w])/gi
const COLOUR_FUNCTION = /(?<![-\w])(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/gi

interface Finding {
  line: number
  literal: string
  declaration: string
}

/**
 * The colour literals in the declarations of a stylesheet: hex colours, colour functions (rgb(), hsl(), …) and
 * named colours. transparent, currentColor and the CSS-wide keywords are not colours of the palette, and are fine.
 * Selectors (`#root`, `a:hover`), comments, strings and url() are not declarations' colours and are not looked at.
 */
function findColourLiterals(css: string): Finding[] {
  // Blank out comments, keeping line breaks so that line numbers stay right.
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
  const findings: Finding[] = []
  // A declaration starts after `{` or `;` and ends at `;` or `}`; a nested selector runs into `{` and is skipped.
  for (const match of text.matchAll(/(?<=[{;])(\s*)((?:--)?[-a-z]+\s*:([^;{}]*))(?=[;}])/gi)) {
    const [, space = '', declaration = '', rawValue = ''] = match
    const line = text.slice(0, (match.index ?? 0) + space.length).split('\n').length
    const value = rawValue
      .replace(/(['"])(?:\\.|(?!\1)[^\\])*\1/g, ' ')
      .replace(/url\([^)]*\)/gi, ' ')
      .replace(/--[-\w]+/g, ' ')
    const literals = [
      ...[...value.matchAll(HEX)].map((m) => m[0]),
      ...[...value.matchAll(COLOUR_FUNCTION)].map((m) => m[0]),
      ...[...value.matchAll(/(?<![-\w#.])[a-z]+(?![-\w(])/gi)].map((m) => m[0]).filter((word) => NAMED_COLOURS.has(word.toLowerCase())),
    ]
    for (const literal of literals) findings.push({ line, literal, declaration: declaration.trim().replace(/\s+/g, ' ') })
  }
  return findings
}

function stylesheets(dir = REPO): string[] {
  const found: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
    if (dir === REPO && SKIPPED_AT_ROOT.has(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...stylesheets(path))
    else if (entry.name.endsWith('.css')) found.push(relative(REPO, path).split('\\').join('/'))
  }
  return found.sort()
}

const read = (file: string) => readFileSync(join(REPO, file), 'utf8')
const TOKEN_REFERENCE = /var\((--(?:color|shadow|font)-[-\w]+)/g

describe('findColourLiterals', () => {
  it('finds hex colours, colour functions and named colours, with their line', () => {
    const css = ['a {', '  color: #fff;', '  border: 1px solid rgb(0 0 0 / 10%);', '}', '.b { background: hsl(200 50% 50%); outline-color: White }'].join('\n')
    expect(findColourLiterals(css)).toEqual([
      { line: 2, literal: '#fff', declaration: 'color: #fff' },
      { line: 3, literal: 'rgb(', declaration: 'border: 1px solid rgb(0 0 0 / 10%)' },
      { line: 5, literal: 'hsl(', declaration: 'background: hsl(200 50% 50%)' },
      { line: 5, literal: 'White', declaration: 'outline-color: White' },
    ])
    expect(findColourLiterals(':root { --accent: #0b7a8a }')).toHaveLength(1)
    expect(findColourLiterals('@media (min-width: 600px) { a:hover { box-shadow: 0 1px 2px rgba(0, 0, 0, 0.2); } }')).toHaveLength(1)
  })

  it('leaves tokens, keywords, selectors, comments, strings and url() alone', () => {
    const css = [
      "@import '../shared/ui/tokens.css';",
      '#root, #bad, a:hover { color: var(--color-text); background: transparent; border-color: currentColor }',
      '/* was: color: #fff; */',
      ".x { fill: url(#abc); content: 'red #fff'; outline: 2px solid inherit; white-space: nowrap; transition: background-color 0.2s }",
      '.y { color: var(--color-red, var(--color-bad)) }',
    ].join('\n')
    expect(findColourLiterals(css)).toEqual([])
  })
})

describe('design tokens', () => {
  const files = stylesheets()
  const tokens = read(TOKEN_FILE)
  const defined = new Set([...tokens.matchAll(/^\s*(--[-\w]+)\s*:/gm)].map((m) => m[1]))

  it('the stylesheets are found', () => {
    expect(files).toContain(TOKEN_FILE)
    expect(files.length).toBeGreaterThanOrEqual(5)
  })

  it(`no stylesheet but ${TOKEN_FILE} writes a colour literal`, () => {
    const problems = files
      .filter((file) => file !== TOKEN_FILE)
      .flatMap((file) => findColourLiterals(read(file)).map((f) => `${file}:${f.line}: colour literal ${f.literal} in "${f.declaration}"`))
    expect(problems, `Colours live in ${TOKEN_FILE}: use a var(--color-…) token there (add one if none fits).\n${problems.join('\n')}`).toEqual([])
  })

  it('every token a stylesheet uses is defined, and a stylesheet that uses tokens imports the token file', () => {
    const problems: string[] = []
    for (const file of files) {
      const css = read(file).replace(/\/\*[\s\S]*?\*\//g, '')
      const used = [...css.matchAll(TOKEN_REFERENCE)].map((m) => m[1] ?? '')
      for (const name of new Set(used)) if (!defined.has(name)) problems.push(`${file}: ${name} is not defined in ${TOKEN_FILE}`)
      const imported = [...css.matchAll(/@import\s+(?:url\()?['"]([^'"]+)['"]/g)].some((m) => resolve(REPO, file, '..', m[1] ?? '') === join(REPO, TOKEN_FILE))
      if (file !== TOKEN_FILE && used.length > 0 && !imported) problems.push(`${file}: uses design tokens but does not @import ${TOKEN_FILE}`)
    }
    expect(problems).toEqual([])
  })
})
