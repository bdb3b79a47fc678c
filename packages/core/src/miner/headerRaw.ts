import type { BlockHeader } from '@ethereumjs/block';
import { unpaddedBytes as unpadded } from '../storage/unpaddedBytes.js';

/**
 * BlockHeader.raw() of @ethereumjs/block 10.1.3, field for field and under the same EIP
 * conditions, with the numbers converted by `unpadded`. A test compares it with raw() on every
 * hardfork.
 */
export function headerRaw(h: BlockHeader): Uint8Array[] {
  const items: Uint8Array[] = [
    h.parentHash,
    h.uncleHash,
    h.coinbase.bytes,
    h.stateRoot,
    h.transactionsTrie,
    h.receiptTrie,
    h.logsBloom,
    unpadded(h.difficulty),
    unpadded(h.number),
    unpadded(h.gasLimit),
    unpadded(h.gasUsed),
    unpadded(h.timestamp ?? 0n),
    h.extraData,
    h.mixHash,
    h.nonce,
  ];
  const c = h.common;
  if (c.isActivatedEIP(1559)) items.push(unpadded(h.baseFeePerGas as bigint));
  if (c.isActivatedEIP(4895)) items.push(h.withdrawalsRoot as Uint8Array);
  if (c.isActivatedEIP(4844)) items.push(unpadded(h.blobGasUsed as bigint), unpadded(h.excessBlobGas as bigint));
  if (c.isActivatedEIP(4788)) items.push(h.parentBeaconBlockRoot as Uint8Array);
  if (c.isActivatedEIP(7685)) items.push(h.requestsHash as Uint8Array);
  if (c.isActivatedEIP(7928)) items.push(h.blockAccessListHash as Uint8Array);
  if (c.isActivatedEIP(7843)) items.push(unpadded(h.slotNumber as bigint));
  return items;
}
