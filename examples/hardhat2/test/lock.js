const { expect } = require('chai');
const { ethers } = require('hardhat');
const { loadFixture, time, mine } = require('@nomicfoundation/hardhat-network-helpers');
const { deployAll } = require('./fixtures');

describe('Lock (time travel)', () => {
  it('refuses a withdrawal before the unlock time', async () => {
    const { lock } = await loadFixture(deployAll);
    await expect(lock.withdraw()).to.be.revertedWith("You can't withdraw yet");
  });

  it('pays out after time.increaseTo, with the event and the balance change', async () => {
    const { lock, owner, unlockTime, lockedAmount } = await loadFixture(deployAll);
    await time.increaseTo(unlockTime);
    const withdrawal = lock.withdraw();
    await expect(withdrawal)
      .to.emit(lock, 'Withdrawal')
      .withArgs(lockedAmount, (when) => when >= BigInt(unlockTime));
    await expect(withdrawal).to.changeEtherBalances([owner, lock], [lockedAmount, -lockedAmount]);
  });

  it('moves the clock with time.increase', async () => {
    await loadFixture(deployAll);
    const before = await time.latest();
    await time.increase(3600);
    expect(await time.latest()).to.be.greaterThanOrEqual(before + 3600);
  });

  it('mines blocks with mine(n, { interval })', async () => {
    await loadFixture(deployAll);
    const start = await time.latestBlock();
    const startTime = await time.latest();
    await mine(100, { interval: 15 });
    expect(await time.latestBlock()).to.equal(start + 100);
    expect(await time.latest()).to.be.greaterThanOrEqual(startTime + 99 * 15);
  });

  it('sets the next block timestamp', async () => {
    await loadFixture(deployAll);
    const target = (await time.latest()) + 1000;
    await time.setNextBlockTimestamp(target);
    await mine();
    expect(await time.latest()).to.equal(target);
    const block = await ethers.provider.getBlock('latest');
    expect(block.timestamp).to.equal(target);
  });
});
