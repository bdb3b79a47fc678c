import { type CallRequest, allowContractSender, buildUnsignedTx, defineRpcMethod, toQuantity } from '@ashlar/core';
import { getActivePrecompiles } from '@ethereumjs/evm';
import { Address, bytesToHex, generateAddress, bigIntToUnpaddedBytes, hexToBytes } from '@ethereumjs/util';
import { type VM, runTx } from '@ethereumjs/vm';
import { LATEST, blockTagOrHash, transactionRequest, withDefault } from '../params/index.js';
import { isFeeless } from '../shared/callContext.js';
import { execTarget } from '../shared/pendingTag.js';

type AccessList = NonNullable<CallRequest['accessList']>;

const ZERO = new Address(new Uint8Array(20));
/** geth gives up when the list keeps changing (a contract that reads what the list warms). */
const MAX_ROUNDS = 16;

const key = (list: AccessList): string =>
  JSON.stringify(list.map((e) => [e.address.toString(), e.storageKeys.map((k) => bytesToHex(k)).sort()]).sort());

/**
 * geth's eth_createAccessList: run the transaction with the list found so far until the list
 * stops changing; sender, recipient (or created contract) and precompiles are warm anyway and
 * left out, unless storage slots of theirs were touched (geth lists those with their slots). Returns the list, the gas the transaction uses with it, and the EVM error if any.
 */
export const eth_createAccessList = defineRpcMethod({
  name: 'eth_createAccessList',
  params: [transactionRequest('transaction'), withDefault(blockTagOrHash('block'), LATEST)],
  handler: async (ctx, [req, block]) => {
    const services = ctx.services;
    const at = await execTarget(services, block);
    return services.executor.inContext(at, async (vm, blockFor, blockGasLimit) => {
      const from = req.from ?? ZERO;
      const nonce = req.nonce ?? (await vm.stateManager.getAccount(from))?.nonce ?? 0n;
      const gas = callGas(services.options.rpc.callGasCap, vm, req, blockGasLimit);
      const feeless = isFeeless(req);
      const execBlock = blockFor(feeless, gas);
      const to = req.to ?? new Address(generateAddress(from.bytes, bigIntToUnpaddedBytes(nonce)));
      const excluded = new Set<string>([from.toString(), to.toString()]);
      for (const a of getActivePrecompiles(vm.common).keys()) excluded.add(`0x${a}`);
      // A legacy transaction cannot carry a list: the search runs it as an access-list one.
      const type = req.type === 0 ? 1 : req.type;
      let list: AccessList = req.accessList ?? [];
      for (let round = 0; ; round++) {
        const tx = buildUnsignedTx(services.chain, { ...req, type, accessList: list }, from, gas, nonce);
        await vm.evm.journal.checkpoint();
        // No EIP-3607 for a sender with code, as eth_call.
        const sender = await allowContractSender(vm, from);
        let result: Awaited<ReturnType<typeof runTx>>;
        try {
          result = await runTx(vm, {
            tx,
            block: execBlock,
            skipNonce: true,
            skipBalance: feeless,
            skipBlockGasLimitValidation: true,
            skipHardForkValidation: true,
            reportAccessList: true,
          });
        } finally {
          sender.restore();
          await vm.evm.journal.revert();
        }
        const found: AccessList = (result.accessList ?? [])
          // geth's access-list tracer leaves sender, recipient and precompiles out as bare
          // addresses but keeps the slots read or written in them (an ERC-20's balances).
          .filter((e) => e.storageKeys.length > 0 || !excluded.has(String(e.address).toLowerCase()))
          .map((e) => ({
            address: new Address(hexToBytes(e.address as `0x${string}`)),
            storageKeys: e.storageKeys.map((k) => hexToBytes(k as `0x${string}`)),
          }));
        if (key(found) === key(list) || round === MAX_ROUNDS) {
          const err = result.execResult.exceptionError?.error;
          const out: Record<string, unknown> = {
            accessList: found.map((e) => ({
              address: e.address.toString(),
              storageKeys: e.storageKeys.map((k) => bytesToHex(k)),
            })),
          };
          if (err) out.error = err === 'revert' ? 'execution reverted' : err;
          out.gasUsed = toQuantity(result.totalGasSpent);
          return out;
        }
        list = found;
      }
    });
  },
});

/** The request's gas, else the block gas limit, under the RPC gas cap and EIP-7825's per-transaction cap. */
function callGas(rpcCap: bigint, vm: VM, req: CallRequest, blockGasLimit: bigint): bigint {
  let cap = rpcCap;
  if (vm.common.isActivatedEIP(7825)) {
    const txCap = vm.common.param('maxTransactionGasLimit');
    if (txCap < cap) cap = txCap;
  }
  return req.gas ?? (blockGasLimit < cap ? blockGasLimit : cap);
}
