/**
 * Text cut to a length without splitting what a reader sees as one character. `String.prototype.slice` counts UTF-16
 * units: cutting there can split a surrogate pair (an emoji, most CJK extensions), and the lone half then breaks
 * `encodeURIComponent` (URIError) and has no UTF-8 form at all.
 */

// Work on a bounded head only: a query value may be kilobytes long, and only its first characters are kept anyway.
const HEAD_FACTOR = 4;

/**
 * At most `maxUnits` UTF-16 units of `text`, cut between grapheme clusters (an emoji with its skin tone or ZWJ
 * parts, a letter with its accents), so no pair and no cluster is split; a single cluster longer than the whole
 * limit (a letter under dozens of combining marks) is cut between code points instead.
 */
export function cutText(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  const head = text.slice(0, maxUnits * HEAD_FACTOR);
  let cut = '';
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(head)) {
    if (cut.length + segment.length > maxUnits) {
      return cut === '' ? cutCodePoints(segment, maxUnits) : cut;
    }
    cut += segment;
  }
  return cut;
}

/** At most `maxUnits` UTF-16 units of `text`, never ending in half of a surrogate pair. */
function cutCodePoints(text: string, maxUnits: number): string {
  let cut = '';
  for (const point of text) {
    if (cut.length + point.length > maxUnits) break;
    cut += point;
  }
  return cut;
}
