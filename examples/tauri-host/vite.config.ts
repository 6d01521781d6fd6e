import { defineConfig } from 'vite';

// Relative asset paths: the app serves dist/ through Tauri.
export default defineConfig({ base: './', build: { outDir: 'dist', emptyOutDir: true } });
