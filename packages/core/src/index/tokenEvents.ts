import { hexToBytes } from '@ethereumjs/util';
import type { RawLog } from '../chain/types.js';
import { readU256 } from './codec.js';
import type { TransferKind } from './records.js';

/** keccak256 of the event signatures (checked in tokenEvents.test.ts). */
export const TOPICS = {
  /** Transfer(address,address,uint256): ERC-20 (value in data) and ERC-721 (id indexed). */
  transfer: hexToBytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'),
  /** TransferSingle(address,address,address,uint256,uint256) */
  transferSingle: hexToBytes('0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'),
  /** TransferBatch(address,address,address,uint256[],uint256[]) */
  transferBatch: hexToBytes('0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'),
} as const;

/** Items of one ERC-1155 batch kept; `sub` is a u16 and a page must stay a page. */
export const MAX_BATCH_ITEMS = 10_000;

/** A decoded token movement of one log (a batch gives several, `sub` 0, 1, …). */
export interface DecodedTransfer {
  sub: number;
  kind: TransferKind;
  token: Uint8Array;
  from: Uint8Array;
  to: Uint8Array;
  amount: bigint;
  tokenId: bigint | null;
}

function sameTopic(a: Uint8Array | undefined, b: Uint8Array): boolean {
  if (a?.length !== 32) return false;
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The address in a 32-byte topic or word (its low 20 bytes). */
const wordAddress = (w: Uint8Array): Uint8Array => w.slice(12, 32);

/** The uint256[] at byte `offset` of ABI-encoded `data`, or undefined when malformed. */
function readUintArray(data: Uint8Array, offset: bigint): bigint[] | undefined {
  const at = Number(offset);
  if (offset > BigInt(data.length) || at + 32 > data.length) return undefined;
  const len = readU256(data, at);
  if (len > BigInt(MAX_BATCH_ITEMS) || at + 32 + Number(len) * 32 > data.length) return undefined;
  const out: bigint[] = [];
  for (let i = 0; i < Number(len); i++) out.push(readU256(data, at + 32 + i * 32));
  return out;
}

/**
 * The token transfers a log records, by its shape as Blockscout reads them: `Transfer` with the
 * value in data is ERC-20, with the id as a fourth topic ERC-721; `TransferSingle` and
 * `TransferBatch` are ERC-1155. Anything else (or malformed) records none.
 */
export function decodeTransfers(log: RawLog): DecodedTransfer[] {
  // Indexed reads: array destructuring is the iterator protocol in bytecode (per log).
  const token = log[0];
  const topics = log[1];
  const data = log[2];
  const t0 = topics[0];
  if (sameTopic(t0, TOPICS.transfer)) {
    if (topics.length === 3 && data.length === 32) {
      return [
        {
          sub: 0,
          kind: 'erc20',
          token,
          from: wordAddress(topics[1]),
          to: wordAddress(topics[2]),
          amount: readU256(data),
          tokenId: null,
        },
      ];
    }
    if (topics.length === 4 && data.length === 0) {
      const tokenId = readU256(topics[3]);
      return [
        {
          sub: 0,
          kind: 'erc721',
          token,
          from: wordAddress(topics[1]),
          to: wordAddress(topics[2]),
          amount: 1n,
          tokenId,
        },
      ];
    }
    return [];
  }
  if (topics.length !== 4) return [];
  if (sameTopic(t0, TOPICS.transferSingle)) {
    if (data.length !== 64) return [];
    const from = wordAddress(topics[2]);
    const to = wordAddress(topics[3]);
    return [
      { sub: 0, kind: 'erc1155-single', token, from, to, amount: readU256(data, 32), tokenId: readU256(data, 0) },
    ];
  }
  if (sameTopic(t0, TOPICS.transferBatch)) {
    if (data.length < 64) return [];
    const ids = readUintArray(data, readU256(data, 0));
    const values = readUintArray(data, readU256(data, 32));
    if (!ids || !values || ids.length !== values.length) return [];
    const from = wordAddress(topics[2]);
    const to = wordAddress(topics[3]);
    return ids.map((id, i) => ({
      sub: i,
      kind: 'erc1155-batch' as const,
      token,
      from,
      to,
      amount: values[i],
      tokenId: id,
    }));
  }
  return [];
}
