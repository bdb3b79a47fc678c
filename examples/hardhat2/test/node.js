const { expect } = require('chai');
const { network } = require('hardhat');

describe('Node', () => {
  // The runner (examples/hardhat-projects.test.ts) names the node it started the suite against,
  // so a run that silently fell back to another network fails here.
  it('is the node this run expects', async () => {
    const version = await network.provider.send('web3_clientVersion');
    expect(version.toLowerCase()).to.include((process.env.EXPECT_CLIENT ?? '').toLowerCase());
  });
});
