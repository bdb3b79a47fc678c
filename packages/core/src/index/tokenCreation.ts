import type { BatchWriter } from './BatchWriter.js';
import { u8 } from './codec.js';
import { keys, txPos } from './indexKeys.js';
import { TX_KINDS, decodeContract, txKindBit } from './records.js';

const BIT = txKindBit('token_creation');
const KIND = TX_KINDS.indexOf('token_creation');

/**
 * A contract is known to be a token only when its first transfer is seen, often blocks after
 * it was created (an NFT is deployed, then minted). Its creation transaction then gains the
 * `token_creation` kind (Blockscout's tx type); `on: false` takes it back when the block that
 * revealed the token is removed. Creations in the same block are classified directly.
 */
export async function markTokenCreation(
  w: BatchWriter,
  token: Uint8Array,
  revealedIn: bigint,
  on: boolean,
): Promise<void> {
  const raw = await w.read('idxContract', token);
  if (!raw) return;
  const c = decodeContract(raw);
  if (c.txIndex === null || c.block >= revealedIn) return;
  const pos = txPos(c.block, c.txIndex);
  const mask = (await w.read('idxTx', pos))?.[0] ?? 0;
  if (on === ((mask & BIT) !== 0)) return;
  w.put('idxTx', pos, u8(on ? mask | BIT : mask & ~BIT));
  if (on) w.put('idxTxKind', keys.txKind(KIND, pos), new Uint8Array(0));
  else w.del('idxTxKind', keys.txKind(KIND, pos));
}
