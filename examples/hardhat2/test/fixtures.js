const { ethers } = require('hardhat');
const { time } = require('@nomicfoundation/hardhat-network-helpers');

/** One deployment of every contract; loadFixture restores it by snapshot for each test. */
async function deployAll() {
  const [owner, alice, bob] = await ethers.getSigners();
  const token = await ethers.deployContract('Token', [1_000_000n]);
  const unlockTime = (await time.latest()) + 365 * 24 * 60 * 60;
  const lockedAmount = ethers.parseEther('1');
  const lock = await ethers.deployContract('Lock', [unlockTime], { value: lockedAmount });
  const perBlock = await ethers.deployContract('PerBlock');
  const recorder = await ethers.deployContract('Recorder');
  const treasury = await ethers.deployContract('Treasury');
  await owner.sendTransaction({ to: await treasury.getAddress(), value: ethers.parseEther('2') });
  return { owner, alice, bob, token, lock, unlockTime, lockedAmount, perBlock, recorder, treasury };
}

module.exports = { deployAll };
