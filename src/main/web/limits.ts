/** The largest request body the browser-mode server reads; a larger one is refused with 413 `too_large`. */
export const MAX_BODY = 8 * 1024 * 1024
