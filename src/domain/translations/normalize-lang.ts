/**
 * BCP 47 case conventions (language lower, script title, region upper: "pt-br" -> "pt-BR", "zh-hant-tw" ->
 * "zh-Hant-TW"), so one language is stored and cached under one spelling. Deliberately not
 * Intl.getCanonicalLocales: it rewrites legacy codes (iw -> he) that YouTube still uses for its tracks.
 */
export function normalizeLang(tag: string): string {
  return tag
    .trim()
    .split(/[-_]/)
    .map((part, k) => {
      if (k === 0) return part.toLowerCase();
      if (part.length === 2 || (part.length === 3 && /^\d+$/.test(part))) return part.toUpperCase();
      if (part.length === 4) return part.charAt(0).toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}

export const sameLang = (a: string, b: string) => normalizeLang(a).toLowerCase() === normalizeLang(b).toLowerCase();
