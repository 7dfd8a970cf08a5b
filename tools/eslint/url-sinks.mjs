// ESLint rule `ringside/url-sink`: every value that becomes a URL the browser loads or follows is a literal, or
// comes out of shared/url/safe-url.ts (or another call the config lists, each with its reason).
//
// The sinks it walks (docs/urls.md):
// - JSX attributes src, href, action, formAction, data, poster, xlinkHref of an element (a component's props are
//   checked where it renders them);
// - assignments to `.src`, `.href`, `.action`, `.formAction`, `.poster`, to `location` and `<x>.location` (not `.data`,
//   a name too many objects use; `<object data>` is caught in JSX and setAttribute);
// - setAttribute('src' | 'href' | 'action' | 'formaction' | 'data' | 'poster' | 'xlink:href', value);
// - window.open(url), open(url), `<x>.location.assign(url)` / `.replace(url)`;
// - Object.assign(document.createElement(…), { src | href: value });
// - an HTML string: a template literal's `${value}` written right after `src="`, `href='`, `action=` (and the rest).
//
// A value is accepted when it is a string literal or a template literal whose text fixes where it points:
// `#…` (this document), `?…` (this document's path), `/x…` (this origin: one slash then neither `/` nor `\`), or `http(s)://host/…`; a call of a
// listed function; `undefined`/`null`; `a ? b : c`, `a ?? b`, `a || b` with both sides accepted, `a && b` with `b`
// accepted; a `const` whose initial value is accepted. Anything else (a parameter, a property, a `let`) is
// reported: pass it through safeUrl/requireSafeUrl, or write an `eslint-disable-next-line` with a reason.
//
// `npm run lint` caches results per file, keyed on the files and the config, not on this rule's code: after editing it, run
// `npx eslint --no-cache .` once.

const URL_ATTRIBUTES = new Set(['src', 'href', 'action', 'formAction', 'formaction', 'data', 'poster', 'xlinkHref', 'xlink:href'])
const URL_PROPERTIES = new Set(['src', 'href', 'action', 'formAction', 'poster'])
const HTML_ATTRIBUTE_BEFORE = /\s(?:src|href|action|formaction|data|poster|xlink:href)\s*=\s*["']?$/i
const FIXED_PREFIX = /^(?:#|\?|\/[^/\\]|https?:\/\/[^/\\${}]+\/)/i
const WINDOWS = new Set(['window', 'win', 'self', 'top', 'parent', 'opener', 'globalThis'])

/** A URL written in the code: any but another scheme (javascript:, data:…), `//host` or a backslash. */
function literalAccepted(text) {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase()
  if (scheme !== undefined) return scheme === 'http' || scheme === 'https'
  return !text.trimStart().startsWith('//') && !text.includes('\\')
}

/** `a.b.c` for a member chain of identifiers, else null. */
function dotted(node) {
  if (node.type === 'Identifier') return node.name
  if (node.type === 'ThisExpression') return 'this'
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') {
    const head = dotted(node.object)
    return head === null ? null : `${head}.${node.property.name}`
  }
  return null
}

const propertyName = (node) => (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier' ? node.property.name : null)

/** The name a call's callee is matched by: `safeUrl`, `URL.createObjectURL`, `hrefs.record`. */
function calleeMatches(callee, patterns) {
  const name = dotted(callee)
  if (name === null) return false
  return patterns.some((pattern) => (pattern.endsWith('.*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern))
}

function findVariable(scope, name) {
  for (let s = scope; s; s = s.upper) {
    const found = s.set.get(name)
    if (found) return found
  }
  return null
}

export const urlSinkRule = {
  meta: {
    type: 'problem',
    docs: { description: 'A URL that becomes a src, href or navigation is a literal or the output of shared/url/safe-url.ts' },
    schema: [{ type: 'object', properties: { safeCalls: { type: 'array', items: { type: 'string' } }, transparentCalls: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }],
    messages: {
      unchecked:
        '{{sink}} takes a URL that is neither a literal nor checked: pass it through safeUrl()/requireSafeUrl() from shared/url/safe-url.ts (the one URL rule, docs/urls.md), or disable this line with a comment that says why it is safe.',
    },
  },
  create(context) {
    const safeCalls = context.options[0]?.safeCalls ?? ['safeUrl', 'requireSafeUrl']
    /** Calls that escape their first argument for HTML and keep where it points (escapeHtml): accepted when that argument is. */
    const transparentCalls = context.options[0]?.transparentCalls ?? []
    const sourceCode = context.sourceCode

    function accepted(node, seen = new Set()) {
      if (!node) return true
      switch (node.type) {
        case 'Literal':
          return typeof node.value !== 'string' || literalAccepted(node.value)
        case 'TemplateLiteral':
          return node.expressions.length === 0 ? literalAccepted(node.quasis[0].value.cooked ?? '') : FIXED_PREFIX.test(node.quasis[0].value.cooked ?? '')
        case 'CallExpression':
          if (calleeMatches(node.callee, transparentCalls)) return accepted(node.arguments[0], seen)
          return calleeMatches(node.callee, safeCalls)
        case 'AwaitExpression':
          return accepted(node.argument, seen)
        case 'TSNonNullExpression':
        case 'TSAsExpression':
        case 'TSSatisfiesExpression':
          return accepted(node.expression, seen)
        case 'ConditionalExpression':
          return accepted(node.consequent, seen) && accepted(node.alternate, seen)
        case 'LogicalExpression':
          return node.operator === '&&' ? accepted(node.right, seen) : accepted(node.left, seen) && accepted(node.right, seen)
        case 'Identifier': {
          if (node.name === 'undefined') return true
          if (seen.has(node.name)) return false
          seen.add(node.name)
          const variable = findVariable(sourceCode.getScope(node), node.name)
          const def = variable?.defs.length === 1 ? variable.defs[0] : null
          return def?.type === 'Variable' && def.parent.kind === 'const' && def.node.id.type === 'Identifier' && accepted(def.node.init, seen)
        }
        default:
          return false
      }
    }

    /** An identifier that names the global (window.open), not an import or a local of the same name. */
    const isGlobal = (identifier) => (findVariable(sourceCode.getScope(identifier), identifier.name)?.defs.length ?? 0) === 0

    const check = (value, sink, at) => {
      if (!accepted(value)) context.report({ node: at ?? value, messageId: 'unchecked', data: { sink } })
    }

    return {
      JSXAttribute(node) {
        // A component's prop is checked where the component puts it on an element.
        const element = node.parent.name
        if (element.type !== 'JSXIdentifier' || !/^[a-z]/.test(element.name)) return
        const name = node.name.type === 'JSXNamespacedName' ? `${node.name.namespace.name}:${node.name.name.name}` : node.name.name
        if (!URL_ATTRIBUTES.has(name) || !node.value) return
        const value = node.value.type === 'JSXExpressionContainer' ? node.value.expression : node.value
        if (value.type !== 'JSXEmptyExpression') check(value, `The ${name} attribute`)
      },
      AssignmentExpression(node) {
        const target = node.left
        const prop = propertyName(target)
        if (target.type === 'Identifier' && target.name === 'location') check(node.right, 'Assigning location')
        else if (prop === 'location') check(node.right, `Assigning ${dotted(target) ?? '….location'}`)
        else if (prop !== null && URL_PROPERTIES.has(prop)) check(node.right, `Assigning .${prop}`)
      },
      CallExpression(node) {
        const callee = node.callee
        const prop = propertyName(callee)
        const [first, second] = node.arguments
        if (prop === 'setAttribute' && first?.type === 'Literal' && URL_ATTRIBUTES.has(String(first.value))) check(second, `setAttribute('${first.value}')`, node)
        else if (callee.type === 'Identifier' && callee.name === 'open' && isGlobal(callee)) check(first, 'open()', node)
        else if (prop === 'open' && WINDOWS.has(dotted(callee.object) ?? '')) check(first, `${dotted(callee)}()`, node)
        else if ((prop === 'assign' || prop === 'replace') && /(^|\.)location$/.test(dotted(callee.object) ?? '')) check(first, `location.${prop}()`, node)
        else if (dotted(callee) === 'Object.assign' && first?.type === 'CallExpression' && propertyName(first.callee) === 'createElement') {
          for (const source of node.arguments.slice(1)) {
            if (source.type !== 'ObjectExpression') continue
            for (const p of source.properties) {
              const key = p.type === 'Property' && !p.computed ? (p.key.type === 'Identifier' ? p.key.name : String(p.key.value)) : null
              if (key !== null && URL_PROPERTIES.has(key)) check(p.value, `Object.assign(element, { ${key} })`)
            }
          }
        }
      },
      TemplateLiteral(node) {
        node.expressions.forEach((expression, i) => {
          if (HTML_ATTRIBUTE_BEFORE.test(node.quasis[i].value.cooked ?? '')) check(expression, 'An HTML URL attribute')
        })
      },
    }
  },
}

export default { rules: { 'url-sink': urlSinkRule } }
