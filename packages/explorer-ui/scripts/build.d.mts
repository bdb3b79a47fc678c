/** Builds the app into `outDir` (default the package's dist/app): index.html and hashed assets/. */
export function buildExplorerUi(options?: { outDir?: string }): Promise<{ outDir: string; js: string; css: string }>;
