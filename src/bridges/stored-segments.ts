// A whole stored transcript is answered with the JSON text of its segments as stored, spliced into the serialized
// answer where the procedure left an empty array, instead of parsing, validating and serializing 1,000 segments per
// request. The text was produced by JSON.stringify of validated segments when the transcript was stored.

const EMPTY = '"segments":[]';

/**
 * `json` with its first `"segments":[]` replaced by `"segments":<segmentsJson>`. The first is the answer's own key:
 * inside a JSON string a quote is always escaped, so the sequence cannot come from a value.
 */
export function spliceSegments(json: string, segmentsJson: string): string {
  const at = json.indexOf(EMPTY);
  if (at < 0) throw new Error('the answer has no empty segments to fill');
  return `${json.slice(0, at)}"segments":${segmentsJson}${json.slice(at + EMPTY.length)}`;
}
