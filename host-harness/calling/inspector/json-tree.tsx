/**
 * A small, accessible JSON tree for message payloads (WAI-ARIA tree pattern).
 *
 * Payloads come from an untrusted widget: every key and value is rendered as
 * React text, never as HTML. Structured clone allows cycles and odd values,
 * so cycles are shown as "[circular]" and depth is bounded.
 *
 * Keyboard: Up/Down move between visible items, Right expands (or enters),
 * Left collapses (or goes to the parent), Home/End jump, Enter/Space toggle.
 */
import { useCallback, useMemo, useRef, useState, type KeyboardEvent } from 'react'

const MAX_DEPTH = 12
const MAX_CHILDREN = 200

interface Node {
  path: string
  label: string
  /** Text for leaves, or a summary for branches. */
  text: string
  kind: 'string' | 'number' | 'boolean' | 'null' | 'undefined' | 'other' | 'object' | 'array'
  children: Node[] | null
}

function describeLeaf(value: unknown): Pick<Node, 'text' | 'kind'> {
  switch (typeof value) {
    case 'string':
      return { text: JSON.stringify(value), kind: 'string' }
    case 'number':
      return { text: String(value), kind: 'number' }
    case 'boolean':
      return { text: String(value), kind: 'boolean' }
    case 'undefined':
      return { text: 'undefined', kind: 'undefined' }
    case 'bigint':
      return { text: `${value}n`, kind: 'other' }
    default:
      return value === null ? { text: 'null', kind: 'null' } : { text: Object.prototype.toString.call(value), kind: 'other' }
  }
}

function build(value: unknown, label: string, path: string, depth: number, seen: Set<object>): Node {
  if (typeof value !== 'object' || value === null) return { path, label, ...describeLeaf(value), children: null }
  if (seen.has(value)) return { path, label, text: '[circular]', kind: 'other', children: null }
  if (depth >= MAX_DEPTH) return { path, label, text: '[too deep]', kind: 'other', children: null }
  const isArray = Array.isArray(value)
  let keys: string[]
  try {
    keys = isArray ? value.map((_, i) => String(i)) : Object.keys(value)
  } catch {
    return { path, label, text: '[unreadable]', kind: 'other', children: null }
  }
  seen.add(value)
  const shown = keys.slice(0, MAX_CHILDREN)
  const children = shown.map((key) => {
    let child: unknown
    try {
      child = (value as Record<string, unknown>)[key]
    } catch {
      child = '[unreadable]'
    }
    return build(child, key, `${path}/${encodeURIComponent(key)}`, depth + 1, seen)
  })
  seen.delete(value)
  if (keys.length > shown.length) {
    children.push({ path: `${path}/…`, label: '…', text: `${keys.length - shown.length} more`, kind: 'other', children: null })
  }
  const text = isArray ? `Array(${keys.length})` : keys.length === 0 ? '{}' : `{${keys.length} ${keys.length === 1 ? 'key' : 'keys'}}`
  return { path, label, text, kind: isArray ? 'array' : 'object', children }
}

/** Paths of the visible items, in order (for keyboard movement). */
function visible(node: Node, expanded: ReadonlySet<string>, out: Node[] = []): Node[] {
  out.push(node)
  if (node.children && expanded.has(node.path)) for (const child of node.children) visible(child, expanded, out)
  return out
}

function parentPath(path: string): string | null {
  const at = path.lastIndexOf('/')
  return at <= 0 ? null : path.slice(0, at)
}

export interface JsonTreeProps {
  value: unknown
  /** Accessible name of the tree. */
  label: string
  /** Name shown for the root item. */
  rootLabel?: string
  /** Levels expanded at first (default 1: the root's children are visible). */
  initialDepth?: number
}

export function JsonTree({ value, label, rootLabel = 'payload', initialDepth = 1 }: JsonTreeProps) {
  const root = useMemo(() => build(value, rootLabel, '$', 0, new Set()), [value, rootLabel])
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => {
    const open = new Set<string>()
    const walk = (node: Node, depth: number) => {
      if (!node.children || depth >= initialDepth) return
      open.add(node.path)
      for (const child of node.children) walk(child, depth + 1)
    }
    walk(root, 0)
    return open
  })
  const [focused, setFocused] = useState(root.path)
  const refs = useRef(new Map<string, HTMLLIElement>())

  const toggle = useCallback((path: string, open?: boolean) => {
    setExpanded((prev) => {
      const next = new Set(prev)
      const shouldOpen = open ?? !next.has(path)
      if (shouldOpen) next.add(path)
      else next.delete(path)
      return next
    })
  }, [])

  const focus = (path: string) => {
    setFocused(path)
    refs.current.get(path)?.focus()
  }

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const items = visible(root, expanded)
    const index = items.findIndex((n) => n.path === focused)
    const current = items[index]
    if (!current) return
    const isOpen = expanded.has(current.path)
    let handled = true
    switch (event.key) {
      case 'ArrowDown':
        if (items[index + 1]) focus(items[index + 1]!.path)
        break
      case 'ArrowUp':
        if (index > 0) focus(items[index - 1]!.path)
        break
      case 'Home':
        focus(items[0]!.path)
        break
      case 'End':
        focus(items[items.length - 1]!.path)
        break
      case 'ArrowRight':
        if (current.children && !isOpen) toggle(current.path, true)
        else if (current.children && isOpen && current.children[0]) focus(current.children[0].path)
        break
      case 'ArrowLeft': {
        if (current.children && isOpen) toggle(current.path, false)
        else {
          const parent = parentPath(current.path)
          if (parent) focus(parent)
        }
        break
      }
      case 'Enter':
      case ' ':
        if (current.children) toggle(current.path)
        break
      default:
        handled = false
    }
    if (handled) {
      event.preventDefault()
      event.stopPropagation()
    }
  }

  const renderNode = (node: Node, level: number) => {
    const isBranch = node.children !== null
    const isOpen = isBranch && expanded.has(node.path)
    return (
      <li
        key={node.path}
        role="treeitem"
        aria-level={level}
        aria-expanded={isBranch ? isOpen : undefined}
        aria-selected={node.path === focused}
        tabIndex={node.path === focused ? 0 : -1}
        ref={(el) => {
          if (el) refs.current.set(node.path, el)
          else refs.current.delete(node.path)
        }}
        onFocus={(event) => {
          if (event.target === event.currentTarget) setFocused(node.path)
        }}
        onClick={(event) => {
          event.stopPropagation()
          setFocused(node.path)
          if (isBranch) toggle(node.path)
        }}
        className="json-tree__item"
      >
        <span className="json-tree__row">
          {isBranch ? (
            <span className="json-tree__twisty" aria-hidden="true">
              {isOpen ? '▾' : '▸'}
            </span>
          ) : (
            <span className="json-tree__twisty" aria-hidden="true" />
          )}
          <span className="json-tree__key">{node.label}</span>
          <span className="json-tree__colon" aria-hidden="true">
            :{' '}
          </span>
          <span className={`json-tree__value json-tree__value--${node.kind}`}>{node.text}</span>
        </span>
        {isBranch && isOpen && node.children!.length > 0 ? (
          <ul role="group" className="json-tree__group">
            {node.children!.map((child) => renderNode(child, level + 1))}
          </ul>
        ) : null}
      </li>
    )
  }

  return (
    <ul role="tree" aria-label={label} className="json-tree" onKeyDown={onKeyDown}>
      {renderNode(root, 1)}
    </ul>
  )
}
