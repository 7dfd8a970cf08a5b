/**
 * Timeline event templates of app 1001 (developer API key): list, create,
 * edit, delete, with token definitions, and a live preview of the header and
 * detail rendered by the emulator from sample tokens and extraData.
 */
import { useEffect, useId, useState, type FormEvent } from 'react'
import { useApiData } from '../lib/use-api-data.ts'
import { sanitizeHtml } from '../lib/security/sanitize.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'
import { useAction } from '../lib/use-action.ts'
import {
  deleteTemplate,
  emptyDraft,
  emptyToken,
  listTemplates,
  previewTemplate,
  sampleValue,
  saveTemplate,
  TEMPLATE_OBJECT_TYPES,
  toDraft,
  TOKEN_TYPES,
  type PreviewResult,
  type TemplateDraft,
  type TokenDraft,
  type TokenType,
} from './template-model.ts'

export function TemplatesPanel({ previewDelayMs = 300 }: { previewDelayMs?: number }) {
  const { state } = useApiData(listTemplates, [])
  const [draft, setDraft] = useState<TemplateDraft>(emptyDraft)
  const { error, message, busy, run } = useAction()
  const templates = state.data ?? []

  const onSave = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const saved = await saveTemplate(draft)
      const creating = draft.id === undefined
      setDraft(toDraft(saved))
      return creating ? `Template “${saved.name}” created with id ${saved.id}.` : `Template “${saved.name}” saved.`
    })
  }

  const onDelete = () => {
    const id = draft.id
    if (id === undefined) return
    void run(async () => {
      await deleteTemplate(id)
      setDraft(emptyDraft())
      return `Template ${id} deleted; its events are gone from the timeline.`
    })
  }

  return (
    <section className="panel" aria-labelledby="templates-heading">
      <h1 id="templates-heading">Timeline event templates</h1>
      <div className="templates-layout">
        <nav className="card template-list" aria-labelledby="template-list-heading">
          <h2 id="template-list-heading">Templates</h2>
          {state.status === 'error' && <ApiErrorView error={state.error} title="Could not list templates" />}
          <ul>
            {templates.map((t) => (
              <li key={t.id}>
                <button type="button" className="link-button" aria-current={draft.id === t.id ? 'true' : undefined} onClick={() => setDraft(toDraft(t))}>
                  {t.name} <span className="muted">#{t.id}</span>
                </button>
              </li>
            ))}
            {state.status === 'ok' && templates.length === 0 && <li className="muted">No templates yet.</li>}
          </ul>
          <button type="button" onClick={() => setDraft(emptyDraft())}>
            New template
          </button>
        </nav>
        <div className="template-editor">
          <TemplateForm draft={draft} setDraft={setDraft} onSave={onSave} onDelete={onDelete} busy={busy} />
          {message && (
            <p role="status" className="success">
              {message}
            </p>
          )}
          <ApiErrorView error={error} />
          <TemplatePreview draft={draft} delayMs={previewDelayMs} />
        </div>
      </div>
    </section>
  )
}

function TemplateForm({
  draft,
  setDraft,
  onSave,
  onDelete,
  busy,
}: {
  draft: TemplateDraft
  setDraft: (update: (d: TemplateDraft) => TemplateDraft) => void
  onSave: (event: FormEvent) => void
  onDelete: () => void
  busy: boolean
}) {
  const ids = useId()
  const set = <K extends keyof TemplateDraft>(key: K, value: TemplateDraft[K]) => setDraft((d) => ({ ...d, [key]: value }))
  const setToken = (key: number, change: Partial<TokenDraft>) =>
    setDraft((d) => ({ ...d, tokens: d.tokens.map((t) => (t.key === key ? { ...t, ...change } : t)) }))

  return (
    <form className="card form-grid" onSubmit={onSave} aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`}>{draft.id === undefined ? 'New template' : `Edit template #${draft.id}`}</h2>
      <label>
        Template name
        <input value={draft.name} onChange={(e) => set('name', e.target.value)} />
      </label>
      <label>
        Object type
        <select value={draft.objectType} disabled={draft.id !== undefined} onChange={(e) => set('objectType', e.target.value)}>
          {TEMPLATE_OBJECT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className="wide">
        Header template (one line of Markdown + Handlebars)
        <input value={draft.headerTemplate} onChange={(e) => set('headerTemplate', e.target.value)} placeholder="Call with {{caller}}" />
      </label>
      <label className="wide">
        Detail template
        <textarea rows={5} value={draft.detailTemplate} onChange={(e) => set('detailTemplate', e.target.value)} />
      </label>
      <fieldset className="wide token-editor">
        <legend>Tokens</legend>
        {draft.tokens.length === 0 && <p className="muted">No tokens.</p>}
        {draft.tokens.map((token, index) => (
          <div key={token.key} className="token-row" role="group" aria-label={`Token ${index + 1}`}>
            <label>
              Token name
              <input value={token.name} onChange={(e) => setToken(token.key, { name: e.target.value })} />
            </label>
            <label>
              Token label
              <input value={token.label} onChange={(e) => setToken(token.key, { label: e.target.value })} />
            </label>
            <label>
              Token type
              <select value={token.type} onChange={(e) => setToken(token.key, { type: e.target.value as TokenType })}>
                {TOKEN_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
            <label>
              objectPropertyName
              <input value={token.objectPropertyName} onChange={(e) => setToken(token.key, { objectPropertyName: e.target.value })} />
            </label>
            {token.type === 'enumeration' && (
              <label className="wide">
                Options (one per line: value=Label)
                <textarea rows={3} value={token.optionsText} onChange={(e) => setToken(token.key, { optionsText: e.target.value })} />
              </label>
            )}
            <button
              type="button"
              className="link-button"
              aria-label={`Remove token ${index + 1}`}
              onClick={() => setDraft((d) => ({ ...d, tokens: d.tokens.filter((t) => t.key !== token.key) }))}
            >
              Remove
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setDraft((d) => ({ ...d, tokens: [...d.tokens, emptyToken()] }))}>
          Add token
        </button>
      </fieldset>
      <div className="button-row wide">
        <button type="submit" disabled={busy}>
          {draft.id === undefined ? 'Create template' : 'Save template'}
        </button>
        {draft.id !== undefined && (
          <button type="button" className="danger" disabled={busy} onClick={onDelete}>
            Delete template
          </button>
        )}
      </div>
    </form>
  )
}

function TemplatePreview({ draft, delayMs }: { draft: TemplateDraft; delayMs: number }) {
  const [samples, setSamples] = useState<Record<number, string>>({})
  const [extraDataText, setExtraDataText] = useState('{\n  "notes": "Sample extra data"\n}')
  const [result, setResult] = useState<PreviewResult | undefined>(undefined)
  const [error, setError] = useState<unknown>(undefined)
  const ids = useId()

  const tokens: Record<string, string> = {}
  for (const token of draft.tokens) {
    if (token.name.trim() === '') continue
    tokens[token.name.trim()] = samples[token.key] ?? sampleValue(token)
  }
  let extraData: unknown
  let extraDataError = ''
  if (extraDataText.trim() !== '') {
    try {
      extraData = JSON.parse(extraDataText)
    } catch (e) {
      extraDataError = `extraData is not valid JSON: ${e instanceof Error ? e.message : String(e)}`
    }
  }
  const key = JSON.stringify([draft.headerTemplate, draft.detailTemplate, tokens, extraData, extraDataError])

  useEffect(() => {
    if (extraDataError) return undefined
    let cancelled = false
    const timer = setTimeout(() => {
      previewTemplate({ headerTemplate: draft.headerTemplate, detailTemplate: draft.detailTemplate, tokens, extraData }).then(
        (r) => {
          if (cancelled) return
          setResult(r)
          setError(undefined)
        },
        (e: unknown) => {
          if (!cancelled) setError(e)
        },
      )
    }, delayMs)
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
    // `key` covers every input of the preview.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, delayMs])

  return (
    <section className="card preview" aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`}>Preview</h2>
      {draft.tokens.length > 0 && (
        <fieldset className="form-grid">
          <legend>Sample token values</legend>
          {draft.tokens
            .filter((t) => t.name.trim() !== '')
            .map((token) => (
              <label key={token.key}>
                Sample {token.name}
                <input value={samples[token.key] ?? sampleValue(token)} onChange={(e) => setSamples((s) => ({ ...s, [token.key]: e.target.value }))} />
              </label>
            ))}
        </fieldset>
      )}
      <label className="wide">
        Sample extraData (JSON)
        <textarea rows={3} value={extraDataText} onChange={(e) => setExtraDataText(e.target.value)} />
      </label>
      {extraDataError && (
        <p role="alert" className="error-text">
          {extraDataError}
        </p>
      )}
      <ApiErrorView error={error} title="The template cannot be rendered" />
      {result && !error && (
        <section className="preview-output" aria-label="Rendered preview">
          <h3>Header</h3>
          <div className="preview-header rendered-html" data-testid="preview-header" dangerouslySetInnerHTML={{ __html: sanitizeHtml(result.header) }} />
          <h3>Detail</h3>
          <div className="preview-detail rendered-html" data-testid="preview-detail" dangerouslySetInnerHTML={{ __html: sanitizeHtml(result.detail) }} />
        </section>
      )}
    </section>
  )
}
