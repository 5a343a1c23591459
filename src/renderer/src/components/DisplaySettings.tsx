import { useEffect, useState } from 'react'
import { Popover, ToggleGroup } from 'radix-ui'
import {
  DEFAULT_DISPLAY_SETTINGS,
  DENSITIES,
  TEXT_SIZES,
  THEMES,
  type DisplaySettings as Settings
} from '../../../shared/contract/display-settings'
import { api } from '../api'

const LABELS: Record<string, string> = {
  small: 'Small',
  normal: 'Normal',
  large: 'Large',
  'x-large': 'Larger',
  comfortable: 'Comfortable',
  compact: 'Compact',
  light: 'Light',
  dark: 'Dark'
}

/** Puts the settings on the page root, where the stylesheet reads them (text size, density, theme). */
export function applyDisplaySettings(s: Settings): void {
  const root = document.documentElement
  root.dataset.textSize = s.textSize
  root.dataset.density = s.density
  root.dataset.theme = s.theme
  root.style.colorScheme = s.theme
}

function Choice<K extends keyof Settings>(props: { label: string; field: K; values: ReadonlyArray<Settings[K]>; value: Settings[K]; onChange(v: Settings[K]): void }) {
  const id = `display-${props.field}`
  return (
    <div className="display-choice">
      <span id={id} className="display-choice-label">
        {props.label}
      </span>
      <ToggleGroup.Root
        type="single"
        className="segmented"
        aria-labelledby={id}
        value={props.value}
        onValueChange={(v) => v && props.onChange(v as Settings[K])}
      >
        {props.values.map((v) => (
          <ToggleGroup.Item key={v} value={v} className="segment" data-testid={`${props.field}-${v}`}>
            {LABELS[v] ?? v}
          </ToggleGroup.Item>
        ))}
      </ToggleGroup.Root>
    </div>
  )
}

/**
 * The display settings of whoever uses this window (kept in the project, per annotator): text size, density and
 * light or dark theme, in a popover from the top bar.
 */
export function DisplaySettingsButton({ sessionKey }: { sessionKey: string }) {
  const [settings, setSettings] = useState<Settings>(DEFAULT_DISPLAY_SETTINGS)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    api['settings.get']({}).then(
      (s) => {
        if (!live) return
        setSettings(s)
        applyDisplaySettings(s)
      },
      () => undefined
    )
    return () => {
      live = false
    }
  }, [sessionKey])

  const change = (patch: Partial<Settings>) => {
    const next = { ...settings, ...patch }
    setSettings(next)
    applyDisplaySettings(next)
    api['settings.set'](patch).then(
      () => setError(null),
      (e: Error) => setError(`Not saved: ${e.message}`)
    )
  }

  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <button type="button" className="display-button" data-testid="display-settings">
          Display
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover display-settings" align="end" sideOffset={6} aria-label="Display settings">
          <Choice label="Text size" field="textSize" values={TEXT_SIZES} value={settings.textSize} onChange={(textSize) => change({ textSize })} />
          <Choice label="Density" field="density" values={DENSITIES} value={settings.density} onChange={(density) => change({ density })} />
          <Choice label="Theme" field="theme" values={THEMES} value={settings.theme} onChange={(theme) => change({ theme })} />
          <p className="muted small">Kept in this project for you alone.</p>
          {error && (
            <p className="failure" role="alert">
              {error}
            </p>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  )
}
