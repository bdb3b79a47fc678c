// @ashlar/explorer-ui: the web explorer's built files and the tiny handler that serves them.
export { createExplorerUi, explorerUiDir, type ExplorerUi, type ExplorerUiOptions } from './serve.js';
