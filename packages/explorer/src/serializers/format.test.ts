import { describe, expect, it } from 'vitest';
import { checksum, ether, gwei, isoTime, percent } from './format.js';
import { methodOf, selectorsFor } from './methods.js';

describe('explorer formats', () => {
  it('writes timestamps as ISO 8601 UTC with microseconds', () => {
    expect(isoTime(0n)).toBe('1970-01-01T00:00:00.000000Z');
    expect(isoTime(1_700_000_000)).toBe('2023-11-14T22:13:20.000000Z');
    // Past JS Date's range (a uint64 timestamp set by a dev method): its last day, not a throw.
    expect(isoTime(2n ** 64n - 1n)).toBe('+275760-09-13T00:00:00.000000Z');
  });

  it('checksums addresses (EIP-55)', () => {
    expect(checksum('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(checksum(new Uint8Array(20))).toBe('0x0000000000000000000000000000000000000000');
  });

  it('rounds percentages and converts units', () => {
    expect(percent(1n, 3n)).toBe(33.3333);
    expect(percent(5n, 0n)).toBe(0);
    expect(ether(1_500_000_000_000_000_000n)).toBe('1.5');
    expect(ether(2n * 10n ** 18n)).toBe('2');
    expect(gwei(1_234_567_890n)).toBe(1.23);
  });

  it('names calls from the built-in selector table, else by selector', () => {
    const to = new Uint8Array(20);
    expect(methodOf(to, Uint8Array.from(Buffer.from('a9059cbb00', 'hex')))).toBe('transfer');
    expect(methodOf(to, Uint8Array.from(Buffer.from('095ea7b3', 'hex')))).toBe('approve');
    expect(methodOf(to, Uint8Array.from(Buffer.from('deadbeef', 'hex')))).toBe('0xdeadbeef');
    expect(methodOf(null, Uint8Array.from(Buffer.from('a9059cbb', 'hex')))).toBeNull();
    expect(methodOf(to, new Uint8Array(0))).toBeNull();
    expect(selectorsFor('multicall')?.length).toBe(2);
    expect(selectorsFor('0xA9059CBB')).toEqual([Uint8Array.from([0xa9, 0x05, 0x9c, 0xbb])]);
    expect(selectorsFor('nope')).toBeUndefined();
  });
});
