import { EventEmitter } from 'node:events'
import type { EventName, EventPayload } from '../shared/contract/operations'

/** Where main pushes an event to the clients. */
export interface EventSink {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
}

/** Fan-out of pushed events to every connected client (windows, SSE streams). */
export class EventHub implements EventSink {
  private readonly emitter = new EventEmitter()

  constructor() {
    this.emitter.setMaxListeners(0)
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.emitter.emit('event', event, payload)
  }

  subscribe(listener: (event: EventName, payload: unknown) => void): () => void {
    this.emitter.on('event', listener)
    return () => this.emitter.off('event', listener)
  }
}
