import { type Address, bytesToHex } from '@ethereumjs/util';
import type { ChainService } from '../chain/ChainService.js';
import { keccak256 } from '../chain/nativeCrypto.js';
import { SYSTEM_CONTRACTS } from '../chain/systemContracts.js';
import type { StoredBlock } from '../chain/types.js';
import type { EventBus } from '../events/EventBus.js';

/**
 * Addresses the node has seen: the state trie keys accounts by keccak(address), so a state dump
 * can only name the accounts whose address it learnt somewhere — genesis, dev edits, and the
 * senders, recipients, creations, log emitters and withdrawals of blocks mined since start.
 */
export class AddressBook {
  private readonly known = new Set<string>();

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

  private addBlock(sb: StoredBlock): void {
    for (const s of sb.senders) this.add(s);
    this.add(sb.block.header.coinbase);
    for (const tx of sb.block.transactions) if (tx.to) this.add(tx.to);
    for (const r of sb.receipts) {
      if (r.contractAddress) this.add(bytesToHex(r.contractAddress));
      for (const log of r.logs) this.add(bytesToHex(log[0]));
    }
    for (const w of sb.block.withdrawals ?? []) this.add(w.address);
  }

  /** Trie key (hex of keccak(address)) → address, for every known address. */
  names(): Map<string, string> {
    const out = new Map<string, string>();
    for (const a of this.known) out.set(bytesToHex(keccak256(Buffer.from(a.slice(2), 'hex'))), a);
    return out;
  }
}
