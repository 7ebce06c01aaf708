// URLs removed from an ffmpeg message: they carry signatures and must not reach a client. A scan by hand instead
// of /[a-z][a-z0-9+.-]*:\/\/\S+/g, which is quadratic on a long run of letters with no "://".
const SCHEME_CHAR = /^[a-z0-9+.-]$/i;
const LETTER = /^[a-z]$/i;
const SPACE = /^\s$/;

/** Each `scheme://…` up to the next whitespace becomes `<url>`. */
export function redactUrls(line: string): string {
  let out = '';
  let from = 0;
  let at = line.indexOf('://');
  while (at >= 0) {
    let start = at;
    while (start > from && SCHEME_CHAR.test(line[start - 1]!)) start--;
    while (start < at && !LETTER.test(line[start]!)) start++;
    if (start === at) {
      at = line.indexOf('://', at + 3);
      continue;
    }
    let end = at + 3;
    while (end < line.length && !SPACE.test(line[end]!)) end++;
    if (end === at + 3) {
      at = line.indexOf('://', at + 3);
      continue;
    }
    out += `${line.slice(from, start)}<url>`;
    from = end;
    at = line.indexOf('://', end);
  }
  return out + line.slice(from);
}
