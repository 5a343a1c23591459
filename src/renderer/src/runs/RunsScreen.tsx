import { useCallback, useEffect, useState } from 'react'
import type { JudgeListEntry, RunListEntry } from '../../../shared/contract/run-operations'
import { api } from '../api'
import { useWorkbench } from '../workbench-state'
import { CallInspector } from './CallInspector'
import { JudgesPanel } from './JudgesPanel'
import { KeysPanel } from './KeysPanel'
import { RunLauncher } from './RunLauncher'
import { RunList, type LiveProgress } from './RunList'
import './runs.css'

/** Model runs: judge configurations, keys, a launcher with the dry-run estimate, live progress, and a call inspector. */
export function RunsScreen() {
  const setError = useWorkbench((s) => s.setError)
  const [judges, setJudges] = useState<JudgeListEntry[]>([])
  const [runs, setRuns] = useState<RunListEntry[]>([])
  // Archived runs and judges stay in the file; they are listed only on request.
  const [showArchived, setShowArchived] = useState(false)
  const [live, setLive] = useState<Map<number, LiveProgress>>(new Map())
  const [selected, setSelected] = useState<number | null>(null)
  const [version, setVersion] = useState(0)

  const loadJudges = useCallback(() => {
    void api['judges.list']({ includeArchived: showArchived }).then((r) => setJudges(r.judges), (e: Error) => setError(e.message))
  }, [setError, showArchived])
  const loadRuns = useCallback(() => {
    void api['runs.list']({ includeArchived: showArchived }).then(
      (r) => {
        setRuns(r.runs)
        setVersion((v) => v + 1)
      },
      (e: Error) => setError(e.message)
    )
  }, [setError, showArchived])

  useEffect(() => {
    loadJudges()
    loadRuns()
  }, [loadJudges, loadRuns])

  useEffect(() => {
    const offProgress = api.on('run.progress', (p) => {
      setLive((prev) => new Map(prev).set(p.runId, p))
    })
    const offChanged = api.on('project.changed', (c) => {
      if (c.what === 'runs') loadRuns()
      if (c.what === 'judges') loadJudges()
    })
    return () => {
      offProgress()
      offChanged()
    }
  }, [loadRuns, loadJudges])

  return (
    <div className="runs-screen" data-testid="runs-screen">
      <h1 className="visually-hidden">Judges and runs</h1>
      <RunLauncher
        judges={judges.filter((j) => !j.archived)}
        onStarted={(id) => {
          setSelected(id)
          loadRuns()
        }}
      />
      <RunList runs={runs} live={live} selected={selected} onSelect={setSelected} onChange={loadRuns} showArchived={showArchived} onShowArchived={setShowArchived} />
      {selected !== null && <CallInspector runId={selected} version={version} />}
      <JudgesPanel judges={judges} onChange={loadJudges} />
      <KeysPanel />
    </div>
  )
}
