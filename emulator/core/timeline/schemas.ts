/**
 * Request bodies of the timeline API (event templates, tokens, events and
 * timelineIFrame, with the real API's fields), checked with zod. Unknown
 * fields are refused, so a typo is a 400 that names it rather than a silently
 * ignored field. Read-only fields a client may echo
 * back from a GET (id, createdAt, updatedAt) are tolerated on updates.
 */
import { z } from 'zod'
import { validationError } from '../http/errors.ts'
import { ownRecord } from '../http/http.ts'
import { FORBIDDEN_KEYS } from './template-rules.ts'
import { urlField } from '../http/url-field.ts'

/** The real timeline API's published limits, plus one emulator choice (batchInputs). */
export const LIMITS = {
  templatesPerApp: 750,
  tokensPerTemplate: 500,
  /** 510 KB per token or property value (UTF-8 bytes). */
  valueBytes: 510 * 1024,
  /** 1 MB per serialized event (UTF-8 bytes of its JSON). */
  eventBytes: 1024 * 1024,
  /** 500 bytes per event id (UTF-8). */
  eventIdBytes: 500,
  /** Inputs per batch create (the real API publishes no limit; an emulator choice). */
  batchInputs: 500,
} as const

export const RESERVED_TOKEN_NAMES = ['log', 'lookup'] as const
export const TOKEN_TYPES = ['string', 'number', 'enumeration', 'date'] as const
export type TokenType = (typeof TOKEN_TYPES)[number]

const TOKEN_NAME = /^[A-Za-z0-9._-]+$/

const tokenName = z
  .string()
  .min(1, 'must not be empty')
  .regex(TOKEN_NAME, 'may only hold letters, digits, ".", "-" and "_"')
  .refine((name) => !(RESERVED_TOKEN_NAMES as readonly string[]).includes(name.toLowerCase()), {
    message: `is reserved (${RESERVED_TOKEN_NAMES.join(', ')} cannot be used)`,
  })
  // Templates never resolve these names (they would reach an object's prototype), so such a token could never show.
  .refine((name) => !FORBIDDEN_KEYS.has(name), { message: `cannot be used: templates never resolve ${[...FORBIDDEN_KEYS].join(', ')}` })

const optionSchema = z.strictObject({
  value: z.string().min(1, 'must not be empty'),
  label: z.string().min(1, 'must not be empty'),
})

const echoed = {
  createdAt: z.string().nullable().optional(),
  updatedAt: z.string().nullable().optional(),
}

export const tokenInputSchema = z.strictObject({
  name: tokenName,
  label: z.string().min(1, 'must not be empty'),
  type: z.enum(TOKEN_TYPES),
  options: z.array(optionSchema).optional(),
  objectPropertyName: z.string().min(1, 'must not be empty').optional(),
  ...echoed,
})
export type TokenInput = z.infer<typeof tokenInputSchema>

export const tokenUpdateSchema = z.strictObject({
  label: z.string().min(1, 'must not be empty'),
  options: z.array(optionSchema).optional(),
  /** null clears it. */
  objectPropertyName: z.string().min(1, 'must not be empty').nullable().optional(),
  /** May be echoed back but not changed. */
  name: z.string().optional(),
  type: z.string().optional(),
  ...echoed,
})
export type TokenUpdate = z.infer<typeof tokenUpdateSchema>

const templateText = z.string()

export const templateCreateSchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty'),
  objectType: z.string().optional(),
  headerTemplate: templateText.optional(),
  detailTemplate: templateText.optional(),
  tokens: z.array(z.unknown()).optional(),
})
export type TemplateCreate = z.infer<typeof templateCreateSchema>

export const templateUpdateSchema = z.strictObject({
  id: z.union([z.string(), z.number()]).optional(),
  name: z.string().trim().min(1, 'must not be empty'),
  objectType: z.string().optional(),
  headerTemplate: templateText.nullable().optional(),
  detailTemplate: templateText.nullable().optional(),
  tokens: z.array(z.unknown()).optional(),
  ...echoed,
})
export type TemplateUpdate = z.infer<typeof templateUpdateSchema>

const positiveInt = z.number().int('must be an integer').positive('must be positive')

export const iframeSchema = z.strictObject({
  linkLabel: z.string().min(1, 'must not be empty'),
  headerLabel: z.string().min(1, 'must not be empty'),
  url: urlField(),
  width: positiveInt,
  height: positiveInt,
})
export type TimelineIFrame = z.infer<typeof iframeSchema>

const idLike = z.union([z.string().min(1, 'must not be empty'), z.number().int().nonnegative()]).transform(String)

export const eventInputSchema = z.strictObject({
  eventTemplateId: idLike,
  id: z.string().min(1, 'must not be empty').optional(),
  objectId: idLike.optional(),
  email: z.string().min(1, 'must not be empty').optional(),
  utk: z.string().min(1, 'must not be empty').optional(),
  domain: z.string().optional(),
  timestamp: z.union([z.string(), z.number()]).optional(),
  // Keeps a `__proto__` key, so it is refused as an unknown token instead of vanishing.
  tokens: ownRecord(z.union([z.string(), z.number(), z.boolean()])).optional(),
  extraData: z.json().optional(),
  timelineIFrame: iframeSchema.optional(),
})
export type EventInput = z.infer<typeof eventInputSchema>

/** A 400 naming every problem zod found, e.g. "tokens[0].name: is reserved …". */
export function parseOr400<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const problems = result.error.issues.slice(0, 10).map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '')
    return path ? `${path}: ${issue.message}` : issue.message
  })
  const more = result.error.issues.length > 10 ? ` (and ${result.error.issues.length - 10} more)` : ''
  throw validationError(`Invalid ${what}: ${problems.join('; ')}${more}.`, {
    errors: result.error.issues.slice(0, 10).map((issue) => ({
      message: issue.message,
      code: issue.code.toUpperCase(),
      ...(issue.path.length > 0 && { context: { field: [issue.path.map(String).join('.')] } }),
    })),
  })
}
