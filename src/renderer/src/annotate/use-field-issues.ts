import { useMemo } from 'react'
import type { AnyInstrument } from '../../../shared/instruments/types'
import { stopForIssue, type Stop } from './stops'
import { formChecks, validateForm, type FieldIssue } from './validate'

export interface PlacedIssues {
  /** Messages by the stop they are shown beside. */
  byStop: Map<string, string[]>
  /** Messages no stop on screen concerns, shown above the form. */
  loose: string[]
}

/**
 * What is shown beside the fields: exact-quote and rubric checks always; the schema's messages once a submit was
 * tried; main's messages and notes until the field changes.
 */
export function useFieldIssues(
  instrument: AnyInstrument,
  data: unknown,
  view: Record<string, unknown>,
  stops: ReadonlyArray<Stop>,
  attempted: boolean,
  extra: ReadonlyArray<FieldIssue>
): PlacedIssues {
  const issues = useMemo(() => {
    const own = attempted ? validateForm(instrument, data, view).issues : formChecks(instrument, data, view)
    return [...own, ...extra]
  }, [attempted, instrument, data, view, extra])

  return useMemo(() => placeIssues(issues, stops), [issues, stops])
}

export function placeIssues(issues: ReadonlyArray<FieldIssue>, stops: ReadonlyArray<Stop>): PlacedIssues {
  const byStop = new Map<string, string[]>()
  const loose: string[] = []
  for (const issue of issues) {
    const stop = stopForIssue(stops, issue.path)
    if (!stop) {
      loose.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message)
      continue
    }
    const list = byStop.get(stop.path) ?? []
    if (!list.includes(issue.message)) list.push(issue.message)
    byStop.set(stop.path, list)
  }
  return { byStop, loose }
}

/** The first field on screen, top to bottom, that one of the issues concerns. */
export function firstStopWithIssue(stops: ReadonlyArray<Stop>, issues: ReadonlyArray<FieldIssue>): string | undefined {
  const concerned = new Set(issues.map((i) => stopForIssue(stops, i.path)?.path).filter((p): p is string => p !== undefined))
  return stops.find((s) => concerned.has(s.path))?.path
}
