import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompressAssets } from './precompress.js';

const root = fileURLToPath(new URL('.', import.meta.url));

// Built into web/dist and served by the API process (src/http/plumbing/web.ts); `vite` alone proxies the API.
export default defineConfig({
  root,
  plugins: [react(), precompressAssets()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: {
      '/api': process.env.DASHBOARD_API ?? 'http://127.0.0.1:3000',
      '/health': process.env.DASHBOARD_API ?? 'http://127.0.0.1:3000',
    },
  },
});
