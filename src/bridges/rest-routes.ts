import type { AnyRouter } from '@trpc/server';
import { listProcedures } from './procedures.ts';

const KNOWN_PATHS = 1000;
const KNOWN_PATH_LENGTH = 200;

/** Which methods each REST path accepts, so a wrong method is a 405 and an unknown path a 404. */
export function restRouteTable(router: AnyRouter, extra: { method: string; path: string }[] = []) {
  const routes = [
    ...listProcedures(router)
      .filter((e) => e.meta.openapi)
      .map((e) => ({ method: e.meta.openapi!.method, path: e.meta.openapi!.path })),
    ...extra,
  ].map((r) => ({
    method: r.method.toUpperCase(),
    pattern: new RegExp(`^${r.path.replace(/\{[^{}]+\}/g, '[^/]+')}/?$`),
  }));
  // Answers per path, kept for the paths seen most recently: a request no longer runs every route's pattern.
  const known = new Map<string, string[]>();
  return {
    methodsFor(path: string): string[] {
      const hit = known.get(path);
      if (hit) return hit;
      const methods = routes.filter((r) => r.pattern.test(path)).map((r) => r.method);
      if (methods.includes('GET')) methods.push('HEAD');
      const answer = [...new Set(methods)];
      // Only real routes' paths are kept, and not long ones: unknown paths cost a caller nothing to invent.
      if (answer.length === 0 || path.length > KNOWN_PATH_LENGTH) return answer;
      if (known.size >= KNOWN_PATHS) known.clear();
      known.set(path, answer);
      return answer;
    },
  };
}
