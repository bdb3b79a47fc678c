/**
 * End-to-end: web3.js v4 against a real Ashlar node over HTTP on 127.0.0.1,
 * written the way a web3 user would write it (node-held accounts, eth_sendTransaction).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractExecutionError, type EventLog, Web3 } from 'web3';
import { loadArtifact } from './helpers/contracts.js';
import { startNode } from './helpers/node.js';

const tokenArtifact = loadArtifact('Token');

/**
 * The Token ABI as a web3 user would paste it: a literal `as const`, so web3's contract typings
 * know the method and event names. A test below checks it is identical to the compiled ABI.
 */
const tokenAbi = [
  {
    inputs: [
      {
        internalType: 'string',
        name: 'name_',
        type: 'string',
      },
      {
        internalType: 'string',
        name: 'symbol_',
        type: 'string',
      },
      {
        internalType: 'uint256',
        name: 'initialSupply',
        type: 'uint256',
      },
    ],
    stateMutability: 'nonpayable',
    type: 'constructor',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'owner',
        type: 'address',
      },
      {
        indexed: true,
        internalType: 'address',
        name: 'spender',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
    ],
    name: 'Approval',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'from',
        type: 'address',
      },
      {
        indexed: true,
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
    ],
    name: 'Transfer',
    type: 'event',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    name: 'allowance',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'spender',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
    ],
    name: 'approve',
    outputs: [
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    name: 'balanceOf',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'decimals',
    outputs: [
      {
        internalType: 'uint8',
        name: '',
        type: 'uint8',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'name',
    outputs: [
      {
        internalType: 'string',
        name: '',
        type: 'string',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'symbol',
    outputs: [
      {
        internalType: 'string',
        name: '',
        type: 'string',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'totalSupply',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
    ],
    name: 'transfer',
    outputs: [
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'from',
        type: 'address',
      },
      {
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
    ],
    name: 'transferFrom',
    outputs: [
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'nonpayable',
    type: 'function',
  },
] as const;

let node: Awaited<ReturnType<typeof startNode>>;
let web3: Web3;
let accounts: string[];

beforeAll(async () => {
  node = await startNode();
  web3 = new Web3(node.url);
  web3.transactionPollingInterval = 50;
  web3.eth.transactionPollingInterval = 50;
  accounts = await web3.eth.getAccounts();
});

afterAll(async () => {
  await node?.close();
});

/** Narrows getPastEvents' `(string | EventLog)[]` to the decoded logs. */
function decoded(events: (string | EventLog)[]): EventLog[] {
  return events.filter((e): e is EventLog => typeof e !== 'string');
}

async function deployToken(supply: bigint) {
  return new web3.eth.Contract(tokenAbi)
    .deploy({
      data: tokenArtifact.bytecode,
      arguments: ['Ashlar Token', 'ASH', supply],
    })
    .send({ from: accounts[0] });
}

describe('web3 v4', () => {
  it('uses the compiled Token ABI', () => {
    expect(tokenAbi).toEqual(tokenArtifact.abi);
  });

  it('reports chain id 31337', async () => {
    expect(await web3.eth.getChainId()).toBe(31337n);
  });

  it('lists the 20 node-held dev accounts', async () => {
    expect(accounts).toHaveLength(20);
    expect(accounts[0]?.toLowerCase()).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    expect(await web3.eth.getBalance(accounts[19] ?? '')).toBe(BigInt(web3.utils.toWei('10000', 'ether')));
  });

  it('sends a transaction from accounts[0] and reads the receipt', async () => {
    const recipient = web3.eth.accounts.create().address;
    const value = BigInt(web3.utils.toWei('1', 'ether'));
    const nonce = await web3.eth.getTransactionCount(accounts[0] ?? '');

    const receipt = await web3.eth.sendTransaction({
      from: accounts[0],
      to: recipient,
      value,
    });
    expect(receipt.status).toBe(1n);
    expect(receipt.gasUsed).toBe(21000n);
    expect(String(receipt.from).toLowerCase()).toBe(accounts[0]?.toLowerCase());
    expect(String(receipt.to).toLowerCase()).toBe(recipient.toLowerCase());

    const fetched = await web3.eth.getTransactionReceipt(receipt.transactionHash);
    expect(fetched.transactionHash).toBe(receipt.transactionHash);
    expect(fetched.blockNumber).toBe(receipt.blockNumber);
    expect(fetched.blockHash).toBe(receipt.blockHash);
    expect(fetched.status).toBe(1n);
    expect(fetched.gasUsed).toBe(21000n);

    const tx = await web3.eth.getTransaction(receipt.transactionHash);
    expect(tx.nonce).toBe(nonce);
    expect(tx.value).toBe(value);
    expect(await web3.eth.getBalance(recipient)).toBe(value);
    expect(await web3.eth.getTransactionCount(accounts[0] ?? '')).toBe(nonce + 1n);
  });

  it('deploys the Token with Contract.deploy().send()', async () => {
    const supply = BigInt(web3.utils.toWei('1000000', 'ether'));
    const token = await deployToken(supply);
    const address = token.options.address;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(await web3.eth.getCode(address ?? '')).toBe(tokenArtifact.deployedBytecode);

    expect(await token.methods.name().call()).toBe('Ashlar Token');
    expect(await token.methods.symbol().call()).toBe('ASH');
    expect(await token.methods.decimals().call()).toBe(18n);
    expect(await token.methods.totalSupply().call()).toBe(supply);
    expect(await token.methods.balanceOf(accounts[0]).call()).toBe(supply);
  });

  it('transfers with methods.transfer().send() and reads getPastEvents("Transfer")', async () => {
    const supply = 1_000_000n;
    const token = await deployToken(supply);

    const receipt = await token.methods.transfer(accounts[1], 2500n).send({ from: accounts[0] });
    expect(receipt.status).toBe(1n);
    const event = receipt.events?.Transfer;
    expect(event?.returnValues.value).toBe(2500n);
    expect(String(event?.returnValues.to).toLowerCase()).toBe(accounts[1]?.toLowerCase());

    expect(await token.methods.balanceOf(accounts[1]).call()).toBe(2500n);
    expect(await token.methods.balanceOf(accounts[0]).call()).toBe(supply - 2500n);

    const all = decoded(
      await token.getPastEvents('Transfer', {
        fromBlock: 0,
        toBlock: 'latest',
      }),
    );
    expect(all).toHaveLength(2); // the mint and the transfer
    expect(all.map((e) => e.returnValues.value)).toEqual([supply, 2500n]);
    expect(all[0]?.returnValues.from).toBe('0x0000000000000000000000000000000000000000');
    expect(all[1]?.transactionHash).toBe(receipt.transactionHash);
    expect(all[1]?.event).toBe('Transfer');

    const toAccount1 = decoded(
      await token.getPastEvents('Transfer', {
        filter: { to: accounts[1] },
        fromBlock: 0,
        toBlock: 'latest',
      }),
    );
    expect(toAccount1).toHaveLength(1);
    expect(toAccount1[0]?.returnValues.value).toBe(2500n);
  });

  it('surfaces the revert reason of a failing call', async () => {
    const token = await deployToken(10n);
    // accounts[2] holds no tokens.
    const error = await token.methods
      .transfer(accounts[0], 1n)
      .call({ from: accounts[2] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ContractExecutionError);
    const cause = (error as ContractExecutionError).cause as {
      errorName?: string;
      errorArgs?: { message?: string };
    };
    expect(cause.errorName).toBe('Error');
    expect(cause.errorArgs?.message).toBe('Token: insufficient balance');
  });
});
