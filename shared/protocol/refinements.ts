/**
 * The cross-field rules of the wire protocol, as plain predicates. The zod schemas
 * use them as refinements and the generated validators (validators.generated.ts)
 * call the same functions, so each rule is written once.
 */
type Fields = Record<string, unknown>

export interface Refinement {
  /** Runs on an object whose fields already passed their own checks. */
  readonly test: (value: Fields) => boolean
  readonly message: string
  /** Where the issue is reported, relative to the object. */
  readonly path: readonly string[]
}

/** DIAL_NUMBER: the number to call, under its name or the legacy phone_number. */
export const hasPhoneNumber: Refinement = {
  test: (d) => typeof d.phoneNumber === 'string' || typeof d.phone_number === 'string',
  message: 'phoneNumber (or legacy phone_number) is required',
  path: ['phoneNumber'],
}

/** SET_WIDGET_URL: the URL in `data.iFrameUrl` (widget form) or at the top level (host form). */
export const hasIFrameUrl: Refinement = {
  test: (m) => typeof m.iFrameUrl === 'string' || typeof (m.data as Fields | null | undefined)?.iFrameUrl === 'string',
  message: 'iFrameUrl is required (data.iFrameUrl or top-level iFrameUrl)',
  path: ['data', 'iFrameUrl'],
}

/** Every refinement by the name the generated validators import it under. */
export const REFINEMENTS = { hasPhoneNumber, hasIFrameUrl } as const
