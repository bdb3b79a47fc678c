import { AshlarError, ErrorCodes, type KernelServices, defineRpcMethod } from '@ashlar/core';
import { type WithdrawalData, bigIntToHex } from '@ethereumjs/util';
import {
  arrayOf,
  decodeAddress,
  decodeObject,
  decodeQuantity,
  decodeQuantityU64,
  DecodeError,
  optField,
} from '../params/index.js';

/** A withdrawal as geth's JSON has it; `index` may be left out (then it follows the last one). */
interface WithdrawalParam {
  index?: bigint;
  validatorIndex: bigint;
  address: WithdrawalData['address'];
  amount: bigint;
}

function decodeWithdrawal(v: unknown): WithdrawalParam {
  const o = decodeObject(v, 'types.Withdrawal');
  const need = <T>(key: string, dec: (x: unknown) => T): T => {
    const out = optField(o, key, dec);
    if (out === undefined) throw new DecodeError(`missing required field '${key}' for Withdrawal`);
    return out;
  };
  return {
    index: optField(o, 'index', decodeQuantityU64),
    validatorIndex: need('validatorIndex', decodeQuantityU64),
    address: need('address', decodeAddress),
    amount: need('amount', decodeQuantity),
  };
}

/** How far back to look for the last paid withdrawal (blocks without any are skipped). */
const SCAN_LIMIT = 10_000n;

/** One past the index of the last withdrawal a block paid (0 when none did in the last blocks). */
async function nextPaidIndex(svc: KernelServices): Promise<bigint> {
  const head = svc.chain.head.number;
  const stop = head > SCAN_LIMIT ? head - SCAN_LIMIT : 0n;
  for (let n = head; n > stop; n--) {
    const last = (await svc.chain.getBlock(n))?.block.withdrawals?.at(-1)?.index;
    if (last !== undefined) return BigInt(last) + 1n;
  }
  return 0n;
}

/**
 * EIP-4895 withdrawals (amounts in Gwei) for the next mined block: a dev chain has no beacon
 * chain to send them, so tests of withdrawal handling add them by hand. Answers how many are
 * waiting. Shanghai and later only.
 */
export const ashlar_addWithdrawals = defineRpcMethod({
  name: 'ashlar_addWithdrawals',
  params: [arrayOf('withdrawals', decodeWithdrawal, '[]*types.Withdrawal')],
  handler: async (ctx, [list]) => {
    const svc = ctx.services;
    if (!svc.chain.common.isActivatedEIP(4895)) {
      throw new AshlarError(ErrorCodes.INVALID_PARAMS, 'withdrawals need EIP-4895 (shanghai or later)');
    }
    const miner = svc.miner;
    // Indexes run on from the last withdrawal waiting, or else the last one any block paid.
    const waiting = miner.pendingWithdrawals.at(-1)?.index;
    let next = waiting === undefined ? await nextPaidIndex(svc) : BigInt(waiting as bigint | string) + 1n;
    for (const w of list) {
      const index = w.index ?? next;
      next = index + 1n;
      miner.pendingWithdrawals.push({
        index: bigIntToHex(index),
        validatorIndex: bigIntToHex(w.validatorIndex),
        address: w.address,
        amount: bigIntToHex(w.amount),
      });
    }
    return `0x${miner.pendingWithdrawals.length.toString(16)}`;
  },
});
