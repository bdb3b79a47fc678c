import { AshlarError, ErrorCodes, defineRpcMethod } from '@ashlar/core';
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

/**
 * EIP-4895 withdrawals (amounts in Gwei) for the next mined block: a dev chain has no beacon
 * chain to send them, so tests of withdrawal handling add them by hand. Answers how many are
 * waiting. Shanghai and later only.
 */
export const ashlar_addWithdrawals = defineRpcMethod({
  name: 'ashlar_addWithdrawals',
  params: [arrayOf('withdrawals', decodeWithdrawal, '[]*types.Withdrawal')],
  handler: (ctx, [list]) => {
    const k = ctx.kernel;
    if (!k.chain.common.isActivatedEIP(4895)) {
      throw new AshlarError(ErrorCodes.INVALID_PARAMS, 'withdrawals need EIP-4895 (shanghai or later)');
    }
    const miner = k.miner;
    // Indexes run on from the last withdrawal waiting, or the last one the head block paid.
    const last = miner.pendingWithdrawals.at(-1)?.index ?? k.chain.head.block.withdrawals?.at(-1)?.index;
    let next = last === undefined ? 0n : BigInt(last as bigint | string) + 1n;
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
