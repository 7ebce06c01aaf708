// The idle release: one memory-reducing collection after start-up and after each busy period, none while requests
// keep coming, none when nothing was served since the last one, and nothing at all without --expose-gc.
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { releaseMemoryWhenIdle } from '../../src/infra/memory/release-when-idle.ts';

describe('releaseMemoryWhenIdle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const serve = (server: EventEmitter, n: number) => {
    for (let i = 0; i < n; i++) server.emit('request');
  };

  it('collects once after start-up and once when a busy instance turns idle, again only after the next busy period', () => {
    const server = new EventEmitter();
    const collect = vi.fn();
    const stop = releaseMemoryWhenIdle(server, { collect, growthBytes: 0 });
    vi.advanceTimersByTime(10_000);
    expect(collect).toHaveBeenCalledTimes(1); // what start-up left
    collect.mockClear();
    for (let i = 0; i < 5; i++) {
      serve(server, 3);
      vi.advanceTimersByTime(2_000);
    }
    expect(collect).not.toHaveBeenCalled(); // busy in every interval
    vi.advanceTimersByTime(2_000);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(collect).toHaveBeenCalledWith({ type: 'major', flavor: 'last-resort' });
    vi.advanceTimersByTime(20_000);
    expect(collect).toHaveBeenCalledTimes(1); // idle since: nothing new to give back
    serve(server, 1);
    vi.advanceTimersByTime(4_000);
    expect(collect).toHaveBeenCalledTimes(2);
    stop();
  });

  it('collects only when the resident set grew since the last release', () => {
    const server = new EventEmitter();
    const MiB = 2 ** 20;
    let resident = 150 * MiB;
    const collect = vi.fn(() => {
      resident = 140 * MiB;
    });
    const stop = releaseMemoryWhenIdle(server, { collect, growthBytes: 16 * MiB, rss: () => resident });
    vi.advanceTimersByTime(2_000);
    expect(collect).toHaveBeenCalledTimes(1); // start-up: 150 MiB grown from nothing
    resident = 150 * MiB; // grew 10 MiB since the release
    serve(server, 10);
    vi.advanceTimersByTime(4_000);
    expect(collect).toHaveBeenCalledTimes(1);
    resident = 160 * MiB; // 20 MiB
    serve(server, 10);
    vi.advanceTimersByTime(4_000);
    expect(collect).toHaveBeenCalledTimes(2);
    stop();
  });

  it('does nothing without --expose-gc', () => {
    const server = new EventEmitter();
    const stop = releaseMemoryWhenIdle(server, { collect: undefined });
    expect(server.listenerCount('request')).toBe(0);
    stop();
  });
});
