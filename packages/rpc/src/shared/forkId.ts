import type { Common } from '@ethereumjs/common';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32Update(crc: number, bytes: Uint8Array): number {
  let c = ~crc >>> 0;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** A fork activation: by block number (before the merge) or by timestamp (after). */
export interface ForkPoint {
  name: string;
  block?: bigint;
  time?: bigint;
}

/**
 * The chain's scheduled forks as EIP-2124 counts them: activations after genesis only, one
 * entry per distinct block or time (forks sharing one, like Paris and mergeNetsplitBlock, count
 * once), blocks first, then times. Each point is named after the newest fork it activates.
 */
export function forkSchedule(common: Common, genesisTime: bigint): ForkPoint[] {
  const blocks = new Map<bigint, ForkPoint>();
  const times = new Map<bigint, ForkPoint>();
  for (const hf of common.hardforks()) {
    if (hf.timestamp !== undefined && hf.timestamp !== null) {
      const t = BigInt(hf.timestamp);
      if (t > genesisTime) times.set(t, { name: hf.name, time: t });
    } else if (hf.block !== null && hf.block !== undefined) {
      const b = BigInt(hf.block);
      // The newest fork at a block names its rules; mergeNetsplitBlock is a marker, not rules.
      if (b > 0n && !(hf.name === 'mergeNetsplitBlock' && blocks.has(b))) blocks.set(b, { name: hf.name, block: b });
    }
  }
  const byKey = <K extends bigint>(m: Map<K, ForkPoint>) => [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return [...byKey(blocks).map(([, f]) => f), ...byKey(times).map(([, f]) => f)];
}

/** EIP-2124 fork hash: CRC32 of the genesis hash and every fork activation passed so far. */
export function forkHash(genesisHash: Uint8Array, passed: readonly ForkPoint[]): string {
  let crc = crc32Update(0, genesisHash);
  for (const f of passed) {
    const v = new Uint8Array(8);
    new DataView(v.buffer).setBigUint64(0, f.block ?? f.time ?? 0n);
    crc = crc32Update(crc, v);
  }
  return `0x${crc.toString(16).padStart(8, '0')}`;
}
