import { Component, type ErrorInfo, type ReactNode } from 'react'

// A screen that fails while drawing says so in its place, with what failed, instead of leaving the window blank;
// the tabs above it stay usable, and "Try again" draws it anew (a new screen key does too).

interface Props {
  /** Which screen this is; a change draws the new one afresh. */
  screen: string
  children: ReactNode
  /** A way out where trying again would fail the same way (an annotator's item: back to the queues). */
  leave?: { label: string; run(): void }
}

interface State {
  error: Error | null
}

export class ScreenBoundary extends Component<Props, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: Error): State {
    return { error }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`The ${this.props.screen} screen failed to draw`, error, info.componentStack)
  }

  override componentDidUpdate(previous: Props): void {
    if (previous.screen !== this.props.screen && this.state.error) this.setState({ error: null })
  }

  override render(): ReactNode {
    const { error } = this.state
    if (!error) return this.props.children
    return (
      <div className="screen-failed" role="alert" data-testid="screen-failed">
        <h2>This screen could not be drawn</h2>
        <p className="screen-failed-message">{error.message}</p>
        <p>Nothing was written by this failure: what was saved before it is in the project file.</p>
        <div className="screen-failed-actions">
          <button type="button" onClick={() => this.setState({ error: null })}>
            Try again
          </button>
          {this.props.leave && (
            <button
              type="button"
              onClick={() => {
                this.props.leave?.run()
                this.setState({ error: null })
              }}
            >
              {this.props.leave.label}
            </button>
          )}
        </div>
      </div>
    )
  }
}
