import { ESLint, RuleTester } from 'eslint'
import tseslint from 'typescript-eslint'
import { afterAll, describe, expect, it, test } from 'vitest'
import { urlSinkRule } from './url-sinks.mjs'

// RuleTester registers its cases through these hooks (eslint's rule-tester docs: "Customizing RuleTester"); its
// type declarations leave them out.
Object.assign(RuleTester, { afterAll, describe, it, itOnly: it.only })

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
})
const options = [{ safeCalls: ['safeUrl', 'requireSafeUrl', 'URL.createObjectURL', 'hrefs.*'], transparentCalls: ['escapeHtml'] }]
const error = { messageId: 'unchecked' }

// One bad and one good example of every sink the rule walks.
tester.run('url-sink', urlSinkRule, {
  valid: [
    { code: 'const a = <a href={safeUrl(event.url)}>x</a>', options },
    { code: 'const a = <a href="#/contacts">x</a>', options },
    { code: 'const a = <a href={`#/contacts/${encodeURIComponent(id)}`}>x</a>', options },
    { code: 'const a = <iframe src={`/_ringside/v1/${id}`} />', options },
    { code: 'const u = safeUrl(raw); const a = <iframe src={u} />', options },
    { code: 'const u = ok ? safeUrl(raw) : undefined; const a = <audio src={u ?? undefined} />', options },
    { code: 'const a = <Row href={anything} data={anything} />', options },
    { code: 'frame.src = requireSafeUrl(param, "widget")', options },
    { code: 'const url = URL.createObjectURL(blob); link.href = url', options },
    { code: 'link.href = hrefs.record("contacts", id)', options },
    { code: 'el.setAttribute("title", anything)', options },
    { code: 'window.open(`#/contacts/${id}`, "_blank", "noopener")', options },
    { code: 'win.open("", "name", "popup")', options },
    { code: 'import { open } from "node:fs/promises"; open(path)', options },
    { code: 'location.assign(requireSafeUrl(target, "redirect"))', options },
    { code: 'location.hash = anything', options },
    { code: 'const html = `<a href="${escapeHtml(safeUrl(u))}">`', options },
    { code: 'entry.data = payload', options },
  ],
  invalid: [
    { code: 'const a = <a href={event.url}>x</a>', options, errors: [error] },
    { code: 'const a = <iframe src={props.url} />', options, errors: [error] },
    { code: 'const a = <form action={query.get("next")} />', options, errors: [error] },
    { code: 'const a = <button formAction={next} />', options, errors: [error] },
    { code: 'const a = <object data={u} />', options, errors: [error] },
    { code: 'const a = <a href="javascript:void(0)">x</a>', options, errors: [error] },
    { code: 'const a = <a href={`${base}/x`}>x</a>', options, errors: [error] },
    { code: 'const a = <a href={`//${host}/x`}>x</a>', options, errors: [error] },
    { code: 'let u = safeUrl(raw); u = raw; const a = <a href={u}>x</a>', options, errors: [error] },
    { code: 'function f(u) { frame.src = u }', options, errors: [error] },
    { code: 'frame.src = new URL(param, location.href).href', options, errors: [error] },
    { code: 'el.setAttribute("href", param)', options, errors: [error] },
    { code: 'el.setAttribute("src", param)', options, errors: [error] },
    { code: 'window.open(param)', options, errors: [error] },
    { code: 'open(param)', options, errors: [error] },
    { code: 'location.href = param', options, errors: [error] },
    { code: 'location = param', options, errors: [error] },
    { code: 'window.location = param', options, errors: [error] },
    { code: 'top.location.replace(param)', options, errors: [error] },
    { code: 'location.assign(param)', options, errors: [error] },
    { code: 'document.body.append(Object.assign(document.createElement("a"), { href: param }))', options, errors: [error] },
    { code: 'const html = `<img alt="" src="${escapeHtml(param)}">`', options, errors: [error] },
    { code: "const html = `<a href='${param}'>`", options, errors: [error] },
  ],
})

test("the repository's ESLint config applies the rule: a bad snippet in a harness file is refused, a checked one passes", async () => {
  const eslint = new ESLint({ cwd: process.cwd() })
  const bad = "export const Link = ({ url }: { url: string }) => <a href={url}>go</a>\n"
  const good = "import { safeUrl } from '../../shared/url/safe-url.ts'\nexport const Link = ({ url }: { url: string }) => <a href={safeUrl(url)}>go</a>\n"
  const [refused] = await eslint.lintText(bad, { filePath: 'host-harness/timeline/url-sink-example.tsx' })
  expect(refused?.messages.map((m) => m.ruleId)).toEqual(['ringside/url-sink'])
  const [passed] = await eslint.lintText(good, { filePath: 'host-harness/timeline/url-sink-example.tsx' })
  expect(passed?.messages).toEqual([])
  // and in a fixture page, where a query parameter reaches an iframe
  const [fixture] = await eslint.lintText("const f = document.createElement('iframe')\nf.src = new URLSearchParams(location.search).get('hostile') ?? ''\n", { filePath: 'e2e/fixtures/plain-host/example.ts' })
  expect(fixture?.messages.map((m) => m.ruleId)).toEqual(['ringside/url-sink'])
}, 60_000)
