// Holes the invariant suite found that are being fixed on other branches: confirmed findings of issue 23 by
// number, and new ones by name. While an entry is listed, the program generator (or the one read that proves it)
// steers around exactly that operation, so the suite stays green; the invariant checks themselves stay on. Remove
// entries as their fixes merge: the operation is then generated again and must hold.
export const KNOWN_HOLES = new Set<number | string>([]);

export const hole = (n: number | string) => KNOWN_HOLES.has(n);
