/* global window, document */
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import '../../../src/renderer/src/styles.css'

// The report screen alone, over a transport that answers the audit operations from data the test puts on the page
// (window.assayReport): the screen's own code, tables, plots and exports, without the rest of the workbench.
// Plain JavaScript so that the Node type-check (no DOM, no JSX) leaves it alone; Vite bundles it with the screen.

window.assayCalls = []
window.assayTransport = {
  async invoke(operation, input) {
    window.assayCalls.push({ operation, input })
    if (operation === 'report.instruments') {
      return {
        ok: true,
        value: {
          instruments: [{ id: 'pairwise-preference', title: 'Which proposal is better', item_kind: 'proposal-pair', n_annotations: 1, n_calls: 1, n_labelled_items: 1 }],
          splits: ['none', 'test']
        }
      }
    }
    if (operation === 'report.build') return { ok: true, value: window.assayReport }
    return { ok: false, error: { code: 'unknown_operation', message: operation } }
  },
  subscribe: () => () => undefined
}

// Imported after the transport is set: the client reads it when its module loads.
const { ReportScreen } = await import('../../../src/renderer/src/report')
createRoot(document.getElementById('root')).render(createElement(ReportScreen))
