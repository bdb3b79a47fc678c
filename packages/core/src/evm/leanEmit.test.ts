import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { createVM } from '@ethereumjs/vm';
import { EventEmitter } from 'eventemitter3';
import { describe, expect, it } from 'vitest';
import { installEngineSpeedups } from './internals.js';
import { SETTLED } from '../util/settled.js';
import { emitTo, isOriginalEmit } from './leanEmit.js';

/** The constructors' emitter, as vm.js and evm.js write it, over `events`. */
function originalEmit(events: EventEmitter) {
  const self = { events };
  return async (topic: string, data: unknown) => {
    const listeners = self.events.listeners(topic) as ((d: unknown, r?: () => void) => unknown)[];
    for (const listener of listeners) {
      if (listener.length === 2) {
        await new Promise<void>((resolve) => {
          listener(data, resolve);
        });
      } else {
        listener(data);
      }
    }
  };
}

/** Runs `emit` on a fresh emitter set up by `setup`, with a microtask marker, and returns what happened in order. */
async function trace(
  emit: (events: EventEmitter) => (topic: string, data: unknown) => Promise<void>,
  setup: (events: EventEmitter, log: string[]) => void,
): Promise<string[]> {
  const events = new EventEmitter();
  const log: string[] = [];
  setup(events, log);
  const done = emit(events)('topic', 'd').then(
    () => log.push('resolved'),
    (e: Error) => log.push(`rejected ${e.message}`),
  );
  log.push('returned');
  await done;
  return log;
}

describe('lean VM/EVM event emitter', () => {
  const setups: Record<string, (events: EventEmitter, log: string[]) => void> = {
    none: () => undefined,
    'sync listeners': (events, log) => {
      events.on('topic', (d: unknown) => log.push(`a ${d}`));
      events.on('topic', (d: unknown) => log.push(`b ${d}`));
      events.on('other', () => log.push('never'));
    },
    'a callback listener between sync ones': (events, log) => {
      events.on('topic', (d: unknown) => log.push(`a ${d}`));
      events.on('topic', (d: unknown, resolve: () => void) => {
        log.push(`b ${d}`);
        setTimeout(() => {
          log.push('b done');
          resolve();
        }, 5);
      });
      events.on('topic', (d: unknown) => log.push(`c ${d}`));
    },
    'a throwing listener': (events, log) => {
      events.on('topic', () => log.push('a'));
      events.on('topic', () => {
        throw new Error('boom');
      });
      events.on('topic', () => log.push('never'));
    },
    'a throwing callback listener': (events) => {
      events.on('topic', (_d: unknown, _resolve: () => void) => {
        throw new Error('boom');
      });
    },
  };

  for (const [name, setup] of Object.entries(setups)) {
    it(`calls listeners and settles as the original: ${name}`, async () => {
      const lean = await trace((events) => (topic, data) => emitTo(events, topic, data), setup);
      expect(lean).toEqual(await trace(originalEmit, setup));
    });
  }

  it('answers the shared SETTLED when every listener ran synchronously, which the lean paths do not await', async () => {
    const events = new EventEmitter();
    expect(emitTo(events, 'topic', 'd')).toBe(SETTLED);
    events.on('topic', () => undefined);
    expect(emitTo(events, 'topic', 'd')).toBe(SETTLED);
    events.on('topic', (_d: unknown, resolve: () => void) => resolve());
    const waited = emitTo(events, 'topic', 'd');
    expect(waited).not.toBe(SETTLED);
    await waited;
  });

  it('is what new VMs and EVMs get; an emitter given by anyone else is kept', async () => {
    await installEngineSpeedups();
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
    const vm = await createVM({ common });
    const evm = await createEVM({ common });
    for (const target of [vm, evm] as unknown as { _emit: unknown; events: EventEmitter }[]) {
      expect(Object.hasOwn(target, '_emit')).toBe(true);
      expect(isOriginalEmit(target._emit)).toBe(false);
      const seen: unknown[] = [];
      target.events.on('beforeTx', (d: unknown) => seen.push(d));
      await (target._emit as (t: string, d: unknown) => Promise<void>)('beforeTx', 7);
      expect(seen).toEqual([7]);
      const own = async () => undefined;
      target._emit = own;
      expect(target._emit).toBe(own);
    }
    expect(isOriginalEmit(originalEmit(new EventEmitter()))).toBe(false);
  });
});
