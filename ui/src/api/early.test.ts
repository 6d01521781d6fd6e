import { afterEach, describe, expect, it, vi } from 'vitest';
import { EarlyRead } from './index';

describe('EarlyRead', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives its read once, arrived or under way', async () => {
    const early = new EarlyRead<number>(5_000);
    expect(early.take()).toBeNull();
    const asked = early.ask(() => Promise.resolve(7));
    expect(early.arrived()).toBeNull();
    await asked;
    expect(early.arrived()).toBe(7);
    await expect(early.take()).resolves.toBe(7);
    expect(early.take()).toBeNull();
    expect(early.arrived()).toBeNull();
  });

  it('holds an answer that came with another read, there for a first render and given once', async () => {
    const early = new EarlyRead<number>(5_000);
    early.hold(3);
    expect(early.arrived()).toBe(3);
    await expect(early.take()).resolves.toBe(3);
    expect(early.take()).toBeNull();
  });

  it('forgets a read that failed, so the page reads for itself', async () => {
    const early = new EarlyRead<number>(5_000);
    await early.ask(() => Promise.reject(new Error('offline'))).catch(() => undefined);
    expect(early.take()).toBeNull();
  });

  it('does not stand in for the page after its time', async () => {
    vi.useFakeTimers();
    const early = new EarlyRead<number>(5_000);
    await early.ask(() => Promise.resolve(1));
    vi.advanceTimersByTime(5_001);
    expect(early.arrived()).toBeNull();
    expect(early.take()).toBeNull();
  });
});
