import { AshlarError, ErrorCodes, type ParamParser, defineRpcMethod, toData, toQuantity } from '@ashlar/core';
import { getMerkleStateProof } from '@ethereumjs/statemanager';
import { bytesToBigInt } from '@ethereumjs/util';
import {
  LATEST,
  address,
  blockTagOrHash,
  decodeArrayOf,
  decodeStorageKey,
  makeParser,
  typeError,
  withDefault,
} from '../params/index.js';
import { upstreamBlockNumber } from '../shared/forkHistory.js';
import { toBlockRef } from '../shared/state.js';

interface ProofKey {
  slot: Uint8Array;
  /** geth echoes a full 32-byte key as given and any shorter one as a QUANTITY. */
  full: boolean;
}

function decodeProofKey(v: unknown): ProofKey {
  if (typeof v !== 'string') throw typeError(v, 'string');
  const digits = v.replace(/^0x/i, '').length;
  return { slot: decodeStorageKey(v), full: digits === 64 };
}

const proofKeys = (name: string): ParamParser<ProofKey[]> =>
  makeParser(name, (v) => decodeArrayOf(v, decodeProofKey, '[]string'));

/** EIP-1186: account and storage proofs against the state root of a block (@ethereumjs/mpt). */
export const eth_getProof = defineRpcMethod({
  name: 'eth_getProof',
  params: [address('address'), proofKeys('storageKeys'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: async (ctx, [addr, keys, block]) => {
    const chain = ctx.services.chain;
    // Each key is a trie walk and a proof of ~10 nodes: 70,000 of them held the loop for 11 s.
    const maxKeys = ctx.services.options.rpc.maxProofKeys;
    if (keys.length > maxKeys) {
      throw new AshlarError(
        ErrorCodes.LIMIT_EXCEEDED,
        `too many storage keys: ${keys.length}, limit is ${maxKeys} (maxProofKeys, --max-proof-keys)`,
      );
    }
    const fork = chain.fork;
    if (fork) {
      // A forked chain's state after N is partly the upstream's: no proof against its root exists.
      // At N and before, the upstream's own proof is the right one.
      const n = upstreamBlockNumber(ctx.services, block) ?? (await chain.requireBlock(toBlockRef(block))).number;
      if (n > fork.number)
        throw new AshlarError(
          ErrorCodes.INVALID_PARAMS,
          `invalid argument 2 (block): on a forked chain eth_getProof is answered for the fork block ${fork.number} and before (by the upstream), not for block ${n}: its state is partly the upstream's, so no proof against its state root exists`,
        );
      const keyParams = keys.map((k) => (k.full ? toData(k.slot) : toQuantity(bytesToBigInt(k.slot))));
      return fork.history.forward('eth_getProof', [addr.toString(), keyParams, toQuantity(n)]);
    }
    const sb = await chain.requireBlock(toBlockRef(block));
    // The head's state can differ from its header after dev state edits; proofs follow the state.
    const root = chain.isHead(sb) ? chain.headStateRoot : sb.block.header.stateRoot;
    const sm = chain.newStateManager({ mpt: true });
    await sm.setStateRoot(root);
    const proof = await getMerkleStateProof(
      sm,
      addr,
      keys.map((k) => k.slot),
    );
    return {
      address: addr.toString().toLowerCase(),
      accountProof: proof.accountProof,
      balance: proof.balance,
      codeHash: proof.codeHash,
      nonce: proof.nonce,
      storageHash: proof.storageHash,
      storageProof: keys.map((k, i) => {
        const p = proof.storageProof[i];
        return {
          key: k.full ? toData(k.slot) : toQuantity(bytesToBigInt(k.slot)),
          value: toQuantity(BigInt(p?.value === '0x' || p === undefined ? 0 : p.value)),
          proof: p?.proof ?? [],
        };
      }),
    };
  },
});
