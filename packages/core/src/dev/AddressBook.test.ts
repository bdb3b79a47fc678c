import { Address, bytesToHex, createAddressFromString } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import type { ChainService } from '../chain/ChainService.js';
import type { StoredBlock } from '../chain/types.js';
import { keccak256 } from '../chain/nativeCrypto.js';
import { EventBus } from '../events/EventBus.js';
import { AddressBook } from './AddressBook.js';

const addr = (n: number) => new Uint8Array(20).fill(n);
const COINBASE = '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e';

/** The parts of a block the book reads: senders, coinbase, recipients, creations, log emitters, withdrawals. */
function block(p: {
  senders?: Uint8Array[];
  to?: (Uint8Array | undefined)[];
  created?: Uint8Array[];
  emitters?: Uint8Array[];
  withdrawn?: Uint8Array[];
}): StoredBlock {
  return {
    senders: (p.senders ?? []).map((a) => new Address(a)),
    block: {
      header: { coinbase: createAddressFromString(COINBASE) },
      transactions: (p.to ?? []).map((a) => ({ to: a ? new Address(a) : undefined })),
      withdrawals: (p.withdrawn ?? []).map((a) => ({ address: new Address(a) })),
    },
    receipts: [
      ...(p.created ?? []).map((a) => ({ contractAddress: a, logs: [] })),
      { logs: (p.emitters ?? []).map((a) => [a, [], new Uint8Array()]) },
    ],
  } as unknown as StoredBlock;
}

function book(): { events: EventBus; book: AddressBook; known: () => Set<string> } {
  const events = new EventBus();
  const chain = { accounts: [], settings: { coinbase: COINBASE } } as unknown as ChainService;
  const b = new AddressBook(chain, events);
  return { events, book: b, known: () => new Set(b.names().values()) };
}

describe('AddressBook', () => {
  it('learns every address a block names, each under the keccak of its bytes', () => {
    const { events, book: b, known } = book();
    events.emit(
      'block',
      block({
        senders: [addr(1)],
        to: [addr(2), undefined],
        created: [addr(3)],
        emitters: [addr(4)],
        withdrawn: [addr(5)],
      }),
    );
    for (const n of [1, 2, 3, 4, 5]) expect(known()).toContain(bytesToHex(addr(n)));
    expect(known()).toContain(COINBASE);
    const names = b.names();
    expect(names.get(bytesToHex(keccak256(addr(4))))).toBe(bytesToHex(addr(4)));
  });

  it('learns addresses written one after another into a reused buffer, and more than it recalls at once', () => {
    const { events, known } = book();
    const buffer = new Uint8Array(20);
    const emitters: Uint8Array[] = [];
    // Twenty distinct emitters over forty blocks, each block's written into the same buffer.
    for (let i = 0; i < 40; i++) {
      buffer.set(addr(0x40 + (i % 20)));
      events.emit('block', block({ senders: [addr(1)], emitters: [buffer] }));
      emitters.push(addr(0x40 + (i % 20)));
    }
    for (const a of emitters) expect(known()).toContain(bytesToHex(a));
  });
});
