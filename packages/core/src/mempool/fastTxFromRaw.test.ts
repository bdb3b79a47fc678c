import { RLP } from '@ethereumjs/rlp';
import { type TypedTransaction, createTx, createTxFromRLP } from '@ethereumjs/tx';
import { Address, bigIntToUnpaddedBytes, bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HARDFORK, createDevCommon } from '../chain/chainCommon.js';
import { installFastRlp } from '../util/fastRlp.js';
import { fastTxFromRaw, fastTxMatchesStock, sameFields } from './fastTxFromRaw.js';

installFastRlp();
const common = createDevCommon(31337n, DEFAULT_HARDFORK);
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const to = new Address(Uint8Array.from({ length: 20 }, (_, i) => 0xa0 + i));
const bytes = (n: number, seed = 1) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 256);
const sig = { r: 0x1234n * 2n ** 200n + 99n, s: 2n ** 250n + 5n };

/** Stock-made encodings of signed transactions (the signature needs no meaning to be decoded). */
function legacyRaw(fields: Record<string, unknown> = {}, v = 31337n * 2n + 35n): Uint8Array {
  const data = {
    type: 0,
    nonce: 3n,
    gasPrice: 10n ** 10n,
    gasLimit: 90_000n,
    to,
    value: 0n,
    data: bytes(68),
    v,
    ...sig,
  };
  return createTx({ ...data, ...fields } as Parameters<typeof createTx>[0], { common }).serialize();
}
function dynamicRaw(fields: Record<string, unknown> = {}): Uint8Array {
  const data = {
    type: 2,
    chainId: 31337n,
    nonce: 9n,
    maxPriorityFeePerGas: 10n ** 9n,
    maxFeePerGas: 2n * 10n ** 9n,
    gasLimit: 21_000n,
    to,
    value: 10n ** 18n,
    data: new Uint8Array(0),
    v: 1n,
    ...sig,
  };
  return createTx({ ...data, ...fields } as Parameters<typeof createTx>[0], { common }).serialize();
}

/** What the two constructions must agree on beyond their fields. */
function behaviour(tx: TypedTransaction): unknown {
  return {
    serialized: bytesToHex(tx.serialize()),
    hash: bytesToHex(tx.hash()),
    message: bytesToHex(tx.getHashedMessageToSign()),
    json: tx.toJSON(),
    intrinsic: tx.getIntrinsicGas(),
    dataGas: tx.getDataGas(),
    upfront: tx.getUpfrontCost(7n),
    eip155: tx.supports(155),
    eip1559: tx.supports(1559),
    signed: tx.isSigned(),
  };
}

describe('fastTxFromRaw', () => {
  it("builds @ethereumjs's transaction, field for field, for signed legacy and EIP-1559 ones", () => {
    expect(fastTxMatchesStock(common)).toBe(true);
    const accessList = [
      [to.bytes, [bytes(32, 1), bytes(32, 2)]],
      [bytes(20, 9), []],
    ];
    const raws = {
      'legacy transfer': legacyRaw(),
      'legacy, v = 2·chainId + 36': legacyRaw({}, 31337n * 2n + 36n),
      'legacy creation, nonce 0, value, big data': legacyRaw({
        to: undefined,
        nonce: 0n,
        value: 5n,
        data: bytes(3000),
      }),
      'legacy, 7-byte gas price and a 32-byte value': legacyRaw({ gasPrice: 2n ** 52n + 3n, value: 2n ** 255n }),
      'EIP-1559 transfer': dynamicRaw(),
      'EIP-1559, y-parity 0, zero fees': dynamicRaw({ v: 0n, maxPriorityFeePerGas: 0n, maxFeePerGas: 0n }),
      'EIP-1559 with an access list': dynamicRaw({ accessList, data: bytes(100) }),
      'EIP-1559 creation': dynamicRaw({ to: undefined, data: bytes(500), gasLimit: 1_000_000n }),
      'EIP-1559, s at n/2': dynamicRaw({ s: N / 2n }),
    };
    for (const [name, raw] of Object.entries(raws)) {
      const fast = fastTxFromRaw(raw, common);
      const stock = createTxFromRLP(raw, { common, freeze: false });
      expect(fast, name).toBeDefined();
      expect(sameFields(fast as TypedTransaction, stock), name).toBe(true);
      expect(Object.keys(fast as TypedTransaction), name).toEqual(Object.keys(stock));
      expect(behaviour(fast as TypedTransaction), name).toEqual(behaviour(stock));
      // Its Common is a copy of the chain's, as the constructor's is.
      expect(fast?.common, name).not.toBe(common);
      expect(fast?.common.hardfork(), name).toBe(common.hardfork());
    }
  });

  it('leaves to the stock constructor what it refuses or what is not a signed legacy/EIP-1559 transaction', () => {
    const withItem = (raw: Uint8Array, index: number, item: Uint8Array | Uint8Array[]) => {
      const typed = raw[0] < 0xc0;
      const fields = RLP.decode(typed ? raw.subarray(1) : raw) as Uint8Array[];
      fields[index] = item as Uint8Array;
      const body = RLP.encode(fields);
      return typed ? Uint8Array.of(raw[0], ...body) : body;
    };
    const cap = common.param('maxTransactionGasLimit');
    const cases: Record<string, Uint8Array> = {
      'legacy, v 27 (no EIP-155)': legacyRaw({}, 27n),
      'legacy, another chain': withItem(legacyRaw(), 6, Uint8Array.of(37)),
      'legacy, nonce with a leading zero': withItem(legacyRaw(), 0, Uint8Array.of(0, 3)),
      'legacy, gas over the EIP-7825 cap': withItem(legacyRaw(), 2, bigIntToUnpaddedBytes(cap + 1n)),
      'legacy creation over the EIP-3860 initcode limit': withItem(legacyRaw({ to: undefined }), 5, bytes(49_153)),
      'legacy, 19-byte to': withItem(legacyRaw(), 3, bytes(19)),
      'legacy, nonce 2^64 - 1': withItem(legacyRaw(), 0, bigIntToUnpaddedBytes(2n ** 64n - 1n)),
      'legacy, gas price × gas past 2^256': withItem(legacyRaw(), 1, bigIntToUnpaddedBytes(2n ** 255n)),
      'EIP-1559, high s': withItem(dynamicRaw(), 11, bigIntToUnpaddedBytes(N / 2n + 1n)),
      'EIP-1559, fee cap below the tip': withItem(dynamicRaw(), 3, bigIntToUnpaddedBytes(1n)),
      'EIP-1559, y-parity 2': withItem(dynamicRaw(), 9, Uint8Array.of(2)),
      'EIP-1559, another chain': withItem(dynamicRaw(), 0, Uint8Array.of(1)),
      'EIP-1559, 31-byte storage key': withItem(dynamicRaw(), 8, [[to.bytes, [bytes(31)]]] as unknown as Uint8Array[]),
      'EIP-1559, r = 0 (unsigned)': withItem(dynamicRaw(), 10, new Uint8Array(0)),
      'EIP-2930': createTx(
        { type: 1, chainId: 31337n, gasLimit: 21_000n, gasPrice: 1n, v: 0n, ...sig },
        { common },
      ).serialize(),
      'not RLP': Uint8Array.of(0xf8, 0xff, 1),
      empty: new Uint8Array(0),
    };
    for (const [name, raw] of Object.entries(cases)) expect(fastTxFromRaw(raw, common), name).toBeUndefined();
  });

  it('stays off on a chain before London for EIP-1559 and before Spurious Dragon for legacy', () => {
    const berlin = createDevCommon(31337n, 'berlin');
    expect(fastTxMatchesStock(berlin)).toBe(true);
    expect(fastTxFromRaw(dynamicRaw(), berlin)).toBeUndefined();
    const legacy = fastTxFromRaw(legacyRaw(), berlin);
    expect(legacy && sameFields(legacy, createTxFromRLP(legacyRaw(), { common: berlin, freeze: false }))).toBe(true);
    const homestead = createDevCommon(31337n, 'homestead');
    expect(fastTxFromRaw(legacyRaw(), homestead)).toBeUndefined();
  });

  it("shares one Common copy between transactions while the chain's Common is unchanged, as the stock copy at its hardfork", () => {
    const chain = createDevCommon(31337n, DEFAULT_HARDFORK);
    const a = fastTxFromRaw(dynamicRaw(), chain) as TypedTransaction;
    const b = fastTxFromRaw(legacyRaw(), chain) as TypedTransaction;
    expect(a.common).toBe(b.common);
    expect(a.common).not.toBe(chain);
    expect(sameFields(a, createTxFromRLP(dynamicRaw(), { common: chain, freeze: false }))).toBe(true);
    // The chain's Common moves to another hardfork: later transactions get a copy at it, earlier ones keep theirs.
    chain.setHardfork('cancun');
    const c = fastTxFromRaw(dynamicRaw(), chain) as TypedTransaction;
    expect(c.common).not.toBe(a.common);
    expect(c.common.hardfork()).toBe('cancun');
    expect(a.common.hardfork()).toBe(DEFAULT_HARDFORK);
    expect(sameFields(c, createTxFromRLP(dynamicRaw(), { common: chain, freeze: false }))).toBe(true);
    // A shared copy someone changed is not handed out again.
    c.common.setHardfork('shanghai');
    const d = fastTxFromRaw(dynamicRaw(), chain) as TypedTransaction;
    expect(d.common).not.toBe(c.common);
    expect(d.common.hardfork()).toBe('cancun');
  });
});
