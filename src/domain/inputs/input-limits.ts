/** Input images per request, as OpenAI's edits endpoint allows; each model may take fewer (`inputs.max_images`). */
export const MAX_INPUT_IMAGES = 16;
/** The largest file the service takes in (OpenAI's limit for gpt-image edits); larger is a 413. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** A side longer than this is refused from the header, before anything is decoded. */
export const MAX_INPUT_SIDE = 16_384;
/** More pixels than this (8192 x 8192) is refused from the header: decoding it would take gigabytes. */
export const MAX_INPUT_PIXELS = 8192 * 8192;
