/**
 * A page of records of one type, with cursor paging (the API's
 * `paging.next.after`) and a search box that uses the `/search` endpoint.
 */
import { useState, type FormEvent } from 'react'
import { hrefs } from '../lib/hash-routes.ts'
import type { ObjectType } from '../lib/crm-types.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'
import { useApiData } from '../lib/use-api-data.ts'
import { listObjects, searchObjects, type ListResponse, type SearchResponse } from '../lib/crm-api.ts'
import { OBJECT_CONFIG } from './object-config.ts'
import { recordTitle } from '../lib/crm-types.ts'
import { formatPropertyValue } from '../lib/format.ts'
import { loadOptionLabels } from './record-view.ts'

export const PAGE_SIZE = 20

export function RecordList({ objectType }: { objectType: ObjectType }) {
  const config = OBJECT_CONFIG[objectType]
  const [draft, setDraft] = useState('')
  const [query, setQuery] = useState('')
  /** Cursors of the pages before the current one, and the current cursor. */
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined])
  const after = cursors[cursors.length - 1]
  const properties = [...new Set([...config.titleProperties, ...config.columns.map((c) => c.name)])]

  const { state } = useApiData<ListResponse | SearchResponse>(
    () =>
      query
        ? searchObjects(objectType, { query, limit: PAGE_SIZE, after, properties })
        : listObjects(objectType, { limit: PAGE_SIZE, after, properties }),
    [objectType, query, after],
  )

  const labels = useApiData(() => loadOptionLabels(objectType), [objectType], { refreshOnChange: false })
  const optionLabels = labels.state.data ?? {}

  const onSearch = (event: FormEvent) => {
    event.preventDefault()
    setQuery(draft.trim())
    setCursors([undefined])
  }

  const data = state.data
  const nextAfter = data?.paging?.next?.after
  const total = data && 'total' in data ? data.total : undefined

  return (
    <section className="page" aria-labelledby="list-heading">
      <header className="page-header">
        <h1 id="list-heading">{config.plural}</h1>
        <form role="search" className="search-form" onSubmit={onSearch}>
          <label className="visually-hidden" htmlFor="record-search">
            Search {config.plural.toLowerCase()}
          </label>
          <input
            id="record-search"
            type="search"
            placeholder={`Search ${config.plural.toLowerCase()}`}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
          <button type="submit">Search</button>
          {query && (
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setDraft('')
                setQuery('')
                setCursors([undefined])
              }}
            >
              Clear search
            </button>
          )}
        </form>
      </header>
      {state.status === 'error' && <ApiErrorView error={state.error} title={`Could not load ${config.plural.toLowerCase()}`} />}
      {query && total !== undefined && (
        <p className="muted" role="status">
          {total} {total === 1 ? 'match' : 'matches'} for “{query}”
        </p>
      )}
      <table className="record-table" aria-label={config.plural} aria-busy={state.status === 'loading'}>
        <thead>
          <tr>
            <th scope="col">{config.titleLabel}</th>
            {config.columns.map((c) => (
              <th scope="col" key={c.name}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data?.results.map((record) => (
            <tr key={record.id}>
              <td>
                <a href={hrefs.record(objectType, record.id)}>{recordTitle(objectType, record)}</a>
              </td>
              {config.columns.map((c) => (
                <td key={c.name}>{formatPropertyValue(c.name, record.properties[c.name], optionLabels[c.name])}</td>
              ))}
            </tr>
          ))}
          {data && data.results.length === 0 && (
            <tr>
              <td colSpan={config.columns.length + 1} className="muted">
                {query ? 'Nothing matches this search.' : `No ${config.plural.toLowerCase()} yet.`}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <nav className="pager" aria-label="Pages">
        <button type="button" disabled={cursors.length <= 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous page
        </button>
        <span className="muted">Page {cursors.length}</span>
        <button type="button" disabled={nextAfter === undefined} onClick={() => nextAfter !== undefined && setCursors((c) => [...c, nextAfter])}>
          Next page
        </button>
      </nav>
    </section>
  )
}
