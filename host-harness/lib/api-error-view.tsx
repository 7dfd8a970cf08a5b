/**
 * Shows an error from the API verbatim: message, category, correlationId and
 * any detail items, as a developer needs them to debug their integration.
 * Errors that are not API errors (network, a bug) show their message.
 */
import { Fragment } from 'react'
import { ApiRequestError } from './api-client.ts'

/** The error body's fields shown under the message, in the API's order. */
const ERROR_FIELDS = ['category', 'subCategory', 'correlationId'] as const

export function errorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) return error.body?.message ?? error.message
  if (error instanceof Error) return error.message
  return String(error)
}

export function ApiErrorView({ error, title = 'The API refused the request' }: { error: unknown; title?: string }) {
  if (error === undefined || error === null) return null
  if (!(error instanceof ApiRequestError)) {
    return (
      <div role="alert" className="api-error">
        <strong>{title}</strong>
        <p className="api-error-message">{errorMessage(error)}</p>
      </div>
    )
  }
  const body = error.body
  return (
    <div role="alert" className="api-error">
      <strong>
        {title} (HTTP {error.status})
      </strong>
      <p className="api-error-message">{body?.message ?? error.message}</p>
      <dl className="api-error-fields">
        {ERROR_FIELDS.map((field) =>
          body?.[field] !== undefined ? (
            <Fragment key={field}>
              <dt>{field}</dt>
              <dd>
                <code>{body[field]}</code>
              </dd>
            </Fragment>
          ) : null,
        )}
      </dl>
      {body?.errors !== undefined && body.errors.length > 0 && (
        <ul className="api-error-details">
          {body.errors.map((detail, index) => (
            <li key={index}>
              {detail.message}
              {detail.context !== undefined && <code> {JSON.stringify(detail.context)}</code>}
            </li>
          ))}
        </ul>
      )}
      {body?.context !== undefined && (
        <p className="api-error-context">
          context: <code>{JSON.stringify(body.context)}</code>
        </p>
      )}
    </div>
  )
}
