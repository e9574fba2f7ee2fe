import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One config for the renderer build (dist/renderer, relative paths so Electron can load it from
// disk) and for Vitest (component tests beside the components, electron/ logic in node).
export default defineConfig({
  plugins: [react()],
  base: './',
  build: { outDir: 'dist/renderer', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'electron/**/*.test.ts'],
    environment: 'happy-dom',
    restoreMocks: true,
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 30_000,
  },
});
