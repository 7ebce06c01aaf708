import type { AnyRouter } from '@trpc/server';
import { listProcedures } from './procedures.ts';

/** Which methods each REST path accepts, so a wrong method is a 405 and an unknown path a 404. */
export function restRouteTable(router: AnyRouter, extra: { method: string; path: string }[] = []) {
  const routes = [
    ...listProcedures(router)
      .filter((e) => e.meta.openapi)
      .map((e) => ({ method: e.meta.openapi!.method, path: e.meta.openapi!.path })),
    ...extra,
  ].map((r) => ({
    method: r.method.toUpperCase(),
    pattern: new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
  }));
  return {
    methodsFor(path: string): string[] {
      const methods = routes.filter((r) => r.pattern.test(path)).map((r) => r.method);
      if (methods.includes('GET')) methods.push('HEAD');
      return [...new Set(methods)];
    },
  };
}
