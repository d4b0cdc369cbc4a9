/** The largest request body any route reads (docs/decisions/003). */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
