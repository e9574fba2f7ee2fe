import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);
// Forms keep what was typed for the page's session (state/kept.ts): each test starts a new page.
afterEach(() => window.sessionStorage.clear());
