import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src-main/index.ts'),
          // The API import worker thread: started by URL next to the bundle (import-runner.ts).
          'import-worker': resolve('src-server/control/apis/import-pipeline/import-worker.ts'),
          // `gatehouse audit import`'s reader thread: started by URL next to the bundle (read-import-in-worker.ts).
          'audit-read-worker': resolve('src-server/control/audit/import/audit-read-worker.ts'),
          // The backup worker thread: started by URL next to the bundle (core/backup/backup-jobs.ts).
          'backup-worker': resolve('src-server/core/backup/backup-worker.ts'),
          // API monitoring's writer thread: started by URL next to the bundle (monitoring-write-thread.ts).
          'monitoring-write-worker': resolve('src-server/core/monitoring/sql/monitoring-write-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed renderer's preload must be a single CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src-main/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    // Absolute asset URLs: deep links such as /apis/<id> must load the same bundle.
    base: '/',
    plugins: [
      react(),
      // electron-vite's preset sets base './' for production builds, over the option above; this runs after it.
      { name: 'gatehouse:absolute-base', config: () => ({ base: '/' }) },
    ],
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      chunkSizeWarningLimit: 2000,
      // electron-vite's renderer preset turns minification off, but browsers load the console over HTTP: minified, the
      // JS to download, parse and compile before the first screen is less than half. Oxc is Vite's own minifier.
      minify: 'oxc',
      // No source maps next to the assets the Control Panel serves.
      sourcemap: false,
      rollupOptions: { input: resolve('src-renderer/index.html') },
    },
  },
});
