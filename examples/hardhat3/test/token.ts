import { expect } from 'chai';
import { network } from 'hardhat';
import { deployAll } from './fixtures.js';

const { ethers, networkHelpers } = await network.create();
const fixture = deployAll(ethers, networkHelpers);

describe('Token (chai matchers)', () => {
  it('gives the deployer the supply', async () => {
    const { token, owner } = await networkHelpers.loadFixture(fixture);
    expect(await token.balanceOf(owner.address)).to.equal(1_000_000n);
  });

  it('emits Transfer with its arguments', async () => {
    const { token, owner, alice } = await networkHelpers.loadFixture(fixture);
    await expect(token.transfer(alice.address, 50n))
      .to.emit(token, 'Transfer')
      .withArgs(owner.address, alice.address, 50n);
  });

  it('moves balances (changeTokenBalances)', async () => {
    const { token, owner, alice } = await networkHelpers.loadFixture(fixture);
    await expect(token.transfer(alice.address, 70n)).to.changeTokenBalances(ethers, token, [owner, alice], [-70n, 70n]);
  });

  it('reverts with a custom error, sent with explicit gas', async () => {
    const { token, alice, bob } = await networkHelpers.loadFixture(fixture);
    await expect(token.connect(alice).transfer(bob.address, 1n, { gasLimit: 100_000 }))
      .to.be.revertedWithCustomError(token, 'InsufficientBalance')
      .withArgs(0n, 1n);
  });

  it('reverts with a reason string, sent with explicit gas', async () => {
    const { token } = await networkHelpers.loadFixture(fixture);
    await expect(token.transfer(ethers.ZeroAddress, 1n, { gasLimit: 100_000 })).to.be.revertedWith(
      'Token: transfer to the zero address',
    );
  });

  it('reverts with a custom error on a call (estimate)', async () => {
    const { token, alice, bob } = await networkHelpers.loadFixture(fixture);
    await expect(token.connect(alice).transfer(bob.address, 5n)).to.be.revertedWithCustomError(
      token,
      'InsufficientBalance',
    );
  });

  it('starts every test from the fixture (loadFixture snapshot)', async () => {
    const { token, alice } = await networkHelpers.loadFixture(fixture);
    expect(await token.balanceOf(alice.address)).to.equal(0n);
  });
});
