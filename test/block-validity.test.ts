import { createNode } from 'ashlar';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { MapDB, ValueEncoding } from '@ethereumjs/util';
import { createVM, runBlock } from '@ethereumjs/vm';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from './helpers/contracts.js';

/**
 * Every block Ashlar builds (its own block assembly, the idle-requests finish, the CowTrie
 * state roots) must be accepted by @ethereumjs/vm's runBlock, which re-executes it on an
 * @ethereumjs/mpt state and checks state root, receipts root, bloom and gas used.
 */
describe('blocks are valid for @ethereumjs/vm', () => {
  for (const hardfork of ['shanghai', 'cancun', 'prague', 'bpo2']) {
    it(`re-executes every block of a chain with transfers, a contract and withdrawals (${hardfork})`, async () => {
      const k = await createNode({ chain: { hardfork } });
      try {
        const [a0, a1] = k.chain.accounts.map((a) => a.address.toString());
        const counter = loadArtifact('Counter');
        const send = (params: unknown[]) => k.request<string>({ method: 'eth_sendTransaction', params });
        await send([{ from: a0, to: a1, value: '0x1000' }]);
        const deploy = await send([{ from: a0, data: counter.bytecode, gas: '0x200000' }]);
        const receipt = await k.request<{ contractAddress: string }>({
          method: 'eth_getTransactionReceipt',
          params: [deploy],
        });
        const increment = '0xd09de08a';
        for (let i = 0; i < 3; i++)
          await send([{ from: a1, to: receipt.contractAddress, data: increment, gas: '0x30000' }]);
        if (k.chain.common.isActivatedEIP(4895)) {
          k.miner.pendingWithdrawals = [{ index: 0n, validatorIndex: 1n, address: a1, amount: 5n }];
        }
        await k.request({ method: 'evm_mine' });
        await send([{ from: a0, to: a1, value: '0x1' }]);

        // Replay on a plain @ethereumjs/mpt state, starting from genesis state read from Ashlar's nodes.
        const genesis = await k.chain.getBlock(0n);
        // Reads fall through to Ashlar's nodes; the replay's own writes stay in an overlay.
        const overlay = new MapDB<string, string | Uint8Array>();
        const source = k.chain.stateDb;
        const db = {
          get: async (key: string) => (await overlay.get(key)) ?? source.get(key),
          put: (key: string, v: string | Uint8Array) => overlay.put(key, v),
          del: async () => undefined,
          batch: (ops: Parameters<typeof overlay.batch>[0]) => overlay.batch(ops),
          shallowCopy() {
            return db;
          },
          open: async () => undefined,
        };
        const trie = new MerklePatriciaTrie({
          db,
          root: genesis?.block.header.stateRoot,
          useKeyHashing: true,
          valueEncoding: ValueEncoding.Bytes,
        });
        const sm = new MerkleStateManager({ common: k.chain.common, trie });
        const vm = await createVM({
          common: k.chain.common,
          stateManager: sm,
          blockchain: (k.chain.vm as unknown as { blockchain: never }).blockchain,
        });
        for (let n = 1n; n <= k.chain.head.number; n++) {
          const sb = await k.chain.getBlock(n);
          if (!sb) throw new Error(`block ${n} missing`);
          const parent = await k.chain.getBlock(n - 1n);
          const result = await runBlock(vm, {
            block: sb.block,
            root: parent?.block.header.stateRoot,
            skipBlockValidation: true,
          });
          expect(result.stateRoot).toEqual(sb.block.header.stateRoot);
          expect(result.receiptsRoot).toEqual(sb.block.header.receiptTrie);
          expect(result.gasUsed).toBe(sb.block.header.gasUsed);
        }
      } finally {
        await k.close();
      }
    });
  }
});
