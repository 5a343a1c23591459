import { NONE } from './format'
import type { Report } from './schema'

/**
 * How the report counts and computes, item by item: the HTML report's Methods section and the report screen's give
 * the same words.
 */
export function methodsItems(report: Report): Array<{ topic: string; text: string }> {
  const { settings } = report
  return [
    {
      topic: 'Denominators',
      text:
        'in scope = units the criterion labels and the source was asked about; judged = answered with a value, unparseable, ' +
        'or a tie a source gave as its answer (both counted as wrong); n = units both gave a value for (the n of every ' +
        'agreement statistic); no value = answered, but a split vote (display orders or trials that disagree) left no value; ' +
        'failed, abstained, pending and no-value units are listed and left out of judged, and counted as not correct only ' +
        `in of all in scope. A statistic undefined on the data is shown as ${NONE} with its reason, never as 0 or 1`
    },
    { topic: 'Aggregation', text: settings.aggregation },
    { topic: 'Ties', text: settings.ties_policy },
    {
      topic: 'Intervals',
      text:
        'in tables, W marks a Wilson interval and B a cluster-bootstrap interval. Wilson score intervals for proportions ' +
        `(they treat units as independent); ${settings.bootstrap.method} with ${settings.bootstrap.resamples} resamples ` +
        `(seed ${settings.bootstrap.seed}) that draw whole items, with all their units, display orders, trials and raters, ` +
        `for every bootstrap interval of the report at once. Below ${settings.min_items_for_interval} items an interval is ` +
        'flagged, and a card gives the Wilson interval of its accuracy (the bootstrap\'s is unreliable there); from ' +
        `${settings.min_items_for_interval} on, the bootstrap's where it is defined. Each card names the interval it gives`
    },
    {
      topic: 'Scales',
      text: `weighted kappas and ordinal statistics use each field's declared scale, so unused categories keep their place. Calibration uses ${settings.ece_bins} equal-width bins`
    },
    {
      topic: 'Colours',
      text:
        'each source keeps one colour in every plot and table of this report. A judge\'s comes from its own id (a run from ' +
        'its number); where a judge listed earlier in this report holds that hue, it takes the next free one, so up to ' +
        'eight judges never share a colour, and such a judge can have another colour in a report with other judges. ' +
        'People and criteria are greys'
    },
    ...(settings.panel_rule ? [{ topic: 'Panel', text: settings.panel_rule }] : [])
  ]
}
