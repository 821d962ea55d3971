import { describe, expect, it } from 'vitest';
import { ProviderGuard } from '../../src/engine/provider-guard.js';
import { ProviderError } from '../../src/providers/provider.js';

// The guard's own contract, beside the fan-out tests that drive it through real adapters.
describe('ProviderGuard', () => {
  it('answers a call settled within the turn as ok, and leaves its signal unaborted after the deadline', async () => {
    const guard = new ProviderGuard(20);
    let seen: AbortSignal | undefined;
    const outcome = await guard.call(async (signal) => {
      seen = signal;
      return 42;
    });
    expect(outcome).toMatchObject({ status: 'ok', value: 42 });
    expect(seen?.aborted).toBe(false);
    // A call of a later macrotask (calls started in one share a signal, see the next describe)
    // whose timeout is the awaited event that the first call's deadline has passed.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(await guard.call(() => new Promise<never>(() => undefined))).toMatchObject({ status: 'timeout' });
    expect(seen?.aborted).toBe(false);
  });

  it('gives up at the deadline on a call that ignores its signal, and aborts that signal', async () => {
    const guard = new ProviderGuard(20);
    let seen: AbortSignal | undefined;
    const outcome = await guard.call((signal) => {
      seen = signal;
      return new Promise<never>(() => undefined);
    });
    expect(outcome).toMatchObject({ status: 'timeout', error: 'no answer within 20 ms' });
    expect(seen?.aborted).toBe(true);
  });

  it('reports a caller abort as aborted at once, and does not count it against the breaker', async () => {
    const guard = new ProviderGuard(60_000, { failures: 1, halfOpenAfterMs: 60_000 });
    const caller = new AbortController();
    const pending = guard.call(() => new Promise<never>(() => undefined), caller.signal);
    await Promise.resolve();
    caller.abort();
    expect(await pending).toMatchObject({ status: 'aborted' });
    expect(guard.circuit).toBe('closed');
  });

  it('opens the circuit on a provider error thrown synchronously', async () => {
    const guard = new ProviderGuard(1000, { failures: 1, halfOpenAfterMs: 60_000 });
    const outcome = await guard.call(() => {
      throw new ProviderError('connection refused', 'network');
    });
    expect(outcome).toMatchObject({ status: 'error', cause: 'network' });
    expect(guard.circuit).toBe('open');
    expect(await guard.call(async () => 1)).toMatchObject({ status: 'circuit-open' });
  });
});

describe('ProviderGuard, calls started together', () => {
  // They share one signal (an AbortController per call was the local provider's costliest part of
  // its wrapper): it is aborted once none of them is running any more and one timed out.
  it('times out only the call that outlives its deadline, while the others answer', async () => {
    const guard = new ProviderGuard(20);
    const signals: AbortSignal[] = [];
    const [hung, answered] = await Promise.all([
      guard.call((signal) => {
        signals.push(signal);
        return new Promise<never>(() => undefined);
      }),
      guard.call(async (signal) => {
        signals.push(signal);
        return 'ok';
      }),
    ]);
    expect(hung).toMatchObject({ status: 'timeout' });
    expect(answered).toMatchObject({ status: 'ok', value: 'ok' });
    expect(signals[0]?.aborted).toBe(true);
  });
});
