// Holes the invariant suite found that are being fixed on other branches: confirmed findings of issue 23 by
// number, and new ones by name. While an entry is listed, the program generator (or the one read that proves it)
// steers around exactly that operation, so the suite stays green; the invariant checks themselves stay on. Remove
// entries as their fixes merge: the operation is then generated again and must hold.
export const KNOWN_HOLES = new Set<number | string>([
  // New: the database cutting the service's connections (a restart, a failover) can kill the process: postgres.js
  // 3.4.9 writes to a closed socket from a setImmediate (connection.js nextWrite, porsager/postgres#1208), an
  // uncaught TypeError that src/main.ts turns into exit 1. Generates no database blips while listed.
  'db-restart-crash',
]);

export const hole = (n: number | string) => KNOWN_HOLES.has(n);
