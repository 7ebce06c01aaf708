// The `subtext://` URIs of MCP resources, from their templates (RFC 6570's simple `{name}` and one `{?name}`): the
// links a tool result carries are expanded here, and the bridge matches a read's URI with the same template.

const enc = encodeURIComponent;
const PART = /\{(\??)([A-Za-z0-9_]+)\}/g;

/** The URI a template names with these values; an empty or missing query value leaves the query out. */
export function expandTemplate(template: string, vars: Record<string, string | number | undefined>): string {
  return template.replace(PART, (_, query: string, name: string) => {
    const v = vars[name];
    if (query) return v === undefined || v === '' ? '' : `?${name}=${enc(String(v))}`;
    return enc(String(v));
  });
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A matcher of the URIs a template names: their variables decoded, or undefined (a malformed %-escape too). */
export function templateMatcher(template: string): (uri: string) => Record<string, string | undefined> | undefined {
  const names: string[] = [];
  let source = '';
  let at = 0;
  for (const m of template.matchAll(PART)) {
    source += literal(template.slice(at, m.index));
    names.push(m[2]!);
    source += m[1] ? `(?:\\?${literal(m[2]!)}=([^&#]*))?` : '([^/?#]+)';
    at = m.index + m[0].length;
  }
  const pattern = new RegExp(`^${source}${literal(template.slice(at))}$`);
  return (uri) => {
    const m = pattern.exec(uri);
    if (!m) return undefined;
    try {
      return Object.fromEntries(names.map((n, i) => [n, m[i + 1] ? decodeURIComponent(m[i + 1]!) : undefined]));
    } catch {
      return undefined;
    }
  };
}
