import { expect } from 'chai';
import { network } from 'hardhat';

const { provider } = await network.create();

describe('Node', () => {
  // The runner (examples/hardhat-projects.test.ts) names the node it started the suite against,
  // so a run that silently fell back to another network fails here.
  it('is the node this run expects', async () => {
    const version = (await provider.request({ method: 'web3_clientVersion' })) as string;
    expect(version.toLowerCase()).to.include((process.env.EXPECT_CLIENT ?? '').toLowerCase());
  });
});
