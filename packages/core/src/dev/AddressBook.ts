import { type Address, bytesToHex } from '@ethereumjs/util';
import { hexKey } from '../chain/stateCacheKeys.js';
import type { ChainService } from '../chain/ChainService.js';
import { keccak256 } from '../chain/nativeCrypto.js';
import { SYSTEM_CONTRACTS } from '../chain/systemContracts.js';
import type { StoredBlock } from '../chain/types.js';
import type { EventBus } from '../events/EventBus.js';

/** How many of the addresses last added from blocks are checked before making one's hex. */
const RECENT = 8;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Addresses the node has seen: the state trie keys accounts by keccak(address), so a state dump
 * can only name the accounts whose address it learnt somewhere — genesis, dev edits, and the
 * senders, recipients, creations, log emitters and withdrawals of blocks mined since start.
 */
export class AddressBook {
  private readonly known = new Set<string>();
  /** The last RECENT addresses added from blocks (a ring), all already in `known`. */
  private readonly recent: Uint8Array[] = Array.from({ length: RECENT }, () => new Uint8Array(0));
  private nextRecent = 0;

  constructor(chain: ChainService, events: EventBus) {
    for (const a of chain.accounts) this.add(a.address);
    for (const sc of SYSTEM_CONTRACTS) this.known.add(sc.address);
    this.known.add(chain.settings.coinbase);
    // the precompiles (a transfer to one creates its account)
    for (let i = 1; i <= 0x11; i++) this.known.add(`0x${i.toString(16).padStart(40, '0')}`);
    events.on('block', (sb) => this.addBlock(sb));
  }

  add(address: Address | string): void {
    this.known.add(typeof address === 'string' ? address.toLowerCase() : address.toString());
  }

  // Indexed loops, not for-of: no iterator protocol with its closing try/finally per loop in the
  // bytecode V8 runs once per block and compiles (~10 ms in a fresh node's ERC-20 window), and no
  // empty array made for a block without withdrawals.
  private addBlock(sb: StoredBlock): void {
    const senders = sb.senders;
    for (let i = 0; i < senders.length; i++) this.addBytes(senders[i].bytes);
    const block = sb.block;
    this.addBytes(block.header.coinbase.bytes);
    const txs = block.transactions;
    for (let i = 0; i < txs.length; i++) {
      const to = txs[i].to;
      if (to) this.addBytes(to.bytes);
    }
    const receipts = sb.receipts;
    for (let i = 0; i < receipts.length; i++) {
      const r = receipts[i];
      if (r.contractAddress) this.addBytes(r.contractAddress);
      const logs = r.logs;
      for (let j = 0; j < logs.length; j++) this.addBytes(logs[j][0]);
    }
    const withdrawals = block.withdrawals;
    if (withdrawals) {
      for (let i = 0; i < withdrawals.length; i++) this.addBytes(withdrawals[i].address.bytes);
    }
  }

  /**
   * Adds an address given as its bytes, skipping one of the last few added: blocks repeat the
   * same handful (sender, coinbase, token), and a 20-byte compare costs far less than the hex
   * string the set needs (~1 µs each, 4-5 an automined transfer).
   */
  private addBytes(bytes: Uint8Array): void {
    const recent = this.recent;
    for (let k = 0; k < recent.length; k++) if (sameBytes(recent[k], bytes)) return;
    // Node's native hex (hexKey), the same lowercase text as bytesToHex's JavaScript loop.
    this.known.add(`0x${hexKey(bytes)}`);
    // A copy: the bytes given may be a view into a buffer that is reused.
    recent[this.nextRecent] = bytes.slice();
    this.nextRecent = (this.nextRecent + 1) % recent.length;
  }

  /** Trie key (hex of keccak(address)) → address, for every known address. */
  names(): Map<string, string> {
    const out = new Map<string, string>();
    for (const a of this.known) out.set(bytesToHex(keccak256(Buffer.from(a.slice(2), 'hex'))), a);
    return out;
  }
}
