import type { Common } from '@ethereumjs/common';
import { Capability, type TypedTransaction, TransactionType } from '@ethereumjs/tx';
import type { Account, Address } from '@ethereumjs/util';
import { AshlarError } from '../errors/AshlarError.js';
import { ErrorCodes } from '../errors/codes.js';

/** geth's txMaxSize: 4 slots of 32 KiB. */
export const MAX_TX_SIZE = 128 * 1024;

const fail = (code: (typeof ErrorCodes)[keyof typeof ErrorCodes], message: string): never => {
  throw new AshlarError(code, message);
};

/** Highest price per gas the sender may pay: what the balance check uses (as geth). */
export function maxPricePerGas(tx: TypedTransaction): bigint {
  return 'maxFeePerGas' in tx ? (tx as { maxFeePerGas: bigint }).maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice;
}

export function priorityFee(tx: TypedTransaction, baseFee: bigint): bigint {
  if ('maxPriorityFeePerGas' in tx) {
    const t = tx as { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    const room = t.maxFeePerGas - baseFee;
    return t.maxPriorityFeePerGas < room ? t.maxPriorityFeePerGas : room;
  }
  return (tx as { gasPrice: bigint }).gasPrice - baseFee;
}

/** The EIP that brings each transaction type (0: always there). */
const EIP_OF_TYPE: Readonly<Record<number, number>> = {
  [TransactionType.Legacy]: 0,
  [TransactionType.AccessListEIP2930]: 2930,
  [TransactionType.FeeMarketEIP1559]: 1559,
  [TransactionType.BlobEIP4844]: 4844,
  [TransactionType.EOACodeEIP7702]: 7702,
};

/** Checks that need no state, in geth's order; messages use geth's wording (clients match on them). */
export function validateStateless(
  tx: TypedTransaction,
  common: Common,
  blockGasLimit: bigint,
  serializedSize: number,
): void {
  if (serializedSize > MAX_TX_SIZE) {
    fail(ErrorCodes.OVERSIZED, `oversized data: transaction size ${serializedSize}, limit ${MAX_TX_SIZE}`);
  }
  const eip = EIP_OF_TYPE[tx.type];
  if (eip === undefined || (eip !== 0 && !common.isActivatedEIP(eip))) {
    fail(
      ErrorCodes.TX_TYPE_UNSUPPORTED,
      `transaction type not supported: type ${tx.type} is not enabled on hardfork ${common.hardfork()}`,
    );
  }
  if (tx.gasLimit > blockGasLimit) {
    fail(ErrorCodes.GAS_LIMIT, `exceeds block gas limit: gas ${tx.gasLimit}, block gas limit ${blockGasLimit}`);
  }
  if (common.isActivatedEIP(7825)) {
    const cap = tx.common.param('maxTransactionGasLimit');
    if (tx.gasLimit > cap)
      fail(ErrorCodes.GAS_LIMIT, `transaction gas limit too high (cap: ${cap}, tx: ${tx.gasLimit})`);
  }
  if ('maxPriorityFeePerGas' in tx) {
    const t = tx as unknown as { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    if (t.maxPriorityFeePerGas > t.maxFeePerGas) {
      fail(
        ErrorCodes.TIP_ABOVE_FEE_CAP,
        `max priority fee per gas higher than max fee per gas: maxPriorityFeePerGas: ${t.maxPriorityFeePerGas}, maxFeePerGas: ${t.maxFeePerGas}`,
      );
    }
  }
  const chainId = common.chainId();
  if (tx.type !== TransactionType.Legacy || tx.supports(Capability.EIP155ReplayProtection)) {
    const txChainId = tx.common.chainId();
    const declared = (tx as { chainId?: bigint }).chainId ?? txChainId;
    if (declared !== chainId)
      fail(ErrorCodes.WRONG_CHAIN_ID, `invalid chain id for signer: have ${declared} want ${chainId}`);
  }
  const intrinsic = tx.getIntrinsicGas();
  if (tx.gasLimit < intrinsic) {
    fail(ErrorCodes.INTRINSIC_GAS, `intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${intrinsic}`);
  }
}

/** Checks against the sender's account and the next block's base fee. */
export function validateWithState(
  tx: TypedTransaction,
  sender: Address,
  account: Account | undefined,
  nextBaseFee: bigint | undefined,
  minGasPrice: bigint,
): void {
  const nonce = account?.nonce ?? 0n;
  if (tx.nonce < nonce) {
    fail(ErrorCodes.NONCE_TOO_LOW, `nonce too low: address ${sender.toString()}, tx: ${tx.nonce} state: ${nonce}`);
  }
  const price = maxPricePerGas(tx);
  if (nextBaseFee !== undefined && price < nextBaseFee) {
    fail(
      ErrorCodes.FEE_CAP_TOO_LOW,
      `max fee per gas less than block base fee: address ${sender.toString()}, maxFeePerGas: ${price}, baseFee: ${nextBaseFee}`,
    );
  }
  if (price < minGasPrice)
    fail(ErrorCodes.UNDERPRICED, `transaction underpriced: gas price ${price}, minimum ${minGasPrice}`);
  const balance = account?.balance ?? 0n;
  let cost = tx.gasLimit * price + tx.value;
  if ('maxFeePerBlobGas' in tx) {
    const t = tx as unknown as { maxFeePerBlobGas: bigint; blobVersionedHashes: unknown[] };
    cost += t.maxFeePerBlobGas * BigInt(t.blobVersionedHashes.length) * 131072n;
  }
  if (balance < cost) {
    fail(
      ErrorCodes.INSUFFICIENT_FUNDS,
      `insufficient funds for gas * price + value: address ${sender.toString()} have ${balance} want ${cost}`,
    );
  }
}
