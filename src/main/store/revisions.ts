// What "current" means for the two append-only tables is defined once, as views (schema/v009-current-answer-views):
// `annotation_heads` (the head of every answer chain, retractions included), `current_annotations` (heads that are
// not retractions), and `current_adjudications` (one row per item and instrument: the latest head, should a chain
// fork). Every query of a current answer or adjudication reads them; what stays here is the order in which a caller
// picks one of several heads (an assignment's answers given here and imported, say).

/** SQL ORDER BY terms that put the latest of several annotation heads first. */
export const annotationLatestFirst = (alias: string): string => `${alias}.created_at DESC`
