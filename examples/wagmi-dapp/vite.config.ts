import { defineConfig } from 'vite';

// Relative asset paths: the local stack serves dist/ at its root.
export default defineConfig({ base: './', build: { outDir: 'dist', emptyOutDir: true } });
