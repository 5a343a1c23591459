import { AssayError } from '../../shared/errors'

// What a packet file is: an ordinary project file in `packet` mode, whose items hold nothing but the blinded view
// one annotator sees, already in that annotator's display order.

/** Raised whenever the packet layout changes; merge refuses layouts it does not know. */
export const PACKET_FORMAT = 1

/** The payload key of a packet item: the view as shown, and nothing else of the item. */
export const VIEW_KEY = '$view'

/** Meta keys a packet carries besides `mode`, `packet_annotator` and `project_id` (the project it belongs to). */
export const PACKET_META = {
  id: 'packet_id',
  format: 'packet_format',
  digest: 'packet_digest'
} as const

/** The view stored in a packet item's payload; a packet item without one is a broken packet. */
export function packetViewOf(payload: Record<string, unknown>): Record<string, unknown> {
  const view = payload[VIEW_KEY]
  if (view === null || typeof view !== 'object' || Array.isArray(view)) {
    throw new AssayError('not_a_project', 'This packet item has no view; the packet file is damaged')
  }
  return view as Record<string, unknown>
}
