/**
 * The one error type of the emulated API. Handlers throw an ApiError; the
 * router turns it into the real API's error body in one place:
 * `{status: "error", message, correlationId, category, subCategory?, context?, links?, errors?}`.
 */

/**
 * Error categories, as the real API names them in the `category` field of its
 * error body (https://developers.hubspot.com/docs/faq/api-error-responses).
 */
export const Category = {
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  INVALID_AUTHENTICATION: 'INVALID_AUTHENTICATION',
  EXPIRED_AUTHENTICATION: 'EXPIRED_AUTHENTICATION',
  MISSING_SCOPES: 'MISSING_SCOPES',
  /** The local server's own refusals (a foreign Host, a cross-site request); no real API route answers with it. */
  FORBIDDEN: 'FORBIDDEN',
  OBJECT_NOT_FOUND: 'OBJECT_NOT_FOUND',
  CONFLICT: 'CONFLICT',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  RATE_LIMITS: 'RATE_LIMITS',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const
export type Category = (typeof Category)[keyof typeof Category]

/** One item of an error body's `errors[]` (ErrorDetail). */
export interface ErrorDetail {
  message: string
  code?: string
  in?: string
  subCategory?: string
  context?: Record<string, string[]>
}

/** The JSON body of every non-2xx response. */
export interface ErrorBody {
  /** "error", except on OAuth errors, where the real API puts its code here (BAD_REFRESH_TOKEN, …). */
  status: string
  message: string
  correlationId: string
  category: Category
  subCategory?: string
  context?: Record<string, string[]>
  links?: Record<string, string>
  errors?: ErrorDetail[]
  /** RFC 6749 fields, on OAuth token errors only. */
  error?: string
  error_description?: string
}

export interface ApiErrorOptions {
  subCategory?: string
  context?: Record<string, string[]>
  links?: Record<string, string>
  errors?: ErrorDetail[]
  headers?: Record<string, string>
  /** Extra top-level body fields (OAuth's `error`/`error_description`). */
  extra?: Pick<ErrorBody, 'error' | 'error_description'>
  /** The body's `status` in place of "error" (the OAuth endpoints' error code). */
  status?: string
}

export class ApiError extends Error {
  readonly status: number
  readonly category: Category
  readonly options: ApiErrorOptions

  constructor(status: number, category: Category, message: string, options: ApiErrorOptions = {}) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.category = category
    this.options = options
  }

  toBody(correlationId: string): ErrorBody {
    const { subCategory, context, links, errors, extra, status } = this.options
    return {
      status: status ?? 'error',
      message: this.message,
      correlationId,
      category: this.category,
      ...(subCategory !== undefined && { subCategory }),
      ...(context !== undefined && { context }),
      ...(links !== undefined && { links }),
      ...(errors !== undefined && { errors }),
      ...extra,
    }
  }
}

const KB_AUTH = 'https://developers.hubspot.com/docs/api/intro-to-auth'

/** 400 VALIDATION_ERROR. */
export const validationError = (message: string, options?: ApiErrorOptions) =>
  new ApiError(400, Category.VALIDATION_ERROR, message, options)

/** 404 OBJECT_NOT_FOUND. */
export const notFound = (message = 'resource not found', options?: ApiErrorOptions) =>
  new ApiError(404, Category.OBJECT_NOT_FOUND, message, options)

/** 409 CONFLICT. */
export const conflict = (message: string, options?: ApiErrorOptions) =>
  new ApiError(409, Category.CONFLICT, message, options)

/** 401 INVALID_AUTHENTICATION, with the real API's failure header. */
export const invalidAuthentication = (message: string) =>
  new ApiError(401, Category.INVALID_AUTHENTICATION, message, {
    links: { 'knowledge-base': KB_AUTH },
    headers: { 'x-hubspot-auth-failure': '401 Unauthorized' },
  })

/** 401 EXPIRED_AUTHENTICATION for an access token past its expiry. */
export const expiredAuthentication = (expiredAt: number, now: number) =>
  new ApiError(
    401,
    Category.EXPIRED_AUTHENTICATION,
    `The OAuth token used to make this call expired ${Math.max(1, Math.round((now - expiredAt) / 1000))} second(s) ago.`,
    {
      context: { 'expire time': [new Date(expiredAt).toISOString()] },
      headers: { 'x-hubspot-auth-failure': '401 Unauthorized' },
    },
  )

/** 403 MISSING_SCOPES listing the scopes the endpoint needs. */
export const missingScopes = (required: readonly string[]) =>
  new ApiError(403, Category.MISSING_SCOPES, "This app hasn't been granted all required scopes to make this call.", {
    errors: [{ message: 'One or more of the following scopes are required.', context: { requiredScopes: [...required] } }],
    links: { scopes: 'https://developers.hubspot.com/scopes' },
  })

/** 405 for a known path with an unsupported method. */
export const methodNotAllowed = (method: string, path: string, allowed: readonly string[]) =>
  new ApiError(405, Category.METHOD_NOT_ALLOWED, `Method ${method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}`, {
    headers: { allow: allowed.join(', ') },
  })

/** 415 for a body in a content type the endpoint does not take. */
export const unsupportedMediaType = (got: string, expected: readonly string[]) =>
  new ApiError(
    415,
    Category.UNSUPPORTED_MEDIA_TYPE,
    `Content type '${got || '(none)'}' is not supported here. Send ${expected.join(' or ')}.`,
  )
