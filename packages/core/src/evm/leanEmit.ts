/**
 * The event emitter @ethereumjs/vm 10.1.3's VM and @ethereumjs/evm 10.1.3's EVM each give
 * themselves in their constructor (`this._emit = async (topic, data) => {…}`), awaited for every
 * `beforeTx`/`afterTx` and `beforeMessage`/`afterMessage` (four times per transfer), without the
 * async function: listeners that take one argument are called in order, synchronously, as
 * before, and the answer is one shared settled promise; from the first listener that takes a
 * callback (two arguments) on, the rest runs as the original does, awaiting each such listener.
 * A listener that throws gives a rejected promise, as before. No listener: nothing is copied.
 *
 * Installed as a setter on both prototypes: when a constructor assigns its emitter and the
 * emitter's text is the original's (whitespace aside), the instance gets the lean one instead, as
 * the same own property; any other emitter assigned (a subclass's, a test's) is kept as given.
 */

import { EventEmitter } from 'eventemitter3';
import { SETTLED } from '../util/settled.js';

type Listener = (data: unknown, resolve?: (value?: unknown) => void) => unknown;

interface Events {
  listeners(topic: string): Listener[];
  listenerCount(topic: string): number;
}

/** The constructors' emitter, whitespace collapsed (the same text in vm.js and evm.js). */
const ORIGINAL_EMIT =
  'async (topic, data) => { const listeners = this.events.listeners(topic); for (const listener of listeners) { ' +
  'if (listener.length === 2) { await new Promise((resolve) => { listener(data, resolve); }); } ' +
  'else { listener(data); } } }';

/** The answer when every listener ran synchronously: the shared SETTLED, which the lean paths need not await. */
const DONE: Promise<void> = SETTLED;

/** Emits `topic` to `events`' listeners as the original emitter does (see the file comment). */
export function emitTo(events: Events, topic: string, data: unknown): Promise<void> {
  if (events.listenerCount(topic) === 0) return DONE;
  const listeners = events.listeners(topic);
  for (let i = 0; i < listeners.length; i++) {
    const listener = listeners[i];
    if (listener.length === 2) return emitFrom(listeners, i, data);
    try {
      listener(data);
    } catch (e) {
      return Promise.reject(e);
    }
  }
  return DONE;
}

/** The original loop from listener `i` on (the first that takes a callback). */
async function emitFrom(listeners: Listener[], i: number, data: unknown): Promise<void> {
  for (let j = i; j < listeners.length; j++) {
    const listener = listeners[j];
    if (listener.length === 2) {
      await new Promise((resolve) => {
        listener(data, resolve);
      });
    } else listener(data);
  }
}

/** Whether `fn` is the constructors' own emitter. */
export function isOriginalEmit(fn: unknown): boolean {
  return typeof fn === 'function' && String(fn).replace(/\s+/g, ' ') === ORIGINAL_EMIT;
}

/**
 * Installs the setter described in the file comment on `proto` (VM.prototype or EVM.prototype);
 * false, leaving it alone, if it already has an `_emit` of its own.
 */
export function installLeanEmit(proto: object): boolean {
  if (Object.getOwnPropertyDescriptor(proto, '_emit') !== undefined) return false;
  Object.defineProperty(proto, '_emit', {
    configurable: true,
    enumerable: false,
    get: undefined,
    set(this: { events: Events }, fn: unknown) {
      const value = isOriginalEmit(fn) ? (topic: string, data: unknown) => emitTo(this.events, topic, data) : fn;
      Object.defineProperty(this, '_emit', { value, writable: true, enumerable: true, configurable: true });
    },
  });
  return true;
}

/** Calls per stage of primeEmitFeedback: past V8's lazy feedback-vector allocation (8 calls). */
const PRIME_CALLS = 16;

/**
 * Emits, once at start, through a throwaway eventemitter3 emitter with none, one and then two
 * listeners of an event. eventemitter3 keeps one listener as an object and several as an array,
 * and listenerCount/listeners (inlined into emitTo, and with it into the EVM's runCall) read
 * `.fn` off either: a node that mined only value transfers had ever seen one `beforeMessage`
 * listener (the call-frame tracer), so the second one the console capture adds at the first
 * contract call ('wrong map') threw away listenerCount and runCall's optimised code. Given both
 * shapes here, before anything is optimised, that code handles both. Nothing here is observable.
 */
export function primeEmitFeedback(): void {
  const events = new EventEmitter();
  const noop = (_data: unknown): void => {};
  for (let i = 0; i < PRIME_CALLS; i++) emitTo(events, 'prime', undefined);
  events.on('prime', noop);
  for (let i = 0; i < PRIME_CALLS; i++) emitTo(events, 'prime', undefined);
  events.on('prime', noop);
  for (let i = 0; i < PRIME_CALLS; i++) emitTo(events, 'prime', undefined);
  events.removeAllListeners();
}
