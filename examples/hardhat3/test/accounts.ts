import { expect } from 'chai';
import { network } from 'hardhat';
import { deployAll } from './fixtures.js';

const { ethers, networkHelpers } = await network.create();
const fixture = deployAll(ethers, networkHelpers);

describe('Accounts (impersonation, balances, gas)', () => {
  it('sends from an impersonated account funded by setBalance', async () => {
    const { recorder } = await networkHelpers.loadFixture(fixture);
    const whale = '0x00000000000000000000000000000000000a11ce';
    await networkHelpers.impersonateAccount(whale);
    await networkHelpers.setBalance(whale, ethers.parseEther('1'));
    const signer = await ethers.getSigner(whale);
    await expect(recorder.connect(signer).record({ value: 1000n })).to.changeEtherBalance(ethers, recorder, 1000n);
    expect(await recorder.lastCaller()).to.equal(ethers.getAddress(whale));
    await networkHelpers.stopImpersonatingAccount(whale);
  });

  it('sends from an impersonated contract', async () => {
    const { recorder, treasury } = await networkHelpers.loadFixture(fixture);
    const treasuryAddress = await treasury.getAddress();
    await networkHelpers.impersonateAccount(treasuryAddress);
    await networkHelpers.setBalance(treasuryAddress, ethers.parseEther('3'));
    const signer = await ethers.getSigner(treasuryAddress);
    const tx = await recorder.connect(signer).record({ value: 5n });
    const receipt = await tx.wait();
    expect(receipt?.status).to.equal(1);
    expect(await recorder.lastCaller()).to.equal(treasuryAddress);
  });

  it('estimates gas for the next block (a cost that depends on block.number)', async () => {
    const { perBlock } = await networkHelpers.loadFixture(fixture);
    const estimate = await perBlock.poke.estimateGas();
    const tx = await perBlock.poke({ gasLimit: estimate });
    const receipt = await tx.wait();
    expect(receipt?.status).to.equal(1);
    expect(await perBlock.count()).to.equal(20n);
  });

  it('changes ether balances of a plain transfer', async () => {
    const { alice, bob } = await networkHelpers.loadFixture(fixture);
    await expect(alice.sendTransaction({ to: bob.address, value: 12345n })).to.changeEtherBalances(
      ethers,
      [alice, bob],
      [-12345n, 12345n],
    );
  });
});
