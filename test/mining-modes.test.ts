import { createTx } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { createNode } from 'ashlar';
import { describe, expect, it } from 'vitest';

const rawTransfer = (
  k: Awaited<ReturnType<typeof createNode>>,
  from: number,
  nonce: number,
  fee: { tip: bigint; cap?: bigint },
  gas = 21_000n,
): string => {
  const acct = k.chain.accounts[from];
  const tx = createTx(
    {
      type: 2,
      nonce,
      to: k.chain.accounts[19].address,
      value: 1n,
      gasLimit: gas,
      maxFeePerGas: fee.cap ?? 10n ** 11n,
      maxPriorityFeePerGas: fee.tip,
    },
    { common: k.chain.common },
  ).sign(acct.privateKey);
  return bytesToHex(tx.serialize());
};

describe('mining modes', () => {
  it('interval mining packs pending transactions into one block, highest tip first', async () => {
    const k = await createNode({ mining: { automine: false, blockTime: 1 } });
    try {
      const low = await k.request<string>({
        method: 'eth_sendRawTransaction',
        params: [rawTransfer(k, 1, 0, { tip: 1n })],
      });
      const high = await k.request<string>({
        method: 'eth_sendRawTransaction',
        params: [rawTransfer(k, 2, 0, { tip: 5n * 10n ** 9n })],
      });
      expect(await k.request({ method: 'eth_getTransactionReceipt', params: [low] })).toBeNull();
      // Wait for the interval block (the timer runs every second).
      const deadline = Date.now() + 5000;
      while (k.chain.head.number === 0n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const block = await k.request<{ transactions: string[] }>({
        method: 'eth_getBlockByNumber',
        params: ['0x1', false],
      });
      expect(block.transactions).toEqual([high, low]);
    } finally {
      await k.close();
    }
  });

  it('leaves transactions that do not fit the block gas limit for the next block', async () => {
    const k = await createNode({ mining: { automine: false }, chain: { gasLimit: 50_000n } });
    try {
      const a = await k.request<string>({
        method: 'eth_sendRawTransaction',
        params: [rawTransfer(k, 1, 0, { tip: 2n })],
      });
      const b = await k.request<string>({
        method: 'eth_sendRawTransaction',
        params: [rawTransfer(k, 2, 0, { tip: 1n })],
      });
      const c = await k.request<string>({
        method: 'eth_sendRawTransaction',
        params: [rawTransfer(k, 3, 0, { tip: 0n })],
      });
      await k.request({ method: 'evm_mine' });
      const first = await k.request<{ transactions: string[] }>({
        method: 'eth_getBlockByNumber',
        params: ['latest', false],
      });
      expect(first.transactions).toEqual([a, b]);
      await k.request({ method: 'evm_mine' });
      const second = await k.request<{ transactions: string[] }>({
        method: 'eth_getBlockByNumber',
        params: ['latest', false],
      });
      expect(second.transactions).toEqual([c]);
    } finally {
      await k.close();
    }
  });

  it('with automine off, evm_setAutomine(true) mines what is waiting', async () => {
    const k = await createNode({ mining: { automine: false } });
    try {
      const h = await k.request<string>({
        method: 'eth_sendRawTransaction',
        params: [rawTransfer(k, 1, 0, { tip: 1n })],
      });
      const pending = await k.request<{ blockNumber: string | null }>({
        method: 'eth_getTransactionByHash',
        params: [h],
      });
      expect(pending.blockNumber).toBeNull();
      const pendingBlock = await k.request<{ number: null; hash: null; transactions: string[] }>({
        method: 'eth_getBlockByNumber',
        params: ['pending', false],
      });
      expect(pendingBlock.number).toBeNull();
      expect(pendingBlock.hash).toBeNull();
      expect(pendingBlock.transactions).toEqual([h]);
      await k.request({ method: 'evm_setAutomine', params: [true] });
      const receipt = await k.request<{ status: string }>({ method: 'eth_getTransactionReceipt', params: [h] });
      expect(receipt.status).toBe('0x1');
    } finally {
      await k.close();
    }
  });

  it('timestamps strictly increase and the base fee follows EIP-1559', async () => {
    const k = await createNode();
    try {
      for (let i = 0; i < 5; i++) await k.request({ method: 'evm_mine' });
      let prev: { timestamp: string; baseFeePerGas: string; gasUsed: string; gasLimit: string } | undefined;
      for (let n = 0; n <= 5; n++) {
        const b = await k.request<{ timestamp: string; baseFeePerGas: string; gasUsed: string; gasLimit: string }>({
          method: 'eth_getBlockByNumber',
          params: [`0x${n.toString(16)}`, false],
        });
        if (prev) {
          expect(BigInt(b.timestamp)).toBeGreaterThan(BigInt(prev.timestamp));
          // empty parent: the base fee falls by 1/8 (EIP-1559)
          const parentFee = BigInt(prev.baseFeePerGas);
          expect(BigInt(b.baseFeePerGas)).toBe(parentFee - parentFee / 8n);
        }
        prev = b;
      }
    } finally {
      await k.close();
    }
  });

  it('accepts a legacy transaction without EIP-155 replay protection', async () => {
    const k = await createNode();
    try {
      const acct = k.chain.accounts[4];
      // gasPrice 10 gwei, to account 19; signed without a chain id (v = 27/28)
      const { createLegacyTx } = await import('@ethereumjs/tx');
      const { Common, Mainnet } = await import('@ethereumjs/common');
      const unprotected = createLegacyTx(
        { nonce: 0, gasPrice: 10n ** 10n, gasLimit: 21_000n, to: k.chain.accounts[19].address, value: 7n },
        { common: new Common({ chain: Mainnet, hardfork: 'homestead' }) },
      ).sign(acct.privateKey);
      expect(unprotected.v === 27n || unprotected.v === 28n).toBe(true);
      const h = await k.request<string>({
        method: 'eth_sendRawTransaction',
        params: [bytesToHex(unprotected.serialize())],
      });
      const tx = await k.request<{ from: string; chainId?: string; v: string }>({
        method: 'eth_getTransactionByHash',
        params: [h],
      });
      expect(tx.from).toBe(acct.address.toString());
      expect(tx.chainId).toBeUndefined();
      const receipt = await k.request<{ status: string }>({ method: 'eth_getTransactionReceipt', params: [h] });
      expect(receipt.status).toBe('0x1');
    } finally {
      await k.close();
    }
  });
});
