const { expect } = require('chai');
const { ethers } = require('hardhat');
const {
  loadFixture,
  impersonateAccount,
  setBalance,
  stopImpersonatingAccount,
} = require('@nomicfoundation/hardhat-network-helpers');
const { deployAll } = require('./fixtures');

describe('Accounts (impersonation, balances, gas)', () => {
  it('sends from an impersonated account funded by setBalance', async () => {
    const { recorder } = await loadFixture(deployAll);
    const whale = '0x00000000000000000000000000000000000a11ce';
    await impersonateAccount(whale);
    await setBalance(whale, ethers.parseEther('1'));
    const signer = await ethers.getSigner(whale);
    await expect(recorder.connect(signer).record({ value: 1000n })).to.changeEtherBalance(recorder, 1000n);
    expect(await recorder.lastCaller()).to.equal(ethers.getAddress(whale));
    await stopImpersonatingAccount(whale);
  });

  it('sends from an impersonated contract', async () => {
    const { recorder, treasury } = await loadFixture(deployAll);
    const treasuryAddress = await treasury.getAddress();
    await impersonateAccount(treasuryAddress);
    await setBalance(treasuryAddress, ethers.parseEther('3'));
    const signer = await ethers.getSigner(treasuryAddress);
    const tx = await recorder.connect(signer).record({ value: 5n });
    const receipt = await tx.wait();
    expect(receipt.status).to.equal(1);
    expect(await recorder.lastCaller()).to.equal(treasuryAddress);
  });

  it('estimates gas for the next block (a cost that depends on block.number)', async () => {
    const { perBlock } = await loadFixture(deployAll);
    const estimate = await perBlock.poke.estimateGas();
    const tx = await perBlock.poke({ gasLimit: estimate });
    const receipt = await tx.wait();
    expect(receipt.status).to.equal(1);
    expect(await perBlock.count()).to.equal(20n);
  });

  it('changes ether balances of a plain transfer', async () => {
    const { alice, bob } = await loadFixture(deployAll);
    await expect(alice.sendTransaction({ to: bob.address, value: 12345n })).to.changeEtherBalances(
      [alice, bob],
      [-12345n, 12345n],
    );
  });
});
