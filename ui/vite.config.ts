import { defineConfig } from 'vite';

// The widget is bundled into the app; nothing is loaded from a server at run time.
export default defineConfig({
  clearScreen: false,
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    target: 'safari16',
    emptyOutDir: true,
  },
});
