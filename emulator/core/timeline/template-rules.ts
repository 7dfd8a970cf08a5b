/**
 * The template language of timeline events: the two kinds (header, detail),
 * what a template sees, the date formats, the budgets one template and one
 * render keep (see render.ts), and the Handlebars names it allows or never
 * resolves. Parsing is in template-compile.ts, rendering in
 * template-interpreter.ts and template-html.ts.
 */

/** A template that cannot be parsed or uses something the interpreter does not support. */
export class TemplateError extends Error {
  override name = 'TemplateError'
}

/** Raised while rendering when a template would produce too much output (nested loops over big data). */
export class RenderLimitError extends Error {
  override name = 'RenderLimitError'
}

export type TemplateKind = 'header' | 'detail'

/** What a template sees. */
export interface RenderInput {
  /** Token values of the event, by token name. */
  tokens: Readonly<Record<string, string>>
  /** Detail only. */
  extraData?: unknown
  /** The event time (epoch ms); `timestamp` in the detail template. */
  timestamp?: number
}

/** Formats understood by `formatDate` (all in UTC, so output does not depend on the machine). */
export const DATE_FORMATS = ['datetime', 'date', 'time', 'iso', 'long', 'short'] as const
export type DateFormat = (typeof DATE_FORMATS)[number]

/**
 * Limits that keep a hostile template from hanging the emulator. The real
 * timeline API publishes no size limit for templates (only 1 MB per event and
 * 510 KB per token value, https://developers.hubspot.com/docs/api/crm/timeline);
 * these are the emulator's own, far above what a timeline card shows, and
 * each is named in the 400 that refuses a template over it.
 */
/** Steps of one render: statements plus `#each` iterations at every depth. */
export const MAX_STEPS = 100_000
/** UTF-8 bytes one render may produce: the real API's limit for a whole event (1 MB), so any event within it can show. */
export const MAX_OUTPUT_BYTES = 1024 * 1024
/**
 * The most text (UTF-8 bytes) given to Markdown; a longer rendered text is
 * shown as plain text. markdown-it's block and emphasis parsing is linear,
 * but runs of `[` or `![` cost it some 20 µs a character (measured: 60 KB of
 * `![` took 0.3 s), so this keeps the worst render of an event in tens of
 * milliseconds, far more text than a timeline card shows.
 */
export const MAX_MARKDOWN_BYTES = 16 * 1024
/** UTF-8 bytes of a template's source. */
export const MAX_TEMPLATE_BYTES = 64 * 1024
/** Deepest nesting of blocks (`{{#each}}` inside `{{#if}}` …) a template may have; checked before parsing. */
export const MAX_TEMPLATE_DEPTH = 100
/**
 * Deepest nesting of Markdown blocks (quotes in lists in quotes …), the limit
 * markdown-it's CommonMark preset uses. A template's own text deeper than this
 * is refused when it is saved; text from tokens deeper than this stops being
 * nested (markdown-it's `maxNesting`) instead of recursing.
 */
export const MAX_MARKDOWN_NESTING = 20
/** Total UTF-8 bytes of the template sources whose parse is cached (ASTs take some ten times their source). */
export const COMPILE_CACHE_BYTES = 2 * 1024 * 1024

export type Program = hbs.AST.Program
export type Statement = hbs.AST.Statement
export type Expression = hbs.AST.Expression
export type PathExpression = hbs.AST.PathExpression
export type Hash = hbs.AST.Hash

export const BLOCK_HELPERS = new Set(['if', 'unless', 'each', 'with', 'formatDate'])
/** Keys a template lookup never resolves (they lead to prototypes). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
])
export const DATA_VARIABLES = new Set(['index', 'key', 'first', 'last', 'root'])
